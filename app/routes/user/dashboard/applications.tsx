import { Form, Link } from "react-router";
import { shortReference } from "../../../domain/loans/application.ts";
import { STATUS_TEXT, statusNext } from "../../../domain/loans/lifecycle.ts";
import { formatRupees } from "../../../domain/money.ts";
import { DisbursalNote } from "../../../components/loan-flow.tsx";
import type { Data } from "../dashboard.tsx";

// The dashboard's applications: each with its status and next step, then apply for a new loan or why not now.

export function Applications({ d }: { d: Data }) {
  return (
    <section aria-labelledby="loans-title" className="card space-y-4">
      <h2 id="loans-title" className="text-xl">
        Your applications
      </h2>
      {d.applications.length ? (
        <ul className="divide-y divide-slate-200" data-testid="applications">
          {d.applications.map((a) => (
            <li key={a.reference} className="space-y-1 py-3">
              <p className="font-semibold">
                {a.kindName}
                {a.amountPaise ? ` of ${formatRupees(a.amountPaise)}` : ""}
                {a.tenureMonths ? ` over ${a.tenureMonths} months` : ""}{" "}
                <span className="font-mono text-sm font-normal text-slate-600">application {shortReference(a.reference)}</span>
              </p>
              <p>
                Status: <strong>{STATUS_TEXT[a.status].label}</strong>.{" "}
                <span className="text-slate-700">
                  {a.autopayFirst
                    ? "Your loan is approved. We send the money as soon as your autopay is active: set it up on the application's page."
                    : statusNext(a.status, a.statusReason)}
                </span>
              </p>
              {a.disbursal ? <DisbursalNote d={a.disbursal} /> : null}
              <p className="flex flex-wrap gap-3">
                <Link className="link" to={a.next.href}>
                  {a.next.label}
                </Link>
                {a.agreementRef ? (
                  <Link className="link" to={`/Eagreement/${a.agreementRef}`}>
                    Signed agreement
                  </Link>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-700">You have no loan applications yet.</p>
      )}
      <ApplyButtons apply={d.apply} quiet={Boolean(d.overdue)} />
    </section>
  );
}

const APPLY_LABEL = {
  emi: { open: "Apply for an EMI loan", continue: "Continue your EMI loan application", closed: "A new EMI loan is not open to you now." },
  salary_advance: {
    open: "Apply for a salary advance",
    continue: "Continue your salary advance application",
    closed: "A new salary advance is not open to you now.",
  },
} as const;

/**
 * Apply (a POST: no page view starts an application), continue the one in progress, or why a new
 * one is not open now. `quiet`: something else leads the page (an overdue amount to pay).
 */
function ApplyButtons({ apply, quiet }: { apply: Data["apply"]; quiet: boolean }) {
  const closed = apply.filter((a) => a.state === "closed");
  return (
    <div className="space-y-3" data-testid="apply">
      <div className="flex flex-wrap gap-3">
        {apply.map((a, i) => {
          const style = i === 0 && !quiet ? "btn-primary" : "btn-secondary";
          if (a.state === "continue")
            return (
              <Link key={a.kind} className={style} to={a.href}>
                {APPLY_LABEL[a.kind].continue}
              </Link>
            );
          if (a.state === "open")
            return (
              <Form key={a.kind} method="post" action={a.href}>
                <button type="submit" className={style}>
                  {APPLY_LABEL[a.kind].open}
                </button>
              </Form>
            );
          return null;
        })}
      </div>
      {closed.length ? (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="apply-closed">
          <p className="font-medium">
            {closed.length === 2 ? "A new loan is not open to you now." : APPLY_LABEL[closed[0]?.kind ?? "emi"].closed}
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5" data-testid="apply-reasons">
            {(closed[0]?.reasons ?? []).map((r) => (
              <li key={r.code}>{r.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
