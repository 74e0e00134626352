import { getFormProps, getTextareaProps } from "@conform-to/react";
import { Form } from "react-router";
import { Field, FormErrors } from "../../../components/field.tsx";
import { useSchemaForm } from "../../../components/use-schema-form.ts";
import { answerSchema } from "../../../domain/review.ts";
import { shortReference } from "../../../domain/loans/application.ts";
import { formatDateIST } from "../../../domain/india-date.ts";
import { ReuploadNote } from "../../../components/reupload-note.tsx";
import type { ActionData, Data } from "../dashboard.tsx";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../i18n/use-translations.ts";
import type { Language } from "../../../i18n/languages.ts";
import { spanWith, strong } from "../../../lib/rich-text.tsx";

const mono = spanWith("font-mono text-sm font-normal");

// The dashboard's "Waiting for you": what the credit team asked, each answered by its own form (the action's one intent).

export function Requests({ d, actionData }: { d: Data; actionData: ActionData }) {
  const t = useTranslations("dashboard.requests");
  return (
    <section aria-labelledby="waiting-title" className="card border-amber-300 bg-amber-50">
      <h2 id="waiting-title" className="text-xl">
        {t("heading")}
      </h2>
      <p className="mt-1 text-slate-700">{t("intro")}</p>
      <ul className="mt-4 space-y-6">
        {d.requests.map((r) => (
          <WaitingForYou key={r.id} request={r} lastResult={actionData} />
        ))}
      </ul>
    </section>
  );
}

function WaitingForYou({ request: r, lastResult }: { request: Data["requests"][number]; lastResult: ActionData }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: `answer-${r.id}`,
    schema: answerSchema,
    lastResult: lastResult?.initialValue?.request === r.id ? lastResult : undefined,
  });
  const t = useTranslations("dashboard.requests");
  const language = useLocale() as Language;
  return (
    <li className="space-y-3" data-testid="waiting-for-you">
      <p>
        {t.rich("asked", {
          kind: r.kind,
          reference: shortReference(r.reference),
          date: formatDateIST(new Date(r.askedAt), language),
          strong,
          mono,
        })}
      </p>
      <blockquote className="border-l-4 border-amber-400 pl-3 whitespace-pre-line">{r.message}</blockquote>
      {r.document ? <ReuploadNote document={r.document} answer="below" /> : null}
      <Form method="post" className="space-y-3" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <input type="hidden" name="request" value={r.id} />
        <Field
          id={fields.answer.id}
          label={r.document ? t("noteLabel") : t("answerLabel")}
          errors={fields.answer.errors}
          errorId={fields.answer.errorId}
        >
          <textarea className="field-input min-h-24 bg-white" rows={3} {...getTextareaProps(fields.answer)} />
        </Field>
        <button type="submit" className="btn-primary" disabled={busy}>
          {r.document ? t("sendUploaded") : t("send")}
        </button>
      </Form>
    </li>
  );
}
