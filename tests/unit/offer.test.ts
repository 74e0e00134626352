import { describe, expect, it } from "vitest";
import { emiPaise } from "../../app/domain/loan-math.ts";
import { type ApplicantFacts, ageOn, eligibility, emiOffer, rateForApplicant, salaryAdvanceOffer } from "../../app/domain/offer.ts";
import { DEFAULT_PRODUCT_ROWS, DEFAULT_RISK_BAND_ROWS } from "../../app/server/db/reference-data.ts";

const [emiRow, saRow] = DEFAULT_PRODUCT_ROWS;
const emi = { ...emiRow, salaryCapBps: emiRow?.salaryCapBps ?? null, salariedOnly: false, minFeePaise: emiRow?.minFeePaise ?? 0 } as never;
const sa = { ...saRow, salaryCapBps: saRow?.salaryCapBps ?? null, salariedOnly: true, minFeePaise: saRow?.minFeePaise ?? 0 } as never;
const bands = DEFAULT_RISK_BAND_ROWS.map((b) => ({
  minIncomePaise: b.minIncomePaise,
  maxEmiToIncomeBps: b.maxEmiToIncomeBps ?? null,
  rateBps: b.rateBps,
}));
const today = "2026-11-22";

const facts = (over: Partial<ApplicantFacts> = {}): ApplicantFacts => ({
  ageYears: 30,
  netMonthlyIncomePaise: 6_000_000,
  existingEmiPaise: 0,
  employmentType: "salaried",
  salaryDay: 1,
  ...over,
});

describe("risk bands", () => {
  it("gives 14% for ₹50,000+ income with EMIs ≤ 30%, 18% for ₹25,000+, else 24%", () => {
    expect(rateForApplicant(facts({ netMonthlyIncomePaise: 5_000_000, existingEmiPaise: 1_500_000 }), bands, 1800)).toBe(1400);
    expect(rateForApplicant(facts({ netMonthlyIncomePaise: 5_000_000, existingEmiPaise: 1_500_100 }), bands, 1800)).toBe(1800);
    expect(rateForApplicant(facts({ netMonthlyIncomePaise: 2_500_000 }), bands, 1800)).toBe(1800);
    expect(rateForApplicant(facts({ netMonthlyIncomePaise: 2_499_900 }), bands, 1800)).toBe(2400);
  });
});

describe("EMI loan offer", () => {
  it("offers the largest amount, in ₹1,000 steps, whose EMI keeps all EMIs within half the income", () => {
    const offer = emiOffer(facts({ netMonthlyIncomePaise: 3_000_000, existingEmiPaise: 500_000 }), emi, bands, 12, today);
    expect(offer.eligible).toBe(true);
    expect(offer.rateBps).toBe(1800);
    const room = 1_500_000 - 500_000;
    expect(offer.maxAmountPaise % 100_000).toBe(0);
    expect(emiPaise(offer.maxAmountPaise, 1800, 12)).toBeLessThanOrEqual(room);
    expect(emiPaise(offer.maxAmountPaise + 100_000, 1800, 12)).toBeGreaterThan(room);
    expect(offer.quote?.emiPaise).toBe(emiPaise(offer.maxAmountPaise, 1800, 12));
    expect(offer.quote?.aprPercent).toBeGreaterThan(18);
  });

  it("is capped at the product maximum", () => {
    const offer = emiOffer(facts({ netMonthlyIncomePaise: 100_000_000 }), emi, bands, 36, today);
    expect(offer.maxAmountPaise).toBe(50_000_000);
  });

  it("explains each reason it is refused, all of them", () => {
    const offer = emiOffer(facts({ ageYears: 19, netMonthlyIncomePaise: 1_200_000, existingEmiPaise: 700_000 }), emi, bands, 12, today);
    expect(offer.eligible).toBe(false);
    expect(offer.reasons.map((r) => r.code)).toEqual(["age", "income", "existing_emis"]);
    expect(offer.reasons[1]?.message).toBe("Your net monthly income of ₹12,000 is below the minimum of ₹15,000.");
    expect(offer.quote).toBeNull();
  });

  it("refuses when even the smallest loan does not fit, suggesting a longer tenure", () => {
    const offer = emiOffer(facts({ netMonthlyIncomePaise: 1_500_000, existingEmiPaise: 450_000 }), emi, bands, 3, today);
    expect(offer.reasons.map((r) => r.code)).toEqual(["affordability"]);
    expect(offer.reasons[0]?.message).toContain("longer tenure");
  });

  it("refuses someone over 60", () => {
    expect(emiOffer(facts({ ageYears: 61 }), emi, bands, 12, today).reasons.map((r) => r.code)).toEqual(["age"]);
  });
});

describe("salary advance offer", () => {
  it("offers at most half the salary, in ₹500 steps, repaid on the salary date", () => {
    const offer = salaryAdvanceOffer(facts({ netMonthlyIncomePaise: 4_567_800, salaryDay: 1 }), sa, today);
    expect(offer.eligible).toBe(true);
    expect(offer.maxAmountPaise).toBe(2_250_000);
    expect(offer.quote?.repaymentDate).toBe("2026-12-01");
  });

  it("is only for salaried people and lists every reason", () => {
    const offer = salaryAdvanceOffer(
      facts({ employmentType: "self_employed", netMonthlyIncomePaise: 2_000_000, existingEmiPaise: 1_100_000 }),
      sa,
      today,
    );
    expect(offer.reasons.map((r) => r.code)).toEqual(["not_salaried", "existing_emis"]);
  });

  it("needs the salary day", () => {
    expect(salaryAdvanceOffer(facts({ salaryDay: null }), sa, today).reasons.map((r) => r.code)).toEqual(["salary_day"]);
  });

  it("refuses when half the salary is below the smallest advance", () => {
    expect(salaryAdvanceOffer(facts({ netMonthlyIncomePaise: 300_000 }), sa, today).reasons.map((r) => r.code)).toEqual([
      "income",
      "salary_cap",
    ]);
  });
});

describe("both offers and age", () => {
  it("computes both products at once", () => {
    const result = eligibility(facts(), { emi, salaryAdvance: sa }, bands, { emiTenureMonths: 24, disbursalDate: today });
    expect(result.emi.eligible && result.salaryAdvance.eligible).toBe(true);
    expect(result.emi.tenureMonths).toBe(24);
  });

  it("counts whole years", () => {
    expect(ageOn("2005-11-23", "2026-11-22")).toBe(20);
    expect(ageOn("2005-11-22", "2026-11-22")).toBe(21);
  });
});
