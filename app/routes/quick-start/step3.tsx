import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { FormErrors, SelectField, TextField } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { EMPLOYMENT_TYPES, incomeSchema } from "../../domain/kyc/address-employment-schema.ts";
import { pageMeta } from "../../lib/meta.ts";
import { loadEmployment } from "../../server/kyc/sections.server.ts";
import type { Route } from "./+types/step3";
import { loadQuickStep, postQuickStep, quickStepPage } from "../../web/quick-step.server.ts";
import { useTranslations } from "../../i18n/use-translations.ts";
import { choices } from "../../lib/choices.ts";

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress } = await loadQuickStep(args, 3);
  const job = await loadEmployment(services, user.id);
  return {
    ...quickStepPage(args.context, 3),
    completed: progress.completedSteps,
    values: {
      employmentType: job?.employmentType ?? "",
      netMonthlyIncome: job ? String(job.netMonthlyIncomePaise / 100) : "",
      salaryDay: job?.salaryDay ? String(job.salaryDay) : "",
    },
  };
}

export async function action(args: Route.ActionArgs) {
  return postQuickStep(args, 3, incomeSchema);
}

export default function QuickStep3({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields, busy, formErrors } = useStepForm({ schema: incomeSchema, lastResult: actionData, defaultValue: loaderData.values });
  const t = useTranslations("applyQuick.income");
  const say = useTranslations("validation");
  return (
    <QuickStartFrame step={3} completed={loaderData.completed} intro={t("intro")}>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <SelectField
          field={fields.employmentType}
          label={t("iAm")}
          options={choices(EMPLOYMENT_TYPES, (k) => say(`employment.types.${k}`))}
        />
        <TextField field={fields.netMonthlyIncome} label={t("net")} hint={t("netHint")} inputMode="decimal" />
        <TextField field={fields.salaryDay} label={t("salaryDay")} hint={t("salaryDayHint")} inputMode="numeric" />
        <StepButtons step={3} busy={busy} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
