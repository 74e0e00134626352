/**
 * Product configuration as stored in the database (the `products` and
 * `risk_bands` tables), and the PRODUCT.md §3 / §9 defaults used by the seed
 * and the tests. The math never hard-codes these: every function takes them
 * as arguments.
 */

export type ProductCode = "emi" | "salary_advance";

/**
 * One loan product, in the shape of a `products` row (a row from the
 * database, with its extra columns, can be passed as it is).
 */
export interface ProductConfig {
  /** "emi" or "salary_advance". */
  code: string;
  name: string;
  minAmountPaise: number;
  maxAmountPaise: number;
  /** Amounts go from the minimum in steps of this. */
  amountStepPaise: number;
  /** EMI loan: months; salary advance: days from disbursal to repayment. */
  minTenure: number;
  maxTenure: number;
  /** EMI loan: the default annual rate (risk bands decide); salary advance: the rate per day. */
  rateBps: number;
  /** Processing fee as a share of the amount. */
  feeBps: number;
  /** Least processing fee before GST (0 for none). */
  minFeePaise: number;
  /** GST on the fee. */
  gstBps: number;
  /** Flat penal charge per missed instalment (EMI) or once (salary advance). */
  penalChargePaise: number;
  coolingOffDays: number;
  /** Salary advance: the most it may be as a share of net monthly salary; null for no cap. */
  salaryCapBps: number | null;
  /** Only salaried applicants (the salary advance is repaid from the salary). */
  salariedOnly: boolean;
}

/** The two products the offer is made of. */
export interface Products {
  emi: ProductConfig;
  salaryAdvance: ProductConfig;
}

/**
 * A risk band for the EMI loan's rate: the first band (by sortOrder, else by
 * position) that the applicant meets sets the rate.
 */
export interface RiskBand {
  sortOrder?: number;
  minIncomePaise: number;
  /** Existing EMIs may be at most this share of income; null: no condition. */
  maxEmiToIncomeBps: number | null;
  rateBps: number;
}

/** The eligibility rules of PRODUCT.md §9 that are not product columns. */
export interface EligibilityRules {
  minAgeYears: number;
  maxAgeYears: number;
  /** Least net monthly income, for both products. */
  minIncomePaise: number;
  /** EMI loan: existing EMIs + the new EMI at most this share of income. */
  maxTotalEmiToIncomeBps: number;
  /** Salary advance: existing EMIs at most this share of income. */
  maxExistingEmiToIncomeBps: number;
}

export const DEFAULT_EMI_PRODUCT: Readonly<ProductConfig> = Object.freeze({
  code: "emi",
  name: "EMI loan",
  minAmountPaise: 10_000_00,
  maxAmountPaise: 5_00_000_00,
  amountStepPaise: 1_000_00,
  minTenure: 3,
  maxTenure: 36,
  rateBps: 1800,
  feeBps: 200,
  minFeePaise: 499_00,
  gstBps: 1800,
  penalChargePaise: 500_00,
  coolingOffDays: 3,
  salaryCapBps: null,
  salariedOnly: false,
});

export const DEFAULT_SALARY_ADVANCE_PRODUCT: Readonly<ProductConfig> = Object.freeze({
  code: "salary_advance",
  name: "Salary advance",
  minAmountPaise: 2_000_00,
  maxAmountPaise: 1_00_000_00,
  amountStepPaise: 500_00,
  minTenure: 7,
  maxTenure: 45,
  rateBps: 8,
  feeBps: 300,
  minFeePaise: 0,
  gstBps: 1800,
  penalChargePaise: 500_00,
  coolingOffDays: 3,
  salaryCapBps: 5000,
  salariedOnly: true,
});

export const DEFAULT_PRODUCTS: Readonly<Products> = Object.freeze({
  emi: DEFAULT_EMI_PRODUCT,
  salaryAdvance: DEFAULT_SALARY_ADVANCE_PRODUCT,
});

/** ≥ ₹50,000 and existing EMIs ≤ 30% → 14%; ≥ ₹25,000 → 18%; otherwise 24%. */
export const DEFAULT_RISK_BANDS: readonly Readonly<RiskBand>[] = Object.freeze([
  Object.freeze({ sortOrder: 1, minIncomePaise: 50_000_00, maxEmiToIncomeBps: 3000, rateBps: 1400 }),
  Object.freeze({ sortOrder: 2, minIncomePaise: 25_000_00, maxEmiToIncomeBps: null, rateBps: 1800 }),
  Object.freeze({ sortOrder: 3, minIncomePaise: 0, maxEmiToIncomeBps: null, rateBps: 2400 }),
]);

export const DEFAULT_ELIGIBILITY_RULES: Readonly<EligibilityRules> = Object.freeze({
  minAgeYears: 21,
  maxAgeYears: 60,
  minIncomePaise: 15_000_00,
  maxTotalEmiToIncomeBps: 5000,
  maxExistingEmiToIncomeBps: 5000,
});

/** What is wrong with a product's configuration, in plain words (empty when fine); for staff edits. */
export function productConfigProblems(p: ProductConfig): string[] {
  const problems: string[] = [];
  const whole = (v: number) => Number.isSafeInteger(v);
  const fields: [keyof ProductConfig, number][] = [
    ["minAmountPaise", p.minAmountPaise],
    ["maxAmountPaise", p.maxAmountPaise],
    ["amountStepPaise", p.amountStepPaise],
    ["minTenure", p.minTenure],
    ["maxTenure", p.maxTenure],
    ["rateBps", p.rateBps],
    ["feeBps", p.feeBps],
    ["minFeePaise", p.minFeePaise],
    ["gstBps", p.gstBps],
    ["penalChargePaise", p.penalChargePaise],
    ["coolingOffDays", p.coolingOffDays],
  ];
  for (const [name, value] of fields) {
    if (!whole(value) || value < 0) problems.push(`${name} must be a whole number, zero or more.`);
  }
  if (!(p.minAmountPaise > 0)) problems.push("The minimum amount must be more than zero.");
  if (p.minAmountPaise > p.maxAmountPaise) problems.push("The minimum amount is above the maximum.");
  if (!(p.amountStepPaise > 0)) problems.push("The amount step must be more than zero.");
  if (!(p.minTenure > 0)) problems.push("The minimum tenure must be more than zero.");
  if (p.minTenure > p.maxTenure) problems.push("The minimum tenure is above the maximum.");
  if (p.salaryCapBps !== null && (!whole(p.salaryCapBps) || p.salaryCapBps <= 0 || p.salaryCapBps > 10_000)) {
    problems.push("The salary cap must be a share of salary between 0% and 100%.");
  }
  return problems;
}

/** Risk bands in the order they are tried. */
export function orderedRiskBands<T extends RiskBand>(bands: readonly T[]): T[] {
  return bands
    .map((band, index) => ({ band, index }))
    .sort((a, b) => (a.band.sortOrder ?? a.index) - (b.band.sortOrder ?? b.index) || a.index - b.index)
    .map(({ band }) => band);
}
