import { useTranslations } from "../../i18n/use-translations.ts";
import { EmiCalculator } from "../calculator/emi-calculator.tsx";
import type { HomeData } from "../../domain/home.ts";

export function CalculatorSection({ calculator }: HomeData) {
  const t = useTranslations("home.calculator");
  return (
    <section id="calculator" aria-labelledby="calculator-title" className="mx-auto max-w-6xl scroll-mt-4 px-4 py-12">
      <h2 id="calculator-title">{t("heading")}</h2>
      <p className="mt-2 max-w-3xl text-slate-700">{t("intro")}</p>
      <div className="mt-6">
        <EmiCalculator initial={calculator.initial} check={calculator.check} limits={calculator.limits} feeRule={calculator.feeRule} />
      </div>
    </section>
  );
}
