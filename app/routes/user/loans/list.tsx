import { Link } from "../../../lib/link.tsx";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { servicesContext } from "../../../context.ts";
import { type LoanKind, stepPath } from "../../../domain/loans/application.ts";
import { loanPath } from "../../../domain/loans/servicing.ts";
import { formatRupees } from "../../../domain/money.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { listApplications } from "../../../server/loans/read.server.ts";
import { borrowerLoans } from "../../../server/loan-account/read.server.ts";
import { openRequestsFor } from "../../../server/review/read.server.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { NextDueText } from "./loan/next-due-text.tsx";
import type { Route } from "./+types/list";

/** The lists, each called by its own whole words (loans.lists): every loan, or one kind (/User/Loans/Emi, /User/Loans/SalaryAdvance). */
type List = "all" | LoanKind;

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
  const list: List = kind ?? "all";
  return {
    messages: pageMessages(context, ["loans"]),
    meta: { title: translatorFor(context, "loans")(`lists.${list}.title`) },
    list,
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
  const t = useTranslations("loans");
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <h1>{t(`lists.${list}.title`)}</h1>
      {list !== "all" ? (
        <p>
          <Link className="link" to="/User/Loans">
            {t("allLoans")}
          </Link>
        </p>
      ) : null}
      {loans.length === 0 ? (
        <p className="card">
          {t(`lists.${list}.none`)}{" "}
          <Link className="link" to="/User/Dashboard">
            {t("goToDashboard")}
          </Link>
        </p>
      ) : (
        <ul className="space-y-4">
          {loans.map((l) => (
            <li key={l.loanNumber} className="card space-y-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="text-xl">
                  <Link className="link" to={loanPath(l.kind, l.loanNumber)}>
                    {t("kindNumber", { kind: l.kind, loanNumber: l.loanNumber })}
                  </Link>
                </h2>
                <span className="rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-800">{t(`status.${l.status}`)}</span>
              </div>
              <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
                <div>
                  <dt className="text-slate-600">{t("figures.borrowed")}</dt>
                  <dd className="money">{formatRupees(l.principalPaise)}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">{t("figures.outstanding")}</dt>
                  <dd className="money">{formatRupees(l.outstandingPrincipalPaise)}</dd>
                </div>
                <div>
                  <dt className="text-slate-600">{t("figures.nextDue")}</dt>
                  <dd className="font-semibold">
                    <NextDueText next={l.nextDue} />
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-600">{t("figures.overdue")}</dt>
                  <dd className={l.overduePaise > 0 ? "font-semibold text-danger-600" : "font-semibold"}>
                    {l.overduePaise > 0 ? t("overdueLate", { amount: formatRupees(l.overduePaise), days: l.dpd }) : t("overdueNothing")}
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {applications.length > 0 ? (
        <section aria-labelledby="applications-title" className="space-y-3">
          <h2 id="applications-title">{t("applications.heading")}</h2>
          <ul className="card divide-y divide-slate-200 py-1">
            {applications.map((a) => (
              <li key={a.reference} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <span>
                  {a.amountPaise
                    ? t("applications.kindAmount", { kind: a.kind, amount: formatRupees(a.amountPaise) })
                    : t("applications.kind", { kind: a.kind })}{" "}
                  <span className="text-sm text-slate-600">({t(`status.${a.status}`)})</span>
                  {a.waitingForYou ? (
                    <span className="block font-medium text-amber-900" data-testid="application-waiting">
                      {t("applications.waiting")}
                    </span>
                  ) : null}
                </span>
                <Link className="link" to={a.href}>
                  {t("applications.open")}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
