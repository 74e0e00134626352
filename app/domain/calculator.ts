import type { EmiQuery } from "./calculator-input.ts";
import { emiQuote, type FeeTerms, processingFee } from "./loan-math.ts";
import { formatRupees, parseRupeesToPaise } from "./money.ts";

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

/** What the fee field's hint says of the fee assumed when none is typed. */
export function autoFeeHint(amount: string, rule: CalculatorFeeRule): string {
  const auto = autoFeePaise(amount, rule);
  const terms = `${rule.feeBps / 100}% of the amount, at least ${formatRupees(rule.minFeePaise)}, plus ${rule.gstBps / 100}% GST`;
  if (auto === null) return `Left empty, our own fee is used: ${terms}.`;
  if (auto === 0)
    return `We lend ${formatRupees(rule.minAmountPaise)} to ${formatRupees(rule.maxAmountPaise)}; outside that no fee is assumed. Type a fee to include one.`;
  return `Left empty, our own fee for this amount is used: ${formatRupees(auto)} (${terms}). Type 0 for none, or another lender's fee to compare.`;
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
