import { BadgeIndianRupee, Clock, FileCheck2, Landmark, ShieldCheck, Smartphone } from "lucide-react";
import { coolingOffRule } from "../../domain/loans/cooling-off.ts";
import { formatRupees } from "../../domain/money.ts";
import type { HomeData } from "../../domain/home.ts";

export function ChooseSection({ facts, brandName }: HomeData) {
  const reasons = [
    {
      icon: BadgeIndianRupee,
      title: "Clear rates",
      text: `EMI loans at ${facts.emi.minRatePercent}% to ${facts.emi.maxRatePercent}% a year, fixed, on the reducing balance. Salary advances at ${facts.salaryAdvance.dailyRatePercent}% a day, only for the days you use.`,
    },
    {
      icon: FileCheck2,
      title: "No hidden charges",
      text: `One processing fee (${facts.emi.feePercent}% on EMI loans, at least ${formatRupees(facts.emi.minFeePaise)}; ${facts.salaryAdvance.feePercent}% on salary advances) plus ${facts.gstPercent}% GST, shown in your Key Fact Statement with the APR before you sign. No foreclosure charge.`,
    },
    {
      icon: Clock,
      title: "Fast decisions",
      text: "You see your offer as soon as you answer a few questions. After you sign, our team verifies your documents and pays out to your bank account.",
    },
    {
      icon: Landmark,
      title: "Money only to your own account",
      text: "We pay only into the bank account in your own name that you verified with us, never to anyone else.",
    },
    {
      icon: ShieldCheck,
      title: "Fair when things go wrong",
      text: `A missed instalment costs a flat ${formatRupees(facts.penalChargePaise)} penal charge: it never earns interest and is never added to your loan. ${coolingOffRule(facts.coolingOffDays)}`,
    },
    {
      icon: Smartphone,
      title: "Your data, minimised",
      text: `${brandName} never asks for your contacts, call logs, files or location. Your PAN and bank account number are encrypted.`,
    },
  ];
  return (
    <section id="choose" aria-labelledby="choose-title" className="mx-auto max-w-6xl scroll-mt-4 px-4 py-12">
      <h2 id="choose-title">Why borrowers choose {brandName}</h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {reasons.map(({ icon: Icon, title, text }) => (
          <li key={title} className="card">
            <Icon aria-hidden="true" className="size-8 text-brand-600" />
            <h3 className="mt-3">{title}</h3>
            <p className="mt-2 text-slate-700">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
