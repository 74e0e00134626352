import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { BureauConsentField } from "../../components/consent-fields.tsx";
import { FormErrors, TextField } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { existingEmisSchema } from "../../domain/quick-start-schemas.ts";
import { pageMeta } from "../../lib/meta.ts";
import { loadEmployment } from "../../server/kyc/sections.server.ts";
import type { Route } from "./+types/step4";
import { loadQuickStep, postQuickStep } from "../../web/quick-step.server.ts";

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress } = await loadQuickStep(args, 4);
  const job = await loadEmployment(services, user.id);
  return {
    completed: progress.completedSteps,
    values: { existingEmis: job?.existingEmiPaise === null || !job ? "" : String(job.existingEmiPaise / 100) },
  };
}

export async function action(args: Route.ActionArgs) {
  return postQuickStep(args, 4, existingEmisSchema);
}

export default function QuickStep4({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields, busy, formErrors } = useStepForm({
    schema: existingEmisSchema,
    lastResult: actionData,
    defaultValue: loaderData.values,
  });
  return (
    <QuickStartFrame
      step={4}
      completed={loaderData.completed}
      intro="All your EMIs together count towards what you can afford. We check them, and your credit history, with a credit bureau."
    >
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <TextField
          field={fields.existingEmis}
          label="Existing EMIs each month (₹)"
          hint="Home, car, personal loans and card EMIs you pay now. Enter 0 if none."
          inputMode="decimal"
        />
        <BureauConsentField field={fields.consentBureau} />
        <StepButtons step={4} busy={busy} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Quick start: existing EMIs");
