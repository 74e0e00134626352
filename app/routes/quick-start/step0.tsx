import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { ErrorText, FormErrors, TextField } from "../../components/field.tsx";
import { QuickStartFrame, StepButtons, useStepForm } from "../../components/quick-start.tsx";
import { KIND_NAME, type LoanKind } from "../../domain/loans/application.ts";
import { LOAN_KINDS, loanChoiceSchema } from "../../domain/quick-start-schemas.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatRupees } from "../../domain/money.ts";
import type { Route } from "./+types/step0";
import { loadQuickStep, postQuickStep } from "../../web/quick-step.server.ts";
import { productRanges } from "../../server/quick-start/offer.server.ts";

const ABOUT: Record<LoanKind, string> = {
  emi: "Repaid in equal monthly instalments, over months you choose. For salaried and self-employed people.",
  salary_advance: "Repaid in one go on your next salary day. For salaried people, up to half your monthly salary.",
};

export async function loader(args: Route.LoaderArgs) {
  const { services, progress } = await loadQuickStep(args, 0);
  return {
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
  return (
    <QuickStartFrame
      step={0}
      completed={loaderData.completed}
      intro="Tell us what you need. The offer in step 6 shows what you can borrow."
    >
      <Form method="post" className="card space-y-5" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={formErrors} />
        <fieldset>
          <legend className="field-label">Kind of loan</legend>
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
                <span className="font-semibold">{KIND_NAME[kind]}</span>
                <span className="text-sm text-slate-700">{ABOUT[kind]}</span>
                <span className="text-sm text-slate-700">
                  {formatRupees(ranges[kind].minPaise)} to {formatRupees(ranges[kind].maxPaise)}
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
          label="Amount you need (₹)"
          hint={
            chosen
              ? `From ${formatRupees(ranges[chosen].minPaise)} to ${formatRupees(ranges[chosen].maxPaise)}, in steps of ${formatRupees(ranges[chosen].stepPaise)}.`
              : "Choose the kind of loan first; each has its own range."
          }
          inputMode="numeric"
        />
        <StepButtons step={0} busy={busy} />
      </Form>
    </QuickStartFrame>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Quick start: loan and amount");
