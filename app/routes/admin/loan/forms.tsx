import { CONTACT_CHANNELS, CONTACT_HOURS } from "../../../domain/collections.ts";
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { getInputProps } from "../../../components/input-props.ts";
import { Form } from "react-router";
import { Field, FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import {
  CONTACT_OUTCOMES,
  noteSchema,
  OFFLINE_MODES,
  recordPaymentSchema,
  type cancelMandateSchema,
  type reversalSchema,
  type waiveSchema,
  writeOffSchema,
} from "../../../domain/loans/staff-servicing.ts";
import type { ActionData, Data } from "../loan.tsx";

// The staff loan page's forms: each sends one intent, and shows the action's answer to it (by its key) next to its fields.

const resultFor = (actionData: ActionData, key: string) =>
  actionData && "key" in actionData && actionData.key === key
    ? (actionData.result as Parameters<typeof useSchemaForm>[0]["lastResult"])
    : undefined;

/** A one-field form with a reason (reverse a payment, waive a charge), one per row. */
export function ReasonForm({
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
  schema: typeof waiveSchema | typeof reversalSchema | typeof cancelMandateSchema;
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

export function RecordPayment({ d, actionData }: { d: Data; actionData: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "record_payment",
    schema: recordPaymentSchema,
    lastResult: resultFor(actionData, "record_payment"),
    shouldValidate: "onSubmit",
  });
  return (
    <section className="card space-y-3" aria-labelledby="record-title">
      <h2 id="record-title" className="text-xl">
        {d.application.status === "written_off"
          ? "Record a recovery on the written-off loan"
          : "Record a payment received outside the gateway"}
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

export function ContactNote({ actionData }: { actionData: ActionData }) {
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
      <p className="text-sm text-slate-700">{CONTACT_HOURS}</p>
      <SelectField field={fields.channel} label="How" options={CONTACT_CHANNELS} />
      <SelectField field={fields.outcome} label="What came of the contact" options={CONTACT_OUTCOMES} />
      <Field id={fields.note.id} label="What was said" errors={fields.note.errors} errorId={fields.note.errorId}>
        <textarea className="field-input min-h-20" rows={3} {...getTextareaProps(fields.note)} />
      </Field>
      <TextField field={fields.followUpOn} label="Follow up on (optional)" type="date" />
      <button className="btn-secondary" disabled={busy}>
        Save the contact
      </button>
    </Form>
  );
}

export function WriteOff({ actionData }: { actionData: ActionData }) {
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
