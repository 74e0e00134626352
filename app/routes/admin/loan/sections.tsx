import { CONTACT_CHANNELS } from "../../../domain/collections.ts";
import { staffBorrowerName } from "../../../domain/borrowers.ts";
import { Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { FactRows } from "../../../components/loan-flow.tsx";
import { StaffTable } from "../../../components/staff-table.tsx";
import { longDate } from "../../../domain/india-date.ts";
import { STATUS_TEXT } from "../../../domain/loans/lifecycle.ts";
import { INSTALMENT_STATUS_LABEL } from "../../../domain/loans/servicing.ts";
import { CONTACT_OUTCOMES, reversalSchema, waiveSchema, WRITE_OFF_AFTER_DPD } from "../../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../../domain/money.ts";
import { formatDateTimeIST } from "../../../domain/india-date.ts";
import { penalStatusText } from "../../../domain/loans/staff-servicing.ts";
import { nextDueText } from "../../../domain/loans/next-due.ts";
import type { ActionData, Data } from "../loan.tsx";
import { ContactNote, ReasonForm, WriteOff } from "./forms.tsx";

// The staff loan page's sections: the loan's figures, payments, penal charges, schedule, ledger, notes, refunds, write-off.

/** An amount in rupees, or a dash for none. */
const money = (paise: number | null | undefined) => (paise === null || paise === undefined ? "—" : formatRupees(paise));

export function Facts({ d }: { d: Data }) {
  const a = d.application;
  const s = d.state;
  return (
    <section className="card space-y-3" aria-labelledby="facts-title">
      <h2 id="facts-title" className="text-xl">
        The loan
      </h2>
      <FactRows
        rows={[
          ["Status", STATUS_TEXT[a.status].label],
          [
            "Borrower",
            `${staffBorrowerName({ fullName: d.borrower.name, mobile: d.borrower.mobile })}${d.borrower.name && d.borrower.mobile ? `, +91 ${d.borrower.mobile}` : ""}`,
          ],
          ["Lent", `${money(d.terms.principalPaise)} on ${longDate(a.disbursalDate)}`],
          [
            "Terms",
            a.kind === "emi"
              ? `${(d.terms.rateBps / 100).toFixed(2)}% a year, ${d.terms.tenure} instalments`
              : `${(d.terms.rateBps / 100).toFixed(2)}% a day, one repayment`,
          ],
          ["Principal outstanding", money(s.outstandingPrincipalPaise)],
          ["Overdue", `${money(s.overduePaise)}${s.dpd > 0 ? `, ${s.dpd} days past due (${s.bucket})` : ""}`],
          ["Penal charges due", money(s.penalDuePaise)],
          ["Next due", nextDueText(s.nextDue, "staff")],
          ["Advance payment held", money(s.advancePaise)],
          ["Owed back to the borrower", money(s.refundDuePaise)],
          ["CKYC", d.ckyc],
          ...(s.settlement
            ? ([["Settled", `${longDate(s.settlement.on)} (${s.settlement.how.replace("_", " ")})`]] as [string, string][])
            : []),
        ]}
      />
      {d.may.payments && s.refundDuePaise > 0 && !d.refunds.some((r) => r.status === "requested") ? (
        <Form method="post">
          <button className="btn-secondary" name="intent" value="refund">
            Refund {money(s.refundDuePaise)} to the disbursal account
          </button>
        </Form>
      ) : null}
    </section>
  );
}

export function Payments({ d, actionData }: { d: Data; actionData: ActionData }) {
  return (
    <section className="card space-y-3" aria-labelledby="payments-title">
      <h2 id="payments-title" className="text-xl">
        Payments
      </h2>
      {d.payments.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {d.payments.map((p) => (
            <li key={p.reference} className="space-y-2 py-3">
              <p>
                <span className="font-semibold tabular-nums">{money(p.receivedPaise ?? p.amountPaise)}</span> · {p.status}
                {p.businessDate ? ` · ${longDate(p.businessDate)}` : ""} ·{" "}
                {p.provider === "offline"
                  ? `${p.mode ?? "offline"}, ref ${p.providerPaymentId ?? ""}, by ${p.recordedBy ?? "staff"}`
                  : p.provider}{" "}
                <span className="font-mono text-xs text-slate-600">{p.reference}</span>
              </p>
              {p.status === "held" ? <p className="text-danger-600">{p.failureReason}</p> : null}
              {p.allocation ? (
                <p className="text-sm text-slate-700">
                  Interest {money(p.allocation.interestPaise + p.allocation.accruedInterestPaise)} · principal{" "}
                  {money(p.allocation.principalPaise)} · penal {money(p.allocation.penalPaise)} · advance {money(p.allocation.advancePaise)}
                  {p.allocation.excessPaise ? ` · over what was due ${money(p.allocation.excessPaise)}` : ""}
                </p>
              ) : null}
              {d.may.payments && p.status === "held" ? (
                <Form method="post">
                  <input type="hidden" name="payment" value={p.reference} />
                  {d.application.status === "written_off" && p.mode === "autopay" ? (
                    <button className="btn-secondary" name="intent" value="return_held">
                      Return the {money(p.receivedPaise)} to the borrower
                    </button>
                  ) : (
                    <button className="btn-secondary" name="intent" value="release">
                      Apply the {money(p.receivedPaise)} received
                    </button>
                  )}
                </Form>
              ) : null}
              {d.may.payments && p.status === "captured" && !p.reversalRequestedBy ? (
                <details>
                  <summary className="link cursor-pointer">Reverse this payment…</summary>
                  <ReasonForm
                    id={`reverse-${p.reference}`}
                    intent="request_reversal"
                    hidden={{ payment: p.reference }}
                    label="Why (a bounced cheque, a chargeback)"
                    button="Ask for the reversal"
                    actionData={actionData}
                    schema={reversalSchema}
                  />
                </details>
              ) : null}
              {p.status === "captured" && p.reversalRequestedBy ? (
                <div className="rounded-lg bg-amber-50 p-3 text-sm">
                  <p>
                    Reversal asked for by {p.reversalRequestedByName}: {p.reversalReason}
                  </p>
                  {d.may.payments ? (
                    <Form method="post" className="mt-2 flex flex-wrap gap-2">
                      <input type="hidden" name="payment" value={p.reference} />
                      {p.reversalRequestedBy !== d.me ? (
                        <button className="btn-danger" name="intent" value="confirm_reversal">
                          Confirm the reversal
                        </button>
                      ) : null}
                      <button className="btn-secondary" name="intent" value="cancel_reversal">
                        Withdraw the request
                      </button>
                    </Form>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Penals({ d, actionData }: { d: Data; actionData: ActionData }) {
  return (
    <section className="card space-y-3" aria-labelledby="penal-title">
      <h2 id="penal-title" className="text-xl">
        Penal charges
      </h2>
      {d.penals.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {d.penals.map((p) => (
            <li key={p.id} className="space-y-2 py-3" data-testid={`penal-${p.seq}`}>
              <p>
                <span className="font-medium">Instalment {p.seq}</span>, levied {longDate(p.businessDate)}:{" "}
                <span className="money">{money(p.amountPaise)}</span> · <span data-testid="penal-status">{penalStatusText(p)}</span>
              </p>
              {d.may.payments && (p.status === "unpaid" || p.status === "part_paid" || p.status === "paid") ? (
                <ReasonForm
                  id={`waive-${p.id}`}
                  intent="waive"
                  hidden={{ penal: p.id }}
                  label={`Why the ${money(p.amountPaise)} charge of instalment ${p.seq} is waived`}
                  button={`Waive this charge of ${money(p.amountPaise)}`}
                  actionData={actionData}
                  schema={waiveSchema}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Schedule({ d }: { d: Data }) {
  return (
    <section className="card space-y-3" aria-labelledby="schedule-title">
      <h2 id="schedule-title" className="text-xl">
        Schedule
      </h2>
      <StaffTable
        label="Instalments of the schedule"
        minWidth="min-w-[40rem]"
        columns={["#", "Due", "Principal", "Interest", "Paid", "Status"]}
        framed={false}
      >
        {d.instalments.map((r) => (
          <tr key={r.seq}>
            <td className="px-3 py-2">{r.seq}</td>
            <td className="px-3 py-2">{longDate(r.dueDate)}</td>
            <td className="px-3 py-2 tabular-nums">{money(r.principalPaise)}</td>
            <td className="px-3 py-2 tabular-nums">{money(r.interestPaise)}</td>
            <td className="px-3 py-2 tabular-nums">{money(r.paidPrincipalPaise + r.paidInterestPaise)}</td>
            <td className="px-3 py-2">{INSTALMENT_STATUS_LABEL[r.status]}</td>
          </tr>
        ))}
      </StaffTable>
    </section>
  );
}

/** What a ledger entry says beside its kind: a disbursal's fee and GST, what it undoes. */
function ledgerNote(d: Data, e: Data["ledger"][number]): string {
  const b = d.books.account;
  if (e.kind === "disbursal" && b?.feePaise != null && b.feeGstPaise != null)
    return `: processing fee ${money(b.feePaise)} and its GST ${money(b.feeGstPaise)} (${b.gstSplit === "inter" ? "IGST" : "CGST and SGST"}), paid out ${money(e.amountPaise - b.feePaise - b.feeGstPaise)}`;
  return e.seq ? ` (instalment ${e.seq})` : "";
}

export function Ledger({ d }: { d: Data }) {
  return (
    <section className="card space-y-3" aria-labelledby="ledger-title">
      <h2 id="ledger-title" className="text-xl">
        Ledger
      </h2>
      <StaffTable
        label="Ledger entries"
        minWidth="min-w-[40rem]"
        columns={["Business date", "Entry", "Amount", "By", "Recorded"]}
        framed={false}
      >
        {d.ledger.map((e) => (
          <tr key={e.id}>
            <td className="px-3 py-2">{longDate(e.businessDate)}</td>
            <td className="px-3 py-2">
              {e.kind.replaceAll("_", " ")}
              {ledgerNote(d, e)}
            </td>
            <td className="px-3 py-2 tabular-nums">{money(e.amountPaise)}</td>
            <td className="px-3 py-2">{e.by}</td>
            <td className="px-3 py-2">{formatDateTimeIST(new Date(e.recordedAt))}</td>
          </tr>
        ))}
      </StaffTable>
    </section>
  );
}

/** The loan in the books (docs/product.md "The lender's books"): its journal entries beside the ledger, the daily accrual summed, its balances. */
export function Journal({ d }: { d: Data }) {
  const b = d.books;
  return (
    <section className="card space-y-3" aria-labelledby="journal-title">
      <h2 id="journal-title" className="text-xl">
        In the books
      </h2>
      <p className="text-sm text-slate-600">
        {b.account?.framework === "ind_as" ? "Booked under Ind AS 109" : "Booked under Indian GAAP"}
        {b.account?.accruedThrough ? `; interest accrued to ${longDate(b.account.accruedThrough)}` : ""}
        {b.account?.npaSince ? `; NPA since ${longDate(b.account.npaSince)}, unpaid interest held in suspense` : ""}.
      </p>
      {b.balances.length ? (
        <StaffTable
          label="The loan's balances in the books"
          minWidth="min-w-[28rem]"
          columns={["Account", "Debit", "Credit"]}
          framed={false}
        >
          {b.balances.map((a) => (
            <tr key={a.code}>
              <td className="px-3 py-2">
                <span className="font-mono">{a.code}</span> {a.name}
              </td>
              <td className="px-3 py-2 tabular-nums">{a.balancePaise > 0 ? money(a.balancePaise) : ""}</td>
              <td className="px-3 py-2 tabular-nums">{a.balancePaise < 0 ? money(-a.balancePaise) : ""}</td>
            </tr>
          ))}
        </StaffTable>
      ) : (
        <p>Nothing held in the books for this loan.</p>
      )}
      {b.accrual.entries ? (
        <p data-testid="loan-accrual">
          Daily accrual: {b.accrual.entries} {b.accrual.entries === 1 ? "day" : "days"}, {money(b.accrual.receivablePaise)} of interest
          {b.accrual.suspensePaise ? ` (${money(b.accrual.suspensePaise)} of it into suspense)` : ""}
          {b.accrual.feePaise ? `; ${money(b.accrual.feePaise)} of the fee amortised` : ""}.
        </p>
      ) : null}
      {d.may.books ? (
        <p>
          <Link className="link" to={`/admin/books/journal?loan=${d.application.loanNumber}`}>
            This loan in the journal, with the daily accrual's entries
          </Link>
        </p>
      ) : null}
      <StaffTable
        label="The loan's journal entries"
        minWidth="min-w-[44rem]"
        columns={["No.", "Date", "Entry", "Account", "Debit", "Credit"]}
        framed={false}
      >
        {b.entries.flatMap((e) =>
          e.lines.map((l, i) => (
            <tr key={`${e.id}-${i}`} className={i === 0 ? "border-t border-slate-200" : undefined}>
              <td className="px-3 py-2 font-mono">{i === 0 ? e.entryNo : ""}</td>
              <td className="px-3 py-2">{i === 0 ? longDate(e.entryDate) : ""}</td>
              <td className="px-3 py-2">
                {i === 0 ? (
                  <>
                    {e.narration}
                    {e.reverses ? ` (reverses no. ${e.reverses})` : ""}
                  </>
                ) : null}
              </td>
              <td className="px-3 py-2">
                <span className="font-mono">{l.code}</span> {l.name}
              </td>
              <td className="px-3 py-2 tabular-nums">{l.debitPaise ? money(l.debitPaise) : ""}</td>
              <td className="px-3 py-2 tabular-nums">{l.creditPaise ? money(l.creditPaise) : ""}</td>
            </tr>
          )),
        )}
      </StaffTable>
    </section>
  );
}

export function Notes({ d, actionData }: { d: Data; actionData: ActionData }) {
  return (
    <section className="card space-y-3" aria-labelledby="notes-title">
      <h2 id="notes-title" className="text-xl">
        Contacts
      </h2>
      {d.notes.length === 0 ? <p>No contact recorded.</p> : null}
      <ul className="divide-y divide-slate-200">
        {d.notes.map((n) => (
          <li key={n.id} className="py-2">
            <p className="text-sm text-slate-600">
              {formatDateTimeIST(new Date(n.createdAt))}, {n.by}, {CONTACT_CHANNELS[n.channel] ?? n.channel}:{" "}
              {CONTACT_OUTCOMES[n.outcome as keyof typeof CONTACT_OUTCOMES] ?? n.outcome}
              {n.followUpOn ? `; follow up on ${longDate(n.followUpOn)}` : ""}
            </p>
            <p>{n.note}</p>
          </li>
        ))}
      </ul>
      {/* Keyed by the newest contact: once one is saved the form starts empty again, not inviting the same contact twice. */}
      {d.may.collections ? <ContactNote key={d.notes[0]?.id ?? "none"} actionData={actionData} /> : null}
    </section>
  );
}

export function Refunds({ d }: { d: Data }) {
  return (
    <section className="card space-y-3" aria-labelledby="refunds-title">
      <h2 id="refunds-title" className="text-xl">
        Refunds
      </h2>
      <ul>
        {d.refunds.map((r) => (
          <li key={r.id}>
            {money(r.amountPaise)} · {r.status}
            {r.utr ? `, UTR ${r.utr}` : ""} · {formatDateTimeIST(new Date(r.requestedAt))}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function WriteOffSection({ d, actionData }: { d: Data; actionData: ActionData }) {
  const s = d.state;
  return (
    <section className="card space-y-3" aria-labelledby="writeoff-title">
      <h2 id="writeoff-title" className="text-xl">
        Write off
      </h2>
      {s.dpd >= WRITE_OFF_AFTER_DPD ? (
        <WriteOff actionData={actionData} />
      ) : (
        <p>
          Possible from {WRITE_OFF_AFTER_DPD} days past due; this loan is {s.dpd}.
        </p>
      )}
    </section>
  );
}
