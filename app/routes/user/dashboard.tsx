import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Link } from "../../lib/link.tsx";
import { DOCUMENT_KINDS } from "../../domain/kyc/documents.ts";
import { answerSchema } from "../../domain/review.ts";
import { answerRequest } from "../../server/review/answer.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { fittingStep, KIND_SEGMENT, type LoanKind, stepPath } from "../../domain/loans/application.ts";
import { IN_PROGRESS } from "../../domain/loans/lifecycle.ts";
import { applyOpenOn } from "../../server/loans/start.server.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { signedInContext } from "../../web/guards.server.ts";
import { QUICK_STEP_COUNT, unfinishedStep } from "../../domain/quick-start.ts";
import { nextDueAcross } from "../../server/loan-account/read.server.ts";
import { dashboardReads } from "../../server/borrowers/dashboard.server.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { Account, Device, KycCard } from "./dashboard/account.tsx";
import { Applications } from "./dashboard/applications.tsx";
import { autopayMissing } from "../../server/mandates/required.server.ts";
import { Requests } from "./dashboard/requests.tsx";
import type { Route } from "./+types/dashboard";
import { languageOf, pageMessages, pageMetaText } from "../../web/i18n.server.ts";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../i18n/use-translations.ts";
import type { Language } from "../../i18n/languages.ts";
import { msg } from "../../i18n/form-message.ts";

/** Where a new application of this kind starts (a POST there starts it). */
const startPath = (kind: LoanKind) => `/User/newLoan/${KIND_SEGMENT[kind]}`;

export async function loader({ context }: Route.LoaderArgs) {
  const { user, session } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const language = languageOf(context);
  const { applications, quickStart, requests, disbursals, loans, kyc } = user.mobileVerifiedAt
    ? await dashboardReads(services, user.id)
    : { applications: [], quickStart: null, requests: [], disbursals: [], loans: [], kyc: null };
  // Approved, but paid out only once autopay is active, and it is not yet (rarely more than one).
  const approved = applications.filter((a) => a.status === "approved");
  const waitingForAutopay = new Set(
    (await Promise.all(approved.map(async (a) => ((await autopayMissing(services, a)) ? a.reference : null)))).filter(Boolean),
  );
  const resume = unfinishedStep(quickStart);
  const due = nextDueAcross(loans);
  const overdueLoan = loans.find((l) => l.status === "active" && l.overduePaise + l.penalDuePaise > 0);
  // Whether a new application may start (the credit policy's stops on the borrower's own record), unless one is in progress.
  const inProgress = (kind: LoanKind) => applications.find((a) => a.product === kind && IN_PROGRESS.includes(a.status));
  // The borrower's own record, from the loans and applications listed here already (the policy's stops read nothing else).
  const rejected = applications.filter((a) => a.status === "rejected" && a.decidedAt).map((a) => todayIST(a.decidedAt as Date));
  const open =
    user.mobileVerifiedAt && !(inProgress("emi") && inProgress("salary_advance"))
      ? await applyOpenOn(
          services,
          {
            loans: loans
              .filter((l) => l.status === "active" || l.status === "written_off")
              .map((l) => ({
                status: l.status === "active" ? ("active" as const) : ("written_off" as const),
                dpd: l.dpd,
                overduePaise: l.overduePaise + l.penalDuePaise,
              })),
            applications: applications.filter((a) => a.status === "signed" || a.status === "under_review" || a.status === "approved"),
            lastRejectionOn: rejected.sort().at(-1) ?? null,
          },
          language,
        )
      : null;
  const apply = (kind: LoanKind) => {
    const a = inProgress(kind);
    if (a) return { kind, state: "continue" as const, href: stepPath(kind, a.reference, "Step0"), reasons: [] };
    return open && !open.open
      ? {
          kind,
          state: "closed" as const,
          href: null,
          // The credit policy's words, in the page's language (app/domain/credit-policy/words.ts).
          reasons: open.reasons.map((r) => ({ code: r.code, text: r.message })),
        }
      : { kind, state: "open" as const, href: startPath(kind), reasons: [] };
  };
  return {
    messages: pageMessages(context, ["dashboard", "profile", "loans", "applyFlow"]),
    meta: pageMetaText(context, "dashboard"),
    overdue: overdueLoan ? { paise: due.overduePaise, href: `${loanPath(overdueLoan.kind, overdueLoan.loanNumber)}#pay-title` } : null,
    apply: [apply("emi"), apply("salary_advance")],
    kyc: kyc
      ? {
          done: kyc.completeCount,
          of: kyc.sections.length,
          missing: kyc.sections.filter((x) => !x.complete).map((x) => x.name),
          salaryAdvanceReady: kyc.salaryAdvance.ready,
        }
      : null,
    loans: {
      count: loans.filter((l) => l.status === "active").length,
      overduePaise: due.overduePaise,
      next: due.next ? { ...due.next, href: loanPath(due.next.kind, due.next.loanNumber) } : null,
    },
    quickStart: resume === null ? null : { step: resume + 1 },
    requests: requests.map((r) => ({
      id: r.id,
      reference: r.reference,
      kind: r.product,
      document: r.documentKind ? DOCUMENT_KINDS[r.documentKind] : null,
      message: r.message,
      askedAt: r.askedAt.toISOString(),
    })),
    applications: applications.map((a) => {
      const kind = a.product;
      const status = a.status;
      const step = fittingStep({
        status,
        termsSaved: Boolean(a.termsSavedAt),
        detailsSaved: Boolean(a.detailsSavedAt),
        hasDocument: a.hasDocument,
      });
      return {
        reference: a.reference,
        kind,
        status,
        statusReason: a.statusReason,
        amountPaise: a.amountPaise,
        tenureMonths: a.tenureMonths,
        createdAt: a.createdAt.toISOString(),
        autopayFirst: waitingForAutopay.has(a.reference),
        next:
          status === "draft"
            ? { href: stepPath(kind, a.reference, step), what: "continue" as const, step }
            : waitingForAutopay.has(a.reference)
              ? { href: `${stepPath(kind, a.reference, "Step7")}#autopay-title`, what: "autopay" as const, step }
              : { href: stepPath(kind, a.reference, "Step7"), what: "status" as const, step },
        agreementRef: a.agreementRef,
        disbursal: disbursals.find((d) => d.reference === a.reference) ?? null,
      };
    }),
    mobile: user.mobile,
    mobileVerified: Boolean(user.mobileVerifiedAt),
    name: user.name,
    memberSince: user.createdAt.toISOString(),
    device: {
      id: session.deviceId,
      userAgent: session.userAgent ?? "",
      signedInAt: session.createdAt.toISOString(),
      ip: session.ip ?? "",
    },
  };
}

/** The borrower answers what the credit team asked (docs/product.md "Loan lifecycle"). */
export async function action({ request, context }: Route.ActionArgs) {
  const { user } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const submission = parseWithZod(await readForm(request), { schema: answerSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const answered = await answerRequest(services, {
    userId: user.id,
    requestId: submission.value.request,
    answer: submission.value.answer,
    client: context.get(requestContext),
  });
  if (!answered.ok && "fieldErrors" in answered) return data(submission.reply({ fieldErrors: answered.fieldErrors }), { status: 400 });
  return redirectWithToast(
    services.config,
    request,
    "/User/Dashboard",
    answered.ok
      ? { type: "success", title: msg("dashboard.requests.answered") }
      : { type: "error", title: msg("dashboard.requests.notOpen") },
  );
}
/** What the page's sections (./dashboard/) are given: the loader's data, the action's answer. */
export type Data = Route.ComponentProps["loaderData"];
export type ActionData = Route.ComponentProps["actionData"];

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const t = useTranslations("dashboard");
  const language = useLocale() as Language;
  const next = loaderData.loans.next;
  const nextValues = next
    ? {
        amount: formatRupees(next.amountPaise),
        date: longDate(next.dueDate, language),
        loanNumber: next.loanNumber,
        covered: formatRupees(next.coveredPaise),
        instalment: formatRupees(next.instalmentPaise),
      }
    : null;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">{loaderData.name ? t("hello", { name: loaderData.name }) : t("heading")}</h1>
      {loaderData.overdue ? (
        <section aria-labelledby="overdue-title" className="card border-danger-600" data-testid="overdue-first">
          <h2 id="overdue-title" className="text-xl text-danger-600">
            {t("overdue.heading", { amount: formatRupees(loaderData.overdue.paise) })}
          </h2>
          <p className="mt-2">{t("overdue.body")}</p>
          <Link className="btn-primary mt-4" to={loaderData.overdue.href}>
            {t("overdue.pay", { amount: formatRupees(loaderData.overdue.paise) })}
          </Link>
        </section>
      ) : null}
      {!loaderData.mobileVerified ? (
        <section aria-labelledby="verify-title" className="card border-amber-300 bg-amber-50">
          <h2 id="verify-title" className="text-xl">
            {t("verify.heading")}
          </h2>
          <p className="mt-2">{t("verify.body")}</p>
          <Link className="btn-primary mt-4" to="/quickStart/Otp?redirectTo=/User/Dashboard">
            {t("verify.button")}
          </Link>
        </section>
      ) : null}
      {loaderData.requests.length ? <Requests d={loaderData} actionData={actionData} /> : null}
      {loaderData.loans.count > 0 ? (
        <section aria-labelledby="due-title" className="card">
          <h2 id="due-title" className="text-xl">
            {t("loans.heading")}
          </h2>
          <p className="mt-2">
            {next && nextValues
              ? next.coveredPaise === 0
                ? t("loans.nextDue", nextValues)
                : next.amountPaise === 0
                  ? t("loans.nextCovered", nextValues)
                  : t("loans.nextPartlyCovered", nextValues)
              : t("loans.nothingDue")}
          </p>
          <p className="mt-4 flex flex-wrap gap-3">
            {next ? (
              <Link className={loaderData.overdue ? "btn-secondary" : "btn-primary"} to={next.href}>
                {t("loans.payNow")}
              </Link>
            ) : null}
            <Link className="btn-secondary" to="/User/Loans">
              {t("loans.all")}
            </Link>
          </p>
        </section>
      ) : null}
      {loaderData.quickStart ? (
        <section aria-labelledby="quick-title" className="card border-brand-300">
          <h2 id="quick-title" className="text-xl">
            {t("quickStart.heading")}
          </h2>
          <p className="mt-2 text-slate-700">
            {t(loaderData.quickStart.step > 1 ? "quickStart.nextSaved" : "quickStart.next", {
              step: String(loaderData.quickStart.step),
              count: String(QUICK_STEP_COUNT),
              title: t(`quickStart.steps.s${loaderData.quickStart.step as 1 | 2 | 3 | 4 | 5 | 6 | 7}`),
            })}
          </p>
          <Link className="btn-primary mt-4" to="/quickStart/components">
            {t("quickStart.continue")}
          </Link>
        </section>
      ) : null}
      {loaderData.mobileVerified ? <Applications d={loaderData} /> : null}
      {loaderData.kyc ? <KycCard kyc={loaderData.kyc} /> : null}
      <Account d={loaderData} />
      <Device device={loaderData.device} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
