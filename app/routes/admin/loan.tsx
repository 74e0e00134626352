import { refundOverpayment } from "../../server/payouts/refund.server.ts";
import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { staffBorrowerName } from "../../domain/borrowers.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { Field, FormErrors, SelectField, TextField } from "../../components/field.tsx";
import { FactRows } from "../../components/loan-flow.tsx";
import { StaffTable } from "../../components/staff-table.tsx";
import { useSchemaForm } from "../../components/use-schema-form.ts";
import { requestContext, servicesContext } from "../../context.ts";
import { KIND_NAME } from "../../domain/loans/application.ts";
import { LOAN_NUMBER } from "../../domain/loans/disbursal.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import { STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import { INSTALMENT_STATUS_LABEL } from "../../domain/loans/servicing.ts";
import {
  CONTACT_OUTCOMES,
  noteSchema,
  OFFLINE_MODES,
  recordPaymentSchema,
  releaseSchema,
  reversalSchema,
  waiveSchema,
  WRITE_OFF_AFTER_DPD,
  writeOffSchema,
} from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { can, type Permission, type StaffRole } from "../../domain/roles.ts";
import { pageMeta } from "../../lib/meta.ts";
import { addCollectionNote } from "../../server/servicing/collection-note.server.ts";
import { staffLoanView } from "../../server/servicing/loan-view.server.ts";
import { recordOfflinePayment } from "../../server/servicing/record-payment.server.ts";
import { releaseHeldPayment } from "../../server/servicing/release-payment.server.ts";
import { reversePayment } from "../../server/servicing/reverse-payment.server.ts";
import { waivePenal } from "../../server/servicing/waive-penal.server.ts";
import { writeOff } from "../../server/servicing/write-off.server.ts";
import { redirectWithToast } from "../../web/flash.server.ts";
import { readForm } from "../../web/forms.server.ts";
import { assertCan, requirePermission, signedInContext } from "../../web/guards.server.ts";
import { notFoundFullPath } from "../../web/not-found.server.ts";
import { penalStatusText, type StaffResult } from "../../domain/loans/staff-servicing.ts";
import { nextDueText } from "../../domain/loans/next-due.ts";
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
    me: user.id,
    may: {
      payments: can(role, "payments.manage"),
      collections: can(role, "collections.manage"),
      writeOff: can(role, "loans.write_off"),
    },
  };
}

const INTENT_PERMISSION: Record<string, Permission> = {
  record_payment: "payments.manage",
  release: "payments.manage",
  request_reversal: "payments.manage",
  confirm_reversal: "payments.manage",
  cancel_reversal: "payments.manage",
  waive: "payments.manage",
  refund: "payments.manage",
  note: "collections.manage",
  write_off: "loans.write_off",
};

const REFUSED: Record<string, string> = {
  not_found: "There is no such loan, payment or charge.",
  not_open: "This loan is not open.",
  bad_date: "The date must be from the disbursal to today.",
  duplicate_reference: "A payment with this bank reference is already recorded.",
  not_held: "That payment is not held any more.",
  not_reversible: "Only a received payment can be reversed.",
  already_requested: "A reversal of this payment is already asked for.",
  reason_missing: "Give the reason for the reversal.",
  not_requested: "No reversal of this payment was asked for.",
  four_eyes: "You asked for (or recorded) this reversal, so a colleague must confirm it (four eyes).",
  already_undone: "That charge is already waived or reversed.",
  too_early: `A loan can be written off only ${WRITE_OFF_AFTER_DPD} days or more past due.`,
  refund_in_flight: "A refund for this loan is on its way: wait for the bank's answer.",
  four_eyes_refund: "You recorded a payment on this loan, so a colleague must send its refund (four eyes).",
  nothing_to_refund: "Nothing is owed back to the borrower.",
  no_account: "The account the loan was disbursed to is not known.",
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
    case "waive": {
      const s = parseWithZod(form, { schema: waiveSchema });
      if (s.status !== "success") return invalid(`waive-${String(form.get("penal"))}`, s.reply());
      return answer(await waivePenal(services, { staff, client, loanNumber, penalId: s.value.penal, reason: s.value.reason }));
    }
    case "refund":
      return answer(await refundOverpayment(services, { staff, client, loanNumber }));
    case "note": {
      const s = parseWithZod(form, { schema: noteSchema });
      if (s.status !== "success") return invalid("note", s.reply());
      return answer(await addCollectionNote(services, { staff, client, loanNumber, ...s.value }));
    }
    case "write_off": {
      const s = parseWithZod(form, { schema: writeOffSchema });
      if (s.status !== "success") return invalid("write_off", s.reply());
      return answer(await writeOff(services, { staff, client, loanNumber, reason: s.value.reason }));
    }
  }
  throw data({ message: "That is not something this page does." }, { status: 400 });
}

type Data = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];
const resultFor = (actionData: ActionData, key: string) =>
  actionData && "key" in actionData && actionData.key === key
    ? (actionData.result as Parameters<typeof useSchemaForm>[0]["lastResult"])
    : undefined;

/** A one-field form with a reason (reverse a payment, waive a charge), one per row. */
function ReasonForm({
  id,
  intent,
  hidden,
  label,
  button,
  actionData,
  schema,
}: {
  id: string;
  intent: string;
  hidden: Record<string, string>;
  label: string;
  button: string;
  actionData: ActionData;
  schema: typeof waiveSchema | typeof reversalSchema;
}) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id,
    schema,
    lastResult: resultFor(actionData, id),
    shouldValidate: "onSubmit",
  });
  const reason = fields.reason;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-2">
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <Field id={reason.id} label={label} errors={reason.errors} errorId={reason.errorId}>
        <input {...getInputProps(reason, { type: "text" })} key={reason.key} className="field-input" />
      </Field>
      <button className="btn-secondary" disabled={busy}>
        {button}
      </button>
    </Form>
  );
}

function RecordPayment({ d, actionData }: { d: Data; actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "record_payment",
    schema: recordPaymentSchema,
    lastResult: resultFor(actionData, "record_payment"),
    shouldValidate: "onSubmit",
  });
  return (
    <section className="card space-y-3" aria-labelledby="record-title">
      <h2 id="record-title" className="text-xl">
        Record a payment received outside the gateway
      </h2>
      <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="record_payment" />
        <div className="sm:col-span-2">
          <FormErrors id={form.errorId} errors={formErrors} />
        </div>
        <TextField field={fields.amount} label="Amount (₹)" inputMode="decimal" />
        <TextField field={fields.date} label="Date received" type="date" min={d.application.disbursalDate} max={d.today} />
        <SelectField field={fields.mode} label="How it was received" options={OFFLINE_MODES} />
        <TextField field={fields.reference} label="Bank or receipt reference (UTR, cheque number)" />
        <div className="sm:col-span-2">
          <button className="btn-primary" disabled={busy}>
            Record the payment
          </button>
        </div>
      </Form>
    </section>
  );
}

function ContactNote({ actionData }: { actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "note",
    schema: noteSchema,
    lastResult: resultFor(actionData, "note"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value="note" />
      <FormErrors id={form.errorId} errors={formErrors} />
      <SelectField field={fields.outcome} label="What came of the contact" options={CONTACT_OUTCOMES} />
      <Field id={fields.note.id} label="What was said" errors={fields.note.errors} errorId={fields.note.errorId}>
        <textarea className="field-input min-h-20" rows={3} {...getTextareaProps(fields.note)} />
      </Field>
      <TextField field={fields.followUpOn} label="Follow up on (optional)" type="date" />
      <button className="btn-secondary" disabled={busy}>
        Save the note
      </button>
    </Form>
  );
}

function WriteOff({ actionData }: { actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "write_off",
    schema: writeOffSchema,
    lastResult: resultFor(actionData, "write_off"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value="write_off" />
      <FormErrors id={form.errorId} errors={formErrors} />
      <TextField field={fields.reason} label="Why it is written off" />
      <button className="btn-danger" disabled={busy}>
        Write the loan off
      </button>
    </Form>
  );
}

const money = (paise: number | null | undefined) => (paise === null || paise === undefined ? "—" : formatRupees(paise));

export default function StaffLoan({ loaderData: d, actionData }: Route.ComponentProps) {
  const a = d.application;
  const s = d.state;
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
      <section className="card space-y-3" aria-labelledby="facts-title">
        <h2 id="facts-title" className="text-xl">
          The loan
        </h2>
        <FactRows
          rows={[
            ["Status", STATUS_TEXT[a.status].label],
            [
              "Borrower",
              `${staffBorrowerName({ fullName: d.borrower.name, mobile: d.borrower.mobile })}${d.borrower.name && d.borrower.mobile ? `, +91 ${d.borrower.mobile}` : ""}`,
            ],
            ["Lent", `${money(d.terms.principalPaise)} on ${longDate(a.disbursalDate)}`],
            [
              "Terms",
              a.kind === "emi"
                ? `${(d.terms.rateBps / 100).toFixed(2)}% a year, ${d.terms.tenure} instalments`
                : `${(d.terms.rateBps / 100).toFixed(2)}% a day, one repayment`,
            ],
            ["Principal outstanding", money(s.outstandingPrincipalPaise)],
            ["Overdue", `${money(s.overduePaise)}${s.dpd > 0 ? `, ${s.dpd} days past due (${s.bucket})` : ""}`],
            ["Penal charges due", money(s.penalDuePaise)],
            ["Next due", nextDueText(s.nextDue, "staff")],
            ["Advance payment held", money(s.advancePaise)],
            ["Owed back to the borrower", money(s.refundDuePaise)],
            ...(s.settlement
              ? ([["Settled", `${longDate(s.settlement.on)} (${s.settlement.how.replace("_", " ")})`]] as [string, string][])
              : []),
          ]}
        />
        {d.may.payments && s.refundDuePaise > 0 && !d.refunds.some((r) => r.status === "requested") ? (
          <Form method="post">
            <button className="btn-secondary" name="intent" value="refund">
              Refund {money(s.refundDuePaise)} to the disbursal account
            </button>
          </Form>
        ) : null}
      </section>

      {d.may.payments && (a.status === "active" || a.status === "closed") ? <RecordPayment d={d} actionData={actionData} /> : null}

      <section className="card space-y-3" aria-labelledby="payments-title">
        <h2 id="payments-title" className="text-xl">
          Payments
        </h2>
        {d.payments.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {d.payments.map((p) => (
              <li key={p.reference} className="space-y-2 py-3">
                <p>
                  <span className="font-semibold tabular-nums">{money(p.receivedPaise ?? p.amountPaise)}</span> · {p.status}
                  {p.businessDate ? ` · ${longDate(p.businessDate)}` : ""} ·{" "}
                  {p.provider === "offline"
                    ? `${p.mode ?? "offline"}, ref ${p.providerPaymentId ?? ""}, by ${p.recordedBy ?? "staff"}`
                    : p.provider}{" "}
                  <span className="font-mono text-xs text-slate-600">{p.reference}</span>
                </p>
                {p.status === "held" ? <p className="text-danger-600">{p.failureReason}</p> : null}
                {p.allocation ? (
                  <p className="text-sm text-slate-700">
                    Interest {money(p.allocation.interestPaise + p.allocation.accruedInterestPaise)} · principal{" "}
                    {money(p.allocation.principalPaise)} · penal {money(p.allocation.penalPaise)} · advance{" "}
                    {money(p.allocation.advancePaise)}
                    {p.allocation.excessPaise ? ` · over what was due ${money(p.allocation.excessPaise)}` : ""}
                  </p>
                ) : null}
                {d.may.payments && p.status === "held" ? (
                  <Form method="post">
                    <input type="hidden" name="payment" value={p.reference} />
                    <button className="btn-secondary" name="intent" value="release">
                      Apply the {money(p.receivedPaise)} received
                    </button>
                  </Form>
                ) : null}
                {d.may.payments && p.status === "captured" && !p.reversalRequestedBy ? (
                  <details>
                    <summary className="link cursor-pointer">Reverse this payment…</summary>
                    <ReasonForm
                      id={`reverse-${p.reference}`}
                      intent="request_reversal"
                      hidden={{ payment: p.reference }}
                      label="Why (a bounced cheque, a chargeback)"
                      button="Ask for the reversal"
                      actionData={actionData}
                      schema={reversalSchema}
                    />
                  </details>
                ) : null}
                {p.status === "captured" && p.reversalRequestedBy ? (
                  <div className="rounded-lg bg-amber-50 p-3 text-sm">
                    <p>
                      Reversal asked for by {p.reversalRequestedByName}: {p.reversalReason}
                    </p>
                    {d.may.payments ? (
                      <Form method="post" className="mt-2 flex flex-wrap gap-2">
                        <input type="hidden" name="payment" value={p.reference} />
                        {p.reversalRequestedBy !== d.me ? (
                          <button className="btn-danger" name="intent" value="confirm_reversal">
                            Confirm the reversal
                          </button>
                        ) : null}
                        <button className="btn-secondary" name="intent" value="cancel_reversal">
                          Withdraw the request
                        </button>
                      </Form>
                    ) : null}
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card space-y-3" aria-labelledby="penal-title">
        <h2 id="penal-title" className="text-xl">
          Penal charges
        </h2>
        {d.penals.length === 0 ? (
          <p>None.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {d.penals.map((p) => (
              <li key={p.id} className="space-y-2 py-3" data-testid={`penal-${p.seq}`}>
                <p>
                  <span className="font-medium">Instalment {p.seq}</span>, levied {longDate(p.businessDate)}:{" "}
                  <span className="money">{money(p.amountPaise)}</span> · <span data-testid="penal-status">{penalStatusText(p)}</span>
                </p>
                {d.may.payments && (p.status === "unpaid" || p.status === "part_paid" || p.status === "paid") ? (
                  <ReasonForm
                    id={`waive-${p.id}`}
                    intent="waive"
                    hidden={{ penal: p.id }}
                    label={`Why the ${money(p.amountPaise)} charge of instalment ${p.seq} is waived`}
                    button={`Waive this charge of ${money(p.amountPaise)}`}
                    actionData={actionData}
                    schema={waiveSchema}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card space-y-3" aria-labelledby="schedule-title">
        <h2 id="schedule-title" className="text-xl">
          Schedule
        </h2>
        <StaffTable
          label="Instalments of the schedule"
          minWidth="min-w-[40rem]"
          columns={["#", "Due", "Principal", "Interest", "Paid", "Status"]}
          framed={false}
        >
          {d.instalments.map((r) => (
            <tr key={r.seq}>
              <td className="px-3 py-2">{r.seq}</td>
              <td className="px-3 py-2">{longDate(r.dueDate)}</td>
              <td className="px-3 py-2 tabular-nums">{money(r.principalPaise)}</td>
              <td className="px-3 py-2 tabular-nums">{money(r.interestPaise)}</td>
              <td className="px-3 py-2 tabular-nums">{money(r.paidPrincipalPaise + r.paidInterestPaise)}</td>
              <td className="px-3 py-2">{INSTALMENT_STATUS_LABEL[r.status]}</td>
            </tr>
          ))}
        </StaffTable>
      </section>

      <section className="card space-y-3" aria-labelledby="ledger-title">
        <h2 id="ledger-title" className="text-xl">
          Ledger
        </h2>
        <StaffTable
          label="Ledger entries"
          minWidth="min-w-[40rem]"
          columns={["Business date", "Entry", "Amount", "By", "Recorded"]}
          framed={false}
        >
          {d.ledger.map((e) => (
            <tr key={e.id}>
              <td className="px-3 py-2">{longDate(e.businessDate)}</td>
              <td className="px-3 py-2">
                {e.kind.replace("_", " ")}
                {e.seq ? ` (instalment ${e.seq})` : ""}
              </td>
              <td className="px-3 py-2 tabular-nums">{money(e.amountPaise)}</td>
              <td className="px-3 py-2">{e.by}</td>
              <td className="px-3 py-2">{formatDateTimeIST(new Date(e.recordedAt))}</td>
            </tr>
          ))}
        </StaffTable>
      </section>

      <section className="card space-y-3" aria-labelledby="notes-title">
        <h2 id="notes-title" className="text-xl">
          Collections notes
        </h2>
        {d.notes.length === 0 ? <p>No contact recorded.</p> : null}
        <ul className="divide-y divide-slate-200">
          {d.notes.map((n) => (
            <li key={n.id} className="py-2">
              <p className="text-sm text-slate-600">
                {formatDateTimeIST(new Date(n.createdAt))}, {n.by}:{" "}
                {CONTACT_OUTCOMES[n.outcome as keyof typeof CONTACT_OUTCOMES] ?? n.outcome}
                {n.followUpOn ? `; follow up on ${longDate(n.followUpOn)}` : ""}
              </p>
              <p>{n.note}</p>
            </li>
          ))}
        </ul>
        {d.may.collections ? <ContactNote actionData={actionData} /> : null}
      </section>

      {d.refunds.length ? (
        <section className="card space-y-3" aria-labelledby="refunds-title">
          <h2 id="refunds-title" className="text-xl">
            Refunds
          </h2>
          <ul>
            {d.refunds.map((r) => (
              <li key={r.id}>
                {money(r.amountPaise)} · {r.status}
                {r.utr ? `, UTR ${r.utr}` : ""} · {formatDateTimeIST(new Date(r.requestedAt))}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {d.may.writeOff && a.status === "active" ? (
        <section className="card space-y-3" aria-labelledby="writeoff-title">
          <h2 id="writeoff-title" className="text-xl">
            Write off
          </h2>
          {s.dpd >= WRITE_OFF_AFTER_DPD ? (
            <WriteOff actionData={actionData} />
          ) : (
            <p>
              Possible from {WRITE_OFF_AFTER_DPD} days past due; this loan is {s.dpd}.
            </p>
          )}
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData ? `Loan ${loaderData.application.loanNumber}` : "Page not found");
