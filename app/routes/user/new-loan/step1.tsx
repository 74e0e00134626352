import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useNavigation } from "react-router";
import { Link } from "../../../lib/link.tsx";
import { CheckboxField, FormErrors, SelectField, TextField } from "../../../components/field.tsx";
import { LoanFlow } from "../../../components/loan-flow.tsx";
import { KycChecklist } from "../../../components/kyc-checklist.tsx";
import { detailsSchema, PURPOSES, stepPath } from "../../../domain/loans/application.ts";
import { useTranslations } from "../../../i18n/use-translations.ts";
import { choices } from "../../../lib/choices.ts";
import { msg } from "../../../i18n/form-message.ts";
import { useMessageText } from "../../../lib/use-message-text.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { loadCompleteness } from "../../../server/kyc/completeness.server.ts";
import type { Route } from "./+types/step1";
import { readForm } from "../../../web/forms.server.ts";
import { disbursalAccount } from "../../../server/loans/read.server.ts";
import { saveDetails } from "../../../server/loans/details.server.ts";
import { cancelFromStep, type LoadedStep, loadStep, stepPage } from "../../../web/new-loan-step.server.ts";
import { useSchemaForm } from "../../../components/use-schema-form.ts";

/** What this kind of loan still needs from the profile (one checklist), and the account the money goes to. */
async function readiness(loaded: LoadedStep) {
  const { services, user, kind } = loaded;
  const [completeness, bank] = await Promise.all([loadCompleteness(services, user.id), disbursalAccount(services, user.id)]);
  const need = kind === "emi" ? completeness.emi : completeness.salaryAdvance;
  return { ready: need.ready, checklist: need.checklist, bank };
}

export async function loader(args: Route.LoaderArgs) {
  const loaded = await loadStep(args, "Step1");
  const { application, kind, reference } = loaded;
  const r = await readiness(loaded);
  return {
    ...stepPage(args.context, "Step1", ["profile"]),
    kind,
    reference,
    status: loaded.state.status,
    done: loaded.done,
    ready: r.ready,
    checklist: r.checklist,
    bank: r.bank.account,
    bankProblem: r.bank.problem,
    values: {
      purpose: application.purpose ?? "",
      purposeDetails: application.purposeDetails ?? "",
      disbursalConsent: application.detailsSavedAt ? "yes" : "",
    },
  };
}

export async function action(args: Route.ActionArgs) {
  const loaded = await loadStep(args, "Step1");
  const formData = await readForm(args.request);
  if (formData.get("intent") === "cancel") return cancelFromStep(loaded, args.request);
  const submission = parseWithZod(formData, { schema: detailsSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const r = await readiness(loaded);
  const ok = r.ready && r.bank.problem === null;
  // The purpose is kept either way; the step is done only with a complete profile and a verified account.
  await saveDetails(loaded.services, {
    userId: loaded.user.id,
    application: loaded.application,
    details: {
      purpose: submission.value.purpose,
      purposeDetails: submission.value.purposeDetails || null,
      account: ok ? r.bank.account : null,
    },
  });
  if (!ok) {
    return data(submission.reply({ formErrors: [msg("applySteps.errors.purposeSaved")] }), {
      status: 400,
    });
  }
  throw redirect(stepPath(loaded.kind, loaded.reference, "Step5"));
}

export default function Step1({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, reference } = loaderData;
  const navigation = useNavigation();
  const { form, fields, formErrors } = useSchemaForm({ schema: detailsSchema, lastResult: actionData, defaultValue: loaderData.values });
  const t = useTranslations("applySteps.details");
  const say = useMessageText();
  return (
    <LoanFlow kind={kind} reference={reference} step="Step1" status={loaderData.status} done={loaderData.done} title={t("title")}>
      {!loaderData.ready ? (
        <section className="card border-amber-300" aria-labelledby="profile-title" data-testid="profile-missing">
          <h2 id="profile-title" className="text-xl">
            {t("finish")}
          </h2>
          <p className="mt-2 text-slate-700">{t("needs", { kind })}</p>
          <div className="mt-4">
            <KycChecklist items={loaderData.checklist} label={t("needsLabel", { kind })} />
          </div>
        </section>
      ) : (
        <p className="card border-emerald-300 bg-emerald-50">{t("ready")}</p>
      )}
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <SelectField field={fields.purpose} label={t("purpose")} options={choices(PURPOSES, (k) => t(`purposes.${k}`))} />
        <TextField field={fields.purposeDetails} label={t("purposeDetails")} />
        <fieldset className="space-y-2">
          <legend className="field-label">{t("where")}</legend>
          {loaderData.bank ? (
            <p data-testid="disbursal-account">
              {t("account", {
                holder: loaderData.bank.holderName,
                account: loaderData.bank.accountMasked,
                bank: loaderData.bank.bankName,
                ifsc: loaderData.bank.ifsc,
              })}
            </p>
          ) : null}
          {loaderData.bankProblem ? (
            <p className="text-danger-600">
              {say(loaderData.bankProblem)}{" "}
              <Link className="link" to="/User/Profile/components/Bank">
                {t("goToBank")}
              </Link>
            </p>
          ) : null}
          <p className="text-sm text-slate-600">{t("ownOnly")}</p>
          <CheckboxField
            field={fields.disbursalConsent}
            label={t("consent")}
            defaultChecked={loaderData.values.disbursalConsent === "yes"}
          />
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <Link className="btn-secondary" to={stepPath(kind, reference, "Step0")}>
            {t("back")}
          </Link>
          <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
            {t("save")}
          </button>
        </div>
      </Form>
    </LoanFlow>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
