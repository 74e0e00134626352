import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { BureauConsentField } from "../../components/consent-fields.tsx";
import { FormErrors, TextField } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { existingEmisSchema } from "../../domain/quick-start-schemas.ts";
import { pageMeta } from "../../lib/meta.ts";
import { loadEmployment } from "../../server/kyc/sections.server.ts";
import type { Route } from "./+types/step4";
import { loadQuickStep, postQuickStep, quickStepPage } from "../../web/quick-step.server.ts";
import { useTranslations } from "../../i18n/use-translations.ts";

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress } = await loadQuickStep(args, 4);
  const job = await loadEmployment(services, user.id);
  return {
    ...quickStepPage(args.context, 4),
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
  const t = useTranslations("applyQuick.emis");
  return (
    <QuickStartFrame step={4} completed={loaderData.completed} intro={t("intro")}>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <TextField field={fields.existingEmis} label={t("label")} hint={t("hint")} inputMode="decimal" />
        <BureauConsentField field={fields.consentBureau} />
        <StepButtons step={4} busy={busy} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
