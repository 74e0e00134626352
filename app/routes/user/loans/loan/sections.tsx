import { Form } from "react-router";
import { coveredText, nextDueText } from "../../../../domain/loans/next-due.ts";
import { longDate } from "../../../../domain/india-date.ts";
import { INSTALMENT_STATUS_LABEL } from "../../../../domain/loans/servicing.ts";
import { formatRupees } from "../../../../domain/money.ts";
import { formatDateIST } from "../../../../domain/india-date.ts";
import type { Data } from "../loan.tsx";

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
  const s = d.summary;
  return (
    <section aria-labelledby="summary-title" className="card space-y-4">
      <h2 id="summary-title" className="sr-only">
        Summary
      </h2>
      {s.overduePaise > 0 ? (
        <p role="status" className="rounded-lg bg-danger-50 p-3 font-medium text-danger-600">
          {formatRupees(s.overduePaise)} is overdue, {s.dpd} {s.dpd === 1 ? "day" : "days"} past the due date.
          {s.penalDuePaise > 0 ? ` Penal charges of ${formatRupees(s.penalDuePaise)} are also due.` : ""} Pay it now to stop further
          charges.
        </p>
      ) : null}
      {d.settlement ? (
        <p className="rounded-lg bg-brand-50 p-3">
          {d.settlement.how === "cooling_off" ? "Cancelled within the cooling-off period" : "Fully repaid and closed"} on{" "}
          {longDate(d.settlement.on)}.
          {d.refundDuePaise > 0 ? ` ${formatRupees(d.refundDuePaise)} paid over what was due will be refunded to your bank account.` : ""}
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-3">
        <Amount label="Borrowed" paise={s.principalPaise} />
        <Amount label="Principal outstanding" paise={s.outstandingPrincipalPaise} />
        <div className="col-span-2 rounded-xl bg-slate-50 p-3">
          <dt className="text-sm text-slate-600">Next due</dt>
          <dd className="font-semibold" data-testid="next-due">
            {nextDueText(s.nextDue)}
          </dd>
        </div>
        <Amount label="Overdue" paise={s.overduePaise} tone={s.overduePaise > 0 ? "danger" : undefined} />
        {s.penalDuePaise > 0 ? <Amount label="Penal charges due" paise={s.penalDuePaise} tone="danger" /> : null}
        {d.advancePaise > 0 ? <Amount label="Advance payment held" paise={d.advancePaise} /> : null}
      </dl>
      <p className="text-sm text-slate-600">
        Disbursed {longDate(s.disbursalDate)}.{" "}
        {s.kind === "emi"
          ? `${(d.rateBps / 100).toFixed(2)}% a year, ${d.tenure} monthly instalments.`
          : `${(d.rateBps / 100).toFixed(2)}% a day, repaid in one payment.`}
      </p>
    </section>
  );
}

export function Schedule({ d }: { d: Data }) {
  return (
    <section aria-labelledby="schedule-title" className="card space-y-3">
      <h2 id="schedule-title">Repayment schedule</h2>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 pr-2">
              #
            </th>
            <th scope="col" className="py-2 pr-2">
              Due on
            </th>
            <th scope="col" className="py-2 pr-2 text-right">
              Amount
            </th>
            <th scope="col" className="py-2">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {d.instalments.map((r) => {
            const paid = r.paidPrincipalPaise + r.paidInterestPaise;
            const late = r.status === "overdue" || r.status === "partly_paid";
            return (
              <tr key={r.seq} className="border-b border-slate-100">
                <td className="py-2 pr-2">{r.seq}</td>
                <td className="py-2 pr-2">{longDate(r.dueDate)}</td>
                <td className="py-2 pr-2 text-right tabular-nums">
                  {r.status === "closed_early" ? "—" : formatRupees(r.principalPaise + r.interestPaise)}
                </td>
                <td className={late ? "py-2 font-medium text-danger-600" : "py-2"} data-testid={`instalment-${r.seq}-status`}>
                  {INSTALMENT_STATUS_LABEL[r.status]}
                  {r.status === "partly_paid" ? <span className="block text-xs">{formatRupees(paid)} paid</span> : null}
                  {d.covered[r.seq] ? (
                    <span className="block text-xs">{coveredText(r.principalPaise + r.interestPaise - paid, d.covered[r.seq] ?? 0)}</span>
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
  return (
    <section aria-labelledby="payments-title" className="card space-y-3">
      <h2 id="payments-title">Payments</h2>
      {d.payments.length === 0 ? (
        <p>No payments yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {d.payments.map((p) => (
            <li key={p.reference} className="flex flex-wrap items-baseline justify-between gap-2 py-3">
              <span>
                <span className="money">{formatRupees(p.amountPaise)}</span>{" "}
                <span className="text-sm text-slate-600">
                  {p.businessDate ? longDate(p.businessDate) : formatDateIST(new Date(p.createdAt))}
                  {p.mode ? ` · ${p.mode}` : ""}
                </span>
              </span>
              <span className="text-sm">
                {p.reversed ? "Reversed" : PAYMENT_STATUS_TEXT[p.status]}
                {p.allocation && !p.reversed && p.allocation.advancePaise > 0
                  ? ` · ${formatRupees(p.allocation.advancePaise)} kept for the next instalments`
                  : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Penals({ d }: { d: Data }) {
  return (
    <section aria-labelledby="penal-title" className="card space-y-3">
      <h2 id="penal-title">Penal charges</h2>
      {d.penals.length === 0 ? (
        <p>None. A charge of {formatRupees(d.penalPaise)} applies only if an instalment is missed; it never earns interest.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {d.penals.map((p) => (
            <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-2 py-3">
              <span>
                Penal charge for instalment {p.seq}, {longDate(p.businessDate)}
              </span>
              <span className="font-semibold tabular-nums">
                {formatRupees(p.amountPaise)} · {PENAL_STATUS_TEXT[p.status]}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Documents({ d }: { d: Data }) {
  const s = d.summary;
  const base = `/User/Loans/${s.loanNumber}`;
  return (
    <section aria-labelledby="documents-title" className="card space-y-3">
      <h2 id="documents-title">Documents</h2>
      <ul className="space-y-2">
        {d.agreementRef ? (
          <li>
            <a className="link" href={`/Eagreement/${d.agreementRef}/pdf`}>
              Key Fact Statement and signed agreement (PDF)
            </a>
          </li>
        ) : null}
        {d.revisedKfs ? (
          <li>
            <a className="link" href={`${base}/revised-kfs.pdf`}>
              Revised Key Fact Statement (PDF)
            </a>
          </li>
        ) : null}
        <li>
          <a className="link" href={`${base}/schedule.pdf`}>
            Repayment schedule (PDF)
          </a>
        </li>
        {d.letters.map((l) => (
          <li key={l.id}>
            <a className="link" href={`${base}/reminder-letter.pdf?send=${l.id}`}>
              Reminder letter of {longDate(l.sentOn)} (PDF)
            </a>
          </li>
        ))}
        {d.settlement ? (
          <li>
            <a className="link" href={`${base}/no-dues.pdf`}>
              {d.settlement.how === "cooling_off" ? "Cancellation letter (PDF)" : "No-dues certificate (PDF)"}
            </a>
          </li>
        ) : null}
      </ul>
      <Form method="get" reloadDocument className="space-y-2" aria-labelledby="statement-title">
        <h3 id="statement-title">Statement of account</h3>
        <input type="hidden" name="statement" value="1" />
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="statement-from" className="field-label">
              From
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
              To
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
            Download (PDF)
          </button>
        </div>
        <p id="statement-error" className="field-error" aria-live="polite">
          {d.statementError}
        </p>
      </Form>
    </section>
  );
}

const PAYMENT_STATUS_TEXT: Record<string, string> = {
  captured: "Received",
  pending: "Waiting for the bank",
  held: "Being checked by our team",
  failed: "Failed, nothing was taken",
  cancelled: "Stopped",
  reversed: "Reversed",
  created: "Started",
};

const PENAL_STATUS_TEXT: Record<string, string> = {
  unpaid: "unpaid",
  part_paid: "partly paid",
  paid: "paid",
  waived: "waived",
  reversed: "reversed (paid on time)",
};
