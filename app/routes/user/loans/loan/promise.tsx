import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { FormErrors, TextField } from "../../../../components/field.tsx";
import { useSchemaForm } from "../../../../components/use-schema-form.ts";
import { PROMISE_MAX_DAYS, promiseSchema, promiseText } from "../../../../domain/collections.ts";
import { addDays } from "../../../../domain/loan-math.ts";
import type { Data } from "../loan.tsx";

type Reply = Parameters<typeof useSchemaForm>[0]["lastResult"];

/**
 * "Promise to pay" on the borrower's overdue loan (docs/product.md "Collections"): the latest
 * promise in a sentence, and the form to make one (an amount, a date within 7 days); no reminders
 * about the loan go out until its date.
 */
export function PromiseToPay({ d, lastResult }: { d: Data; lastResult: Reply }) {
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "promise",
    schema: promiseSchema(d.today),
    lastResult,
    shouldValidate: "onSubmit",
  });
  const latest = d.collections?.latest ?? null;
  return (
    <section aria-labelledby="promise-title" className="card space-y-3">
      <h2 id="promise-title">Promise to pay</h2>
      {latest ? (
        <p className="text-slate-900" data-testid="promise-text">
          {promiseText(latest)}
        </p>
      ) : null}
      {latest?.status === "open" ? (
        <p className="text-slate-700">To change your promise, raise a ticket about this loan below and we will call you.</p>
      ) : (
        <>
          <p className="text-slate-700">
            Cannot pay all that is overdue now? Tell us how much you will pay and by when, within {PROMISE_MAX_DAYS} days. We will not send
            you reminders about this loan until then.
          </p>
          <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
            <input type="hidden" name="intent" value="promise" />
            <div className="sm:col-span-2">
              <FormErrors id={form.errorId} errors={formErrors} />
            </div>
            <TextField field={fields.amount} label="I will pay (₹)" inputMode="decimal" />
            <TextField field={fields.dueOn} label="By" type="date" min={d.today} max={addDays(d.today, PROMISE_MAX_DAYS)} />
            <div className="sm:col-span-2">
              <button className="btn-secondary" disabled={busy}>
                Promise to pay
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}
