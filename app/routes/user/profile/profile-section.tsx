import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useLocation, useNavigation } from "react-router";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { ConsentFields } from "../../../components/consent-fields.tsx";
import { FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { KycSection } from "../../../components/kyc-section.tsx";
import { requestContext, servicesContext } from "../../../context.ts";
import { GENDERS, MARITAL_STATUSES, maskAadhaar, profileSchema } from "../../../domain/kyc/profile-schema.ts";
import { todayIST } from "../../../domain/india-date.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { loadConsents, loadProfile, saveProfile } from "../../../server/kyc/profile.server.ts";
import type { Route } from "./+types/profile-section";
import { readForm } from "../../../web/forms.server.ts";
import { choices } from "../../../lib/choices.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const [profile, consentState] = await Promise.all([loadProfile(services, user.id), loadConsents(services, user.id)]);
  return {
    today: todayIST(services.now()),
    saved: profile
      ? {
          fullName: profile.fullName,
          dateOfBirth: profile.dateOfBirth,
          gender: profile.gender,
          email: profile.email,
          maritalStatus: profile.maritalStatus,
          panMasked: profile.panMasked,
          aadhaarMasked: profile.aadhaarLast4 ? maskAadhaar(profile.aadhaarLast4) : null,
        }
      : null,
    consents: consentState,
    messages: pageMessages(context, ["profileSections"]),
    meta: { title: translatorFor(context, "profileSections")("profile.title") },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const existing = await loadProfile(services, user.id);
  const schema = profileSchema({
    today: todayIST(services.now()),
    saved: { pan: Boolean(existing), aadhaar: Boolean(existing?.aadhaarLast4) },
  });
  const submission = parseWithZod(await readForm(request), { schema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["aadhaar"] }), { status: 400 });
  const saved = await saveProfile(services, {
    userId: user.id,
    input: submission.value,
    client: context.get(requestContext),
    existing: Boolean(existing),
  });
  if (!saved.ok) return data(submission.reply({ fieldErrors: saved.fieldErrors, hideFields: ["aadhaar"] }), { status: 400 });
  return redirectWithToast(services.config, request, "/User/Profile/components/Profile", {
    type: "success",
    title: translatorFor(context, "profileSections")("profile.saved"),
  });
}

/**
 * The form is made afresh after each save (a new page visit, a new location key): the Aadhaar and
 * PAN just typed are not left in their boxes, which show only the masked saved values' hints.
 */
export default function ProfileSection(props: Route.ComponentProps) {
  return <ProfileForm key={useLocation().key} {...props} />;
}

function ProfileForm({ loaderData, actionData }: Route.ComponentProps) {
  const { saved, today } = loaderData;
  const navigation = useNavigation();
  const t = useTranslations("profileSections");
  const schema = profileSchema({ today, saved: { pan: Boolean(saved), aadhaar: Boolean(saved?.aadhaarMasked) } });
  const { form, fields, formErrors } = useSchemaForm({
    schema,
    lastResult: actionData,
    defaultValue: saved
      ? {
          ...saved,
          consentKyc: loaderData.consents.kyc ? "on" : undefined,
          consentCommunications: loaderData.consents.communications ? "on" : undefined,
        }
      : undefined,
  });
  return (
    <KycSection title={t("profile.title")} intro={t("profile.intro")}>
      <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <TextField field={fields.fullName} label={t("profile.fullName")} autoComplete="name" />
        <TextField field={fields.dateOfBirth} label={t("profile.dateOfBirth")} type="date" autoComplete="bday" />
        <SelectField field={fields.gender} label={t("profile.gender")} options={choices(GENDERS, (k) => t(`genders.${k}`))} />
        <TextField field={fields.email} label={t("profile.email")} type="email" autoComplete="email" />
        <TextField
          field={fields.pan}
          label={t("profile.pan")}
          hint={saved ? t("savedKeep", { masked: saved.panMasked }) : t("profile.panHint")}
          className="uppercase"
          autoComplete="off"
        />
        <TextField
          field={fields.aadhaar}
          label={t("profile.aadhaar")}
          hint={saved?.aadhaarMasked ? t("savedKeep", { masked: saved.aadhaarMasked }) : t("profile.aadhaarHint")}
          inputMode="numeric"
          autoComplete="off"
        />
        <SelectField
          field={fields.maritalStatus}
          label={t("profile.maritalStatus")}
          options={choices(MARITAL_STATUSES, (k) => t(`maritalStatuses.${k}`))}
        />
        <ConsentFields consentKyc={fields.consentKyc} consentCommunications={fields.consentCommunications} />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
          {t("profile.save")}
        </button>
      </Form>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
