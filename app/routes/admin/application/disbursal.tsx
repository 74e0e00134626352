import { useEffect } from "react";
import { Form, useRevalidator, useSubmit } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { useConfirm } from "../../../components/confirm-dialog.tsx";
import { FactRows } from "../../../components/loan-flow.tsx";
import { longDate } from "../../../domain/india-date.ts";
import { accountMatchesAgreement, PAYOUT_STATUS_LABEL } from "../../../domain/loans/disbursal.ts";
import { formatRupees } from "../../../domain/money.ts";
import { formatDateTimeIST } from "../../../domain/india-date.ts";
import type { Data } from "../application.tsx";

/**
 * Disbursal (operations): the payout of the net amount to the account the agreement names, never by
 * the approver; each attempt with its state, UTR or reason; a stuck one said to be stuck; a new
 * attempt only once the last is confirmed failed. The page looks again while one is on its way.
 */
export function Disbursal({ data: d }: { data: Data }) {
  const a = d.found.application;
  const revalidator = useRevalidator();
  const waiting = d.payouts.some((p) => p.status === "requested");
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      if (++tries > 40) clearInterval(timer);
      else void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting]);
  if (a.status !== "approved" && d.payouts.length === 0) return null;
  const net = d.signature?.terms.figures.netDisbursedPaise ?? null;
  const accountOk = Boolean(d.bank?.verifiedAt) && accountMatchesAgreement(a.disbursalAccount, d.bank);
  const approvedByMe = a.decidedBy === d.me;
  const mayRequest =
    a.status === "approved" && !waiting && d.mayDisburse && !approvedByMe && accountOk && net !== null && !d.waitingForAutopay;
  const firstDue = d.instalments[0];
  return (
    <section className="card space-y-4" aria-labelledby="disbursal-title">
      <h2 id="disbursal-title" className="text-xl">
        Disbursal
      </h2>
      {a.status === "active" && a.loanNumber ? (
        <FactRows
          rows={[
            ["Loan number", a.loanNumber],
            ["Disbursed on", a.disbursalDate ? longDate(a.disbursalDate) : "—"],
            [
              "First due",
              firstDue ? `${formatRupees(firstDue.principalPaise + firstDue.interestPaise)} on ${longDate(firstDue.dueDate)}` : "—",
            ],
            ["Instalments", String(d.instalments.length)],
          ]}
        />
      ) : null}
      {a.status === "approved" ? (
        <p className="text-slate-700">
          {net !== null ? `${formatRupees(net)} (net of fees, as in the signed KFS)` : "No signed amount"} to{" "}
          {a.disbursalAccount
            ? `${a.disbursalAccount.accountMasked}, ${a.disbursalAccount.bankName} (${a.disbursalAccount.ifsc})`
            : "no account"}{" "}
          through {d.payoutProvider === "local" ? "the local stand-in" : "RazorpayX"}.
        </p>
      ) : null}
      {a.status === "approved" && !accountOk ? (
        <p className="font-semibold text-danger-600" data-testid="disbursal-blocked">
          The account is not verified, or is no longer the one the agreement names: it cannot be paid.
        </p>
      ) : null}
      {a.status === "approved" && d.waitingForAutopay ? (
        <p className="font-semibold text-amber-900" data-testid="waiting-for-autopay">
          This product is paid out only once the borrower's autopay is active. The borrower sets it up from their application page; it can
          be paid as soon as their bank confirms it.
        </p>
      ) : null}
      {a.status === "approved" && d.mayDisburse && approvedByMe ? (
        <p className="font-semibold text-amber-900" data-testid="four-eyes">
          You approved this application: another member of operations must disburse it.
        </p>
      ) : null}
      {mayRequest && a.disbursalAccount && net !== null ? (
        <DisburseStep
          netPaise={net}
          account={a.disbursalAccount}
          again={d.payouts.length > 0}
          confirming={d.confirmingDisbursal}
          reference={a.reference}
        />
      ) : null}
      {d.payouts.length ? (
        <ol className="space-y-3" aria-label="Payout attempts" aria-live="polite" data-testid="payouts">
          {d.payouts.map((p) => (
            <li key={p.id} className={`rounded border p-3 ${p.stuck ? "border-danger-600" : "border-slate-200"}`}>
              <p className="font-semibold">
                Attempt {p.attempt}: <span data-testid="payout-status">{PAYOUT_STATUS_LABEL[p.status]}</span>
              </p>
              <p className="text-sm text-slate-700">
                {formatRupees(p.amountPaise)} to {p.accountMasked} ({p.ifsc}), requested by {p.requestedBy}{" "}
                {formatDateTimeIST(new Date(p.requestedAt))}
              </p>
              {p.utr ? (
                <p className="text-sm">
                  UTR{" "}
                  <span className="font-mono" data-testid="payout-utr">
                    {p.utr}
                  </span>
                </p>
              ) : null}
              {p.failureReason ? <p className="text-sm text-danger-600">{p.failureReason}</p> : null}
              {p.stuck ? (
                <p className="text-sm font-semibold text-danger-600" data-testid="payout-stuck">
                  Stuck: no answer from the bank since {formatDateTimeIST(new Date(p.requestedAt))}. Do not pay again until the provider
                  confirms it failed.
                </p>
              ) : null}
              {p.status === "requested" ? (
                <p className="text-xs text-slate-600">
                  {p.checkedAt ? `Last asked ${formatDateTimeIST(new Date(p.checkedAt))}.` : "Not sent to the provider yet."}
                </p>
              ) : null}
              {p.status === "requested" && d.mayDisburse ? (
                <Form method="post" className="mt-2">
                  <input type="hidden" name="payout" value={p.id} />
                  <button className="btn-secondary" name="intent" value="payout_check">
                    Ask the provider now
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

/**
 * Disburse in two steps: the button opens the confirmation (a dialog with JavaScript; without it, the
 * page's confirmation step), which names the amount and the account; only its form carries the
 * `confirm` the server requires.
 */
function DisburseStep({
  netPaise,
  account,
  again,
  confirming,
  reference,
}: {
  netPaise: number;
  account: { accountMasked: string; bankName: string; ifsc: string };
  again: boolean;
  confirming: boolean;
  reference: string;
}) {
  const confirm = useConfirm();
  const submit = useSubmit();
  const amount = formatRupees(netPaise);
  const to = `${account.accountMasked}, ${account.bankName} (IFSC ${account.ifsc})`;
  const title = `Pay ${amount} to ${account.accountMasked}, ${account.bankName}?`;
  const description = `The net amount of the signed KFS, ${amount}, goes at once to the borrower's verified account ${to}. It cannot be called back from here.`;
  const here = `/admin/applications/${reference}`;
  if (confirming)
    return (
      <div className="space-y-3 rounded-lg border-2 border-brand-600 p-4" data-testid="disburse-confirmation">
        <h3 className="text-lg">Confirm the payout</h3>
        <FactRows
          rows={[
            ["Amount (net)", amount],
            ["To the account", account.accountMasked],
            ["Bank", `${account.bankName} (IFSC ${account.ifsc})`],
          ]}
        />
        <p className="text-sm text-slate-700">The money leaves at once. It cannot be called back from here.</p>
        <Form method="post" action={here} className="flex flex-col gap-3 sm:flex-row">
          <input type="hidden" name="intent" value="disburse" />
          <input type="hidden" name="confirm" value="yes" />
          <button className="btn-primary" data-testid="disburse-confirm">
            Yes, pay {amount}
          </button>
          <Link className="btn-secondary" to={here}>
            Cancel
          </Link>
        </Form>
      </div>
    );
  return (
    <Link
      className="btn-primary w-full"
      to={`${here}?disburse=confirm#disbursal-title`}
      data-testid="disburse"
      onClick={async (event) => {
        event.preventDefault();
        const yes = await confirm({ title, description, confirmLabel: `Yes, pay ${amount}`, cancelLabel: "Not now" });
        if (yes) void submit({ intent: "disburse", confirm: "yes" }, { method: "post", action: here });
      }}
    >
      {again ? `Send the payout again: ${amount}` : `Disburse ${amount}`}
    </Link>
  );
}
