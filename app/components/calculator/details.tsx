// The calculator's own page adds these below its figures: a part-payment what-if and the repayment
// schedule. A module of their own, so that the home page's short calculator does not load them.
import { useState } from "react";
import { useTranslations } from "../../i18n/use-translations.ts";
import type { calculate } from "../../domain/calculator.ts";
import { prepaymentWhatIf, yearlySummary } from "../../domain/loan-math.ts";
import { formatRupees, formatRupeesPlain } from "../../domain/money.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

/** The part-payment plan and the schedule of valid inputs (`query`: their address, for the CSV). */
export function CalculatorDetails({ input, result, query }: CalculatorDetailsProps) {
  return (
    <>
      <Prepayment amountPaise={input.amountPaise} rateBps={input.rateBps} months={input.months} />
      <Schedule result={result} query={query} />
    </>
  );
}

export interface CalculatorDetailsProps {
  input: Parameters<typeof calculate>[0];
  result: ReturnType<typeof calculate>;
  query: string;
}

function Prepayment({ amountPaise, rateBps, months }: { amountPaise: number; rateBps: number; months: number }) {
  const t = useTranslations("calculator");
  const [month, setMonth] = useState(String(Math.min(12, Math.max(1, months - 1))));
  const [amount, setAmount] = useState(String(Math.round(amountPaise / 100 / 5)));
  const [reduce, setReduce] = useState<"tenure" | "emi">("tenure");
  const m = Math.floor(Number(month));
  const a = Math.round(Number(amount) * 100);
  const valid = months > 1 && m >= 1 && m < months && a > 0;
  const whatIf = valid
    ? prepaymentWhatIf({ principalPaise: amountPaise, annualRateBps: rateBps, months }, { afterInstalment: m, amountPaise: a, reduce })
    : null;
  return (
    <section aria-labelledby="prepay-title" className="card print:hidden">
      <h2 id="prepay-title" className="text-xl">
        {t("prepayment.heading")}
      </h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="prepay-amount" className="field-label">
            {t("prepayment.amount")}
          </label>
          <input
            id="prepay-amount"
            className="field-input"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value.replace(/[^\d.]/g, ""))}
          />
        </div>
        <div>
          <label htmlFor="prepay-month" className="field-label">
            {t("prepayment.instalment")}
          </label>
          <input
            id="prepay-month"
            className="field-input"
            inputMode="numeric"
            value={month}
            onChange={(e) => setMonth(e.target.value.replace(/\D/g, ""))}
          />
        </div>
      </div>
      <fieldset className="mt-4">
        <legend className="field-label">{t("prepayment.reduce")}</legend>
        <div className="flex gap-6">
          {(["tenure", "emi"] as const).map((r) => (
            <label key={r} className="flex items-center gap-2">
              <input type="radio" name="prepay-reduce" value={r} checked={reduce === r} onChange={() => setReduce(r)} />
              {r === "tenure" ? t("prepayment.reduceTenure") : t("prepayment.reduceEmi")}
            </label>
          ))}
        </div>
      </fieldset>
      <p className="mt-4" aria-live="polite" data-testid="prepay-result">
        {whatIf
          ? reduce === "tenure"
            ? t("prepayment.shorter", { months: whatIf.months, original: String(months), saved: formatRupees(whatIf.interestSavedPaise) })
            : t("prepayment.lowerEmi", { emi: formatRupees(whatIf.newEmiPaise), saved: formatRupees(whatIf.interestSavedPaise) })
          : t("prepayment.enter", { last: String(Math.max(1, months - 1)) })}
      </p>
    </section>
  );
}

function Schedule({ result, query }: { result: ReturnType<typeof calculate>; query: string }) {
  const t = useTranslations("calculator");
  const years = yearlySummary(result.schedule.map((l) => ({ ...l, dueDate: null })));
  return (
    <section aria-labelledby="schedule-title" className="card px-3 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="schedule-title" className="text-xl">
          {t("schedule.heading")}
        </h2>
        <div className="flex gap-2 print:hidden">
          <a className="btn-secondary min-h-9 px-3 py-1.5 text-sm" href={`/EmiCalculator/schedule.csv?${query}`} download>
            {t("schedule.csv")}
          </a>
          <PrintButton />
        </div>
      </div>
      <h3 className="mt-4">{t("schedule.byYear")}</h3>
      <AmountsTable
        label={t("schedule.byYearLabel")}
        first={t("schedule.year")}
        columns={[t("schedule.principal"), t("schedule.interest"), t("schedule.balanceAtEnd")]}
        rows={years.map((y) => ({ key: y.year, amounts: [y.principalPaise, y.interestPaise, y.closingPaise] }))}
      />
      <details className="mt-4" open={result.schedule.length <= 12}>
        <summary className="cursor-pointer font-semibold">{t("schedule.byMonth", { count: result.schedule.length })}</summary>
        <AmountsTable
          label={t("schedule.byMonthLabel")}
          first={t("schedule.number")}
          columns={[t("schedule.payment"), t("schedule.principal"), t("schedule.interest"), t("schedule.balance")]}
          rows={result.schedule.map((l) => ({
            key: l.instalment,
            amounts: [l.paymentPaise, l.principalPaise, l.interestPaise, l.closingPaise],
          }))}
        />
      </details>
    </section>
  );
}

/** A table of rupee amounts, one row per year or instalment (`key`), scrolling sideways on a phone. */
function AmountsTable({
  label,
  first,
  columns,
  rows,
}: {
  label: string;
  first: string;
  columns: string[];
  rows: { key: number; amounts: number[] }[];
}) {
  // Every column but the last keeps a gap to its right.
  const gap = (i: number, of: unknown[]) => (i < of.length - 1 ? " pr-1.5 sm:pr-3" : "");
  return (
    <div className="scroll-shadow overflow-x-auto" tabIndex={0} role="region" aria-label={label}>
      <table className="mt-2 w-full text-xs sm:text-sm">
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr className="border-b border-slate-300 text-left">
            <th scope="col" className="py-2 pr-1.5 sm:pr-3">
              {first}
            </th>
            {columns.map((c, i) => (
              <th key={c} scope="col" className={`py-2${gap(i, columns)} text-right`}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {rows.map((r) => (
            <tr key={r.key} className="border-b border-slate-100">
              <th scope="row" className="py-1.5 pr-1.5 sm:pr-3 text-left font-normal">
                {r.key}
              </th>
              {r.amounts.map((paise, i) => (
                <td key={columns[i]} className={`py-1.5${gap(i, r.amounts)} text-right`}>
                  {formatRupeesPlain(paise)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PrintButton() {
  const t = useTranslations("calculator");
  if (!useHydrated()) return null;
  return (
    <button type="button" className="btn-secondary min-h-9 px-3 py-1.5 text-sm" onClick={() => window.print()}>
      {t("schedule.print")}
    </button>
  );
}
