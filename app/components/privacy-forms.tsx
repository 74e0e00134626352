import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { useTranslations } from "../i18n/use-translations.ts";
import { CORRECTION_AREAS, correctionSchema, erasureSchema, NOMINEE_RELATIONS, nomineeSchema } from "../domain/privacy/requests.ts";
import { CheckboxField, FormErrors, SelectField, TextAreaField, TextField } from "./field.tsx";
import { type KeyedActionData, resultFor, useSchemaForm } from "./use-schema-form.ts";
import { choices } from "../lib/choices.ts";

// The privacy page's forms; their words are the "privacyRights" namespace's, which the page loads.

export function CorrectionForm({ actionData }: { actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "correction",
    schema: correctionSchema,
    lastResult: resultFor(actionData, "correction"),
    shouldValidate: "onSubmit",
  });
  const t = useTranslations("privacyRights");
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="correction" />
      <SelectField field={fields.area} label={t("correct.area")} options={choices(CORRECTION_AREAS, (k) => t(`correctionAreas.${k}`))} />
      <TextAreaField field={fields.wrong} label={t("correct.wrong")} rows={3} />
      <TextAreaField field={fields.correct} label={t("correct.correct")} hint={t("correct.correctHint")} rows={3} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {t("correct.submit")}
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
  const t = useTranslations("privacyRights");
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="nominee" />
      <TextField field={fields.name} label={t("nominee.nameLabel")} autoComplete="off" />
      <SelectField
        field={fields.relationship}
        label={t("nominee.relationship")}
        options={choices(NOMINEE_RELATIONS, (k) => t(`relations.${k}`))}
      />
      <TextField field={fields.mobile} label={t("nominee.mobileLabel")} type="tel" inputMode="numeric" autoComplete="off" />
      <TextField field={fields.email} label={t("nominee.emailLabel")} type="email" autoComplete="off" />
      <button type="submit" className="btn-primary" disabled={busy}>
        {saved ? t("nominee.change") : t("nominee.save")}
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
  const t = useTranslations("privacyRights");
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="erasure" />
      <CheckboxField field={fields.understood} label={t("erase.understood")} />
      <button type="submit" className="btn-secondary" disabled={busy}>
        {t("erase.submit")}
      </button>
    </Form>
  );
}
