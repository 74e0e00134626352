import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { ErrorText, FormErrors, TextField } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import type { LoanKind } from "../../domain/loans/application.ts";
import { useTranslations } from "../../i18n/use-translations.ts";
import { LOAN_KINDS, loanChoiceSchema } from "../../domain/quick-start-schemas.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import type { Route } from "./+types/step0";
import { loadQuickStep, postQuickStep, quickStepPage } from "../../web/quick-step.server.ts";
import { productRanges } from "../../server/quick-start/offer.server.ts";

export async function loader(args: Route.LoaderArgs) {
  const { services, progress } = await loadQuickStep(args, 0);
  return {
    ...quickStepPage(args.context, 0),
    completed: progress.completedSteps,
    ranges: await productRanges(services),
    values: { product: progress.product ?? "", amount: progress.amountPaise ? String(progress.amountPaise / 100) : "" },
  };
}

export async function action(args: Route.ActionArgs) {
  return postQuickStep(args, 0, async ({ services }) => loanChoiceSchema(await productRanges(services)));
}

export default function QuickStep0({ loaderData, actionData }: Route.ComponentProps) {
  const { ranges } = loaderData;
  const { form, fields, busy, formErrors } = useStepForm({
    schema: loanChoiceSchema(ranges),
    lastResult: actionData,
    defaultValue: loaderData.values,
  });
  // The kind just sent, when it is one (a refused form may carry anything), else the saved one.
  const asked = fields.product.value ?? loaderData.values.product;
  const chosen: LoanKind | "" = LOAN_KINDS.find((kind) => kind === asked) ?? "";
  const t = useTranslations("applyQuick");
  return (
    <QuickStartFrame step={0} completed={loaderData.completed} intro={t("loan.intro")}>
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <fieldset>
          <legend className="field-label">{t("loan.kindLegend")}</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {LOAN_KINDS.map((kind) => (
              <label
                key={kind}
                className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-3 rounded-lg border border-slate-300 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
              >
                <input
                  type="radio"
                  name={fields.product.name}
                  value={kind}
                  key={`${kind}-${fields.product.key}`}
                  defaultChecked={fields.product.initialValue === kind}
                  required
                  aria-describedby={fields.product.errors?.length ? fields.product.errorId : undefined}
                  className="row-span-3 mt-1 size-4"
                />
                <span className="font-semibold">{t("kind", { kind })}</span>
                <span className="text-sm text-slate-700">{t(`loan.about.${kind}`)}</span>
                <span className="text-sm text-slate-700">
                  {t("loan.range", { min: formatRupees(ranges[kind].minPaise), max: formatRupees(ranges[kind].maxPaise) })}
                </span>
              </label>
            ))}
          </div>
          <div id={fields.product.errorId} className="field-error" aria-live="polite">
            <ErrorText errors={fields.product.errors} />
          </div>
        </fieldset>
        <TextField
          field={fields.amount}
          label={t("loan.amount")}
          hint={
            chosen
              ? t("loan.amountHint", {
                  min: formatRupees(ranges[chosen].minPaise),
                  max: formatRupees(ranges[chosen].maxPaise),
                  step: formatRupees(ranges[chosen].stepPaise),
                })
              : t("loan.amountHintNone")
          }
          inputMode="numeric"
        />
        <StepButtons step={0} busy={busy} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData?.meta.title ?? "");
