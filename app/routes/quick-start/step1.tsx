import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { FormErrors, TextField } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { identitySchema } from "../../domain/kyc/profile-schema.ts";
import { pageMeta } from "../../lib/meta.ts";
import { loadProfile } from "../../server/kyc/profile.server.ts";
import type { Route } from "./+types/step1";
import { loadQuickStep, postQuickStep, quickStepPage } from "../../web/quick-step.server.ts";
import { useTranslations } from "../../i18n/use-translations.ts";

export async function loader(args: Route.LoaderArgs) {
  const { services, user, progress, today } = await loadQuickStep(args, 1);
  const profile = await loadProfile(services, user.id);
  return {
    ...quickStepPage(args.context, 1),
    completed: progress.completedSteps,
    today,
    panMasked: profile?.panMasked ?? null,
    values: { fullName: profile?.fullName ?? "", dateOfBirth: profile?.dateOfBirth ?? "" },
  };
}

export async function action(args: Route.ActionArgs) {
  return postQuickStep(args, 1, async ({ services, user, today }) =>
    identitySchema({ today, panSaved: Boolean(await loadProfile(services, user.id)) }),
  );
}

export default function QuickStep1({ loaderData, actionData }: Route.ComponentProps) {
  const { panMasked } = loaderData;
  const schema = identitySchema({ today: loaderData.today, panSaved: Boolean(panMasked) });
  const { form, fields, busy, formErrors } = useStepForm({ schema, lastResult: actionData, defaultValue: loaderData.values });
  const t = useTranslations("applyQuick.you");
  return (
    <QuickStartFrame step={1} completed={loaderData.completed} intro={t("intro")}>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <TextField field={fields.fullName} label={t("fullName")} autoComplete="name" />
        <TextField field={fields.dateOfBirth} label={t("dateOfBirth")} hint={t("dateOfBirthHint")} type="date" autoComplete="bday" />
        <TextField
          field={fields.pan}
          label={t("pan")}
          hint={panMasked ? t("panSaved", { pan: panMasked }) : t("panHint")}
          className="uppercase"
          autoComplete="off"
        />
        <StepButtons step={1} busy={busy} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
