import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { CORRECTION_AREAS, correctionSchema, erasureSchema, NOMINEE_RELATIONS, nomineeSchema } from "../domain/privacy/requests.ts";
import { CheckboxField, FormErrors, SelectField, TextAreaField, TextField } from "./field.tsx";
import { type KeyedActionData, resultFor, useSchemaForm } from "./use-schema-form.ts";

export function CorrectionForm({ actionData }: { actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "correction",
    schema: correctionSchema,
    lastResult: resultFor(actionData, "correction"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="correction" />
      <SelectField field={fields.area} label="What is wrong" options={CORRECTION_AREAS} />
      <TextAreaField field={fields.wrong} label="What it says now" rows={3} />
      <TextAreaField field={fields.correct} label="What it should say" hint="Tell us how we can check it, if you can." rows={3} />
      <button type="submit" className="btn-primary" disabled={busy}>
        Ask for the correction
      </button>
    </Form>
  );
}

interface SavedNominee {
  name: string;
  relationship: string;
  mobile: string;
  email: string | null;
}

export function NomineeForm({ actionData, saved }: { actionData: KeyedActionData; saved: SavedNominee | null }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "nominee",
    schema: nomineeSchema,
    lastResult: resultFor(actionData, "nominee"),
    shouldValidate: "onSubmit",
    defaultValue: saved ? { ...saved, email: saved.email ?? undefined } : undefined,
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="nominee" />
      <TextField field={fields.name} label="Nominee's name" autoComplete="off" />
      <SelectField field={fields.relationship} label="Who they are to you" options={NOMINEE_RELATIONS} />
      <TextField field={fields.mobile} label="Nominee's mobile number" type="tel" inputMode="numeric" autoComplete="off" />
      <TextField field={fields.email} label="Nominee's e-mail (optional)" type="email" autoComplete="off" />
      <button type="submit" className="btn-primary" disabled={busy}>
        {saved ? "Change my nominee" : "Save my nominee"}
      </button>
    </Form>
  );
}

export function ErasureForm({ actionData }: { actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "erasure",
    schema: erasureSchema,
    lastResult: resultFor(actionData, "erasure"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="erasure" />
      <CheckboxField
        field={fields.understood}
        label="I have read what is erased and what is kept. If nothing has to be kept, my account is erased too, and signing in with my number again starts a new account."
      />
      <button type="submit" className="btn-secondary" disabled={busy}>
        Ask to erase my data
      </button>
    </Form>
  );
}
