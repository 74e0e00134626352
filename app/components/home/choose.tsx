import { BadgeIndianRupee, Clock, FileCheck2, Landmark, ShieldCheck, Smartphone } from "lucide-react";
import { useTranslations } from "../../i18n/use-translations.ts";
import { formatRupees } from "../../domain/money.ts";
import type { HomeData } from "../../domain/home.ts";

export function ChooseSection({ facts, brandName }: HomeData) {
  const t = useTranslations("home.choose");
  const reasons = [
    {
      id: "rates",
      icon: BadgeIndianRupee,
      title: t("rates.title"),
      text: t("rates.text", {
        minRate: String(facts.emi.minRatePercent),
        maxRate: String(facts.emi.maxRatePercent),
        dailyRate: String(facts.salaryAdvance.dailyRatePercent),
      }),
    },
    {
      id: "charges",
      icon: FileCheck2,
      title: t("charges.title"),
      text: t("charges.text", {
        emiFee: String(facts.emi.feePercent),
        minFee: formatRupees(facts.emi.minFeePaise),
        advanceFee: String(facts.salaryAdvance.feePercent),
        gst: String(facts.gstPercent),
      }),
    },
    { id: "fast", icon: Clock, title: t("fast.title"), text: t("fast.text") },
    { id: "account", icon: Landmark, title: t("account.title"), text: t("account.text") },
    {
      id: "fair",
      icon: ShieldCheck,
      title: t("fair.title"),
      // Two whole sentences of their own: the penal charge, then the cooling-off rule.
      text: `${t("fair.text", { penalCharge: formatRupees(facts.penalChargePaise) })} ${t("fair.coolingOff", { days: facts.coolingOffDays })}`,
    },
    { id: "data", icon: Smartphone, title: t("data.title"), text: t("data.text", { brand: brandName }) },
  ];
  return (
    <section id="choose" aria-labelledby="choose-title" className="mx-auto max-w-6xl scroll-mt-4 px-4 py-12">
      <h2 id="choose-title">{t("heading", { brand: brandName })}</h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {reasons.map(({ id, icon: Icon, title, text }) => (
          <li key={id} className="card">
            <Icon aria-hidden="true" className="size-8 text-brand-600" />
            <h3 className="mt-3">{title}</h3>
            <p className="mt-2 text-slate-700">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
