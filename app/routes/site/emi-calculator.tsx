import { useTranslations } from "../../i18n/use-translations.ts";
import { CalculatorDetails } from "../../components/calculator/details.tsx";
import { EmiCalculator } from "../../components/calculator/emi-calculator.tsx";
import { servicesContext } from "../../context.ts";
import { pageMeta } from "../../lib/meta.ts";
import { calculatorState } from "../../server/calculator.server.ts";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import type { Route } from "./+types/emi-calculator";

export async function loader({ request, context }: Route.LoaderArgs) {
  return {
    ...(await calculatorState(context.get(servicesContext), new URL(request.url).searchParams)),
    messages: pageMessages(context, ["calculator"]),
    meta: pageMetaText(context, "calculator"),
  };
}

export default function EmiCalculatorPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslations("calculator");
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1>{t("page.heading")}</h1>
      <p className="mt-3 max-w-3xl text-slate-700">{t("page.intro")}</p>
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

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);
