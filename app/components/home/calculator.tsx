import { EmiCalculator } from "../calculator/emi-calculator.tsx";
import type { HomeData } from "../../domain/home.ts";

export function CalculatorSection({ calculator }: HomeData) {
  return (
    <section id="calculator" aria-labelledby="calculator-title" className="mx-auto max-w-6xl scroll-mt-4 px-4 py-12">
      <h2 id="calculator-title">Work out your EMI</h2>
      <p className="mt-2 max-w-3xl text-slate-700">
        The same method as your Key Fact Statement. Open the full calculator for the repayment schedule and a part-payment plan.
      </p>
      <div className="mt-6">
        <EmiCalculator initial={calculator.initial} check={calculator.check} limits={calculator.limits} feeRule={calculator.feeRule} />
      </div>
    </section>
  );
}
