import { getFormProps, getTextareaProps } from "@conform-to/react";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, Form, Link, useNavigation, useRevalidator, useSubmit } from "react-router";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { Field, FormErrors, SelectField, TextAreaField } from "../../components/field.tsx";
import { FactRows, PdfFrame } from "../../components/loan-flow.tsx";
import { KeptEvaluations, PolicyRules } from "../../components/policy-table.tsx";
import { ApproveArea, type ApproveState } from "../../components/review-approve.tsx";
import { STAFF_VERDICT } from "../../domain/credit-policy/words.ts";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { DOCUMENT_KINDS } from "../../domain/kyc/documents.ts";
import { GENDERS, MARITAL_STATUSES, maskAadhaar } from "../../domain/kyc/profile-schema.ts";
import { RESIDENCE_TYPES } from "../../domain/kyc/address-employment-schema.ts";
import { ACCOUNT_TYPES, RELATIONS } from "../../domain/kyc/references-bank-schema.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import { KIND_NAME, parseReference, shortReference } from "../../domain/loans/application.ts";
import { accountMatchesAgreement, PAYOUT_STATUS_LABEL } from "../../domain/loans/disbursal.ts";
import { STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import { formatRupees } from "../../domain/money.ts";
import {
  askSchema,
  BUREAU_BANDS,
  bureauBand,
  CHECKLIST,
  CHECKLIST_ITEMS,
  checklistSchema,
  deviationSchema,
  formatWorkingAge,
  REJECTION_REASONS,
  rejectSchema,
  workingMinutesBetween,
} from "../../domain/review.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { askBorrower } from "../../server/review/ask.server.ts";
import { saveChecklist } from "../../server/review/checklist.server.ts";
import { decideApplication } from "../../server/review/decide.server.ts";
import { requestDisbursal } from "../../server/payouts/disburse.server.ts";
import { instalmentsOf } from "../../server/loan-account/account.server.ts";
import { payoutsFor } from "../../server/payouts/read.server.ts";
import { staffCheckPayout } from "../../server/payouts/check.server.ts";
import { reviewDetails } from "../../server/review/read.server.ts";
import { refetchCreditChecks } from "../../server/review/credit-checks.server.ts";
import { takeApplication } from "../../server/review/take.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import type { Route } from "./+types/application";

/** The review page (docs/product.md "Credit review and decision"): every role may read it; deciding needs applications.decide. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("applications.view")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const reference = parseReference(params.ref);
  const details = reference ? await reviewDetails(services, reference) : null;
  if (!details) notFoundFullPath(request);
  const a = details.found.application;
  const url = new URL(request.url);
  const docId = url.searchParams.get("doc");
  const viewing = details.documents.find((d) => d.id === docId) ?? null;
  const role = user.role as StaffRole;
  const [payouts, instalments] = await Promise.all([payoutsFor(services, a.id), instalmentsOf(services, a.id)]);
  return {
    ...details,
    viewing,
    me: user.id,
    mayDecide: can(role, "applications.decide"),
    mayDeviate: can(role, "policy.deviate"),
    mayDisburse: can(role, "payouts.manage"),
    payouts,
    instalments,
    payoutProvider: services.payouts.name,
    /** The disbursal's confirmation step (the page without JavaScript; with it, a dialog asks the same). */
    confirmingDisbursal: url.searchParams.get("disburse") === "confirm",
    ageMinutes: a.signedAt ? workingMinutesBetween(a.signedAt, a.decidedAt ?? services.now(), services.config.holidays) : null,
  };
}

type Intent =
  "take" | "take_over" | "checks" | "checklist" | "ask" | "approve" | "confirm_deviation" | "reject" | "disburse" | "payout_check";
/** What operations do here; everything else is the credit officer's (a deviation's second approver: policy.deviate). */
const PAYOUT_INTENTS: readonly string[] = ["disburse", "payout_check"];
const permissionFor = (intent: Intent) =>
  PAYOUT_INTENTS.includes(intent) ? "payouts.manage" : intent === "confirm_deviation" ? "policy.deviate" : "applications.decide";

const REFUSED: Record<string, string> = {
  not_found: "There is no such application.",
  not_open: "This application is no longer waiting for a decision.",
  taken_by_other: "Another officer took this application a moment ago. Take it over if you mean to.",
  already_yours: "This application is already yours.",
  not_yours: "Take this application first: it is under review by another officer.",
  checklist_incomplete: "Tick every item of the checklist before approving.",
  waiting_for_borrower: "The borrower has not answered what you asked yet.",
  already_asked: "The borrower has not answered your last request yet: one request at a time.",
  not_approved: "Only an approved application can be disbursed.",
  four_eyes: "You approved this application, so someone else must disburse it (four eyes).",
  in_flight: "A payout for this loan is already on its way; nothing more was sent.",
  already_disbursed: "This loan is already disbursed; nothing more was sent.",
  account_unverified: "The borrower's bank account is not verified: nothing was sent.",
  account_changed: "The Bank section no longer holds the account named in the signed agreement: nothing was sent.",
  not_signed: "There is no signed agreement to disburse against.",
  terms_unknown: "The signed terms cannot be read back exactly (a KFS from before they were stored): nothing was sent.",
  not_waiting: "This payout is not waiting for an answer any more.",
  provider_silent: "The payout provider did not answer. The payout stays requested and is asked about again shortly.",
  policy_refuses: "The credit policy refuses this application: it cannot be approved.",
  checks_missing: "A check the credit policy needs is missing: fetch the missing checks first.",
  deviation_reason_needed: "This approval is a deviation from the credit policy: write why it is acceptable.",
  no_deviation: "There is no deviation waiting for a second approver.",
  same_approver: "You proposed this deviation: a second approver, not you, confirms it.",
  sent_back:
    "The credit policy now allows less than was signed: the application went back to the borrower to choose the amount again and sign a fresh KFS.",
  policy_stops:
    "The credit policy stops this disbursal now (a loan of the borrower's overdue or written off, too many loans, or too much outstanding): nothing was sent. The page's policy table says which.",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const client = context.get(requestContext);
  const reference = parseReference(params.ref);
  if (!reference) notFoundFullPath(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "") as Intent;
  const { user } = assertCan(context, permissionFor(intent));
  const staff = { id: user.id, role: user.role as StaffRole };
  const here = `/admin/applications/${reference}`;
  const answer = async (result: { ok: true } | { ok: false; reason: string }, done: string) => {
    if (!result.ok && result.reason === "not_found") notFoundFullPath(request);
    return redirectWithToast(
      services.config,
      request,
      here,
      result.ok ? { type: "success", title: done } : { type: "error", title: REFUSED[result.reason] ?? "That could not be done." },
    );
  };
  switch (intent) {
    case "take":
    case "take_over": {
      const taken = await takeApplication(services, { staff, reference, takeOver: intent === "take_over", client });
      // A second click (or a retried request) on an application already taken by this officer is no error.
      const ok = taken.ok || taken.reason === "already_yours" ? ({ ok: true } as const) : taken;
      return answer(ok, taken.ok && taken.tookOver ? "You have taken over this application." : "The application is yours to review.");
    }
    case "checks":
      return answer(await refetchCreditChecks(services, { staff, reference }), "Fetching the checks: they appear here in a few seconds.");
    case "checklist": {
      const parsed = checklistSchema.safeParse({ items: form.getAll("items") });
      if (!parsed.success) throw data({ message: "That is not an item of the checklist." }, { status: 400 });
      const saved = await saveChecklist(services, { staff, reference, ticked: parsed.data.items, client });
      return answer(saved, "Checklist saved.");
    }
    case "ask": {
      const submission = parseWithZod(form, { schema: askSchema });
      if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
      const asked = await askBorrower(services, { staff, reference, ...submission.value, client });
      return answer(asked, "Sent. The borrower has an SMS and sees your request on their dashboard.");
    }
    case "approve": {
      // With a reason only from the deviation form; the plain Approve sends none.
      const withReason = form.has("deviationReason");
      const submission = parseWithZod(form, { schema: deviationSchema });
      if (withReason && submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
      const deviationReason = submission.status === "success" ? submission.value.deviationReason : null;
      const decided = await decideApplication(services, {
        staff,
        reference,
        decision: { kind: "approve", deviationReason },
        client,
      });
      if (decided.ok && decided.deviationProposed)
        return answer(decided, "Approved on your part. A second approver, not you, confirms the deviation before the loan is approved.");
      return answer(decided, "Approved. The borrower has an SMS.");
    }
    case "confirm_deviation":
      return answer(
        await decideApplication(services, { staff, reference, decision: { kind: "confirm_deviation" }, client }),
        "Deviation confirmed: the application is approved. The borrower has an SMS.",
      );
    case "reject": {
      const submission = parseWithZod(form, { schema: rejectSchema });
      if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
      const decided = await decideApplication(services, {
        staff,
        reference,
        decision: { kind: "reject", ...submission.value },
        client,
      });
      return answer(decided, "Rejected. The borrower has an SMS with the reason.");
    }
    case "disburse":
      // Money leaves on the second step only: the amount and the account seen and confirmed.
      if (form.get("confirm") !== "yes")
        return redirectWithToast(services.config, request, `${here}?disburse=confirm#disbursal-title`, {
          type: "info",
          title: "Check the amount and the account, then confirm the payout. Nothing was sent.",
        });
      return answer(
        await requestDisbursal(services, { staff, reference, client }),
        "Payout requested. The loan becomes active when the bank confirms it.",
      );
    case "payout_check": {
      const asked = await staffCheckPayout(services, { staff, client, reference, payoutId: String(form.get("payout") ?? "") });
      if (!asked.ok) return answer(asked, "");
      return answer(
        { ok: true },
        asked.state === "pending" || asked.state === "unchanged"
          ? "Asked: the bank has not answered yet."
          : `The payout is ${asked.state}.`,
      );
    }
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

type Data = Route.ComponentProps["loaderData"];

/** A stored code in the words the borrower chose it by ("rented" → "Rented"); the code itself only if unknown. */
const labelOf = (labels: Record<string, string>, code: string | null | undefined) =>
  code ? (Object.hasOwn(labels, code) ? (labels[code] ?? code) : code) : "—";

export default function ApplicationReview({ loaderData, actionData }: Route.ComponentProps) {
  const d = loaderData;
  const a = d.found.application;
  const mine = a.status === "under_review" && a.assignedTo === d.me;
  const name = staffBorrowerName({ fullName: d.profile?.fullName, mobile: d.found.mobile });
  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <p>
          <Link className="link" to="/admin/applications">
            ← Applications
          </Link>
        </p>
        <h1 className="text-2xl sm:text-3xl">
          {name} · {KIND_NAME[a.product]} {a.amountPaise ? `of ${formatRupees(a.amountPaise)}` : ""}
        </h1>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-slate-700">
          <span className="font-mono">{shortReference(a.reference)}</span>
          <span>
            Status: <strong data-testid="review-status">{STATUS_TEXT[a.status].label}</strong>
          </span>
          <span data-testid="review-officer">
            Officer: {a.assignedTo ? (a.assignedTo === d.me ? "you" : (d.found.assigneeName ?? "another officer")) : "not taken"}
          </span>
          {d.ageMinutes !== null ? <span>Waiting: {formatWorkingAge(d.ageMinutes)} (working time)</span> : null}
          <span>Mobile: +91 {d.found.mobile}</span>
        </p>
        <TakeBar data={d} />
      </header>
      <div className="grid gap-6 lg:grid-cols-[1fr_24rem] lg:items-start">
        <div className="min-w-0 space-y-6">
          <Borrower data={d} />
          <Documents data={d} />
          <Checks data={d} />
          <Policy data={d} />
          <Signed data={d} />
          <Requests data={d} />
          <History data={d} />
        </div>
        <aside className="space-y-6 lg:sticky lg:top-4" aria-label="Decision">
          <Checklist data={d} mine={mine} />
          {d.mayDecide && mine ? <AskForm data={d} actionData={actionData} /> : null}
          <Decision data={d} mine={mine} actionData={actionData} />
          <Disbursal data={d} />
        </aside>
      </div>
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="card space-y-3" aria-labelledby={id}>
      <h2 id={id} className="text-xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

function TakeBar({ data: d }: { data: Data }) {
  const a = d.found.application;
  if (!d.mayDecide) return <p className="text-sm text-slate-600">Your role can read this application; credit officers decide it.</p>;
  if (a.status === "signed") {
    return (
      <Form method="post">
        <button className="btn-primary" name="intent" value="take">
          Take for review
        </button>
      </Form>
    );
  }
  if (a.status === "under_review" && a.assignedTo !== d.me) {
    return (
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <span>{d.found.assigneeName ?? "Another officer"} is reviewing this application.</span>
        <button className="btn-secondary" name="intent" value="take_over">
          Take over
        </button>
      </Form>
    );
  }
  return null;
}

function Borrower({ data: d }: { data: Data }) {
  const p = d.profile;
  const ad = d.address;
  const e = d.employment;
  const b = d.bank;
  const line = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(", ");
  return (
    <>
      <Section id="profile-title" title="Profile">
        {p ? (
          <FactRows
            rows={[
              ["Name", p.fullName],
              ["Date of birth", longDate(p.dateOfBirth)],
              ["Gender", labelOf(GENDERS, p.gender)],
              ["Marital status", labelOf(MARITAL_STATUSES, p.maritalStatus)],
              ["E-mail", p.email ?? "—"],
              ["PAN", p.panMasked],
              ["Aadhaar", p.aadhaarLast4 ? maskAadhaar(p.aadhaarLast4) : "—"],
            ]}
          />
        ) : (
          <p>Not given.</p>
        )}
      </Section>
      <Section id="address-title" title="Address">
        {ad ? (
          <FactRows
            rows={[
              ["Current", line(ad.currentLine1, ad.currentLine2, ad.currentCity, ad.currentDistrict, ad.currentState, ad.currentPincode)],
              [
                "Residence",
                line(
                  ad.residenceType ? labelOf(RESIDENCE_TYPES, ad.residenceType) : null,
                  ad.yearsAtAddress !== null ? `${ad.yearsAtAddress} years there` : null,
                ) || "—",
              ],
              [
                "Permanent",
                ad.permanentSame
                  ? "Same as current"
                  : line(
                      ad.permanentLine1,
                      ad.permanentLine2,
                      ad.permanentCity,
                      ad.permanentDistrict,
                      ad.permanentState,
                      ad.permanentPincode,
                    ) || "—",
              ],
            ]}
          />
        ) : (
          <p>Not given.</p>
        )}
      </Section>
      <Section id="employment-title" title="Employment and income">
        {e ? (
          <FactRows
            rows={[
              ["Type", e.employmentType === "salaried" ? "Salaried" : "Self-employed"],
              ["Employer", line(e.employerName, e.designation) || "—"],
              ["Net monthly income", formatRupees(e.netMonthlyIncomePaise)],
              ["Existing EMIs a month", e.existingEmiPaise !== null ? formatRupees(e.existingEmiPaise) : "—"],
              ["Salary day", e.salaryDay ? String(e.salaryDay) : "—"],
              ["With this employer", e.monthsWithEmployer !== null ? `${e.monthsWithEmployer} months` : "—"],
            ]}
          />
        ) : (
          <p>Not given.</p>
        )}
      </Section>
      <Section id="bank-title" title="Bank account">
        {b ? (
          <>
            <FactRows
              rows={[
                ["Holder (as typed)", b.holderName],
                ["Account", `${b.accountMasked} (${labelOf(ACCOUNT_TYPES, b.accountType)})`],
                ["Bank", `${b.bankName}, ${b.ifsc}`],
                ["Name at the bank", b.nameAtBank ?? "—"],
                ["Name match", b.nameMatchScore !== null ? `${b.nameMatchScore} of 100` : "—"],
              ]}
            />
            <p className={b.verifiedAt ? "font-semibold text-money-700" : "font-semibold text-danger-600"} data-testid="bank-verified">
              {b.verifiedAt ? `Verified on ${formatDateTimeIST(b.verifiedAt)}` : "Not verified"}
            </p>
            <AccountNamedInAgreement data={d} />
          </>
        ) : (
          <p>Not given.</p>
        )}
      </Section>
      <Section id="references-title" title="References">
        {d.references.length ? (
          <ul className="space-y-1">
            {d.references.map((r) => (
              <li key={r.position}>
                {r.name} ({labelOf(RELATIONS, r.relation)}), +91 {r.mobile}
              </li>
            ))}
          </ul>
        ) : (
          <p>None given.</p>
        )}
      </Section>
    </>
  );
}

/** The account named in the signed agreement, when it differs from the Bank section now. */
function AccountNamedInAgreement({ data: d }: { data: Data }) {
  const chosen = d.found.application.disbursalAccount;
  if (!chosen || !d.bank || accountMatchesAgreement(chosen, d.bank)) return null;
  return (
    <p className="font-semibold text-danger-600">
      The agreement names {chosen.accountMasked} ({chosen.ifsc}); the Bank section now holds a different account.
    </p>
  );
}

function Documents({ data: d }: { data: Data }) {
  const v = d.viewing;
  return (
    <Section id="documents-title" title="Documents and selfie">
      <p className="text-sm text-slate-600">Each document you open is recorded in the audit log.</p>
      {d.documents.length ? (
        <ul className="divide-y divide-slate-200">
          {d.documents.map((doc) => (
            <li key={doc.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                {DOCUMENT_KINDS[doc.kind]}
                <span className="block text-sm text-slate-600">
                  {doc.contentType === "application/pdf" ? "PDF" : "Image"}, {Math.ceil(doc.sizeBytes / 1024)} kB, uploaded{" "}
                  {formatDateTimeIST(doc.uploadedAt)}
                </span>
              </span>
              <Link
                className="btn-secondary"
                to={`?doc=${doc.id}#viewer`}
                preventScrollReset
                aria-current={v?.id === doc.id ? "true" : undefined}
              >
                View<span className="sr-only"> {DOCUMENT_KINDS[doc.kind]}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p>No documents uploaded.</p>
      )}
      {v ? (
        <figure id="viewer" className="space-y-2" data-testid="document-viewer">
          <figcaption className="font-semibold">{DOCUMENT_KINDS[v.kind]}</figcaption>
          {v.contentType === "application/pdf" ? (
            <PdfFrame title={DOCUMENT_KINDS[v.kind]} src={`/admin/documents/${v.id}`} />
          ) : (
            <img
              src={`/admin/documents/${v.id}`}
              alt={DOCUMENT_KINDS[v.kind]}
              className="max-h-[70vh] rounded-lg border border-slate-300"
            />
          )}
          <a className="link text-sm" href={`/admin/documents/${v.id}`} target="_blank" rel="noreferrer">
            Open in a new tab
          </a>
        </figure>
      ) : null}
    </Section>
  );
}

function Checks({ data: d }: { data: Data }) {
  const pan = d.pan;
  const bureau = d.bureau;
  const band = bureau ? BUREAU_BANDS[bureauBand(bureau.score)] : null;
  const a = d.found.application;
  const missing = !pan || !bureau;
  // The checks are fetched by a job after the application is taken: look again every few seconds for a minute.
  const revalidator = useRevalidator();
  const waiting = missing && a.status === "under_review";
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      if (++tries > 20) clearInterval(timer);
      else void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting]);
  return (
    <Section id="checks-title" title="PAN verification and credit bureau">
      {pan ? (
        <FactRows
          rows={[
            [
              "PAN",
              pan.status === "valid"
                ? "Valid, an individual's PAN"
                : pan.status === "not_individual"
                  ? "Not an individual's PAN"
                  : "Not found on record",
            ],
            ["Name on record", pan.nameOnRecord ? `${pan.nameOnRecord} (match ${pan.nameMatch} of 100)` : "—"],
            ["Date of birth", pan.dateOfBirthMatches ? "Matches" : "Does not match"],
            ["Checked", `${formatDateTimeIST(pan.checkedAt)} · ${pan.provider} · ${pan.reference}`],
          ]}
        />
      ) : (
        <p>
          PAN not verified yet
          {a.status === "signed" ? ": it runs when the application is taken." : waiting ? ": fetching, this takes a few seconds." : "."}
        </p>
      )}
      {bureau && band ? (
        <div data-testid="bureau">
          <FactRows
            rows={[
              ["Score", bureau.score === null ? "No score" : String(bureau.score)],
              ["Band", band.label],
              ["Accounts", `${bureau.activeAccounts} active, ${bureau.overdueAccounts} overdue`],
              [
                "EMIs reported",
                bureau.monthlyEmiPaise === undefined ? "Not in this report" : `${formatRupees(bureau.monthlyEmiPaise)} a month`,
              ],
              [
                "Written off or 90+ days past due in 12 months",
                bureau.seriousDelinquency === undefined ? "Not in this report" : bureau.seriousDelinquency ? "Yes" : "No",
              ],
              ["Enquiries in 6 months", String(bureau.enquiriesLast6Months)],
              ["Report", `${formatDateTimeIST(bureau.checkedAt)} · ${bureau.provider} · ${bureau.reference}`],
            ]}
          />
          <p className="mt-2 text-sm text-slate-700">{band.hint}</p>
        </div>
      ) : (
        <p>No bureau report yet.</p>
      )}
      {missing && a.status === "under_review" && d.mayDecide ? (
        <Form method="post">
          <button className="btn-secondary" name="intent" value="checks">
            Fetch the missing checks
          </button>
        </Form>
      ) : null}
    </Section>
  );
}

/** The credit policy on the amount signed, now (the version in force, the latest checks), and the judgements kept. */
function Policy({ data: d }: { data: Data }) {
  const p = d.policy;
  const v = p.now?.verdict;
  return (
    <Section id="policy-title" title="Credit policy">
      {v ? (
        <>
          <p
            data-testid="policy-verdict"
            className={v.result === "pass" ? "font-semibold text-money-700" : "font-semibold text-danger-600"}
          >
            {STAFF_VERDICT[p.now?.sendsBack ? "sends_back" : v.result]} Policy version {v.version}; at most {formatRupees(v.maxAmountPaise)}{" "}
            at this tenure.
          </p>
          <PolicyRules rules={v.rules} label="The credit policy's rules on this application now, table" />
        </>
      ) : p.missing.length ? (
        <p>Cannot judge: missing {p.missing.join(", ")}.</p>
      ) : (
        <p>Decided: the judgements kept below are what the decision and the disbursal saw.</p>
      )}
      <h3>Kept with the application</h3>
      <KeptEvaluations kept={p.kept} />
    </Section>
  );
}

function Signed({ data: d }: { data: Data }) {
  const s = d.signature;
  const a = d.found.application;
  return (
    <Section id="signed-title" title="Signed Key Fact Statement and agreement">
      {s ? (
        <>
          <FactRows
            rows={[
              ["Signed", formatDateTimeIST(s.signedAt)],
              ["Amount", formatRupees(s.terms.figures.amountPaise)],
              ["Net disbursed", formatRupees(s.terms.figures.netDisbursedPaise)],
              ["Instalment", `${formatRupees(s.terms.figures.instalmentPaise)} × ${s.terms.figures.instalments}`],
              ["First due", longDate(s.terms.figures.firstDueDate)],
              ["APR", `${s.terms.figures.aprPercent.toFixed(2)}%`],
              ["Disbursal to", a.disbursalAccount ? `${a.disbursalAccount.accountMasked}, ${a.disbursalAccount.bankName}` : "—"],
              ["Document SHA-256", s.signedSha256],
            ]}
          />
          <p>
            <a className="btn-secondary" href={`/admin/applications/${a.reference}/agreement.pdf`} target="_blank" rel="noreferrer">
              Open the signed PDF
            </a>
          </p>
        </>
      ) : (
        <p>Not signed.</p>
      )}
    </Section>
  );
}

function Requests({ data: d }: { data: Data }) {
  if (!d.requests.length) return null;
  return (
    <Section id="requests-title" title="Asked of the borrower">
      <ul className="divide-y divide-slate-200">
        {d.requests.map((r) => (
          <li key={r.id} className="space-y-1 py-2" data-testid="request">
            <p>
              <span className="font-semibold">{r.documentKind ? `Upload again: ${DOCUMENT_KINDS[r.documentKind]}` : "Question"}</span> ·{" "}
              {r.askedBy}, {formatDateTimeIST(r.askedAt)}
            </p>
            <p className="whitespace-pre-line">{r.message}</p>
            <p className={r.answeredAt ? "text-money-700" : "font-semibold text-amber-800"}>
              {r.answeredAt
                ? `Answered ${formatDateTimeIST(r.answeredAt)}${r.answer ? `: ${r.answer}` : " (document uploaded again)"}`
                : "Waiting for the borrower"}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const ACTION_TEXT: Record<string, string> = {
  "loan.status": "Status",
  "application.taken_over": "Taken over",
  "application.asked": "Asked the borrower",
  "application.answered": "The borrower answered",
  "review.checklist": "Checklist",
  "loan.agreement_viewed": "Signed PDF opened",
};

function History({ data: d }: { data: Data }) {
  return (
    <Section id="history-title" title="History">
      <ol className="space-y-1 text-sm">
        {d.history.map((h, i) => {
          const x = (h.details ?? {}) as Record<string, unknown>;
          const what =
            h.action === "loan.status"
              ? `${x.from ? `${STATUS_TEXT[x.from as keyof typeof STATUS_TEXT]?.label ?? x.from} → ` : ""}${STATUS_TEXT[x.to as keyof typeof STATUS_TEXT]?.label ?? x.to}`
              : h.action === "review.checklist"
                ? `${x.checked ? "ticked" : "unticked"} "${CHECKLIST[x.item as keyof typeof CHECKLIST] ?? x.item}"`
                : "";
          return (
            <li key={i}>
              <span className="text-slate-600">{formatDateTimeIST(h.at)}</span> · {ACTION_TEXT[h.action] ?? h.action}
              {what ? `: ${what}` : ""} · {h.actorName ?? h.actorRole ?? "system"}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}

function Checklist({ data: d, mine }: { data: Data; mine: boolean }) {
  const state = new Map(d.checklist.map((c) => [c.item, c]));
  const navigation = useNavigation();
  return (
    <section className="card space-y-3" aria-labelledby="checklist-title">
      <h2 id="checklist-title" className="text-xl">
        Checklist
      </h2>
      <Form method="post" className="space-y-3">
        <fieldset disabled={!mine || !d.mayDecide} className="space-y-3">
          <legend className="sr-only">Checklist</legend>
          {CHECKLIST_ITEMS.map((item) => {
            const s = state.get(item);
            return (
              <div key={item} className="flex items-start gap-2">
                <input
                  id={`check-${item}`}
                  type="checkbox"
                  name="items"
                  value={item}
                  defaultChecked={s?.checked ?? false}
                  className="mt-1 size-4 shrink-0"
                />
                <label htmlFor={`check-${item}`}>
                  {CHECKLIST[item]}
                  {s?.checked ? <span className="block text-xs text-slate-600">{`${s.by ?? ""}, ${formatDateTimeIST(s.at)}`}</span> : null}
                </label>
              </div>
            );
          })}
        </fieldset>
        {mine && d.mayDecide ? (
          <button className="btn-secondary" name="intent" value="checklist" disabled={navigation.state === "submitting"}>
            Save checklist
          </button>
        ) : (
          <p className="text-sm text-slate-600">Only the officer reviewing the application ticks the checklist.</p>
        )}
      </Form>
    </section>
  );
}

function AskForm({ data: d, actionData }: { data: Data; actionData: Route.ComponentProps["actionData"] }) {
  const open = d.requests.find((r) => !r.answeredAt);
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "ask",
    schema: askSchema,
    lastResult: actionData && "intent" in actionData && actionData.intent === "ask" ? actionData.result : undefined,
  });
  return (
    <section className="card space-y-3" aria-labelledby="ask-title">
      <h2 id="ask-title" className="text-xl">
        Ask the borrower
      </h2>
      {open ? (
        <p>Waiting for the borrower to answer your request of {formatDateTimeIST(open.askedAt)}.</p>
      ) : (
        <Form method="post" className="space-y-4" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={formErrors} />
          <SelectField field={fields.documentKind} label="A document to upload again (optional)" options={DOCUMENT_KINDS} />
          <Field
            id={fields.message.id}
            label="What you need, in plain words"
            errors={fields.message.errors}
            errorId={fields.message.errorId}
          >
            <textarea className="field-input min-h-24" rows={3} {...getTextareaProps(fields.message)} />
          </Field>
          <button className="btn-secondary" name="intent" value="ask" disabled={busy}>
            Send to the borrower
          </button>
        </Form>
      )}
    </section>
  );
}

function Decision({ data: d, mine, actionData }: { data: Data; mine: boolean; actionData: Route.ComponentProps["actionData"] }) {
  const a = d.found.application;
  const ticked = new Set(d.checklist.filter((c) => c.checked).map((c) => c.item));
  const complete = CHECKLIST_ITEMS.every((i) => ticked.has(i));
  const open = d.requests.some((r) => !r.answeredAt);
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "reject",
    schema: rejectSchema,
    lastResult: actionData && "intent" in actionData && actionData.intent === "reject" ? actionData.result : undefined,
  });
  if (a.status === "approved" || a.status === "rejected" || a.decidedAt) {
    return (
      <section className="card space-y-2" aria-labelledby="decision-title">
        <h2 id="decision-title" className="text-xl">
          Decision
        </h2>
        <p data-testid="decision">
          {a.rejectionReason ? `Rejected: ${REJECTION_REASONS[a.rejectionReason].label}` : "Approved"} by{" "}
          {d.found.deciderName ?? "an officer"}
          {a.decidedAt ? `, ${formatDateTimeIST(a.decidedAt)}` : ""}.
        </p>
        {a.decisionNote ? <p className="whitespace-pre-line text-slate-700">Note: {a.decisionNote}</p> : null}
        {a.statusReason && a.status === "rejected" ? <p className="text-sm text-slate-600">The borrower reads: {a.statusReason}</p> : null}
      </section>
    );
  }
  const mayReject = d.mayDecide && (a.status === "signed" || mine);
  const dev = d.policy.deviation && !d.policy.deviation.confirmedAt && !d.policy.deviation.withdrawnAt ? d.policy.deviation : null;
  const approve: ApproveState = {
    mine: d.mayDecide && mine,
    complete,
    waiting: open,
    verdict: d.policy.now
      ? { result: d.policy.now.verdict.result, deviations: d.policy.now.verdict.deviations, sendsBack: d.policy.now.sendsBack }
      : null,
    deviation: dev
      ? {
          proposerName: dev.proposerName,
          proposedAt: String(dev.proposedAt),
          reason: dev.reason,
          rules: dev.rules,
          mine: dev.proposedBy === d.me,
        }
      : null,
    mayDeviate: d.mayDeviate && a.status === "under_review",
  };
  const confirms = approve.deviation && !approve.deviation.mine && approve.mayDeviate;
  if (!mayReject && !confirms) return null;
  return (
    <section className="card space-y-4" aria-labelledby="decision-title">
      <h2 id="decision-title" className="text-xl">
        Decision
      </h2>
      <ApproveArea
        state={approve}
        lastResult={actionData && "intent" in actionData && actionData.intent === "approve" ? actionData.result : undefined}
      />
      {mayReject ? (
        <RejectArea untaken={a.status === "signed"} openAtFirst={Boolean(formErrors?.length || fields.reason.errors || fields.note.errors)}>
          <Form method="post" className="space-y-4" {...getFormProps(form)}>
            <FormErrors id={form.errorId} errors={formErrors} />
            <SelectField
              field={fields.reason}
              label="Reason the borrower will be told"
              options={Object.fromEntries(Object.entries(REJECTION_REASONS).map(([k, v]) => [k, v.label]))}
            />
            <TextAreaField field={fields.note} label="Note for the file" hint="Staff only: the borrower does not see it." />
            <button className="btn-danger w-full" name="intent" value="reject" disabled={busy}>
              {a.status === "signed" ? "Reject without taking it" : "Reject"}
            </button>
          </Form>
        </RejectArea>
      ) : null}
    </section>
  );
}

/**
 * Reject. Before anyone has taken the application (`signed`) it is allowed (a plain case: a duplicate, a
 * hard stop of the policy) but it is not the page's first action: Take for review is. So it waits
 * behind a closed disclosure; once taken, the officer's reject form is open under Approve.
 */
function RejectArea({ untaken, openAtFirst, children }: { untaken: boolean; openAtFirst: boolean; children: React.ReactNode }) {
  if (!untaken) return <div className="border-t border-slate-200 pt-4">{children}</div>;
  return (
    <details className="group border-t border-slate-200 pt-4" open={openAtFirst || undefined} data-testid="reject-untaken">
      <summary className="cursor-pointer font-medium text-slate-800">Reject without reviewing</summary>
      <p className="mt-2 text-sm text-slate-700">
        For a case that needs no review (a duplicate, a hard stop of the credit policy). Otherwise take the application first.
      </p>
      <div className="mt-4">{children}</div>
    </details>
  );
}

/**
 * Disbursal (operations): the payout of the net amount to the account the agreement names, never by
 * the approver; each attempt with its state, UTR or reason; a stuck one said to be stuck; a new
 * attempt only once the last is confirmed failed. The page looks again while one is on its way.
 */
function Disbursal({ data: d }: { data: Data }) {
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
  const mayRequest = a.status === "approved" && !waiting && d.mayDisburse && !approvedByMe && accountOk && net !== null;
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

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData ? `Review ${shortReference(loaderData.found.application.reference)}` : "Not found");
