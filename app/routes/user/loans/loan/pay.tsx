import { getFormProps } from "@conform-to/react";
import { getInputProps } from "../../../../components/input-props.ts";
import { Form } from "react-router";
import { useLocale } from "use-intl/react";
import { useTranslations } from "../../../../i18n/use-translations.ts";
import { ErrorText, Field, FormErrors } from "../../../../components/field.tsx";
import { MoneyRows } from "../../../../components/loan-flow.tsx";
import { useSchemaForm } from "../../../../components/use-schema-form.ts";
import { addDays } from "../../../../domain/loan-math.ts";
import type { LoanKind } from "../../../../domain/loans/application.ts";
import { longDate } from "../../../../domain/india-date.ts";
import { MIN_PAYMENT_PAISE, type PayChoice, payNowSchema } from "../../../../domain/loans/pay-now.ts";
import { PAYOFF_DAYS_AHEAD, type PayoffQuote } from "../../../../domain/loans/servicing.ts";
import { formatRupees } from "../../../../domain/money.ts";
import type { ActionData, Data } from "../loan.tsx";

// The borrower's loan page, paying: pay now (the action's one form), leave in the cooling-off period, close early.

function QuoteRows({ quote, advancePaise }: { quote: PayoffQuote; advancePaise: number }) {
  const t = useTranslations("loanPay");
  return (
    <>
      <MoneyRows
        rows={[
          [t("payoff.principal"), formatRupees(quote.principalPaise)],
          [t("payoff.interest"), formatRupees(quote.interestPaise)],
          [t("payoff.overdue"), formatRupees(quote.overduePaise)],
          [t("payoff.penal"), formatRupees(quote.penalPaise)],
          [t("payoff.total"), formatRupees(quote.totalPaise)],
        ]}
      />
      {advancePaise > 0 ? (
        <p className="text-sm text-slate-600" data-testid="quote-advance">
          {t("payoff.advance", { amount: formatRupees(advancePaise) })}
        </p>
      ) : null}
    </>
  );
}

export function PayNow({
  options,
  emiPaise,
  kind,
  lastResult,
}: {
  options: Record<PayChoice, number | null>;
  emiPaise: number | null;
  kind: LoanKind;
  lastResult: Exclude<ActionData, { autopay: string } | { promise: unknown }>;
}) {
  const t = useTranslations("loanPay");
  const { form, fields, formErrors, busy } = useSchemaForm({ schema: payNowSchema, lastResult, id: "pay-now", shouldValidate: "onSubmit" });
  const choices = (Object.keys(options) as PayChoice[]).filter((c) => options[c] !== null && c !== "cooling_off");
  // What is late first, when something is; else the next instalment.
  const preferred = options.overdue !== null ? "overdue" : choices[0];
  return (
    <section aria-labelledby="pay-title" className="card space-y-4">
      <h2 id="pay-title">{t("payNow.heading")}</h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="pay" />
        <FormErrors id={form.errorId} errors={formErrors} />
        <fieldset aria-describedby={fields.choice.errorId}>
          <legend className="field-label">{t("payNow.question")}</legend>
          <div className="space-y-2">
            {choices.map((c) => (
              <label
                key={c}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
              >
                <input type="radio" name={fields.choice.name} value={c} defaultChecked={c === preferred} className="mt-1 size-5" />
                <span className="flex-1">
                  {t(`payNow.choice.${c}`)}
                  {c !== "amount" ? <span className="money block">{formatRupees(options[c] ?? 0)}</span> : null}
                </span>
              </label>
            ))}
          </div>
          <div id={fields.choice.errorId} className="field-error" aria-live="polite">
            <ErrorText errors={fields.choice.errors} />
          </div>
        </fieldset>
        <Field
          id={fields.amount.id}
          label={t("payNow.amountLabel")}
          errors={fields.amount.errors}
          errorId={fields.amount.errorId}
          hint={t("payNow.amountHint", { min: formatRupees(MIN_PAYMENT_PAISE), max: formatRupees(options.payoff ?? 0) })}
          hintId={fields.amount.descriptionId}
        >
          <input
            {...getInputProps(fields.amount, { type: "text", ariaDescribedBy: fields.amount.descriptionId })}
            key={fields.amount.key}
            inputMode="decimal"
            className="field-input max-w-xs"
          />
        </Field>
        {kind === "emi" && emiPaise ? (
          <div>
            <label className="flex items-start gap-3">
              <input
                type="checkbox"
                name={fields.prepay.name}
                value="on"
                className="mt-1 size-5 shrink-0"
                aria-describedby={fields.prepay.errorId}
              />
              <span>{t("payNow.prepay", { emi: formatRupees(emiPaise) })}</span>
            </label>
            <div id={fields.prepay.errorId} className="field-error" aria-live="polite">
              <ErrorText errors={fields.prepay.errors} />
            </div>
          </div>
        ) : null}
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
          {t("payNow.continue")}
        </button>
        <p className="text-sm text-slate-600">{t("payNow.securePage")}</p>
      </Form>
    </section>
  );
}

export function CoolingOff({ d, coolingOff }: { d: Data; coolingOff: NonNullable<Data["coolingOff"]> }) {
  const t = useTranslations("loanPay");
  const language = useLocale();
  return (
    <section aria-labelledby="cooling-title" className="card space-y-3">
      <h2 id="cooling-title">{t("coolingOff.heading")}</h2>
      <p>{t("coolingOff.rule", { days: String(d.coolingOffDays) })}</p>
      <p>{t("coolingOff.ends", { date: longDate(coolingOff.until, language) })}</p>
      <MoneyRows rows={[[t("coolingOff.toExitToday"), formatRupees(coolingOff.quote.totalPaise)]]} />
      <Form method="post">
        <input type="hidden" name="intent" value="pay" />
        <input type="hidden" name="choice" value="cooling_off" />
        <button type="submit" className="btn-secondary">
          {t("coolingOff.payAndCancel", { amount: formatRupees(coolingOff.quote.totalPaise) })}
        </button>
      </Form>
    </section>
  );
}

export function Payoff({ d, payoff }: { d: Data; payoff: NonNullable<Data["payoff"]> }) {
  const t = useTranslations("loanPay");
  const language = useLocale();
  return (
    <section aria-labelledby="payoff-title" className="card space-y-3">
      <h2 id="payoff-title">{t("payoff.heading")}</h2>
      <p>{t("payoff.noCharge")}</p>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <Field id="payoff-on" label={t("payoff.onLabel")} errors={d.quote?.error ? [d.quote.error] : undefined} errorId="payoff-on-error">
          <input
            id="payoff-on"
            name="on"
            type="date"
            className="field-input"
            min={d.today}
            max={addDays(d.today, PAYOFF_DAYS_AHEAD)}
            defaultValue={d.quote?.on ?? d.today}
            aria-invalid={d.quote?.error ? true : undefined}
            aria-describedby="payoff-on-error"
          />
        </Field>
        <button type="submit" className="btn-secondary">
          {t("payoff.show")}
        </button>
      </Form>
      <div aria-live="polite">
        {d.quote?.quote ? (
          <div>
            <h3>{t("payoff.closeOn", { date: longDate(d.quote.quote.on, language) })}</h3>
            <QuoteRows quote={d.quote.quote} advancePaise={d.quote.advancePaise} />
          </div>
        ) : !d.quote ? (
          <div>
            <h3>{t("payoff.closeToday")}</h3>
            <QuoteRows quote={payoff.quote} advancePaise={payoff.advancePaise} />
          </div>
        ) : null}
      </div>
    </section>
  );
}
