import { Link } from "react-router";
import { coolingOffRule } from "../../domain/loans/cooling-off.ts";
import { servicesContext } from "../../context.ts";
import { emiQuote, processingFee, salaryAdvanceInterestPaise, singlePaymentAprPercent } from "../../domain/loan-math.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import { loadProducts } from "../../server/products.server.ts";
import { policyInForce } from "../../server/credit/policy.server.ts";
import type { Route } from "./+types/rate-terms";

const pct = (bps: number) => `${(bps / 100).toLocaleString("en-IN", { maximumFractionDigits: 2 })}%`;
const rupees = (paise: number) => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));

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
  const { emi, salaryAdvance, riskBands, emiExample, saExample } = loaderData;
  const rates = riskBands.map((b) => b.rateBps);
  return (
    <article className="mx-auto max-w-4xl space-y-8 px-4 py-10">
      <div>
        <h1>Rates, fees and terms</h1>
        <p className="mt-3 text-slate-700">
          These are the current terms of our loans. Your own Key Fact Statement, given before you sign, shows your exact rate, every charge,
          the APR and the full repayment schedule.
        </p>
      </div>

      <section aria-labelledby="emi-title" className="card space-y-4">
        <h2 id="emi-title">{emi.name}</h2>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[14rem_1fr]">
          <dt className="font-medium text-slate-600">Amount</dt>
          <dd>
            {formatRupees(emi.minAmountPaise)} to {formatRupees(emi.maxAmountPaise)}, in steps of {formatRupees(emi.amountStepPaise)}
          </dd>
          <dt className="font-medium text-slate-600">Tenure</dt>
          <dd>
            {emi.minTenure} to {emi.maxTenure} monthly instalments
          </dd>
          <dt className="font-medium text-slate-600">Interest</dt>
          <dd>
            {pct(Math.min(...rates))} to {pct(Math.max(...rates))} a year, fixed, on the reducing balance
          </dd>
          <dt className="font-medium text-slate-600">Processing fee</dt>
          <dd>
            {pct(emi.feeBps)} of the amount, at least {formatRupees(emi.minFeePaise)}, plus {pct(emi.gstBps)} GST; one-time, payable to us,
            deducted from the amount paid out
          </dd>
          <dt className="font-medium text-slate-600">Penal charge</dt>
          <dd>
            {formatRupees(emi.penalChargePaise)} for each missed instalment, a flat charge: never compounded, never earning interest, never
            added to the loan, shown as its own line
          </dd>
          <dt className="font-medium text-slate-600">Foreclosure</dt>
          <dd>Repay in full at any time, no charge: the outstanding principal and interest up to that day</dd>
          <dt className="font-medium text-slate-600">Cooling-off period</dt>
          <dd>{coolingOffRule(emi.coolingOffDays)}</dd>
          <dt className="font-medium text-slate-600">Who can apply</dt>
          <dd>Salaried or self-employed, age 21 to 60, net monthly income at least ₹15,000</dd>
        </dl>
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="How your rate is set (scrolls sideways)">
          <table className="w-full text-sm">
            <caption className="py-2 text-left font-semibold">How your rate is set</caption>
            <thead>
              <tr className="border-b border-slate-300 text-left">
                <th scope="col" className="py-2 pr-3">
                  Net monthly income
                </th>
                <th scope="col" className="py-2 pr-3">
                  Existing EMIs
                </th>
                <th scope="col" className="py-2 text-right">
                  Rate a year
                </th>
              </tr>
            </thead>
            <tbody>
              {riskBands.map((b) => (
                <tr key={b.id} className="border-b border-slate-100">
                  <td className="py-1.5 pr-3">{b.minIncomePaise > 0 ? `${formatRupees(b.minIncomePaise)} or more` : "Any"}</td>
                  <td className="py-1.5 pr-3">{b.maxEmiToIncomeBps !== null ? `at most ${pct(b.maxEmiToIncomeBps)} of income` : "Any"}</td>
                  <td className="money py-1.5 text-right">{pct(b.rateBps)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="rounded-xl bg-slate-50 p-4">
          <h3 id="emi-example-title">Worked example</h3>
          <p className="mt-2">
            {formatRupees(emiExample.amountPaise)} at {pct(emiExample.rateBps)} for {emiExample.months} months. Processing fee{" "}
            {formatRupees(emiExample.fees.feePaise)} + GST {formatRupees(emiExample.fees.gstPaise)}, so you receive{" "}
            <span className="money">{formatRupees(emiExample.netPaise)}</span>. EMI{" "}
            <span className="money" data-testid="emi-example-emi">
              {formatRupees(emiExample.emiPaise)}
            </span>
            {emiExample.lastPaymentPaise !== emiExample.emiPaise ? ` (last instalment ${formatRupees(emiExample.lastPaymentPaise)})` : ""};
            total interest {formatRupees(emiExample.totalInterestPaise)}; total cost of the loan (interest and fees){" "}
            {formatRupees(emiExample.totalCostPaise)}; APR{" "}
            <span className="money" data-testid="emi-example-apr">
              {emiExample.aprPercent.toFixed(2)}%
            </span>
            .
          </p>
          <p className="mt-3">
            <Link className="link" to={`/EmiCalculator?${emiExample.calculatorQuery}`}>
              Open this example in the EMI calculator
            </Link>
          </p>
        </div>
      </section>

      <section aria-labelledby="sa-title" className="card space-y-4">
        <h2 id="sa-title">{salaryAdvance.name}</h2>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[14rem_1fr]">
          <dt className="font-medium text-slate-600">Amount</dt>
          <dd>
            {formatRupees(salaryAdvance.minAmountPaise)} to {formatRupees(salaryAdvance.maxAmountPaise)}, in steps of{" "}
            {formatRupees(salaryAdvance.amountStepPaise)}, and at most {pct(loaderData.salaryCapBps)} of your net monthly salary
          </dd>
          <dt className="font-medium text-slate-600">Repayment</dt>
          <dd>
            One repayment on your next salary date, {salaryAdvance.minTenure} to {salaryAdvance.maxTenure} days after disbursal (if your
            next salary is less than {salaryAdvance.minTenure} days away, the one after)
          </dd>
          <dt className="font-medium text-slate-600">Interest</dt>
          <dd>{pct(salaryAdvance.rateBps)} a day on the principal, simple interest, only for the days you use</dd>
          <dt className="font-medium text-slate-600">Processing fee</dt>
          <dd>
            {pct(salaryAdvance.feeBps)} of the amount plus {pct(salaryAdvance.gstBps)} GST; one-time, payable to us, deducted from the
            amount paid out
          </dd>
          <dt className="font-medium text-slate-600">Penal charge</dt>
          <dd>{formatRupees(salaryAdvance.penalChargePaise)} once if the repayment is missed; never compounded, never earning interest</dd>
          <dt className="font-medium text-slate-600">Foreclosure</dt>
          <dd>Repay early at any time; interest only for the days used</dd>
          <dt className="font-medium text-slate-600">Cooling-off period</dt>
          <dd>{coolingOffRule(salaryAdvance.coolingOffDays)}</dd>
          <dt className="font-medium text-slate-600">Who can apply</dt>
          <dd>Salaried people only, age 21 to 60, net monthly income at least ₹15,000</dd>
        </dl>
        <div className="rounded-xl bg-slate-50 p-4">
          <h3 id="sa-example-title">Worked example</h3>
          <p className="mt-2">
            {formatRupees(saExample.amountPaise)} for {saExample.days} days. Processing fee {formatRupees(saExample.fees.feePaise)} + GST{" "}
            {formatRupees(saExample.fees.gstPaise)}, so you receive <span className="money">{formatRupees(saExample.netPaise)}</span>.
            Interest {formatRupees(saExample.interestPaise)}; you repay{" "}
            <span className="money">{formatRupees(saExample.repaymentPaise)}</span> on your salary date; total cost{" "}
            {formatRupees(saExample.totalCostPaise)}; APR <span className="money">{saExample.aprPercent.toFixed(2)}%</span>.
          </p>
        </div>
      </section>

      <p className="text-sm text-slate-600">
        APR (annual percentage rate) is the yearly cost of the loan including the fees, worked out as the Reserve Bank of India's Key Fact
        Statement requires. Complaints: see our{" "}
        <Link className="link" to="/grievance-policy">
          grievance redressal policy
        </Link>
        .
      </p>
    </article>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(
    matches,
    "Rates, fees and terms",
    "Interest rates, every fee with GST, penal charges, foreclosure and worked examples with the APR.",
  );
