import { CalculatorDetails } from "../../components/calculator/details.tsx";
import { EmiCalculator } from "../../components/calculator/emi-calculator.tsx";
import { servicesContext } from "../../context.ts";
import { pageMeta } from "../../lib/meta.ts";
import { calculatorState } from "../../server/calculator.server.ts";
import type { Route } from "./+types/emi-calculator";

export async function loader({ request, context }: Route.LoaderArgs) {
  return calculatorState(context.get(servicesContext), new URL(request.url).searchParams);
}

export default function EmiCalculatorPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1>EMI calculator</h1>
      <p className="mt-3 max-w-3xl text-slate-700">
        Move the sliders or type the figures. The EMI, interest, APR and schedule use exactly the method of our Key Fact Statement: the EMI
        and each month's interest rounded to the paisa, the last instalment settling the rest.
      </p>
      <div className="mt-8">
        <EmiCalculator
          key={JSON.stringify(loaderData.initial)}
          initial={loaderData.initial}
          check={loaderData.check}
          limits={loaderData.limits}
          feeRule={loaderData.feeRule}
          details={CalculatorDetails}
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "EMI calculator", "Work out the EMI, total interest, APR and repayment schedule of a loan.");
