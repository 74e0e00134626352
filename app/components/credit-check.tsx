import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { bureauConsentSchema } from "../domain/kyc/profile-schema.ts";
import { BureauConsentField } from "./consent-fields.tsx";
import { FormErrors } from "./field.tsx";
import { useSchemaForm } from "./use-schema-form.ts";
import { useTranslations } from "../i18n/use-translations.ts";

/**
 * The credit check an offer still needs (docs/product.md "Credit policy"): the borrower's consent
 * to a soft bureau enquiry (the form posts `intent=credit_check`), or, while the bureau has not
 * answered, what happens next. `failed`: the bureau never answered; the form asks again. Its words are
 * the "applyFlow" namespace's.
 */
export function CreditCheckPanel({
  state,
  lastResult,
}: {
  state: "ask" | "waiting" | "failed";
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { form, fields, formErrors, busy } = useSchemaForm({ id: "credit-check", schema: bureauConsentSchema, lastResult });
  const t = useTranslations("applyFlow.creditCheck");
  if (state === "waiting") {
    return (
      <section className="card space-y-3 border-brand-300" aria-labelledby="credit-check-title" data-testid="credit-check-waiting">
        <h2 id="credit-check-title" className="text-xl">
          {t("waitingHeading")}
        </h2>
        <p>{t("waiting")}</p>
        <Form method="get">
          <button type="submit" className="btn-secondary">
            {t("lookAgain")}
          </button>
        </Form>
      </section>
    );
  }
  return (
    <section className="card space-y-4" aria-labelledby="credit-check-title" data-testid="credit-check-ask">
      <h2 id="credit-check-title" className="text-xl">
        {state === "failed" ? t("failedHeading") : t("askHeading")}
      </h2>
      <p>{state === "failed" ? t("failed") : t("ask")}</p>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <input type="hidden" name="intent" value="credit_check" />
        <BureauConsentField field={fields.consentBureau} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {t("button")}
        </button>
      </Form>
    </section>
  );
}
