import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { FormErrors, SelectField, TextField } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { EMPLOYMENT_TYPES, incomeSchema } from "../../domain/kyc/address-employment-schema.ts";
import { pageMeta } from "../../lib/meta.ts";
import { loadEmployment } from "../../server/kyc/sections.server.ts";
import type { Route } from "./+types/step3";
import { loadQuickStep, postQuickStep } from "../../web/quick-step.server.ts";

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress } = await loadQuickStep(args, 3);
  const job = await loadEmployment(services, user.id);
  return {
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
  return (
    <QuickStartFrame step={3} completed={loaderData.completed} intro="What you earn decides how much you can comfortably repay.">
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <SelectField field={fields.employmentType} label="I am" options={EMPLOYMENT_TYPES} />
        <TextField
          field={fields.netMonthlyIncome}
          label="Net monthly income (₹, after tax)"
          hint="What reaches your bank account each month."
          inputMode="decimal"
        />
        <TextField
          field={fields.salaryDay}
          label="Salary day (salaried only)"
          hint="The day of the month your salary reaches your account, 1 to 31. A salary advance is repaid on it."
          inputMode="numeric"
        />
        <StepButtons step={3} busy={busy} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Quick start: work and income");
