import { getFormProps } from "@conform-to/react";
import { Form, Link, redirect } from "react-router";
import { ConsentFields } from "../../components/consent-fields.tsx";
import { FormErrors } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { KIND_NOUN, stepPath } from "../../domain/loans/application.ts";
import { CONSENT_STEP, quickStepPath } from "../../domain/quick-start.ts";
import { consentSchema } from "../../domain/quick-start-schemas.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import { loadConsents } from "../../server/kyc/profile.server.ts";
import type { Route } from "./+types/step6";
import { loadQuickStep, postQuickStep } from "../../web/quick-step.server.ts";
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
  return (
    <QuickStartFrame
      step={CONSENT_STEP}
      completed={loaderData.completed}
      intro={
        <>
          Your {KIND_NOUN[chosen.product]} application starts at {formatRupees(chosen.amountPaise)}
          {chosen.product === "emi" && chosen.tenureMonths ? ` over ${chosen.tenureMonths} months` : ""}. We need your consent before we
          check your KYC details.
        </>
      }
    >
      {loaderData.application ? (
        <p className="card" role="status">
          You have finished the quick start.{" "}
          <Link className="link" to={loaderData.application.href}>
            Go to your application
          </Link>
          .
        </p>
      ) : null}
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <ConsentFields consentKyc={fields.consentKyc} consentCommunications={fields.consentCommunications} />
        <p className="text-sm text-slate-700">
          We never ask for your contacts, call logs, files or location. You can change these consents in your profile at any time.
        </p>
        <StepButtons step={CONSENT_STEP} busy={busy} next="Continue to the loan application" />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Quick start: consents");
