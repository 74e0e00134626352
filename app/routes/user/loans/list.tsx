import { Link } from "react-router";
import { servicesContext } from "../../../context.ts";
import { KIND_NAME, type LoanKind, stepPath } from "../../../domain/loans/application.ts";
import { STATUS_TEXT } from "../../../domain/loans/lifecycle.ts";
import { loanPath } from "../../../domain/loans/servicing.ts";
import { nextDueText } from "../../../domain/loans/next-due.ts";
import { formatRupees } from "../../../domain/money.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { listApplications } from "../../../server/loans/read.server.ts";
import { borrowerLoans } from "../../../server/loan-account/read.server.ts";
import { openRequestsFor } from "../../../server/review/read.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import type { Route } from "./+types/list";

/** What each list is called, whole: every loan, or one kind (/User/Loans/Emi, /User/Loans/SalaryAdvance). */
const LISTS = {
  all: { title: "Your loans", none: "You have no loans yet. When a loan is disbursed it shows here, with what is due and when." },
  emi: { title: "Your EMI loans", none: "You have no EMI loans yet. When one is disbursed it shows here, with what is due and when." },
  salary_advance: {
    title: "Your salary advances",
    none: "You have no salary advances yet. When one is disbursed it shows here, with what is due and when.",
  },
} as const;

/** The kind a list shows, from its path (matching ignores case). */
function kindOf(pathname: string): LoanKind | null {
  if (/\/loans\/emi\/?$/i.test(pathname)) return "emi";
  if (/\/loans\/salaryadvance\/?$/i.test(pathname)) return "salary_advance";
  return null;
}

/**
 * /User/Loans: the borrower's loans (status, next due, outstanding) and applications not yet
 * disbursed; /User/Loans/Emi and /User/Loans/SalaryAdvance: those of one kind. Only the signed-in
 * borrower's (both reads carry their id).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const kind = kindOf(new URL(request.url).pathname);
  const [allLoans, applications, requests] = await Promise.all([
    borrowerLoans(services, user.id),
    listApplications(services, user.id),
    openRequestsFor(services, user.id),
  ]);
  const asked = new Set(requests.map((r) => r.reference));
  const disbursed = new Set(allLoans.map((l) => l.reference));
  return {
    list: (kind ?? "all") as keyof typeof LISTS,
    loans: allLoans.filter((l) => !kind || l.kind === kind),
    applications: applications
      .filter((a) => !disbursed.has(a.reference) && (!kind || a.product === kind))
      .map((a) => ({
        reference: a.reference,
        kind: a.product,
        status: a.status,
        amountPaise: a.amountPaise,
        waitingForYou: asked.has(a.reference),
        href: stepPath(a.product, a.reference, a.status === "draft" ? "Step0" : "Step7"),
      })),
  };
}

export default function Loans({ loaderData }: Route.ComponentProps) {
  const { loans, applications, list } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <h1>{LISTS[list].title}</h1>
      {list !== "all" ? (
        <p>
          <Link className="link" to="/User/Loans">
            All your loans
          </Link>
        </p>
      ) : null}
      {loans.length === 0 ? (
        <p className="card">
          {LISTS[list].none}{" "}
          <Link className="link" to="/User/Dashboard">
            Go to your dashboard
          </Link>
        </p>
      ) : (
        <ul className="space-y-4">
          {loans.map((l) => (
            <li key={l.loanNumber} className="card space-y-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="text-xl">
                  <Link className="link" to={loanPath(l.kind, l.loanNumber)}>
                    {KIND_NAME[l.kind]} {l.loanNumber}
                  </Link>
                </h2>
                <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-800">
                  {STATUS_TEXT[l.status].label}
                </span>
              </div>
              <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
                <div>
                  <dt className="text-slate-600">Borrowed</dt>
                  <dd className="money">{formatRupees(l.principalPaise)}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">Principal outstanding</dt>
                  <dd className="money">{formatRupees(l.outstandingPrincipalPaise)}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">Next due</dt>
                  <dd className="font-semibold">{nextDueText(l.nextDue)}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">Overdue</dt>
                  <dd className={l.overduePaise > 0 ? "font-semibold text-danger-600" : "font-semibold"}>
                    {l.overduePaise > 0 ? `${formatRupees(l.overduePaise)}, ${l.dpd} days late` : "Nothing"}
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {applications.length > 0 ? (
        <section aria-labelledby="applications-title" className="space-y-3">
          <h2 id="applications-title">Applications</h2>
          <ul className="card divide-y divide-slate-200 py-1">
            {applications.map((a) => (
              <li key={a.reference} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <span>
                  {KIND_NAME[a.kind]} {a.amountPaise ? formatRupees(a.amountPaise) : ""}{" "}
                  <span className="text-sm text-slate-600">({STATUS_TEXT[a.status].label})</span>
                  {a.waitingForYou ? (
                    <span className="block font-medium text-amber-900" data-testid="application-waiting">
                      Waiting for you: the credit officer asked you for something. Open it to see what.
                    </span>
                  ) : null}
                </span>
                <Link className="link" to={a.href}>
                  Open
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, LISTS[loaderData?.list ?? "all"].title);
