import { Form, useNavigation, useSubmit } from "react-router";
import { useConfirm } from "../../../../components/confirm-dialog.tsx";
import { todayIST } from "../../../../domain/india-date.ts";
import {
  CANCEL_MANDATE_TEXT,
  endedMandateText,
  isLiveMandate,
  MANDATE_KIND_NAME,
  MANDATE_STATUS_TEXT,
  mandateLimitsText,
} from "../../../../domain/loans/mandate.ts";
import { debitText, excessText } from "../../../../domain/loans/autopay.ts";
import type { Data } from "../loan.tsx";

/**
 * The loan's autopay (docs/product.md "Autopay"): the live mandate with its status and limits, a
 * way to set one up when there is none, to continue at the bank when one waits for approval, and
 * to cancel it, saying first what that means.
 */
export function Autopay({ d, open, problem }: { d: Data; open: boolean; problem: string | null }) {
  const confirm = useConfirm();
  const submit = useSubmit();
  const busy = useNavigation().state !== "idle";
  const live = d.mandates.find((m) => isLiveMandate(m.status)) ?? null;
  const last = live ? null : (d.mandates[0] ?? null);
  return (
    <section aria-labelledby="autopay-title" className="card space-y-3">
      <h2 id="autopay-title">Autopay</h2>
      {problem ? (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      ) : null}
      {live ? (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-slate-600">Status</dt>
            <dd data-testid="autopay-status">{MANDATE_STATUS_TEXT[live.status]}</dd>
            <dt className="text-slate-600">Type</dt>
            <dd>{MANDATE_KIND_NAME[live.kind]}</dd>
            <dt className="text-slate-600">From account</dt>
            <dd>
              {live.accountMasked} ({live.ifsc})
            </dd>
          </dl>
          <p className="text-slate-700">{mandateLimitsText(live)}</p>
          {d.nextDebit ? (
            <p className="text-slate-900" data-testid="autopay-next">
              {d.nextDebit}
            </p>
          ) : null}
          <Debits d={d} open={open} />
          {live.status === "pending" && live.authUrl ? (
            <a className="btn-primary" href={live.authUrl}>
              Approve autopay at your bank
            </a>
          ) : null}
          <Form
            method="post"
            className="space-y-2"
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const sure = await confirm({
                title: "Cancel autopay?",
                description: CANCEL_MANDATE_TEXT,
                confirmLabel: "Cancel autopay",
                cancelLabel: "Keep autopay",
                danger: true,
              });
              if (sure) void submit(form);
            }}
          >
            <p className="text-slate-700">{CANCEL_MANDATE_TEXT}</p>
            <input type="hidden" name="intent" value="autopay_cancel" />
            <button type="submit" className="btn-secondary" disabled={busy}>
              Cancel autopay
            </button>
          </Form>
        </>
      ) : (
        <>
          <Debits d={d} open={open} />
          {last ? (
            <p className="text-slate-700">{endedMandateText(last.status, last.endedAt ? todayIST(new Date(last.endedAt)) : null)}</p>
          ) : null}
          {!open ? null : d.autopayOffered ? (
            <Form method="post" className="space-y-2">
              <p className="text-slate-700">
                With autopay, each instalment is debited from the account the loan was paid into on its due date, after a notice two days
                before. You approve it once at your bank and can cancel it here at any time.
              </p>
              <button type="submit" name="intent" value="autopay_start" className="btn-primary" disabled={busy}>
                Set up autopay
              </button>
            </Form>
          ) : (
            <p className="text-slate-700">Autopay is not offered yet: pay each instalment with Pay now by its due date.</p>
          )}
        </>
      )}
    </section>
  );
}

/**
 * The loan's recent autopay debits, newest first, each in one sentence; one that paid an instalment
 * already paid says what happens to that money, and until its refund day lets the borrower keep it
 * as an advance or have it refunded now.
 */
function Debits({ d, open }: { d: Data; open: boolean }) {
  const busy = useNavigation().state !== "idle";
  if (d.debits.length === 0) return null;
  return (
    <div>
      <h3 className="text-base font-semibold">Autopay debits</h3>
      <ul className="mt-1 space-y-2 text-slate-700" data-testid="autopay-debits">
        {d.debits.slice(0, 6).map((debit) => {
          const excess = excessText(debit);
          return (
            <li key={debit.id}>
              {debitText(debit)}
              {excess ? (
                <p className="mt-1 text-slate-900" data-testid="autopay-excess">
                  {excess}
                </p>
              ) : null}
              {excess && open && debit.excessChoice === null ? (
                <Form method="post" className="mt-2 flex flex-wrap gap-2">
                  <input type="hidden" name="debit" value={debit.reference} />
                  <button type="submit" name="intent" value="excess_keep" className="btn-secondary" disabled={busy}>
                    Keep it as an advance
                  </button>
                  <button type="submit" name="intent" value="excess_refund" className="btn-secondary" disabled={busy}>
                    Refund it now
                  </button>
                </Form>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
