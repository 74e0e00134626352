import { getFormProps } from "@conform-to/react";
import { Form, redirect } from "react-router";
import { ConsentFields } from "../../components/consent-fields.tsx";
import { FormErrors } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { stepPath } from "../../domain/loans/application.ts";
import { useTranslations } from "../../i18n/use-translations.ts";
import { linkTo } from "../../lib/rich-text.tsx";
import { CONSENT_STEP, quickStepPath } from "../../domain/quick-start.ts";
import { consentSchema } from "../../domain/quick-start-schemas.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import { loadConsents } from "../../server/kyc/profile.server.ts";
import type { Route } from "./+types/step6";
import { loadQuickStep, postQuickStep, quickStepPage } from "../../web/quick-step.server.ts";
import { ownedApplicationById } from "../../server/loans/read.server.ts";

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress } = await loadQuickStep(args, CONSENT_STEP);
  const consents = await loadConsents(services, user.id);
  const application = progress.applicationId
    ? await ownedApplicationById(services, { userId: user.id, applicationId: progress.applicationId })
    : null;
  // Step0 chose the product before this step could be reached.
  if (!progress.product) throw redirect(quickStepPath(0));
  return {
    ...quickStepPage(args.context, CONSENT_STEP),
    completed: progress.completedSteps,
    chosen: { product: progress.product, amountPaise: progress.offerAmountPaise ?? 0, tenureMonths: progress.tenureMonths },
    application: application && progress.continuedAt ? { href: stepPath(application.product, application.reference, "Step0") } : null,
    values: { consentKyc: consents.kyc ? "on" : undefined, consentCommunications: consents.communications ? "on" : undefined },
  };
}

export async function action(args: Route.ActionArgs) {
  return postQuickStep(args, CONSENT_STEP, consentSchema);
}

export default function QuickStep6({ loaderData, actionData }: Route.ComponentProps) {
  const { chosen } = loaderData;
  const { form, fields, busy, formErrors } = useStepForm({
    schema: consentSchema,
    lastResult: actionData,
    defaultValue: loaderData.values,
  });
  const t = useTranslations("applyQuick.consent");
  return (
    <QuickStartFrame
      step={CONSENT_STEP}
      completed={loaderData.completed}
      intro={t("intro", {
        kind: chosen.product,
        amount: formatRupees(chosen.amountPaise),
        months: chosen.product === "emi" && chosen.tenureMonths ? String(chosen.tenureMonths) : "none",
      })}
    >
      {loaderData.application ? (
        <p className="card" role="status">
          {t.rich("finished", { link: linkTo(loaderData.application.href, "link") })}
        </p>
      ) : null}
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <ConsentFields consentKyc={fields.consentKyc} consentCommunications={fields.consentCommunications} />
        <p className="text-sm text-slate-700">{t("never")}</p>
        <StepButtons step={CONSENT_STEP} busy={busy} next={t("next")} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
