import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { Field, FormErrors } from "../../components/field.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { DOCUMENT_KINDS } from "../../domain/kyc/documents.ts";
import { answerSchema } from "../../domain/review.ts";
import { answerRequest } from "../../server/review/answer.server.ts";
import { openRequestsFor } from "../../server/review/read.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import {
  fittingStep,
  KIND_NAME,
  KIND_SEGMENT,
  type LoanKind,
  shortReference,
  STEP_TITLES,
  stepPath,
} from "../../domain/loans/application.ts";
import { IN_PROGRESS, STATUS_TEXT, statusNext } from "../../domain/loans/lifecycle.ts";
import { applyOpenOn } from "../../server/loans/start.server.ts";
import { formatDateIST, formatDateTimeIST, todayIST } from "../../domain/india-date.ts";
import { formatRupees } from "../../domain/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { signedInContext } from "../../web/guards.server.ts";
import { QUICK_STEP_COUNT, QUICK_STEPS, unfinishedStep } from "../../domain/quick-start.ts";
import type { Route } from "./+types/dashboard";
import { listApplications } from "../../server/loans/read.server.ts";
import { loadCompleteness } from "../../server/kyc/completeness.server.ts";
import { ProgressBar } from "../../components/kyc-checklist.tsx";
import { SECTION_TITLES } from "../../domain/kyc/completeness.ts";
import { borrowerDisbursals } from "../../server/payouts/read.server.ts";
import { DisbursalNote } from "../../components/loan-flow.tsx";
import { quickStartProgress } from "../../server/quick-start/progress.server.ts";
import { borrowerLoans, nextDueAcross } from "../../server/loan-account/read.server.ts";
import { ReuploadNote } from "../../components/reupload-note.tsx";
import { nextDueSentence } from "../../domain/loans/next-due.ts";
import { loanPath } from "../../domain/loans/servicing.ts";

/** Where a new application of this kind starts (a POST there starts it). */
const startPath = (kind: LoanKind) => `/User/newLoan/${KIND_SEGMENT[kind]}`;

export async function loader({ context }: Route.LoaderArgs) {
  const { user, session } = context.get(signedInContext);
  const services = context.get(servicesContext);
  const [applications, quickStart, requests, disbursals, loans, kyc] = user.mobileVerifiedAt
    ? await Promise.all([
        listApplications(services, user.id),
        quickStartProgress(services, user.id),
        openRequestsFor(services, user.id),
        borrowerDisbursals(services, user.id),
        borrowerLoans(services, user.id),
        loadCompleteness(services, user.id),
      ])
    : [[], null, [], [], [], null];
  const resume = unfinishedStep(quickStart);
  const due = nextDueAcross(loans);
  const overdueLoan = loans.find((l) => l.status === "active" && l.overduePaise + l.penalDuePaise > 0);
  // Whether a new application may start (the credit policy's stops on the borrower's own record), unless one is in progress.
  const inProgress = (kind: LoanKind) => applications.find((a) => a.product === kind && IN_PROGRESS.includes(a.status));
  // The borrower's own record, from the loans and applications listed here already (the policy's stops read nothing else).
  const rejected = applications.filter((a) => a.status === "rejected" && a.decidedAt).map((a) => todayIST(a.decidedAt as Date));
  const open =
    user.mobileVerifiedAt && !(inProgress("emi") && inProgress("salary_advance"))
      ? await applyOpenOn(services, {
          loans: loans
            .filter((l) => l.status === "active" || l.status === "written_off")
            .map((l) => ({
              status: l.status === "active" ? ("active" as const) : ("written_off" as const),
              dpd: l.dpd,
              overduePaise: l.overduePaise + l.penalDuePaise,
            })),
          applications: applications.filter((a) => a.status === "signed" || a.status === "under_review" || a.status === "approved"),
          lastRejectionOn: rejected.sort().at(-1) ?? null,
        })
      : null;
  const apply = (kind: LoanKind) => {
    const a = inProgress(kind);
    if (a) return { kind, state: "continue" as const, href: stepPath(kind, a.reference, "Step0"), reasons: [] };
    return open && !open.open
      ? { kind, state: "closed" as const, href: null, reasons: open.reasons }
      : { kind, state: "open" as const, href: startPath(kind), reasons: [] };
  };
  return {
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
    quickStart: resume === null ? null : { step: resume + 1, title: QUICK_STEPS[resume]?.title ?? "" },
    requests: requests.map((r) => ({
      id: r.id,
      reference: r.reference,
      kindName: KIND_NAME[r.product],
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
        kindName: KIND_NAME[kind],
        status,
        statusReason: a.statusReason,
        amountPaise: a.amountPaise,
        tenureMonths: a.tenureMonths,
        createdAt: a.createdAt.toISOString(),
        next:
          status === "draft"
            ? { href: stepPath(kind, a.reference, step), label: `Continue: ${STEP_TITLES[step].toLowerCase()}` }
            : { href: stepPath(kind, a.reference, "Step7"), label: "See status" },
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
      ? { type: "success", title: "Thank you. Your answer is with the credit officer." }
      : { type: "error", title: "That request is no longer open." },
  );
}

const formatMobile = (m: string | null) => (m ? `+91 ${m.slice(0, 5)} ${m.slice(5)}` : "not added yet");

/** A short description of the browser from its user agent. */
function describeBrowser(ua: string) {
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Chrome\//.test(ua)
      ? "Chrome"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Safari\//.test(ua)
          ? "Safari"
          : "a browser";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

function WaitingForYou({
  request: r,
  lastResult,
}: {
  request: Route.ComponentProps["loaderData"]["requests"][number];
  lastResult: Route.ComponentProps["actionData"];
}) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: `answer-${r.id}`,
    schema: answerSchema,
    lastResult: lastResult?.initialValue?.request === r.id ? lastResult : undefined,
  });
  return (
    <li className="space-y-3" data-testid="waiting-for-you">
      <p>
        <strong>
          {r.kindName} <span className="font-mono text-sm font-normal">{shortReference(r.reference)}</span>
        </strong>
        , asked on {formatDateIST(new Date(r.askedAt))}:
      </p>
      <blockquote className="border-l-4 border-amber-400 pl-3 whitespace-pre-line">{r.message}</blockquote>
      {r.document ? <ReuploadNote document={r.document} answer="below" /> : null}
      <Form method="post" className="space-y-3" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <input type="hidden" name="request" value={r.id} />
        <Field
          id={fields.answer.id}
          label={r.document ? "A note for the officer (optional)" : "Your answer"}
          errors={fields.answer.errors}
          errorId={fields.answer.errorId}
        >
          <textarea className="field-input min-h-24 bg-white" rows={3} {...getTextareaProps(fields.answer)} />
        </Field>
        <button type="submit" className="btn-primary" disabled={busy}>
          {r.document ? "I have uploaded it: send" : "Send answer"}
        </button>
      </Form>
    </li>
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
function ApplyButtons({ apply, quiet }: { apply: Route.ComponentProps["loaderData"]["apply"]; quiet: boolean }) {
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

function KycCard({ kyc }: { kyc: NonNullable<Route.ComponentProps["loaderData"]["kyc"]> }) {
  const complete = kyc.done === kyc.of;
  return (
    <section aria-labelledby="kyc-title" className="card" data-testid="kyc-card">
      <h2 id="kyc-title" className="text-xl">
        Your KYC profile
      </h2>
      <p className="mt-2 font-medium text-slate-900">
        {kyc.done} of {kyc.of} sections complete
      </p>
      <div className="mt-2">
        <ProgressBar done={kyc.done} of={kyc.of} label="KYC sections complete" />
      </div>
      <p className="mt-2 text-slate-700">
        {complete
          ? `Your profile is complete: ${kyc.salaryAdvanceReady ? "you can apply for either loan" : "you can apply for an EMI loan (a salary advance is for salaried people)"}. Keep it up to date if anything changes.`
          : `Still to do: ${kyc.missing.map((m) => SECTION_TITLES[m]).join(", ")}.`}
      </p>
      <Link className={complete ? "btn-secondary mt-4" : "btn-primary mt-4"} to="/User/Profile">
        {complete ? "View your profile" : "See what is missing"}
      </Link>
    </section>
  );
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { device } = loaderData;
  const signedInAt = new Date(device.signedInAt);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl sm:text-3xl">{loaderData.name ? `Hello, ${loaderData.name}` : "Your dashboard"}</h1>
      {loaderData.overdue ? (
        <section aria-labelledby="overdue-title" className="card border-danger-600" data-testid="overdue-first">
          <h2 id="overdue-title" className="text-xl text-danger-600">
            {formatRupees(loaderData.overdue.paise)} is overdue
          </h2>
          <p className="mt-2">
            Penal charges included. Paying it now stops further charges and keeps your credit history clean; a new loan opens once your
            loans are up to date.
          </p>
          <Link className="btn-primary mt-4" to={loaderData.overdue.href}>
            Pay {formatRupees(loaderData.overdue.paise)} overdue
          </Link>
        </section>
      ) : null}
      {!loaderData.mobileVerified ? (
        <section aria-labelledby="verify-title" className="card border-amber-300 bg-amber-50">
          <h2 id="verify-title" className="text-xl">
            Verify your mobile number
          </h2>
          <p className="mt-2">You signed in with Facebook. Add and verify your mobile number before you apply for a loan.</p>
          <Link className="btn-primary mt-4" to="/quickStart/Otp?redirectTo=/User/Dashboard">
            Verify mobile number
          </Link>
        </section>
      ) : null}
      {loaderData.requests.length ? (
        <section aria-labelledby="waiting-title" className="card border-amber-300 bg-amber-50">
          <h2 id="waiting-title" className="text-xl">
            Waiting for you
          </h2>
          <p className="mt-1 text-slate-700">Our credit team needs one more thing before it can decide your application.</p>
          <ul className="mt-4 space-y-6">
            {loaderData.requests.map((r) => (
              <WaitingForYou key={r.id} request={r} lastResult={actionData} />
            ))}
          </ul>
        </section>
      ) : null}
      {loaderData.loans.count > 0 ? (
        <section aria-labelledby="due-title" className="card">
          <h2 id="due-title" className="text-xl">
            Your loans
          </h2>
          <p className="mt-2">{loaderData.loans.next ? nextDueSentence(loaderData.loans.next) : "Nothing more is due on your loans."}</p>
          <p className="mt-4 flex flex-wrap gap-3">
            {loaderData.loans.next ? (
              <Link className={loaderData.overdue ? "btn-secondary" : "btn-primary"} to={loaderData.loans.next.href}>
                Pay now
              </Link>
            ) : null}
            <Link className="btn-secondary" to="/User/Loans">
              All your loans
            </Link>
          </p>
        </section>
      ) : null}
      {loaderData.quickStart ? (
        <section aria-labelledby="quick-title" className="card border-brand-300">
          <h2 id="quick-title" className="text-xl">
            Finish your quick start
          </h2>
          <p className="mt-2 text-slate-700">
            {loaderData.quickStart.step > 1 ? "Your answers are saved. " : ""}Next: step {loaderData.quickStart.step} of {QUICK_STEP_COUNT},{" "}
            {loaderData.quickStart.title.toLowerCase()}.
          </p>
          <Link className="btn-primary mt-4" to="/quickStart/components">
            Continue the quick start
          </Link>
        </section>
      ) : null}
      {loaderData.mobileVerified ? (
        <section aria-labelledby="loans-title" className="card space-y-4">
          <h2 id="loans-title" className="text-xl">
            Your applications
          </h2>
          {loaderData.applications.length ? (
            <ul className="divide-y divide-slate-200" data-testid="applications">
              {loaderData.applications.map((a) => (
                <li key={a.reference} className="space-y-1 py-3">
                  <p className="font-semibold">
                    {a.kindName}
                    {a.amountPaise ? ` of ${formatRupees(a.amountPaise)}` : ""}
                    {a.tenureMonths ? ` over ${a.tenureMonths} months` : ""}{" "}
                    <span className="font-mono text-sm font-normal text-slate-600">application {shortReference(a.reference)}</span>
                  </p>
                  <p>
                    Status: <strong>{STATUS_TEXT[a.status].label}</strong>.{" "}
                    <span className="text-slate-700">{statusNext(a.status, a.statusReason)}</span>
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
          <ApplyButtons apply={loaderData.apply} quiet={Boolean(loaderData.overdue)} />
        </section>
      ) : null}
      {loaderData.kyc ? <KycCard kyc={loaderData.kyc} /> : null}
      <section aria-labelledby="account-title" className="card">
        <h2 id="account-title" className="text-xl">
          Your account
        </h2>
        <dl className="mt-3 grid gap-2 sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium text-slate-600">Signed in as</dt>
          <dd data-testid="signed-in-mobile">{formatMobile(loaderData.mobile)}</dd>
          <dt className="font-medium text-slate-600">Member since</dt>
          <dd>{formatDateIST(new Date(loaderData.memberSince))}</dd>
        </dl>
      </section>
      <section aria-labelledby="device-title" className="card">
        <h2 id="device-title" className="text-xl">
          This device
        </h2>
        <dl className="mt-3 grid gap-2 sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium text-slate-600">Browser</dt>
          <dd>{describeBrowser(device.userAgent)}</dd>
          <dt className="font-medium text-slate-600">Signed in</dt>
          <dd>{formatDateTimeIST(signedInAt)} (India time)</dd>
        </dl>
        <p className="mt-3 text-sm text-slate-600">
          Your account is signed in on one device at a time. Signing in somewhere else signs this device out.
        </p>
        <Form method="post" action="/auth/sign-out" className="mt-4">
          <button type="submit" className="btn-secondary">
            Sign out
          </button>
        </Form>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Dashboard");
