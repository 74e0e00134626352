/**
 * The offer's figures (docs/product.md "Credit policy"): a product's terms, the risk
 * band that sets an EMI loan's rate, and what a loan costs at an amount (what its KFS will show).
 * Whether and how much may be lent is the credit policy's (domain/credit-policy/).
 */
import { type EmiQuote, emiQuote, type IsoDate, processingFee, type SalaryAdvanceQuote, salaryAdvanceQuote } from "./loan-math.ts";

/** A product's terms as stored (the `products` table). */
export interface ProductTerms {
  code: string;
  minAmountPaise: number;
  maxAmountPaise: number;
  amountStepPaise: number;
  minTenure: number;
  maxTenure: number;
  rateBps: number;
  feeBps: number;
  minFeePaise: number;
  gstBps: number;
  salariedOnly: boolean;
}

export interface RiskBand {
  minIncomePaise: number;
  maxEmiToIncomeBps: number | null;
  rateBps: number;
}

export interface ApplicantFacts {
  ageYears: number;
  netMonthlyIncomePaise: number;
  existingEmiPaise: number;
  employmentType: "salaried" | "self_employed";
  /** Day of the month the salary arrives (salaried). */
  salaryDay?: number | null;
}

/** The rate from the first risk band the applicant fits (bands in order): income, and EMIs as a share of it. */
export function rateForApplicant(
  facts: Pick<ApplicantFacts, "netMonthlyIncomePaise" | "existingEmiPaise">,
  bands: readonly RiskBand[],
  fallbackBps: number,
): number {
  const ratio = facts.netMonthlyIncomePaise > 0 ? (facts.existingEmiPaise * 10_000) / facts.netMonthlyIncomePaise : Infinity;
  const band = bands.find(
    (b) => facts.netMonthlyIncomePaise >= b.minIncomePaise && (b.maxEmiToIncomeBps === null || ratio <= b.maxEmiToIncomeBps),
  );
  return band?.rateBps ?? fallbackBps;
}

/** An EMI loan's figures at an amount (the processing fee with GST taken upfront): what its KFS will show. */
export const emiQuoteAt = (
  amountPaise: number,
  rateBps: number,
  months: number,
  product: ProductTerms,
  disbursalDate?: IsoDate,
): EmiQuote =>
  emiQuote({
    principalPaise: amountPaise,
    annualRateBps: rateBps,
    months,
    upfrontPaise: processingFee(amountPaise, product).totalUpfrontPaise,
    disbursalDate,
  });

/** A salary advance's figures at an amount, repaid on the next salary day at least 7 days on. */
export const salaryAdvanceQuoteAt = (
  amountPaise: number,
  product: ProductTerms,
  disbursalDate: IsoDate,
  salaryDay: number,
): SalaryAdvanceQuote =>
  salaryAdvanceQuote({ principalPaise: amountPaise, dailyRateBps: product.rateBps, disbursalDate, salaryDay, fees: product });

/** Whole years between a date of birth and a date (both "YYYY-MM-DD"). */
export function ageOn(dateOfBirth: IsoDate, on: IsoDate): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [y, m, d] = on.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
