import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { Link } from "../../lib/link.tsx";
import { requestContext, servicesContext } from "../../context.ts";
import { KIND_NAME } from "../../domain/loans/application.ts";
import { LOAN_NUMBER } from "../../domain/loans/disbursal.ts";
import {
  cancelMandateSchema,
  noteSchema,
  recordPaymentSchema,
  releaseSchema,
  reversalSchema,
  waiveSchema,
  writeOffSchema,
} from "../../domain/loans/staff-servicing.ts";
import { can, type Permission, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { ckycStateText } from "../../domain/ckyc.ts";
import { ckycStateOf } from "../../server/ckyc/read.server.ts";
import { refundOverpayment } from "../../server/payouts/refund.server.ts";
import { assignCase, logContact, makePromise, pauseDunning } from "../../server/collections/case-actions.server.ts";
import { caseWorkers, loanCase } from "../../server/collections/read.server.ts";
import { assignSchema, pauseSchema, promiseSchema } from "../../domain/collections.ts";
import { businessToday } from "../../server/loan-account/account.server.ts";
import { staffLoanView } from "../../server/servicing/loan-view.server.ts";
import { recordOfflinePayment } from "../../server/servicing/record-payment.server.ts";
import { releaseHeldPayment } from "../../server/servicing/release-payment.server.ts";
import { reversePayment } from "../../server/servicing/reverse-payment.server.ts";
import { waivePenal } from "../../server/servicing/waive-penal.server.ts";
import { writeOff } from "../../server/servicing/write-off.server.ts";
import type { StaffResult } from "../../domain/loans/staff-servicing.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import { RecordPayment } from "./loan/forms.tsx";
import { REFUSED } from "./loan/refusals.ts";
import { returnHeldDebits } from "../../server/mandates/excess.server.ts";
import { CaseSection } from "./loan/collections.tsx";
import { Facts, Journal, Ledger, Notes, Payments, Penals, Refunds, Schedule, WriteOffSection } from "./loan/sections.tsx";
import { Mandates } from "./loan/mandates.tsx";
import { cancelMandate } from "../../server/mandates/cancel.server.ts";
import { mandatesOf } from "../../server/mandates/rows.server.ts";
import { debitsOf } from "../../server/mandates/debit-rows.server.ts";
import { representDebit } from "../../server/mandates/represent.server.ts";
import { settleWrittenOffSchema } from "../../domain/bureau/reporting.ts";
import { loanReporting, settlementOf } from "../../server/bureau/read.server.ts";
import { settleWrittenOff } from "../../server/bureau/settle.server.ts";
import { BureauSection } from "./loan/bureau.tsx";
import type { Route } from "./+types/loan";

/** A loan for staff (docs/product.md "Loan servicing"): schedule, ledger, borrower, and the servicing actions their roles allow. */
export const middleware: Route.MiddlewareFunction[] = [requirePermission("loans.view")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const loanNumber = params.loanNumber.toUpperCase();
  const view = LOAN_NUMBER.test(loanNumber) ? await staffLoanView(services, loanNumber) : null;
  if (!view) notFoundFullPath(request);
  const role = user.role as StaffRole;
  return {
    ...view,
    mandates: await mandatesOf(services, { loanNumber }),
    debits: await debitsOf(services, { loanNumber }),
    collectionCase: await loanCase(services, { applicationId: view.application.id, today: view.today }),
    workers: can(role, "collections.manage") ? await caseWorkers(services) : [],
    ckyc: ckycStateText(await ckycStateOf(services, view.application.userId), view.today),
    me: user.id,
    bureau: can(role, "bureau.view") ? await loanReporting(services, view.application.id) : null,
    settlement: await settlementOf(services, view.application.id),
    may: {
      payments: can(role, "payments.manage"),
      collections: can(role, "collections.manage"),
      writeOff: can(role, "loans.write_off"),
      books: can(role, "books.view"),
    },
  };
}

const INTENT_PERMISSION: Record<string, Permission> = {
  record_payment: "payments.manage",
  release: "payments.manage",
  return_held: "payments.manage",
  request_reversal: "payments.manage",
  confirm_reversal: "payments.manage",
  cancel_reversal: "payments.manage",
  waive: "payments.manage",
  refund: "payments.manage",
  cancel_mandate: "payments.manage",
  represent_debit: "payments.manage",
  note: "collections.manage",
  promise: "collections.manage",
  pause_dunning: "collections.manage",
  resume_dunning: "collections.manage",
  assign_case: "collections.manage",
  write_off: "loans.write_off",
  settle_written_off: "loans.write_off",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const client = context.get(requestContext);
  const loanNumber = params.loanNumber.toUpperCase();
  if (!LOAN_NUMBER.test(loanNumber)) notFoundFullPath(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const permission = Object.hasOwn(INTENT_PERMISSION, intent) ? INTENT_PERMISSION[intent] : undefined;
  if (!permission) throw data({ message: "That is not something this page does." }, { status: 400 });
  const { user } = assertCan(context, permission);
  const staff = { id: user.id, role: user.role as StaffRole };
  const here = `/admin/loans/${loanNumber}`;
  const answer = (result: StaffResult) => {
    if (!result.ok && result.reason === "not_found") notFoundFullPath(request);
    return redirectWithToast(
      services.config,
      request,
      here,
      result.ok
        ? { type: "success", title: result.message ?? "Done." }
        : { type: "error", title: REFUSED[result.reason] ?? "That could not be done." },
    );
  };
  const invalid = (key: string, reply: unknown) => data({ key, result: reply }, { status: 400 });
  switch (intent) {
    case "record_payment": {
      const s = parseWithZod(form, { schema: recordPaymentSchema });
      if (s.status !== "success") return invalid("record_payment", s.reply());
      const done = await recordOfflinePayment(services, {
        staff,
        client,
        loanNumber,
        amountPaise: s.value.amount,
        date: s.value.date,
        mode: s.value.mode,
        reference: s.value.reference,
      });
      if (!done.ok && (done.reason === "bad_date" || done.reason === "duplicate_reference"))
        return invalid(
          "record_payment",
          s.reply({ fieldErrors: { [done.reason === "bad_date" ? "date" : "reference"]: [REFUSED[done.reason] ?? ""] } }),
        );
      return answer(done);
    }
    case "release": {
      const s = parseWithZod(form, { schema: releaseSchema });
      if (s.status !== "success") return invalid("release", s.reply());
      return answer(await releaseHeldPayment(services, { staff, client, loanNumber, paymentRef: s.value.payment }));
    }
    case "request_reversal":
    case "confirm_reversal":
    case "cancel_reversal": {
      const s = parseWithZod(form, { schema: reversalSchema });
      if (s.status !== "success") return invalid(`reverse-${String(form.get("payment"))}`, s.reply());
      if (intent === "request_reversal" && !s.value.reason)
        return invalid(`reverse-${s.value.payment}`, s.reply({ fieldErrors: { reason: ["Give the reason in a few words."] } }));
      const step = intent === "request_reversal" ? "request" : intent === "confirm_reversal" ? "confirm" : "cancel";
      return answer(
        await reversePayment(services, { staff, client, loanNumber, paymentRef: s.value.payment, step, reason: s.value.reason }),
      );
    }
    case "cancel_mandate": {
      const s = parseWithZod(form, { schema: cancelMandateSchema });
      if (s.status !== "success") return invalid("cancel_mandate", s.reply());
      const done = await cancelMandate(services, { loanNumber, by: { staff }, client, reason: s.value.reason });
      return answer(done.ok ? { ok: true, message: "Autopay is cancelled at the bank and here." } : done);
    }
    case "waive": {
      const s = parseWithZod(form, { schema: waiveSchema });
      if (s.status !== "success") return invalid(`waive-${String(form.get("penal"))}`, s.reply());
      return answer(await waivePenal(services, { staff, client, loanNumber, penalId: s.value.penal, reason: s.value.reason }));
    }
    case "return_held": {
      // A late autopay debit on a written-off loan whose return failed: sent back again (the system's refund, asked by staff).
      const returned = await returnHeldDebits(services, { loanNumber });
      return answer(
        returned.returned
          ? { ok: true, message: "The refund to the borrower's account is requested." }
          : { ok: false, reason: returned.waiting ? "refund_in_flight" : "not_held" },
      );
    }
    case "refund":
      return answer(await refundOverpayment(services, { by: staff, client, loanNumber }));
    case "represent_debit":
      return answer(await representDebit(services, { staff, client, loanNumber, debitId: String(form.get("debit") ?? "") }));
    case "note": {
      const s = parseWithZod(form, { schema: noteSchema });
      if (s.status !== "success") return invalid("note", s.reply());
      return answer(await logContact(services, { staff, client, loanNumber, ...s.value }));
    }
    case "promise": {
      const s = parseWithZod(form, { schema: promiseSchema(businessToday(services)) });
      if (s.status !== "success") return invalid("promise", s.reply());
      const done = await makePromise(services, { by: { staff }, client, loanNumber, amountPaise: s.value.amount, dueOn: s.value.dueOn });
      if (!done.ok && done.reason === "too_much") return invalid("promise", s.reply({ fieldErrors: { amount: [REFUSED.too_much ?? ""] } }));
      return answer(done);
    }
    case "pause_dunning": {
      const s = parseWithZod(form, { schema: pauseSchema });
      if (s.status !== "success") return invalid("pause_dunning", s.reply());
      return answer(await pauseDunning(services, { staff, client, loanNumber, pause: { kind: s.value.kind, reason: s.value.reason } }));
    }
    case "resume_dunning":
      return answer(await pauseDunning(services, { staff, client, loanNumber, pause: null }));
    case "assign_case": {
      const s = parseWithZod(form, { schema: assignSchema });
      if (s.status !== "success") return invalid("assign_case", s.reply());
      return answer(await assignCase(services, { staff, client, loanNumber, assignee: s.value.assignee }));
    }
    case "write_off": {
      const s = parseWithZod(form, { schema: writeOffSchema });
      if (s.status !== "success") return invalid("write_off", s.reply());
      return answer(await writeOff(services, { staff, client, loanNumber, reason: s.value.reason }));
    }
    case "settle_written_off": {
      const s = parseWithZod(form, { schema: settleWrittenOffSchema });
      if (s.status !== "success") return invalid("settle_written_off", s.reply());
      return answer(await settleWrittenOff(services, { staff, client, loanNumber, reason: s.value.reason }));
    }
  }
  throw data({ message: "That is not something this page does." }, { status: 400 });
}

/** What the page's sections (./loan/) are given: the loader's data, the action's answer. */
export type Data = Route.ComponentProps["loaderData"];
export type ActionData = Route.ComponentProps["actionData"];

export default function StaffLoan({ loaderData: d, actionData }: Route.ComponentProps) {
  const a = d.application;
  return (
    <div className="space-y-6">
      <p className="flex flex-wrap gap-4">
        <Link className="link" to="/admin/collections">
          ← Collections
        </Link>
        <Link className="link" to={`/admin/applications/${a.reference}`}>
          The application
        </Link>
        <Link className="link" to={`/admin/borrowers/${a.userId}`}>
          The borrower
        </Link>
      </p>
      <h1 className="text-2xl sm:text-3xl">
        {KIND_NAME[a.kind]} <span className="font-mono">{a.loanNumber}</span>
      </h1>
      <Facts d={d} />

      {/* Keyed by the newest payment: once one is recorded the form starts empty again. */}
      {d.may.payments && (a.status === "active" || a.status === "closed" || a.status === "written_off") ? (
        <RecordPayment key={d.payments[0]?.reference ?? "none"} d={d} actionData={actionData} />
      ) : null}

      <Payments d={d} actionData={actionData} />

      <Penals d={d} actionData={actionData} />

      {d.mandates.length || a.status === "active" ? <Mandates d={d} actionData={actionData} /> : null}

      <Schedule d={d} />

      <Ledger d={d} />
      <Journal d={d} />

      {d.collectionCase ? <CaseSection d={d} c={d.collectionCase} actionData={actionData} /> : null}

      <Notes d={d} actionData={actionData} />

      {d.refunds.length ? <Refunds d={d} /> : null}

      {d.may.writeOff && a.status === "active" ? <WriteOffSection d={d} actionData={actionData} /> : null}

      <BureauSection d={d} actionData={actionData} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData ? `Loan ${loaderData.application.loanNumber}` : "Page not found");
