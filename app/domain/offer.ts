/**
 * Eligibility and the offer (docs/product.md "Eligibility and the offer"): one pure function of the
 * applicant's facts and the live product data. The quick start and the
 * new-loan flows both call it.
 */
import { formatRupees } from "./money.ts";
import {
  type EmiQuote,
  emiPaise,
  emiQuote,
  type IsoDate,
  processingFee,
  type SalaryAdvanceQuote,
  salaryAdvanceQuote,
} from "./loan-math.ts";

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
  salaryCapBps: number | null;
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

export interface Reason {
  code: string;
  message: string;
}

export const MIN_AGE = 21;
export const MAX_AGE = 60;
export const MIN_INCOME_PAISE = 1_500_000;
/** Existing EMIs plus the new EMI may take at most half the income. */
export const MAX_EMI_TO_INCOME_BPS = 5000;

export interface EmiOffer {
  product: "emi";
  eligible: boolean;
  reasons: Reason[];
  rateBps: number;
  tenureMonths: number;
  maxAmountPaise: number;
  quote: EmiQuote | null;
}

export interface SalaryAdvanceOffer {
  product: "salary_advance";
  eligible: boolean;
  reasons: Reason[];
  maxAmountPaise: number;
  quote: SalaryAdvanceQuote | null;
}

const pct = (bps: number) => `${bps / 100}%`;

function commonReasons(facts: ApplicantFacts): Reason[] {
  const reasons: Reason[] = [];
  if (facts.ageYears < MIN_AGE || facts.ageYears > MAX_AGE) {
    reasons.push({
      code: "age",
      message: `You must be between ${MIN_AGE} and ${MAX_AGE} years old to borrow; you are ${facts.ageYears}.`,
    });
  }
  if (facts.netMonthlyIncomePaise < MIN_INCOME_PAISE) {
    reasons.push({
      code: "income",
      message: `Your net monthly income of ${formatRupees(facts.netMonthlyIncomePaise)} is below the minimum of ${formatRupees(MIN_INCOME_PAISE)}.`,
    });
  }
  return reasons;
}

/** The rate from the first risk band the applicant fits (bands in order). */
export function rateForApplicant(facts: ApplicantFacts, bands: readonly RiskBand[], fallbackBps: number): number {
  const ratio = facts.netMonthlyIncomePaise > 0 ? (facts.existingEmiPaise * 10_000) / facts.netMonthlyIncomePaise : Infinity;
  const band = bands.find(
    (b) => facts.netMonthlyIncomePaise >= b.minIncomePaise && (b.maxEmiToIncomeBps === null || ratio <= b.maxEmiToIncomeBps),
  );
  return band?.rateBps ?? fallbackBps;
}

const floorToStep = (paise: number, step: number) => Math.floor(paise / step) * step;

/** An EMI loan's figures at an amount (the processing fee with GST taken upfront): what its KFS will show. */
export const emiQuoteAt = (amountPaise: number, rateBps: number, months: number, product: ProductTerms, disbursalDate?: IsoDate) =>
  emiQuote({
    principalPaise: amountPaise,
    annualRateBps: rateBps,
    months,
    upfrontPaise: processingFee(amountPaise, product).totalUpfrontPaise,
    disbursalDate,
  });

/** A salary advance's figures at an amount, repaid on the next salary day at least 7 days on. */
export const salaryAdvanceQuoteAt = (amountPaise: number, product: ProductTerms, disbursalDate: IsoDate, salaryDay: number) =>
  salaryAdvanceQuote({ principalPaise: amountPaise, dailyRateBps: product.rateBps, disbursalDate, salaryDay, fees: product });

/** The EMI loan offer: the largest amount whose EMI fits under half the income at this tenure. */
export function emiOffer(
  facts: ApplicantFacts,
  product: ProductTerms,
  bands: readonly RiskBand[],
  tenureMonths: number,
  disbursalDate?: IsoDate,
): EmiOffer {
  const months = Math.min(product.maxTenure, Math.max(product.minTenure, Math.round(tenureMonths)));
  const rateBps = rateForApplicant(facts, bands, product.rateBps);
  const reasons = commonReasons(facts);
  const room = Math.floor((facts.netMonthlyIncomePaise * MAX_EMI_TO_INCOME_BPS) / 10_000) - facts.existingEmiPaise;
  let maxAmount = 0;
  if (room <= 0) {
    reasons.push({
      code: "existing_emis",
      message: `Your existing EMIs of ${formatRupees(facts.existingEmiPaise)} a month already take ${pct(MAX_EMI_TO_INCOME_BPS)} or more of your income, the most we allow for all EMIs together.`,
    });
  } else {
    // EMI grows with the amount: search the largest step that fits.
    let lo = 0;
    let hi = Math.floor(product.maxAmountPaise / product.amountStepPaise);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (emiPaise(mid * product.amountStepPaise, rateBps, months) <= room) lo = mid;
      else hi = mid - 1;
    }
    maxAmount = floorToStep(lo * product.amountStepPaise, product.amountStepPaise);
    if (maxAmount < product.minAmountPaise) {
      reasons.push({
        code: "affordability",
        message: `Even the smallest loan of ${formatRupees(product.minAmountPaise)} over ${months} months would take your EMIs above ${pct(MAX_EMI_TO_INCOME_BPS)} of your income. A longer tenure may help.`,
      });
      maxAmount = 0;
    }
  }
  const eligible = reasons.length === 0;
  return {
    product: "emi",
    eligible,
    reasons,
    rateBps,
    tenureMonths: months,
    maxAmountPaise: eligible ? maxAmount : 0,
    quote: eligible ? emiQuoteAt(maxAmount, rateBps, months, product, disbursalDate) : null,
  };
}

/** The salary advance offer: salaried only, at most half the net salary, existing EMIs at most half the income. */
export function salaryAdvanceOffer(facts: ApplicantFacts, product: ProductTerms, disbursalDate: IsoDate): SalaryAdvanceOffer {
  const reasons = commonReasons(facts);
  if (facts.employmentType !== "salaried") {
    reasons.push({ code: "not_salaried", message: "A salary advance is only for salaried people, as it is repaid from your salary." });
  }
  if (facts.existingEmiPaise * 10_000 > facts.netMonthlyIncomePaise * MAX_EMI_TO_INCOME_BPS) {
    reasons.push({
      code: "existing_emis",
      message: `Your existing EMIs of ${formatRupees(facts.existingEmiPaise)} a month are more than ${pct(MAX_EMI_TO_INCOME_BPS)} of your income.`,
    });
  }
  const capBps = product.salaryCapBps ?? 5000;
  const cap = Math.min(product.maxAmountPaise, Math.floor((facts.netMonthlyIncomePaise * capBps) / 10_000));
  const maxAmount = floorToStep(cap, product.amountStepPaise);
  if (facts.employmentType === "salaried" && maxAmount < product.minAmountPaise) {
    reasons.push({
      code: "salary_cap",
      message: `${pct(capBps)} of your salary is below the smallest salary advance of ${formatRupees(product.minAmountPaise)}.`,
    });
  }
  const salaryDay = facts.salaryDay ?? null;
  if (facts.employmentType === "salaried" && (salaryDay === null || salaryDay < 1 || salaryDay > 31)) {
    reasons.push({ code: "salary_day", message: "Tell us the day of the month your salary arrives, so we can set the repayment date." });
  }
  const eligible = reasons.length === 0;
  return {
    product: "salary_advance",
    eligible,
    reasons,
    maxAmountPaise: eligible ? maxAmount : 0,
    quote: eligible && salaryDay ? salaryAdvanceQuoteAt(maxAmount, product, disbursalDate, salaryDay) : null,
  };
}

/** Both offers at once. */
export function eligibility(
  facts: ApplicantFacts,
  products: { emi: ProductTerms; salaryAdvance: ProductTerms },
  bands: readonly RiskBand[],
  options: { emiTenureMonths: number; disbursalDate: IsoDate },
) {
  return {
    emi: emiOffer(facts, products.emi, bands, options.emiTenureMonths, options.disbursalDate),
    salaryAdvance: salaryAdvanceOffer(facts, products.salaryAdvance, options.disbursalDate),
  };
}

/** Whole years between a date of birth and a date (both "YYYY-MM-DD"). */
export function ageOn(dateOfBirth: IsoDate, on: IsoDate): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [y, m, d] = on.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
