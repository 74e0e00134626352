import { Form } from "react-router";
import { formatDateTimeIST, longDate } from "../../../domain/india-date.ts";
import { cancelMandateSchema } from "../../../domain/loans/staff-servicing.ts";
import { isLiveMandate, MANDATE_KIND_NAME, MANDATE_STATUS_STAFF_TEXT } from "../../../domain/loans/mandate.ts";
import { DEBIT_STATUS_STAFF_TEXT } from "../../../domain/loans/autopay.ts";
import { formatRupees } from "../../../domain/money.ts";
import { StaffTable } from "../../../components/staff-table.tsx";
import type { ActionData, Data } from "../loan.tsx";
import { ReasonForm } from "./forms.tsx";

/** The loan's autopay mandates for staff (docs/product.md "Autopay"): each with its status and limits; the live one cancelled on the borrower's request. */
/** What became of a debit that paid an instalment already paid, as staff read it. */
const EXCESS_STAFF_TEXT: Record<
  "waiting" | "keep" | "refund" | "none",
  (d: { excessPaise: number; excessRefundOn: string | null }) => string
> = {
  waiting: (d) =>
    `Paid ${formatRupees(d.excessPaise)} already paid: refunded on ${longDate(d.excessRefundOn ?? "")} unless the borrower keeps it`,
  keep: (d) => `Paid ${formatRupees(d.excessPaise)} already paid: kept by the borrower as an advance`,
  refund: (d) => `Paid ${formatRupees(d.excessPaise)} already paid: refunded`,
  none: (d) => `Paid ${formatRupees(d.excessPaise)} already paid: used for what fell due before its refund day`,
};

export function Mandates({ d, actionData }: { d: Data; actionData: ActionData }) {
  const live = d.mandates.find((m) => isLiveMandate(m.status));
  // Only the latest debit of an instalment, when the bank returned it and nothing else waits, may be presented again.
  const waitingSeqs = new Set(d.debits.filter((x) => ["notified", "presenting", "in_progress"].includes(x.status)).map((x) => x.seq));
  const lastBounced = d.debits.find((x) => x.status === "bounced" && !waitingSeqs.has(x.seq))?.id ?? null;
  return (
    <section aria-labelledby="mandates-title" className="card space-y-3">
      <h2 id="mandates-title">Autopay mandates</h2>
      {d.mandates.length ? (
        <StaffTable
          label="Autopay mandates, newest first"
          minWidth="min-w-[48rem]"
          columns={["Set up", "Type", "Status", "At most a debit", "Until", "Account", "Reference"]}
          framed={false}
        >
          {d.mandates.map((m) => (
            <tr key={m.id}>
              <td className="px-3 py-2">{formatDateTimeIST(new Date(m.createdAt))}</td>
              <td className="px-3 py-2">{MANDATE_KIND_NAME[m.kind]}</td>
              <td className="px-3 py-2">
                {MANDATE_STATUS_STAFF_TEXT[m.status]}
                {m.reason ? `: ${m.reason}` : ""}
              </td>
              <td className="px-3 py-2">{formatRupees(m.maxAmountPaise)}</td>
              <td className="px-3 py-2">{longDate(m.endDate)}</td>
              <td className="px-3 py-2">
                {m.accountMasked} ({m.ifsc})
              </td>
              <td className="px-3 py-2 font-mono">{m.reference}</td>
            </tr>
          ))}
        </StaffTable>
      ) : (
        <p className="text-slate-700">The borrower has not set up autopay: instalments are paid with Pay now.</p>
      )}
      {d.debits.length ? <h3 className="text-base font-semibold">Debits</h3> : null}
      {d.debits.length ? (
        <StaffTable
          label="Autopay debits, newest first"
          minWidth="min-w-[48rem]"
          columns={["Instalment", "Presented on", "Amount", "Status", "Answered", "Reference", "Action"]}
          framed={false}
        >
          {d.debits.map((debit) => (
            <tr key={debit.id}>
              <td className="px-3 py-2">{debit.attempt > 1 ? `${debit.seq} (again)` : debit.seq}</td>
              <td className="px-3 py-2">{longDate(debit.presentOn)}</td>
              <td className="px-3 py-2">{formatRupees(debit.amountPaise)}</td>
              <td className="px-3 py-2">
                {DEBIT_STATUS_STAFF_TEXT[debit.status]}
                {debit.reason ? `: ${debit.reason}` : ""}
                {debit.excessPaise > 0 ? (
                  <span className="block text-sm text-slate-700">{EXCESS_STAFF_TEXT[debit.excessChoice ?? "waiting"](debit)}</span>
                ) : null}
              </td>
              <td className="px-3 py-2">{debit.answeredAt ? formatDateTimeIST(new Date(debit.answeredAt)) : "Not yet"}</td>
              <td className="px-3 py-2 font-mono">{debit.reference}</td>
              <td className="px-3 py-2">
                {d.may.payments && live?.status === "active" && debit.status === "bounced" && debit.id === lastBounced ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="represent_debit" />
                    <input type="hidden" name="debit" value={debit.id} />
                    <button type="submit" className="btn-secondary">
                      Present again
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </StaffTable>
      ) : null}
      {live && d.may.payments ? (
        <ReasonForm
          id="cancel_mandate"
          intent="cancel_mandate"
          hidden={{}}
          label="How the borrower asked to cancel autopay"
          button="Cancel autopay"
          actionData={actionData}
          schema={cancelMandateSchema}
        />
      ) : null}
    </section>
  );
}
