import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { FormErrors } from "../../components/field.tsx";
import { PinCodeField } from "../../components/pin-code-field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { loadAddress } from "../../server/kyc/sections.server.ts";
import type { Route } from "./+types/step2";
import { loadQuickStep, postQuickStep, quickStepPage } from "../../web/quick-step.server.ts";
import { useTranslations } from "../../i18n/use-translations.ts";
import { pinCodeSchema } from "../../domain/quick-start-schemas.ts";

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress } = await loadQuickStep(args, 2);
  const address = await loadAddress(services, user.id);
  return {
    ...quickStepPage(args.context, 2),
    completed: progress.completedSteps,
    saved: address ? { city: address.currentCity, district: address.currentDistrict, state: address.currentState } : null,
    values: { pincode: address?.currentPincode ?? "" },
  };
}

export async function action(args: Route.ActionArgs) {
  return postQuickStep(args, 2, pinCodeSchema);
}

export default function QuickStep2({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields, busy, formErrors } = useStepForm({
    schema: pinCodeSchema,
    lastResult: actionData,
    defaultValue: loaderData.values,
  });
  const t = useTranslations("applyQuick.pin");
  return (
    <QuickStartFrame step={2} completed={loaderData.completed} intro={t("intro")}>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <PinCodeField field={fields.pincode} saved={loaderData.saved} />
        <StepButtons step={2} busy={busy} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
