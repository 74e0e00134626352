import { Link } from "../../lib/link.tsx";
import { useTranslations } from "../../i18n/use-translations.ts";
import { servicesContext } from "../../context.ts";
import { emiQuote, processingFee, salaryAdvanceInterestPaise, singlePaymentAprPercent } from "../../domain/loan-math.ts";
import { pageMeta } from "../../lib/meta.ts";
import { linkTo, spanOf } from "../../lib/rich-text.tsx";
import { formatRupees } from "../../domain/money.ts";
import { loadProducts } from "../../server/products.server.ts";
import { policyInForce } from "../../server/credit/policy.server.ts";
import { pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import type { Route } from "./+types/rate-terms";

const pct = (bps: number) => `${(bps / 100).toLocaleString("en-IN", { maximumFractionDigits: 2 })}%`;
const rupees = (paise: number) => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));

// The tags of the worked examples and the note (app/lib/rich-text.tsx).
const money = spanOf("money");
const emiFigure = spanOf("money", "emi-example-emi");
const aprFigure = spanOf("money", "emi-example-apr");
const grievanceLink = linkTo("/grievance-policy", "link");

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { emi, salaryAdvance, riskBands } = await loadProducts(services);
  const policy = await policyInForce(services);
  // Worked examples, computed by the same math as the KFS and the calculator.
  const emiAmount = Math.min(emi.maxAmountPaise, Math.max(emi.minAmountPaise, 10_000_000));
  const emiMonths = Math.min(emi.maxTenure, Math.max(emi.minTenure, 12));
  const emiFees = processingFee(emiAmount, emi);
  const emiExample = emiQuote({
    principalPaise: emiAmount,
    annualRateBps: emi.rateBps,
    months: emiMonths,
    upfrontPaise: emiFees.totalUpfrontPaise,
  });
  const saAmount = Math.min(salaryAdvance.maxAmountPaise, Math.max(salaryAdvance.minAmountPaise, 2_000_000));
  const saDays = Math.min(salaryAdvance.maxTenure, Math.max(salaryAdvance.minTenure, 30));
  const saFees = processingFee(saAmount, salaryAdvance);
  const saInterest = salaryAdvanceInterestPaise(saAmount, salaryAdvance.rateBps, saDays);
  const saNet = saAmount - saFees.totalUpfrontPaise;
  return {
    messages: pageMessages(context, ["rates"]),
    meta: pageMetaText(context, "rates"),
    emi,
    salaryAdvance,
    salaryCapBps: policy.rules.salaryAdvanceMaxSalaryBps,
    riskBands,
    emiExample: {
      amountPaise: emiAmount,
      months: emiMonths,
      rateBps: emi.rateBps,
      fees: emiFees,
      emiPaise: emiExample.emiPaise,
      lastPaymentPaise: emiExample.schedule.at(-1)?.paymentPaise ?? 0,
      totalInterestPaise: emiExample.totalInterestPaise,
      totalCostPaise: emiExample.totalInterestPaise + emiFees.totalUpfrontPaise,
      netPaise: emiExample.netDisbursedPaise,
      aprPercent: emiExample.aprPercent,
      calculatorQuery: new URLSearchParams({
        amount: rupees(emiAmount),
        rate: String(emi.rateBps / 100),
        months: String(emiMonths),
        fee: rupees(emiFees.totalUpfrontPaise),
      }).toString(),
    },
    saExample: {
      amountPaise: saAmount,
      days: saDays,
      fees: saFees,
      interestPaise: saInterest,
      repaymentPaise: saAmount + saInterest,
      totalCostPaise: saInterest + saFees.totalUpfrontPaise,
      netPaise: saNet,
      aprPercent: singlePaymentAprPercent(saAmount + saInterest, saNet, saDays),
    },
  };
}

export default function RateTerms({ loaderData }: Route.ComponentProps) {
  const t = useTranslations("rates");
  const { emi, salaryAdvance, riskBands, emiExample, saExample } = loaderData;
  const rates = riskBands.map((b) => b.rateBps);
  const emiExampleValues = {
    amount: formatRupees(emiExample.amountPaise),
    rate: pct(emiExample.rateBps),
    months: emiExample.months,
    fee: formatRupees(emiExample.fees.feePaise),
    gst: formatRupees(emiExample.fees.gstPaise),
    net: formatRupees(emiExample.netPaise),
    emi: formatRupees(emiExample.emiPaise),
    interest: formatRupees(emiExample.totalInterestPaise),
    cost: formatRupees(emiExample.totalCostPaise),
    apr: emiExample.aprPercent.toFixed(2),
    money,
    emiFigure,
    aprFigure,
  };
  return (
    <article className="mx-auto max-w-4xl space-y-8 px-4 py-10">
      <div>
        <h1>{t("heading")}</h1>
        <p className="mt-3 text-slate-700">{t("intro")}</p>
      </div>

      <section aria-labelledby="emi-title" className="card space-y-4">
        <h2 id="emi-title">{t("emi.name")}</h2>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[14rem_1fr]">
          <dt className="font-medium text-slate-600">{t("terms.amount")}</dt>
          <dd>
            {t("emi.amount", {
              min: formatRupees(emi.minAmountPaise),
              max: formatRupees(emi.maxAmountPaise),
              step: formatRupees(emi.amountStepPaise),
            })}
          </dd>
          <dt className="font-medium text-slate-600">{t("terms.tenure")}</dt>
          <dd>{t("emi.tenure", { min: String(emi.minTenure), max: String(emi.maxTenure) })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.interest")}</dt>
          <dd>{t("emi.interest", { min: pct(Math.min(...rates)), max: pct(Math.max(...rates)) })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.processingFee")}</dt>
          <dd>{t("emi.processingFee", { fee: pct(emi.feeBps), minFee: formatRupees(emi.minFeePaise), gst: pct(emi.gstBps) })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.penalCharge")}</dt>
          <dd>{t("emi.penalCharge", { amount: formatRupees(emi.penalChargePaise) })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.foreclosure")}</dt>
          <dd>{t("emi.foreclosure")}</dd>
          <dt className="font-medium text-slate-600">{t("terms.coolingOff")}</dt>
          <dd>{t("coolingOff", { days: emi.coolingOffDays })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.whoCanApply")}</dt>
          <dd>{t("emi.whoCanApply")}</dd>
        </dl>
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("emi.bands.label")}>
          <table className="w-full text-sm">
            <caption className="py-2 text-left font-semibold">{t("emi.bands.caption")}</caption>
            <thead>
              <tr className="border-b border-slate-300 text-left">
                <th scope="col" className="py-2 pr-3">
                  {t("emi.bands.income")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("emi.bands.existingEmis")}
                </th>
                <th scope="col" className="py-2 text-right">
                  {t("emi.bands.rate")}
                </th>
              </tr>
            </thead>
            <tbody>
              {riskBands.map((b) => (
                <tr key={b.id} className="border-b border-slate-100">
                  <td className="py-1.5 pr-3">
                    {b.minIncomePaise > 0 ? t("emi.bands.incomeAtLeast", { amount: formatRupees(b.minIncomePaise) }) : t("emi.bands.any")}
                  </td>
                  <td className="py-1.5 pr-3">
                    {b.maxEmiToIncomeBps !== null ? t("emi.bands.emisAtMost", { percent: pct(b.maxEmiToIncomeBps) }) : t("emi.bands.any")}
                  </td>
                  <td className="money py-1.5 text-right">{pct(b.rateBps)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="rounded-xl bg-slate-50 p-4">
          <h3 id="emi-example-title">{t("workedExample")}</h3>
          <p className="mt-2">
            {emiExample.lastPaymentPaise !== emiExample.emiPaise
              ? t.rich("emi.exampleWithLast", { ...emiExampleValues, last: formatRupees(emiExample.lastPaymentPaise) })
              : t.rich("emi.example", emiExampleValues)}
          </p>
          <p className="mt-3">
            <Link className="link" to={`/EmiCalculator?${emiExample.calculatorQuery}`}>
              {t("emi.openInCalculator")}
            </Link>
          </p>
        </div>
      </section>

      <section aria-labelledby="sa-title" className="card space-y-4">
        <h2 id="sa-title">{t("salaryAdvance.name")}</h2>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[14rem_1fr]">
          <dt className="font-medium text-slate-600">{t("terms.amount")}</dt>
          <dd>
            {t("salaryAdvance.amount", {
              min: formatRupees(salaryAdvance.minAmountPaise),
              max: formatRupees(salaryAdvance.maxAmountPaise),
              step: formatRupees(salaryAdvance.amountStepPaise),
              cap: pct(loaderData.salaryCapBps),
            })}
          </dd>
          <dt className="font-medium text-slate-600">{t("terms.repayment")}</dt>
          <dd>{t("salaryAdvance.repayment", { min: String(salaryAdvance.minTenure), max: String(salaryAdvance.maxTenure) })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.interest")}</dt>
          <dd>{t("salaryAdvance.interest", { rate: pct(salaryAdvance.rateBps) })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.processingFee")}</dt>
          <dd>{t("salaryAdvance.processingFee", { fee: pct(salaryAdvance.feeBps), gst: pct(salaryAdvance.gstBps) })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.penalCharge")}</dt>
          <dd>{t("salaryAdvance.penalCharge", { amount: formatRupees(salaryAdvance.penalChargePaise) })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.foreclosure")}</dt>
          <dd>{t("salaryAdvance.foreclosure")}</dd>
          <dt className="font-medium text-slate-600">{t("terms.coolingOff")}</dt>
          <dd>{t("coolingOff", { days: salaryAdvance.coolingOffDays })}</dd>
          <dt className="font-medium text-slate-600">{t("terms.whoCanApply")}</dt>
          <dd>{t("salaryAdvance.whoCanApply")}</dd>
        </dl>
        <div className="rounded-xl bg-slate-50 p-4">
          <h3 id="sa-example-title">{t("workedExample")}</h3>
          <p className="mt-2">
            {t.rich("salaryAdvance.example", {
              amount: formatRupees(saExample.amountPaise),
              days: saExample.days,
              fee: formatRupees(saExample.fees.feePaise),
              gst: formatRupees(saExample.fees.gstPaise),
              net: formatRupees(saExample.netPaise),
              interest: formatRupees(saExample.interestPaise),
              repayment: formatRupees(saExample.repaymentPaise),
              cost: formatRupees(saExample.totalCostPaise),
              apr: saExample.aprPercent.toFixed(2),
              money,
            })}
          </p>
        </div>
      </section>

      <p className="text-sm text-slate-600">{t.rich("aprNote", { link: grievanceLink })}</p>
    </article>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.meta.title ?? "", loaderData?.meta.description);
