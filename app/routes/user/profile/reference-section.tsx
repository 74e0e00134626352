import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation } from "react-router";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { KycSection } from "../../../components/kyc-section.tsx";
import { servicesContext } from "../../../context.ts";
import { RELATIONS, referencesSchema } from "../../../domain/kyc/references-bank-schema.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { choices } from "../../../lib/choices.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { loadReferences, saveReferences } from "../../../server/kyc/references-bank.server.ts";
import type { Route } from "./+types/reference-section";
import { readForm } from "../../../web/forms.server.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const saved = await loadReferences(context.get(servicesContext), user.id);
  return {
    ownMobile: user.mobile,
    saved: saved.map(({ name, relation, mobile }) => ({ name, relation, mobile })),
    messages: pageMessages(context, ["profileSections"]),
    meta: { title: translatorFor(context, "profileSections")("reference.title") },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const submission = parseWithZod(await readForm(request), { schema: referencesSchema(user.mobile) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await saveReferences(services, { userId: user.id, input: submission.value });
  return redirectWithToast(services.config, request, "/User/Profile/components/Reference", {
    type: "success",
    title: translatorFor(context, "profileSections")("reference.saved"),
  });
}

export default function ReferenceSection({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const t = useTranslations("profileSections");
  const relations = choices(RELATIONS, (k) => t(`relations.${k}`));
  const [r1, r2] = loaderData.saved;
  const schema = referencesSchema(loaderData.ownMobile);
  const { form, fields, formErrors } = useSchemaForm({
    schema,
    lastResult: actionData,
    defaultValue:
      r1 && r2
        ? {
            ref1Name: r1.name,
            ref1Relation: r1.relation,
            ref1Mobile: r1.mobile,
            ref2Name: r2.name,
            ref2Relation: r2.relation,
            ref2Mobile: r2.mobile,
          }
        : undefined,
  });
  const person = (n: 1 | 2) => {
    const name = n === 1 ? fields.ref1Name : fields.ref2Name;
    const relation = n === 1 ? fields.ref1Relation : fields.ref2Relation;
    const mobile = n === 1 ? fields.ref1Mobile : fields.ref2Mobile;
    return (
      <fieldset className="space-y-4 rounded-xl border border-slate-200 p-4">
        <legend className="px-1 font-medium">{t("reference.legend", { n: String(n) })}</legend>
        <TextField field={name} label={t("reference.name", { n: String(n) })} />
        <SelectField field={relation} label={t("reference.relation", { n: String(n) })} options={relations} />
        <TextField field={mobile} label={t("reference.mobile", { n: String(n) })} type="tel" inputMode="tel" />
      </fieldset>
    );
  };
  return (
    <KycSection title={t("reference.title")} intro={t("reference.intro")}>
      <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        {person(1)}
        {person(2)}
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
          {t("reference.save")}
        </button>
      </Form>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
