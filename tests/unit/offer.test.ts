import { describe, expect, it } from "vitest";
import { ageOn, emiQuoteAt, rateForApplicant, salaryAdvanceQuoteAt } from "../../app/domain/offer.ts";
import { DEFAULT_PRODUCT_ROWS, DEFAULT_RISK_BAND_ROWS } from "../../app/server/db/reference-data.ts";

// Whether and how much may be lent is the credit policy's (tests/unit/credit-policy.test.ts); here, the offer's figures.
const [emiRow, saRow] = DEFAULT_PRODUCT_ROWS;
const emi = { ...emiRow, salariedOnly: false, minFeePaise: emiRow?.minFeePaise ?? 0 } as never;
const sa = { ...saRow, salariedOnly: true, minFeePaise: saRow?.minFeePaise ?? 0 } as never;
const bands = DEFAULT_RISK_BAND_ROWS.map((b) => ({
  minIncomePaise: b.minIncomePaise,
  maxEmiToIncomeBps: b.maxEmiToIncomeBps ?? null,
  rateBps: b.rateBps,
}));

describe("risk bands", () => {
  it("gives 14% for ₹50,000+ income with EMIs ≤ 30%, 18% for ₹25,000+, else 24%", () => {
    expect(rateForApplicant({ netMonthlyIncomePaise: 5_000_000, existingEmiPaise: 1_500_000 }, bands, 1800)).toBe(1400);
    expect(rateForApplicant({ netMonthlyIncomePaise: 5_000_000, existingEmiPaise: 1_500_100 }, bands, 1800)).toBe(1800);
    expect(rateForApplicant({ netMonthlyIncomePaise: 2_500_000, existingEmiPaise: 0 }, bands, 1800)).toBe(1800);
    expect(rateForApplicant({ netMonthlyIncomePaise: 2_499_900, existingEmiPaise: 0 }, bands, 1800)).toBe(2400);
  });
});

describe("an offer's figures", () => {
  it("takes the processing fee with its GST from the amount, as the KFS does", () => {
    const q = emiQuoteAt(10_000_000, 1800, 12, emi, "2026-11-23");
    expect(q.netDisbursedPaise).toBe(10_000_000 - 236_000);
    expect(q.aprPercent).toBeGreaterThan(18);
  });

  it("repays a salary advance on the salary day at least 7 days on", () => {
    expect(salaryAdvanceQuoteAt(2_000_000, sa, "2026-11-23", 1).repaymentDate).toBe("2026-12-01");
    expect(salaryAdvanceQuoteAt(2_000_000, sa, "2026-11-27", 1).repaymentDate).toBe("2027-01-01");
  });
});

describe("age", () => {
  it("counts whole years", () => {
    expect(ageOn("2005-11-23", "2026-11-22")).toBe(20);
    expect(ageOn("2005-11-22", "2026-11-22")).toBe(21);
  });
});
