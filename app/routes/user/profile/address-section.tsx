import { getFormProps } from "@conform-to/react";
import { getInputProps } from "../../../components/input-props.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation } from "react-router";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { KycSection } from "../../../components/kyc-section.tsx";
import { PinCodeField } from "../../../components/pin-code-field.tsx";
import { servicesContext } from "../../../context.ts";
import { addressSchema, RESIDENCE_TYPES } from "../../../domain/kyc/address-employment-schema.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { choices } from "../../../lib/choices.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { loadAddress, saveAddress } from "../../../server/kyc/sections.server.ts";
import type { Route } from "./+types/address-section";
import { readForm } from "../../../web/forms.server.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  return {
    saved: await loadAddress(context.get(servicesContext), user.id),
    messages: pageMessages(context, ["profileSections"]),
    meta: { title: translatorFor(context, "profileSections")("address.title") },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const submission = parseWithZod(await readForm(request), { schema: addressSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const saved = await saveAddress(services, { userId: user.id, input: submission.value });
  if (!saved.ok) return data(submission.reply({ fieldErrors: saved.fieldErrors }), { status: 400 });
  return redirectWithToast(services.config, request, "/User/Profile/components/Address", {
    type: "success",
    title: translatorFor(context, "profileSections")("address.saved"),
  });
}

export default function AddressSection({ loaderData, actionData }: Route.ComponentProps) {
  const { saved } = loaderData;
  const navigation = useNavigation();
  const t = useTranslations("profileSections");
  const { form, fields, formErrors } = useSchemaForm({
    schema: addressSchema,
    lastResult: actionData,
    defaultValue: saved
      ? {
          currentLine1: saved.currentLine1 ?? "",
          currentLine2: saved.currentLine2 ?? "",
          currentPincode: saved.currentPincode,
          residenceType: saved.residenceType ?? "",
          yearsAtAddress: saved.yearsAtAddress === null ? "" : String(saved.yearsAtAddress),
          // The quick start saves only the PIN code: "same as current" stays the default until the form is saved.
          permanentSame: saved.permanentSame !== false ? "on" : undefined,
          permanentLine1: saved.permanentSame ? "" : (saved.permanentLine1 ?? ""),
          permanentLine2: saved.permanentSame ? "" : (saved.permanentLine2 ?? ""),
          permanentPincode: saved.permanentSame ? "" : (saved.permanentPincode ?? ""),
        }
      : { permanentSame: "on" },
  });
  return (
    <KycSection title={t("address.title")} intro={t("address.intro")}>
      <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <TextField field={fields.currentLine1} label={t("address.line1")} autoComplete="address-line1" />
        <TextField field={fields.currentLine2} label={t("address.line2")} autoComplete="address-line2" />
        <PinCodeField
          field={fields.currentPincode}
          saved={saved ? { city: saved.currentCity, district: saved.currentDistrict, state: saved.currentState } : null}
        />
        <SelectField
          field={fields.residenceType}
          label={t("address.residenceType")}
          options={choices(RESIDENCE_TYPES, (k) => t(`residenceTypes.${k}`))}
        />
        <TextField field={fields.yearsAtAddress} label={t("address.years")} inputMode="numeric" />
        {/* Ticked, the permanent address is the current one: its fields are hidden (by CSS, so without JavaScript too). */}
        <div className="group space-y-5">
          <label className="flex items-center gap-3">
            <input className="size-5 shrink-0" {...getInputProps(fields.permanentSame, { type: "checkbox" })} />
            {t("address.same")}
          </label>
          <fieldset className="space-y-5 rounded-xl border border-slate-200 p-4 group-has-[input[name=permanentSame]:checked]:hidden">
            <legend className="px-1 font-medium">{t("address.permanent")}</legend>
            <TextField field={fields.permanentLine1} label={t("address.permanentLine1")} />
            <TextField field={fields.permanentLine2} label={t("address.permanentLine2")} />
            <TextField field={fields.permanentPincode} label={t("address.permanentPincode")} inputMode="numeric" maxLength={6} />
          </fieldset>
        </div>
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
          {t("address.save")}
        </button>
      </Form>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
