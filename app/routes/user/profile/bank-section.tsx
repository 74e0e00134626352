import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useLocation, useNavigation } from "react-router";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { KycSection } from "../../../components/kyc-section.tsx";
import { servicesContext } from "../../../context.ts";
import { ACCOUNT_TYPES, bankSchema, NAME_MATCH_THRESHOLD } from "../../../domain/kyc/references-bank-schema.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { useLookup } from "../../../lib/use-lookup.ts";
import { signedInContext } from "../../../web/guards.server.ts";
import { pageMessages, translatorFor } from "../../../web/i18n.server.ts";
import { choices } from "../../../lib/choices.ts";
import { redirectWithToast } from "../../../web/flash.server.ts";
import { loadBank, saveBank } from "../../../server/kyc/references-bank.server.ts";
import type { Route } from "./+types/bank-section";
import { readForm } from "../../../web/forms.server.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

const ifscUrl = (code: string) => `/api/ifsc/${code}`;

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context.get(signedInContext);
  const bank = await loadBank(context.get(servicesContext), user.id);
  return {
    saved: bank
      ? {
          holderName: bank.holderName,
          accountMasked: bank.accountMasked,
          ifsc: bank.ifsc,
          bankName: bank.bankName,
          accountType: bank.accountType,
          nameAtBank: bank.nameAtBank,
          score: bank.nameMatchScore,
          verified: Boolean(bank.verifiedAt),
        }
      : null,
    messages: pageMessages(context, ["profileSections"]),
    meta: { title: translatorFor(context, "profileSections")("bank.title") },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(servicesContext);
  const { user } = context.get(signedInContext);
  const submission = parseWithZod(await readForm(request), { schema: bankSchema });
  if (submission.status !== "success")
    return data(submission.reply({ hideFields: ["accountNumber", "accountNumber_confirm"] }), { status: 400 });
  const saved = await saveBank(services, { userId: user.id, input: submission.value });
  if (!saved.ok)
    return data(submission.reply({ fieldErrors: saved.fieldErrors, hideFields: ["accountNumber", "accountNumber_confirm"] }), {
      status: 400,
    });
  const t = translatorFor(context, "profileSections");
  return redirectWithToast(
    services.config,
    request,
    "/User/Profile/components/Bank",
    saved.verified
      ? { type: "success", title: t("bank.savedVerified") }
      : {
          type: "error",
          title: t("bank.savedUnverified"),
          description: t("bank.savedScore", { score: String(saved.score), threshold: String(NAME_MATCH_THRESHOLD) }),
        },
  );
}

/** The form is made afresh after each save (a new location key): the account number just typed does not stay in its boxes. */
export default function BankSection(props: Route.ComponentProps) {
  return <BankForm key={useLocation().key} {...props} />;
}

function BankForm({ loaderData, actionData }: Route.ComponentProps) {
  const { saved } = loaderData;
  const navigation = useNavigation();
  const t = useTranslations("profileSections");
  const say = useTranslations("validation");
  const { form, fields, formErrors } = useSchemaForm({
    schema: bankSchema,
    lastResult: actionData,
    defaultValue: saved ? { holderName: saved.holderName, ifsc: saved.ifsc, accountType: saved.accountType } : undefined,
  });
  const bank = useLookup<{ bankName: string }>(String(fields.ifsc.value ?? "").toUpperCase(), /^[A-Z]{4}0[A-Z0-9]{6}$/, ifscUrl);
  const ifscHint = bank === "unknown" ? say("ifsc.unknown") : bank ? t("bank.ifscBank", { bank: bank.bankName }) : t("bank.ifscHint");
  return (
    <KycSection title={t("bank.title")} intro={t("bank.intro")}>
      {saved ? (
        <section aria-labelledby="bank-saved" className={`card mt-6 ${saved.verified ? "border-money-600" : "border-amber-400"}`}>
          <h2 id="bank-saved" className="text-lg">
            {saved.verified ? t("bank.verified") : t("bank.notVerified")}
          </h2>
          <dl className="mt-2 grid gap-1 sm:grid-cols-[10rem_1fr]">
            <dt className="text-slate-600">{t("bank.account")}</dt>
            <dd data-testid="bank-account">{saved.accountMasked}</dd>
            <dt className="text-slate-600">{t("bank.bank")}</dt>
            <dd>
              {saved.bankName} ({saved.ifsc})
            </dd>
            <dt className="text-slate-600">{t("bank.nameAtBank")}</dt>
            <dd>{saved.nameAtBank}</dd>
            <dt className="text-slate-600">{t("bank.nameMatch")}</dt>
            <dd data-testid="name-match">{t("bank.score", { score: String(saved.score), threshold: String(NAME_MATCH_THRESHOLD) })}</dd>
          </dl>
          <p className="mt-2 text-sm text-slate-600">{t("bank.matchExplained")}</p>
        </section>
      ) : null}
      <Form method="post" className="card mt-6 space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <TextField field={fields.holderName} label={t("bank.holderName")} autoComplete="name" />
        <TextField field={fields.accountNumber} label={t("bank.accountNumber")} type="password" inputMode="numeric" autoComplete="off" />
        <TextField field={fields.accountNumber_confirm} label={t("bank.accountAgain")} inputMode="numeric" autoComplete="off" />
        <TextField
          field={fields.ifsc}
          label={t("bank.ifsc")}
          hint={<span aria-live="polite">{ifscHint}</span>}
          className="uppercase"
          autoComplete="off"
          maxLength={11}
        />
        <SelectField
          field={fields.accountType}
          label={t("bank.accountType")}
          options={choices(ACCOUNT_TYPES, (k) => t(`accountTypes.${k}`))}
        />
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={navigation.state === "submitting"}>
          {t("bank.save")}
        </button>
      </Form>
    </KycSection>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
