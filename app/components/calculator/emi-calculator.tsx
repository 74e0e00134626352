import { type ComponentType, useEffect, useMemo, useState } from "react";
import { Form } from "react-router";
import { useTranslations } from "../../i18n/use-translations.ts";
import {
  autoFeeHint,
  type CalculatorFeeRule,
  type CalculatorLimits,
  type CalculatorValues,
  calculate,
  calculatorQuery,
} from "../../domain/calculator.ts";
import type { CalculatorCheck, parseCalculatorQuery } from "../../domain/calculator-input.ts";
import { formatRupees } from "../../domain/money.ts";
import { useMessageText } from "../../lib/use-message-text.ts";
import type { CalculatorDetailsProps } from "./details.tsx";
import { BalanceChart, PrincipalInterestChart } from "./charts.tsx";

interface Props {
  initial: CalculatorValues;
  /** The initial values checked by the server, with their errors (the browser loads the check when the calculator is first used). */
  check: CalculatorCheck;
  limits: CalculatorLimits;
  /** Our fee, assumed while none is typed (it follows the amount). */
  feeRule: CalculatorFeeRule;
  /**
   * The calculator's own page passes its part-payment plan and schedule (./details.tsx); without them
   * this is the home page's short version: figures and charts, and a link to the full calculator.
   */
  details?: ComponentType<CalculatorDetailsProps>;
}

/** The address of what is typed (a fee only when one is typed: otherwise ours follows the amount). */
const toQuery = (v: CalculatorValues) => {
  const q = new URLSearchParams({ amount: v.amount, rate: v.rate, months: v.months });
  if (v.fee.trim() !== "") q.set("fee", v.fee);
  return q;
};
const digitsOnly = (s: string) => s.replace(/[^\d.]/g, "");
const indianGrouping = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 2 });
const groupIndian = (s: string) => {
  const n = Number(digitsOnly(s));
  return Number.isFinite(n) && digitsOnly(s) !== "" ? indianGrouping.format(n) : s;
};

/**
 * The EMI calculator: sliders with typed inputs, results that follow them,
 * charts, the schedule and a part-payment what-if. The state lives in the URL
 * query; without JavaScript the form is a plain GET that the server answers.
 * Its words are the "calculator" namespace's: a page that shows it loads that namespace.
 */
export function EmiCalculator({ initial, check, limits, feeRule, details }: Props) {
  const t = useTranslations("calculator");
  const say = useMessageText();
  const compact = details === undefined;
  const [values, setValues] = useState<CalculatorValues>(initial);
  const [unit, setUnit] = useState<"months" | "years">("months");
  // The check (zod/mini) comes with the calculator's first use; until then the figures are the
  // server's, and a change is worked out as soon as it has arrived.
  const [parse, setParse] = useState<typeof parseCalculatorQuery | null>(null);
  // It could not be loaded (offline, a new version deployed): the form is sent, as without JavaScript.
  const [unloaded, setUnloaded] = useState(false);
  // Typed into since the server's figures (a reload of the same page gives an equal, new `initial`).
  const [edited, setEdited] = useState(false);
  const loadCheck = () => {
    if (parse) return;
    import("../../domain/calculator-input.ts").then(
      (m) => setParse(() => m.parseCalculatorQuery),
      () => setUnloaded(true),
    );
  };
  const parsed = useMemo(() => (parse ? parse(calculatorQuery(values, feeRule)) : check), [parse, values, feeRule, check]);
  // Figures never stand beside inputs they were not worked out from.
  const pending = !parse && edited;
  const errors: Record<string, string> = parsed.ok ? {} : { ...parsed.fieldErrors };
  const showErrors: Record<string, string> = pending ? {} : Object.fromEntries(Object.entries(errors).map(([field, m]) => [field, say(m)]));
  const calculateButton = (
    <button type="submit" className="btn-primary w-full">
      {t("form.calculate")}
    </button>
  );

  // The full calculator keeps what is typed in its address (when it is valid), to share or reload.
  useEffect(() => {
    if (!compact && parse && edited && parsed.ok) window.history.replaceState(window.history.state, "", `?${toQuery(values).toString()}`);
  }, [compact, parse, values, edited, parsed]);

  function update(next: Partial<CalculatorValues>) {
    setValues({ ...values, ...next });
    setEdited(true);
    loadCheck();
  }

  const monthsNumber = Number(values.months) || 0;
  const tenureShown = unit === "years" ? String(Math.round((monthsNumber / 12) * 100) / 100) : values.months;

  return (
    <div className={compact ? "grid grid-cols-1 gap-6 lg:grid-cols-2" : "grid grid-cols-1 gap-8 lg:grid-cols-[22rem_minmax(0,1fr)]"}>
      <Form
        method="get"
        action="/EmiCalculator"
        className="card min-w-0 space-y-6 print:hidden"
        aria-label={t("form.label")}
        onFocus={loadCheck}
        onPointerDown={loadCheck}
      >
        <SliderField
          id="calc-amount"
          name="amount"
          label={t("form.amount")}
          sliderLabel={t("form.amountSlider")}
          value={values.amount}
          display={groupIndian(values.amount)}
          min={limits.minAmount}
          max={limits.maxAmount}
          step={limits.amountStep}
          error={showErrors.amount}
          onChange={(v) => update({ amount: digitsOnly(v) })}
          inputMode="decimal"
        />
        <SliderField
          id="calc-rate"
          name="rate"
          label={t("form.rate")}
          sliderLabel={t("form.rateSlider")}
          value={values.rate}
          display={values.rate}
          min={limits.minRate}
          max={limits.maxRate}
          step={0.25}
          error={showErrors.rate}
          onChange={(v) => update({ rate: v.replace(/[^\d.]/g, "") })}
          inputMode="decimal"
        />
        <div>
          <SliderField
            id="calc-months"
            name={unit === "months" ? "months" : "tenure-years"}
            label={unit === "months" ? t("form.months") : t("form.years")}
            sliderLabel={unit === "months" ? t("form.monthsSlider") : t("form.yearsSlider")}
            value={values.months}
            display={tenureShown}
            min={limits.minMonths}
            max={limits.maxMonths}
            step={1}
            error={showErrors.months}
            onChange={(v, fromSlider) =>
              update({
                months: fromSlider || unit === "months" ? v.replace(/\D/g, "") : String(Math.round(Number(v.replace(/[^\d.]/g, "")) * 12)),
              })
            }
            inputMode="numeric"
          />
          {unit === "years" ? <input type="hidden" name="months" value={values.months} /> : null}
          <fieldset className="mt-2 flex gap-4 text-sm">
            <legend className="sr-only">{t("form.tenureUnit")}</legend>
            {(["months", "years"] as const).map((u) => (
              <label key={u} className="flex items-center gap-1">
                <input type="radio" name="tenure-unit" value={u} checked={unit === u} onChange={() => setUnit(u)} />
                {u === "months" ? t("form.inMonths") : t("form.inYears")}
              </label>
            ))}
          </fieldset>
        </div>
        <div>
          <label htmlFor="calc-fee" className="field-label">
            {t("form.fee")}
          </label>
          <input
            id="calc-fee"
            name="fee"
            className="field-input"
            inputMode="decimal"
            value={values.fee}
            aria-invalid={showErrors.fee ? true : undefined}
            aria-describedby="calc-fee-hint calc-fee-error"
            onChange={(e) => update({ fee: digitsOnly(e.target.value) })}
          />
          <p id="calc-fee-hint" className="field-hint" data-testid="fee-hint">
            {values.fee.trim() === "" ? <AutoFeeHintText amount={values.amount} feeRule={feeRule} /> : t("feeHint.typed")}{" "}
            {t("feeHint.upfront")}
          </p>
          <p id="calc-fee-error" className="field-error" aria-live="polite">
            {showErrors.fee}
          </p>
        </div>
        {unloaded ? calculateButton : <noscript>{calculateButton}</noscript>}
      </Form>

      {pending ? (
        <section aria-label={t("results.label")} className="min-w-0">
          <p className="card text-slate-700" role="status" data-testid="calc-pending">
            {unloaded ? t("results.pressCalculate") : t("results.working")}
          </p>
        </section>
      ) : parsed.ok ? (
        <Results input={parsed.input} query={toQuery(values).toString()} details={details} />
      ) : (
        <section aria-label={t("results.label")} className="min-w-0">
          <p className="card text-slate-700" role="status" data-testid="calc-invalid">
            {t("results.invalid")}
          </p>
        </section>
      )}
    </div>
  );
}

/** The fee field's hint while no fee is typed: the fee assumed for the amount, in words. */
function AutoFeeHintText({ amount, feeRule }: { amount: string; feeRule: CalculatorFeeRule }) {
  const t = useTranslations("calculator");
  const hint = autoFeeHint(amount, feeRule);
  const terms = {
    feePercent: String(feeRule.feeBps / 100),
    minFee: formatRupees(feeRule.minFeePaise),
    gstPercent: String(feeRule.gstBps / 100),
  };
  if (hint.kind === "ours") return t("feeHint.ours", terms);
  if (hint.kind === "outside")
    return t("feeHint.outside", { min: formatRupees(feeRule.minAmountPaise), max: formatRupees(feeRule.maxAmountPaise) });
  return t("feeHint.forAmount", { ...terms, fee: formatRupees(hint.feePaise) });
}

/** The figures, charts and (on the calculator's own page) the part-payment plan and schedule of valid inputs. */
function Results({ input, query, details: Details }: { input: Parameters<typeof calculate>[0]; query: string; details: Props["details"] }) {
  const t = useTranslations("calculator");
  const result = useMemo(() => calculate(input), [input]);
  return (
    <section aria-label={t("results.label")} className="min-w-0 space-y-6">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-live="polite">
        <Figure label={t("results.emi")} value={formatRupees(result.emiPaise)} big testId="emi" />
        <Figure label={t("results.totalInterest")} value={formatRupees(result.totalInterestPaise)} testId="total-interest" />
        <Figure label={t("results.totalPayable")} value={formatRupees(result.totalPayablePaise)} testId="total-payable" />
        <Figure label={t("results.apr")} value={`${result.aprPercent.toFixed(2)}%`} testId="apr" />
        <Figure label={t("results.net")} value={formatRupees(result.netDisbursedPaise)} testId="net" />
        <Figure label={t("results.instalments")} value={`${input.months}`} />
      </dl>
      <div className="card space-y-6">
        <PrincipalInterestChart principalPaise={input.amountPaise} interestPaise={result.totalInterestPaise} />
        <BalanceChart balances={result.schedule.map((l) => l.closingPaise)} principalPaise={input.amountPaise} />
      </div>
      {Details ? (
        <Details input={input} result={result} query={query} />
      ) : (
        <a className="btn-secondary" href={`/EmiCalculator?${query}`}>
          {t("results.fullCalculator")}
        </a>
      )}
    </section>
  );
}

function Figure({ label, value, big, testId }: { label: string; value: string; big?: boolean; testId?: string }) {
  return (
    <div className="card p-4 sm:p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={`money mt-1 ${big ? "text-xl sm:text-2xl" : "text-base sm:text-lg"}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function SliderField(props: {
  id: string;
  name: string;
  label: string;
  /** The range input's accessible name ("Loan amount (₹) slider"). */
  sliderLabel: string;
  value: string;
  display: string;
  min: number;
  max: number;
  step: number;
  error?: string;
  inputMode: "decimal" | "numeric";
  onChange: (value: string, fromSlider: boolean) => void;
}) {
  const numeric = Number(props.value);
  const sliderValue = Number.isFinite(numeric) ? Math.min(props.max, Math.max(props.min, numeric)) : props.min;
  return (
    <div>
      <label htmlFor={props.id} className="field-label">
        {props.label}
      </label>
      <input
        id={props.id}
        name={props.name}
        className="field-input text-right tabular-nums"
        inputMode={props.inputMode}
        value={props.display}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${props.id}-error`}
        onChange={(e) => props.onChange(e.target.value, false)}
      />
      <input
        type="range"
        aria-label={props.sliderLabel}
        className="mt-3 w-full accent-brand-600"
        min={props.min}
        max={props.max}
        step={props.step}
        value={sliderValue}
        onChange={(e) => props.onChange(e.target.value, true)}
        tabIndex={0}
      />
      <p id={`${props.id}-error`} className="field-error" aria-live="polite">
        {props.error}
      </p>
    </div>
  );
}
