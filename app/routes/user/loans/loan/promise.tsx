import { getFormProps } from "@conform-to/react";
import { Form } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../../i18n/use-translations.ts";
import { FormErrors, TextField } from "../../../../components/field.tsx";
import { useSchemaForm } from "../../../../components/use-schema-form.ts";
import { borrowerPromiseSchema, PROMISE_MAX_DAYS } from "../../../../domain/collections.ts";
import { longDate } from "../../../../domain/india-date.ts";
import { addDays } from "../../../../domain/loan-math.ts";
import { formatRupees } from "../../../../domain/money.ts";
import type { Data } from "../loan.tsx";

type Reply = Parameters<typeof useSchemaForm>[0]["lastResult"];

/**
 * "Promise to pay" on the borrower's overdue loan (docs/product.md "Collections"): the latest
 * promise in a sentence, and the form to make one (an amount, a date within 7 days); no reminders
 * about the loan go out until its date.
 */
export function PromiseToPay({ d, lastResult }: { d: Data; lastResult: Reply }) {
  const t = useTranslations("loanPay");
  const language = useLocale();
  const { form, fields, formErrors, busy } = useSchemaForm({
    id: "promise",
    schema: borrowerPromiseSchema(d.today, language),
    lastResult,
    shouldValidate: "onSubmit",
  });
  const latest = d.collections?.latest ?? null;
  return (
    <section aria-labelledby="promise-title" className="card space-y-3">
      <h2 id="promise-title">{t("promise.heading")}</h2>
      {latest ? (
        <p className="text-slate-900" data-testid="promise-text">
          {t(`promise.${latest.status}`, { amount: formatRupees(latest.amountPaise), date: longDate(latest.dueOn, language) })}
        </p>
      ) : null}
      {latest?.status === "open" ? (
        <p className="text-slate-700">{t("promise.toChange")}</p>
      ) : (
        <>
          <p className="text-slate-700">{t("promise.intro", { days: String(PROMISE_MAX_DAYS) })}</p>
          <Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
            <input type="hidden" name="intent" value="promise" />
            <div className="sm:col-span-2">
              <FormErrors id={form.errorId} errors={formErrors} />
            </div>
            <TextField field={fields.amount} label={t("promise.amountLabel")} inputMode="decimal" />
            <TextField
              field={fields.dueOn}
              label={t("promise.byLabel")}
              type="date"
              min={d.today}
              max={addDays(d.today, PROMISE_MAX_DAYS)}
            />
            <div className="sm:col-span-2">
              <button className="btn-secondary" disabled={busy}>
                {t("promise.submit")}
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}
