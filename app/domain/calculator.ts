import type { EmiQuery } from "./calculator-input.ts";
import { emiQuote, type FeeTerms, processingFee } from "./loan-math.ts";
import { parseRupeesToPaise } from "./money.ts";

/**
 * The public calculator's answer (the /api/emi JSON and the /EmiCalculator page) for the inputs
 * given. The API takes the fee it is given (none when none); the page, when no fee is typed,
 * gives ours for the amount (calculatorQuery).
 */
export function calculate({ amountPaise, rateBps, months, feePaise }: EmiQuery) {
  const quote = emiQuote({ principalPaise: amountPaise, annualRateBps: rateBps, months, upfrontPaise: feePaise });
  return {
    emiPaise: quote.emiPaise,
    totalInterestPaise: quote.totalInterestPaise,
    totalPayablePaise: quote.totalPayablePaise,
    netDisbursedPaise: quote.netDisbursedPaise,
    aprPercent: quote.aprPercent,
    schedule: quote.schedule.map(({ instalment, openingPaise, interestPaise, principalPaise, paymentPaise, closingPaise }) => ({
      instalment,
      openingPaise,
      interestPaise,
      principalPaise,
      paymentPaise,
      closingPaise,
    })),
  };
}

export type CalculatorResult = ReturnType<typeof calculate>;

/** What the calculator form holds, as typed. An empty fee means "our own fee for this amount". */
export interface CalculatorValues {
  amount: string;
  rate: string;
  months: string;
  fee: string;
}

/** Our EMI loan's processing fee (with GST) and the amounts it is charged on. */
export interface CalculatorFeeRule extends FeeTerms {
  minAmountPaise: number;
  maxAmountPaise: number;
}

/** Paise as the figure typed in a rupee field ("2360", "2360.50"). */
export const rupeesString = (paise: number) => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));

/**
 * The fee the calculator assumes when none is typed: ours for an amount we lend (2% at least ₹499,
 * plus GST, by default), none for an amount outside our limits. Null while the amount is not a number.
 */
export function autoFeePaise(amount: string, rule: CalculatorFeeRule): number | null {
  const amountPaise = parseRupeesToPaise(amount);
  if (amountPaise === null || amountPaise <= 0) return null;
  if (amountPaise < rule.minAmountPaise || amountPaise > rule.maxAmountPaise) return 0;
  return processingFee(amountPaise, rule).totalUpfrontPaise;
}

/** The query the figures are worked out from: the fee typed, or ours for the amount. */
export function calculatorQuery(v: CalculatorValues, rule: CalculatorFeeRule): URLSearchParams {
  const q = new URLSearchParams({ amount: v.amount, rate: v.rate, months: v.months });
  const auto = v.fee.trim() === "" ? autoFeePaise(v.amount, rule) : null;
  const fee = v.fee.trim() !== "" ? v.fee : auto ? rupeesString(auto) : "";
  if (fee) q.set("fee", fee);
  return q;
}

/**
 * Which of the fee field's hints (the "calculator" namespace's feeHint) applies while no fee is
 * typed: our fee rule alone while the amount is not a number, the amounts we lend for one outside
 * them, else our fee for this amount.
 */
export type AutoFeeHint = { kind: "ours" } | { kind: "outside" } | { kind: "forAmount"; feePaise: number };

export function autoFeeHint(amount: string, rule: CalculatorFeeRule): AutoFeeHint {
  const auto = autoFeePaise(amount, rule);
  if (auto === null) return { kind: "ours" };
  if (auto === 0) return { kind: "outside" };
  return { kind: "forAmount", feePaise: auto };
}

export interface CalculatorLimits {
  minAmount: number;
  maxAmount: number;
  amountStep: number;
  minMonths: number;
  maxMonths: number;
  minRate: number;
  maxRate: number;
}
