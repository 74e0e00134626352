import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { bureauConsentSchema } from "../domain/kyc/profile-schema.ts";
import { BureauConsentField } from "./consent-fields.tsx";
import { FormErrors } from "./field.tsx";
import { useSchemaForm } from "./use-schema-form.ts";

/**
 * The credit check an offer still needs (docs/product.md "Credit policy"): the borrower's consent
 * to a soft bureau enquiry (the form posts `intent=credit_check`), or, while the bureau has not
 * answered, what happens next. `failed`: the bureau never answered; the form asks again.
 */
export function CreditCheckPanel({
  state,
  lastResult,
}: {
  state: "ask" | "waiting" | "failed";
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { form, fields, formErrors, busy } = useSchemaForm({ id: "credit-check", schema: bureauConsentSchema, lastResult });
  if (state === "waiting") {
    return (
      <section className="card space-y-3 border-brand-300" aria-labelledby="credit-check-title" data-testid="credit-check-waiting">
        <h2 id="credit-check-title" className="text-xl">
          We are waiting for the credit bureau
        </h2>
        <p>
          The credit bureau has not answered yet, so we cannot make you an offer at this moment. We will send you an SMS as soon as its
          answer is in. Your answers are saved: come back to this page from the SMS.
        </p>
        <Form method="get">
          <button type="submit" className="btn-secondary">
            Look again
          </button>
        </Form>
      </section>
    );
  }
  return (
    <section className="card space-y-4" aria-labelledby="credit-check-title" data-testid="credit-check-ask">
      <h2 id="credit-check-title" className="text-xl">
        {state === "failed" ? "Let us try the credit check again" : "One check before your offer"}
      </h2>
      <p>
        {state === "failed"
          ? "The credit bureau did not answer our last request. With your consent we will ask it again now."
          : "To make you an offer we verify your PAN and look at your credit history with a credit bureau. We need your consent for it."}
      </p>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <input type="hidden" name="intent" value="credit_check" />
        <BureauConsentField field={fields.consentBureau} />
        <button type="submit" className="btn-primary" disabled={busy}>
          Check my credit history
        </button>
      </Form>
    </section>
  );
}
