import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation } from "react-router";
import { FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { KycSection } from "../../../components/kyc-section.tsx";
import { servicesContext } from "../../../context.ts";
import { EMPLOYMENT_TYPES, employmentSchema } from "../../../domain/kyc/address-employment-schema.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { loadEmployment, saveEmployment } from "../../../server/kyc/sections.server.ts";
import type { Route } from "./+types/employment-section";
import { readForm } from "../../../web/forms.server.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

const rupees = (paise: number | null) => (paise === null ? "" : String(paise / 100));

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  return { saved: await loadEmployment(context.get(servicesContext), user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const submission = parseWithZod(await readForm(request), { schema: employmentSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await saveEmployment(services, { userId: user.id, input: submission.value });
  return redirectWithToast(services.config, request, "/User/Profile/components/Employment", {
    type: "success",
    title: "Your work and income details are saved.",
  });
}

export default function EmploymentSection({ loaderData, actionData }: Route.ComponentProps) {
  const { saved } = loaderData;
  const navigation = useNavigation();
  const { form, fields, formErrors } = useSchemaForm({
    schema: employmentSchema,
    lastResult: actionData,
    defaultValue: saved
      ? {
          employmentType: saved.employmentType,
          employerName: saved.employerName ?? "",
          designation: saved.designation ?? "",
          netMonthlyIncome: rupees(saved.netMonthlyIncomePaise),
          existingEmis: rupees(saved.existingEmiPaise),
          salaryDay: saved.salaryDay ? String(saved.salaryDay) : "",
          monthsWithEmployer: saved.monthsWithEmployer === null ? "" : String(saved.monthsWithEmployer),
        }
      : undefined,
  });
  return (
    <KycSection title="Your work and income" intro="We use these to work out what you can comfortably repay.">
      <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <SelectField field={fields.employmentType} label="I am" options={EMPLOYMENT_TYPES} />
        <TextField field={fields.employerName} label="Employer or business name" autoComplete="organization" />
        <TextField field={fields.designation} label="Designation or role" autoComplete="organization-title" />
        <TextField field={fields.netMonthlyIncome} label="Net monthly income (₹, after tax)" inputMode="decimal" />
        <TextField field={fields.existingEmis} label="Existing EMIs each month (₹, 0 if none)" inputMode="decimal" />
        <TextField
          field={fields.salaryDay}
          label="Salary day (salaried only)"
          hint="The day of the month your salary reaches your account, 1 to 31."
          inputMode="numeric"
        />
        <TextField field={fields.monthsWithEmployer} label="Months with this employer or in this business" inputMode="numeric" />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
          Save work and income
        </button>
      </Form>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your work and income");
