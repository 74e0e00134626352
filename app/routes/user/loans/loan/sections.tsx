import { Form } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../../i18n/use-translations.ts";
import { ErrorText } from "../../../../components/field.tsx";
import { formatDateIST, longDate } from "../../../../domain/india-date.ts";
import { formatRupees } from "../../../../domain/money.ts";
import type { Data } from "../loan.tsx";
import { NextDueText } from "./next-due-text.tsx";

// The borrower's loan page, its record: the summary, the schedule, payments, penal charges, documents and statement.

function Amount({ label, paise, tone }: { label: string; paise: number | null; tone?: "danger" }) {
  return (
    <div className="rounded-xl bg-slate-50 p-3">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={tone === "danger" ? "text-lg font-semibold text-danger-600 tabular-nums" : "money text-lg"}>
        {paise === null ? "—" : formatRupees(paise)}
      </dd>
    </div>
  );
}

export function Summary({ d }: { d: Data }) {
  const t = useTranslations("loans");
  const language = useLocale();
  const s = d.summary;
  const rate = (d.rateBps / 100).toFixed(2);
  return (
    <section aria-labelledby="summary-title" className="card space-y-4">
      <h2 id="summary-title" className="sr-only">
        {t("summary.heading")}
      </h2>
      {s.overduePaise > 0 ? (
        <p role="status" className="rounded-lg bg-danger-50 p-3 font-medium text-danger-600">
          {s.penalDuePaise > 0
            ? t("summary.overdueWithPenal", { amount: formatRupees(s.overduePaise), days: s.dpd, penal: formatRupees(s.penalDuePaise) })
            : t("summary.overdue", { amount: formatRupees(s.overduePaise), days: s.dpd })}
        </p>
      ) : null}
      {d.settlement ? (
        <p className="rounded-lg bg-brand-50 p-3">
          {d.settlement.how === "cooling_off"
            ? t("summary.cancelledInCoolingOff", { date: longDate(d.settlement.on, language) })
            : t("summary.repaid", { date: longDate(d.settlement.on, language) })}
          {d.refundDuePaise > 0 ? ` ${t("summary.refundDue", { amount: formatRupees(d.refundDuePaise) })}` : ""}
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-3">
        <Amount label={t("figures.borrowed")} paise={s.principalPaise} />
        <Amount label={t("figures.outstanding")} paise={s.outstandingPrincipalPaise} />
        <div className="col-span-2 rounded-xl bg-slate-50 p-3">
          <dt className="text-sm text-slate-600">{t("figures.nextDue")}</dt>
          <dd className="font-semibold" data-testid="next-due">
            <NextDueText next={s.nextDue} />
          </dd>
        </div>
        <Amount label={t("figures.overdue")} paise={s.overduePaise} tone={s.overduePaise > 0 ? "danger" : undefined} />
        {s.penalDuePaise > 0 ? <Amount label={t("figures.penalDue")} paise={s.penalDuePaise} tone="danger" /> : null}
        {d.advancePaise > 0 ? <Amount label={t("figures.advance")} paise={d.advancePaise} /> : null}
      </dl>
      <p className="text-sm text-slate-600">
        {t("summary.disbursed", { date: longDate(s.disbursalDate, language) })}{" "}
        {s.kind === "emi" ? t("summary.termsEmi", { rate, count: d.tenure }) : t("summary.termsSalaryAdvance", { rate })}
      </p>
    </section>
  );
}

export function Schedule({ d }: { d: Data }) {
  const t = useTranslations("loans");
  const language = useLocale();
  return (
    <section aria-labelledby="schedule-title" className="card space-y-3">
      <h2 id="schedule-title">{t("schedule.heading")}</h2>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 pr-2">
              {t("schedule.number")}
            </th>
            <th scope="col" className="py-2 pr-2">
              {t("schedule.dueOn")}
            </th>
            <th scope="col" className="py-2 pr-2 text-right">
              {t("schedule.amount")}
            </th>
            <th scope="col" className="py-2">
              {t("schedule.status")}
            </th>
          </tr>
        </thead>
        <tbody>
          {d.instalments.map((r) => {
            const paid = r.paidPrincipalPaise + r.paidInterestPaise;
            const late = r.status === "overdue" || r.status === "partly_paid";
            const left = r.principalPaise + r.interestPaise - paid;
            const covered = d.covered[r.seq] ?? 0;
            return (
              <tr key={r.seq} className="border-b border-slate-100">
                <td className="py-2 pr-2">{r.seq}</td>
                <td className="py-2 pr-2">{longDate(r.dueDate, language)}</td>
                <td className="py-2 pr-2 text-right tabular-nums">
                  {r.status === "closed_early" ? "—" : formatRupees(r.principalPaise + r.interestPaise)}
                </td>
                <td className={late ? "py-2 font-medium text-danger-600" : "py-2"} data-testid={`instalment-${r.seq}-status`}>
                  {t(`schedule.instalmentStatus.${r.status}`)}
                  {r.status === "partly_paid" ? (
                    <span className="block text-xs">{t("schedule.partPaid", { amount: formatRupees(paid) })}</span>
                  ) : null}
                  {covered ? (
                    <span className="block text-xs">
                      {covered >= left ? t("schedule.covered") : t("schedule.partlyCovered", { amount: formatRupees(covered) })}
                    </span>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function Payments({ d }: { d: Data }) {
  const t = useTranslations("loans");
  const language = useLocale();
  return (
    <section aria-labelledby="payments-title" className="card space-y-3">
      <h2 id="payments-title">{t("payments.heading")}</h2>
      {d.payments.length === 0 ? (
        <p>{t("payments.none")}</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {d.payments.map((p) => (
            <li key={p.reference} className="flex flex-wrap items-baseline justify-between gap-2 py-3">
              <span>
                <span className="money">{formatRupees(p.amountPaise)}</span>{" "}
                <span className="text-sm text-slate-600">
                  {p.businessDate ? longDate(p.businessDate, language) : formatDateIST(new Date(p.createdAt), language)}
                  {p.mode ? ` · ${t("payments.mode", { mode: p.mode })}` : ""}
                </span>
              </span>
              <span className="text-sm">
                {p.reversed ? t("payments.status.reversed") : paymentStatus(t, p.status)}
                {p.allocation && !p.reversed && p.allocation.advancePaise > 0
                  ? ` · ${t("payments.advanceKept", { amount: formatRupees(p.allocation.advancePaise) })}`
                  : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const PAYMENT_STATUSES = ["captured", "pending", "held", "failed", "cancelled", "reversed", "created"] as const;

/** A payment's status in the page's language (a status the page does not know is shown as it is). */
function paymentStatus(t: ReturnType<typeof useTranslations<"loans">>, status: string): string {
  const known = PAYMENT_STATUSES.find((s) => s === status);
  return known ? t(`payments.status.${known}`) : status;
}

export function Penals({ d }: { d: Data }) {
  const t = useTranslations("loans");
  const language = useLocale();
  return (
    <section aria-labelledby="penal-title" className="card space-y-3">
      <h2 id="penal-title">{t("penals.heading")}</h2>
      {d.penals.length === 0 ? (
        <p>{t("penals.none", { amount: formatRupees(d.penalPaise) })}</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {d.penals.map((p) => (
            <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-2 py-3">
              <span>{t("penals.line", { seq: String(p.seq), date: longDate(p.businessDate, language) })}</span>
              <span className="font-semibold tabular-nums">
                {formatRupees(p.amountPaise)} · {t(`penals.status.${p.status}`)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Documents({ d }: { d: Data }) {
  const t = useTranslations("loans");
  const language = useLocale();
  const s = d.summary;
  const base = `/User/Loans/${s.loanNumber}`;
  return (
    <section aria-labelledby="documents-title" className="card space-y-3">
      <h2 id="documents-title">{t("documents.heading")}</h2>
      <ul className="space-y-2">
        {d.agreementRef ? (
          <li>
            <a className="link" href={`/Eagreement/${d.agreementRef}/pdf`}>
              {t("documents.agreement")}
            </a>
          </li>
        ) : null}
        {d.revisedKfs ? (
          <li>
            <a className="link" href={`${base}/revised-kfs.pdf`}>
              {t("documents.revisedKfs")}
            </a>
          </li>
        ) : null}
        <li>
          <a className="link" href={`${base}/schedule.pdf`}>
            {t("documents.schedule")}
          </a>
        </li>
        {d.letters.map((l) => (
          <li key={l.id}>
            <a className="link" href={`${base}/reminder-letter.pdf?send=${l.id}`}>
              {t("documents.reminderLetter", { date: longDate(l.sentOn, language) })}
            </a>
          </li>
        ))}
        {d.settlement ? (
          <li>
            <a className="link" href={`${base}/no-dues.pdf`}>
              {d.settlement.how === "cooling_off" ? t("documents.cancellationLetter") : t("documents.noDues")}
            </a>
          </li>
        ) : null}
      </ul>
      <Form method="get" reloadDocument className="space-y-2" aria-labelledby="statement-title">
        <h3 id="statement-title">{t("documents.statement")}</h3>
        <input type="hidden" name="statement" value="1" />
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="statement-from" className="field-label">
              {t("documents.from")}
            </label>
            <input
              id="statement-from"
              name="from"
              type="date"
              className="field-input"
              defaultValue={d.statement?.from || s.disbursalDate}
              min={s.disbursalDate}
              max={d.today}
              aria-invalid={d.statementError ? true : undefined}
              aria-describedby="statement-error"
            />
          </div>
          <div>
            <label htmlFor="statement-to" className="field-label">
              {t("documents.to")}
            </label>
            <input
              id="statement-to"
              name="to"
              type="date"
              className="field-input"
              defaultValue={d.statement?.to || d.today}
              min={s.disbursalDate}
              max={d.today}
              aria-invalid={d.statementError ? true : undefined}
              aria-describedby="statement-error"
            />
          </div>
          <button type="submit" className="btn-secondary">
            {t("documents.download")}
          </button>
        </div>
        <p id="statement-error" className="field-error" aria-live="polite">
          <ErrorText errors={d.statementError ? [d.statementError] : undefined} />
        </p>
      </Form>
    </section>
  );
}
