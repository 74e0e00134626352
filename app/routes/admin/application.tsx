import { staffBorrowerName } from "../../domain/borrowers.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Link } from "../../lib/link.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { KIND_NAME, parseReference, shortReference } from "../../domain/loans/application.ts";
import { STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import { formatRupees } from "../../domain/money.ts";
import { askSchema, checklistSchema, deviationSchema, formatWorkingAge, rejectSchema, workingMinutesBetween } from "../../domain/review.ts";
import { can, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { ckycStateText } from "../../domain/ckyc.ts";
import { todayIST } from "../../domain/india-date.ts";
import { ckycStateOf } from "../../server/ckyc/read.server.ts";
import { askBorrower } from "../../server/review/ask.server.ts";
import { saveChecklist } from "../../server/review/checklist.server.ts";
import { decideApplication } from "../../server/review/decide.server.ts";
import { requestDisbursal } from "../../server/payouts/disburse.server.ts";
import { autopayMissing } from "../../server/mandates/required.server.ts";
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
import { Checks, Policy, Signed } from "./application/checks.tsx";
import { AskForm, Checklist, Decision, TakeBar } from "./application/decision.tsx";
import { Disbursal } from "./application/disbursal.tsx";
import { REFUSED } from "./application/refusals.ts";
import { Borrower, Documents, History, Requests } from "./application/sections.tsx";
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
  const [payouts, instalments, waitingForAutopay, ckyc] = await Promise.all([
    payoutsFor(services, a.id),
    instalmentsOf(services, a.id),
    a.status === "approved" ? autopayMissing(services, a) : false,
    ckycStateOf(services, a.userId),
  ]);
  return {
    ...details,
    viewing,
    me: user.id,
    mayDecide: can(role, "applications.decide"),
    mayDeviate: can(role, "policy.deviate"),
    mayDisburse: can(role, "payouts.manage"),
    payouts,
    instalments,
    /** The borrower's record at the central KYC registry: found by the search when they signed, or none. */
    ckyc: ckycStateText(ckyc, todayIST(services.now())),
    /** The product pays out only once autopay is active, and it is not yet. */
    waitingForAutopay,
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

/** What the page's sections (./application/) are given: the loader's data, the action's answer. */
export type Data = Route.ComponentProps["loaderData"];
export type ActionData = Route.ComponentProps["actionData"];

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

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData ? `Review ${shortReference(loaderData.found.application.reference)}` : "Not found");
