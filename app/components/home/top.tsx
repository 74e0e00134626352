import { useTranslations } from "../../i18n/use-translations.ts";
import { formatRupees } from "../../domain/money.ts";
import type { HomeData } from "../../domain/home.ts";
import { PhoneLoanIllustration } from "../illustrations.tsx";

export function TopSection({ facts, brandName }: HomeData) {
  const t = useTranslations("home.top");
  return (
    <section aria-labelledby="top-title" className="bg-gradient-to-b from-brand-50 to-slate-50">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:py-16 lg:grid-cols-2">
        <div>
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{brandName}</p>
          <h1 id="top-title" className="mt-2">
            {t("heading")}
          </h1>
          <p className="mt-4 text-lg text-slate-700">
            {t("intro", {
              minAmount: formatRupees(facts.emi.minAmountPaise),
              maxAmount: formatRupees(facts.emi.maxAmountPaise),
              minMonths: String(facts.emi.minTenureMonths),
              maxMonths: String(facts.emi.maxTenureMonths),
              salaryCapPercent: String(facts.salaryAdvance.salaryCapPercent),
            })}
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <a className="btn-primary" href="/quickStart">
              {t("apply")}
            </a>
            <a className="btn-secondary" href="/Rate-terms">
              {t("rates")}
            </a>
          </div>
        </div>
        <div className="space-y-4">
          <PhoneLoanIllustration className="mx-auto h-36 w-auto sm:h-44" />
          <dl className="grid grid-cols-2 gap-3 sm:gap-4">
            <div className="card">
              <dt className="text-sm text-slate-600">{t("emiRate")}</dt>
              <dd className="money mt-1 text-xl sm:text-2xl">
                {facts.emi.minRatePercent}% – {facts.emi.maxRatePercent}%
              </dd>
              <dd className="text-sm text-slate-600">{t("emiRateNote")}</dd>
            </div>
            <div className="card">
              <dt className="text-sm text-slate-600">{t("emiAmount")}</dt>
              <dd className="money mt-1 text-xl sm:text-2xl">{t("upTo", { amount: formatRupees(facts.emi.maxAmountPaise) })}</dd>
              <dd className="text-sm text-slate-600">
                {t("emiAmountNote", { min: String(facts.emi.minTenureMonths), max: String(facts.emi.maxTenureMonths) })}
              </dd>
            </div>
            <div className="card">
              <dt className="text-sm text-slate-600">{t("salaryAdvance")}</dt>
              <dd className="money mt-1 text-xl sm:text-2xl">{t("upTo", { amount: formatRupees(facts.salaryAdvance.maxAmountPaise) })}</dd>
              <dd className="text-sm text-slate-600">{t("salaryAdvanceNote")}</dd>
            </div>
            <div className="card">
              <dt className="text-sm text-slate-600">{t("foreclosure")}</dt>
              <dd className="money mt-1 text-xl sm:text-2xl">₹0</dd>
              <dd className="text-sm text-slate-600">{t("foreclosureNote")}</dd>
            </div>
          </dl>
        </div>
      </div>
    </section>
  );
}
