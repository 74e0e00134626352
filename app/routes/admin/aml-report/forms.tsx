import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { ErrorText, FormErrors, SelectField, TextAreaField, TextField } from "../../../components/field.tsx";
import { type KeyedActionData, resultFor, useSchemaForm } from "../../../components/use-schema-form.ts";
import { strAcknowledgeSchema, strDraftSchema, strEditSchema, strReviewSchema } from "../../../domain/aml/forms.ts";
import { MIN_GROUNDS } from "../../../domain/aml/str.ts";

// The forms of the suspicious-transaction report pages (docs/product.md "Suspicious-transaction
// reports"): drafting, changing a draft, the review, the export and FIU-IND's acknowledgement.

/** The way back to the list, above each report page's title. */
export function ReportsLink() {
  return (
    <p>
      <Link className="link" to="/admin/aml/reports">
        All suspicious-transaction reports
      </Link>
    </p>
  );
}

/** An action's answer to one of the page's forms, by the form's key. */

type Fields = ReturnType<typeof useSchemaForm<typeof strEditSchema>>["fields"];

/** The report's own fields, shared by the draft and its changes; a sanctions match's report keeps its suspicion time. */
function ReportFields({ fields, suspicion }: { fields: Fields; suspicion: boolean }) {
  return (
    <>
      {suspicion ? (
        <TextField
          field={fields.suspectedAt}
          type="datetime-local"
          label="When the suspicion arose (India time)"
          hint="The report is due 7 working days after this day."
        />
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.periodFrom} type="date" label="Transactions from" />
        <TextField field={fields.periodTo} type="date" label="Transactions to" hint="Both days included." />
      </div>
      <TextAreaField
        field={fields.grounds}
        label="Grounds of suspicion"
        hint={`What was seen and why it is suspicious, in at least ${MIN_GROUNDS} characters. FIU-IND reads this; the borrower never does.`}
        rows={8}
      />
    </>
  );
}

export function DraftForm({
  borrower,
  defaults,
  actionData,
}: {
  borrower: string;
  defaults: { suspectedAt: string; periodFrom: string; periodTo: string };
  actionData: KeyedActionData;
}) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "draft",
    schema: strDraftSchema,
    lastResult: resultFor(actionData, "draft"),
    shouldValidate: "onSubmit",
    defaultValue: { borrower, ...defaults },
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="borrower" value={borrower} />
      <div className="field-error" id={fields.borrower.errorId} aria-live="polite">
        <ErrorText errors={fields.borrower.errors} />
      </div>
      <ReportFields fields={fields as unknown as Fields} suspicion />
      <button type="submit" className="btn-primary" disabled={busy}>
        Save the draft
      </button>
    </Form>
  );
}

export function EditForm({
  report,
  actionData,
}: {
  report: { version: string; suspectedAt: string; periodFrom: string; periodTo: string; grounds: string; fromMatch: boolean };
  actionData: KeyedActionData;
}) {
  const { fromMatch, ...defaultValue } = report;
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "edit",
    schema: strEditSchema,
    lastResult: resultFor(actionData, "edit"),
    shouldValidate: "onSubmit",
    defaultValue,
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="edit" />
      <input type="hidden" name="version" value={report.version} />
      {fromMatch ? <input type="hidden" name="suspectedAt" value={report.suspectedAt} /> : null}
      <ReportFields fields={fields} suspicion={!fromMatch} />
      <button type="submit" className="btn-secondary" disabled={busy}>
        Save the changes
      </button>
    </Form>
  );
}

export function ReviewForm({ actionData }: { actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "review",
    schema: strReviewSchema,
    lastResult: resultFor(actionData, "review"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="review" />
      <SelectField
        field={fields.decision}
        label="Your review"
        options={{ approve: "Approve: ready to export for FIU-IND", send_back: "Send it back to the drafter with what to change" }}
      />
      <TextAreaField field={fields.note} label="Note" hint="What you checked, or what to change (needed to send it back)." rows={3} />
      <button type="submit" className="btn-primary" disabled={busy}>
        Record the review
      </button>
    </Form>
  );
}

export function ExportForm() {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="export" />
      <button type="submit" className="btn-primary">
        Export the file for FIU-IND
      </button>
    </Form>
  );
}

export function AcknowledgeForm({ actionData }: { actionData: KeyedActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "acknowledge",
    schema: strAcknowledgeSchema,
    lastResult: resultFor(actionData, "acknowledge"),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="space-y-4" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={formErrors} />
      <input type="hidden" name="intent" value="acknowledge" />
      <TextField
        field={fields.fiuReference}
        label="FIU-IND acknowledgement number"
        hint="As the FINnet portal gives it once the file is accepted."
      />
      <button type="submit" className="btn-secondary" disabled={busy}>
        Record the acknowledgement
      </button>
    </Form>
  );
}
