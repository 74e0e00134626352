import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation } from "react-router";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { KycSection } from "../../../components/kyc-section.tsx";
import { servicesContext } from "../../../context.ts";
import { EMPLOYMENT_TYPES, employmentSchema } from "../../../domain/kyc/address-employment-schema.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { choices } from "../../../lib/choices.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { loadEmployment, saveEmployment } from "../../../server/kyc/sections.server.ts";
import type { Route } from "./+types/employment-section";
import { readForm } from "../../../web/forms.server.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

const rupees = (paise: number | null) => (paise === null ? "" : String(paise / 100));

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  return {
    saved: await loadEmployment(context.get(servicesContext), user.id),
    messages: pageMessages(context, ["profileSections"]),
    meta: { title: translatorFor(context, "profileSections")("employment.title") },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const submission = parseWithZod(await readForm(request), { schema: employmentSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await saveEmployment(services, { userId: user.id, input: submission.value });
  return redirectWithToast(services.config, request, "/User/Profile/components/Employment", {
    type: "success",
    title: translatorFor(context, "profileSections")("employment.saved"),
  });
}

export default function EmploymentSection({ loaderData, actionData }: Route.ComponentProps) {
  const { saved } = loaderData;
  const navigation = useNavigation();
  const t = useTranslations("profileSections");
  const say = useTranslations("validation");
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
    <KycSection title={t("employment.title")} intro={t("employment.intro")}>
      <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <SelectField
          field={fields.employmentType}
          label={t("employment.type")}
          options={choices(EMPLOYMENT_TYPES, (k) => say(`employment.types.${k}`))}
        />
        <TextField field={fields.employerName} label={t("employment.employer")} autoComplete="organization" />
        <TextField field={fields.designation} label={t("employment.designation")} autoComplete="organization-title" />
        <TextField field={fields.netMonthlyIncome} label={t("employment.income")} inputMode="decimal" />
        <TextField field={fields.existingEmis} label={t("employment.emis")} inputMode="decimal" />
        <TextField field={fields.salaryDay} label={t("employment.salaryDay")} hint={t("employment.salaryDayHint")} inputMode="numeric" />
        <TextField field={fields.monthsWithEmployer} label={t("employment.months")} inputMode="numeric" />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
          {t("employment.save")}
        </button>
      </Form>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
