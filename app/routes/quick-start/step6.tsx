import { getFormProps } from "@conform-to/react";
import { and, eq } from "drizzle-orm";
import { Form, Link, redirect } from "react-router";
import { ConsentFields } from "../../components/consent-fields.tsx";
import { FormErrors } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { requestContext } from "../../context.ts";
import { KIND_NOUN, KIND_WITH_ARTICLE, stepPath } from "../../domain/loans/application.ts";
import { CONSENT_STEP, consentSchema, OFFER_STEP, quickStepPath } from "../../domain/quick-start.ts";
import { accepted } from "../../domain/validators/form-rules.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import { loanApplications } from "../../server/db/schema.ts";
import { loadConsents, recordConsents } from "../../server/kyc/profile.server.ts";
import { backToOffer, continueToApplication, loadQuickStep, postQuickStep, recordFunnel } from "../../server/quick-start.server.ts";
import { STATUS_TEXT } from "../../domain/loans/lifecycle.ts";
import type { Route } from "./+types/step6";

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress } = await loadQuickStep(args, CONSENT_STEP);
  const [consents, [application]] = await Promise.all([
    loadConsents(services, user.id),
    progress.applicationId
      ? services.db
          .select({ reference: loanApplications.reference, product: loanApplications.product })
          .from(loanApplications)
          .where(and(eq(loanApplications.id, progress.applicationId), eq(loanApplications.userId, user.id)))
      : [],
  ]);
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
  const request = args.context.get(requestContext);
  return postQuickStep(args, CONSENT_STEP, consentSchema, async (q, value, { back }) => {
    const { services, user } = q;
    const before = await loadConsents(services, user.id);
    await services.db.transaction((tx) =>
      recordConsents(services, tx, user.id, { kyc: true, communications: accepted(value.consentCommunications) }, before, request),
    );
    if (back) return undefined;
    const result = await continueToApplication(services, q, request);
    if (!result.ok && result.why === "stale") {
      // The answers, the profile or the product terms changed since the offer: it is worked out and shown again.
      await backToOffer(services, user.id);
      return {
        stop: {
          redirectTo: quickStepPath(OFFER_STEP),
          toast: {
            type: "info",
            title: "Your offer has changed",
            description: "Something it depends on changed since you took it. Here it is again.",
          },
        },
      };
    }
    if (!result.ok) {
      const a = result.application;
      return {
        formErrors: [
          `You already have ${KIND_WITH_ARTICLE[a.product]} application (${a.reference.toUpperCase()}) that is ${STATUS_TEXT[a.status].label.toLowerCase()}. You can follow it on your dashboard; a new one can start when it is finished.`,
        ],
      };
    }
    const { application } = result;
    const at = services.now();
    await recordFunnel(
      services.db,
      user.id,
      "continued",
      CONSENT_STEP,
      { product: application.product, details: { reference: application.reference } },
      at,
    );
    return {
      product: application.product,
      patch: { applicationId: application.id, continuedAt: at },
      redirectTo: stepPath(application.product, application.reference, "Step0"),
    };
  });
}

export default function QuickStep6({ loaderData, actionData }: Route.ComponentProps) {
  const { chosen } = loaderData;
  const { form, fields, busy } = useStepForm({ schema: consentSchema, lastResult: actionData, defaultValue: loaderData.values });
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
        <FormErrors id={form.errorId} errors={form.errors} />
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
