import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BureauFacts, evaluatePolicy, type PolicyInput } from "../../app/domain/credit-policy/evaluate.ts";
import { DEFAULT_POLICY_RULES, policyDiff, policyProposalSchema } from "../../app/domain/credit-policy/rules.ts";
import { borrowerReasons } from "../../app/domain/credit-policy/words.ts";
import { said } from "../helpers/messages.ts";
import { emiPaise } from "../../app/domain/loan-math.ts";
import type { ProductTerms } from "../../app/domain/offer.ts";
import { DEFAULT_PRODUCT_ROWS, DEFAULT_RISK_BAND_ROWS } from "../../app/server/db/reference-data.ts";

const terms = (row: (typeof DEFAULT_PRODUCT_ROWS)[number] | undefined): ProductTerms => ({
  code: row?.code ?? "",
  minAmountPaise: row?.minAmountPaise ?? 0,
  maxAmountPaise: row?.maxAmountPaise ?? 0,
  amountStepPaise: row?.amountStepPaise ?? 1,
  minTenure: row?.minTenure ?? 1,
  maxTenure: row?.maxTenure ?? 1,
  rateBps: row?.rateBps ?? 0,
  feeBps: row?.feeBps ?? 0,
  minFeePaise: row?.minFeePaise ?? 0,
  gstBps: row?.gstBps ?? 0,
  salariedOnly: row?.salariedOnly ?? false,
});
const emi = terms(DEFAULT_PRODUCT_ROWS[0]);
const sa = terms(DEFAULT_PRODUCT_ROWS[1]);
const bands = DEFAULT_RISK_BAND_ROWS.map((b) => ({
  minIncomePaise: b.minIncomePaise,
  maxEmiToIncomeBps: b.maxEmiToIncomeBps ?? null,
  rateBps: b.rateBps,
}));
const today = "2026-11-26";
const cleanBureau: BureauFacts = {
  score: 780,
  monthlyEmiPaise: 0,
  ourMonthlyEmiPaise: 0,
  seriousDelinquency: false,
  pulledOn: today,
  reference: "CIR-1",
};

function input(over: Partial<PolicyInput> = {}, applicant: Partial<PolicyInput["applicant"]> = {}): PolicyInput {
  return {
    policy: { version: 1, rules: DEFAULT_POLICY_RULES },
    kind: "emi",
    product: emi,
    bands,
    applicant: {
      ageYears: 30,
      netMonthlyIncomePaise: 60_000_00,
      declaredEmiPaise: 0,
      employmentType: "salaried",
      salaryDay: 28,
      ...applicant,
    },
    pan: "valid",
    bureau: cleanBureau,
    own: { loans: [], applications: [], lastRejectionOn: null },
    today,
    tenureMonths: 12,
    ...over,
  };
}

describe("the credit policy's verdict", () => {
  it("offers the largest EMI loan whose EMI keeps all obligations within half the income", () => {
    const v = evaluatePolicy(input({}, { netMonthlyIncomePaise: 30_000_00, declaredEmiPaise: 5_000_00 }));
    expect(v.result).toBe("pass");
    expect(v.rateBps).toBe(1800);
    const room = 15_000_00 - 5_000_00;
    expect(emiPaise(v.maxAmountPaise, 1800, 12)).toBeLessThanOrEqual(room);
    expect(emiPaise(v.maxAmountPaise + 1_000_00, 1800, 12)).toBeGreaterThan(room);
    expect(v.best).toEqual({ amountPaise: v.maxByTenure[36], tenureMonths: 36 });
  });

  it("takes the larger of declared and bureau EMIs, leaving out the bureau's accounts of ours, plus our own loans", () => {
    const bureau = { ...cleanBureau, monthlyEmiPaise: 9_000_00, ourMonthlyEmiPaise: 3_000_00 };
    const loans = [
      {
        reference: "a",
        kind: "emi" as const,
        status: "active" as const,
        dpd: 0,
        overduePaise: 0,
        monthlyPaise: 4_000_00,
        principalOutstandingPaise: 1_00_000_00,
      },
    ];
    const v = evaluatePolicy(input({ bureau, own: { loans, applications: [], lastRejectionOn: null } }, { declaredEmiPaise: 2_000_00 }));
    const row = v.rules.find((r) => r.code === "obligations");
    expect(row?.detail).toMatchObject({ declaredPaise: 2_000_00, bureauPaise: 6_000_00, ownLoansPaise: 4_000_00 });
    expect(Number(row?.detail?.totalPaise) - Number(row?.detail?.newPaise)).toBe(10_000_00);
  });

  it("shrinks a second loan's offer by the first loan's EMI", () => {
    const first = evaluatePolicy(input());
    const loans = [
      {
        reference: "a",
        kind: "emi" as const,
        status: "active" as const,
        dpd: 0,
        overduePaise: 0,
        monthlyPaise: 13_753_00,
        principalOutstandingPaise: 1_50_000_00,
      },
    ];
    const second = evaluatePolicy(input({ own: { loans, applications: [], lastRejectionOn: null } }));
    expect(second.maxAmountPaise).toBeLessThan(first.maxAmountPaise);
    expect(emiPaise(second.maxAmountPaise, second.rateBps, 12) + 13_753_00).toBeLessThanOrEqual(30_000_00);
  });

  it("refuses with every hard stop named, and offers nothing", () => {
    const loans = [
      {
        reference: "a",
        kind: "emi" as const,
        status: "active" as const,
        dpd: 31,
        overduePaise: 14_253_00,
        monthlyPaise: 13_753_00,
        principalOutstandingPaise: 1_00_000_00,
      },
      {
        reference: "b",
        kind: "emi" as const,
        status: "written_off" as const,
        dpd: 200,
        overduePaise: 0,
        monthlyPaise: 0,
        principalOutstandingPaise: 0,
      },
    ];
    const v = evaluatePolicy(
      input({
        bureau: { ...cleanBureau, score: 420, seriousDelinquency: true },
        own: {
          loans,
          applications: [{ reference: "c", kind: "salary_advance", amountPaise: 10_000_00, monthlyPaise: 10_100_00 }],
          lastRejectionOn: "2026-11-10",
        },
      }),
    );
    expect(v.eligible).toBe(false);
    expect(v.result).toBe("fail");
    expect(v.maxAmountPaise).toBe(0);
    expect(v.rules.filter((r) => r.outcome === "fail").map((r) => r.code)).toEqual(
      expect.arrayContaining(["own_overdue", "own_written_off", "bureau_delinquency", "recent_rejection", "active_loans", "bureau_score"]),
    );
    const words = borrowerReasons(v, emi.minAmountPaise).map((r) => said(r.message));
    expect(words).toContain(
      "You have ₹14,253 overdue on your loans with us. Pay it first: a new loan opens once your loans are up to date.",
    );
    expect(words).toContain("We could not approve your last application. You can apply again from 10 Dec 2026.");
    expect(words.join(" ")).not.toContain("420");
  });

  it("needs a deviation for a score of 600–649, and none without credit history, where the amount is capped", () => {
    expect(evaluatePolicy(input({ bureau: { ...cleanBureau, score: 620 } }))).toMatchObject({
      result: "deviation",
      deviations: ["bureau_score"],
      eligible: true,
    });
    expect(evaluatePolicy(input({ bureau: { ...cleanBureau, score: 599 } })).eligible).toBe(false);
    const none = evaluatePolicy(input({ bureau: { ...cleanBureau, score: null } }, { netMonthlyIncomePaise: 2_00_000_00 }));
    expect(none.result).toBe("pass");
    expect(none.maxAmountPaise).toBe(50_000_00);
  });

  it("judges an amount asked: within the limits, within a deviation, or over", () => {
    const offer = evaluatePolicy(input({}, { netMonthlyIncomePaise: 30_000_00 }));
    const at = (amountPaise: number) =>
      evaluatePolicy(input({ asked: { amountPaise, tenureMonths: 12 } }, { netMonthlyIncomePaise: 30_000_00 }));
    expect(at(offer.maxAmountPaise).result).toBe("pass");
    // 60% of ₹30,000 is ₹18,000 of EMI: a bit more than the offer is a deviation, far more is refused.
    expect(at(offer.maxAmountPaise + 10_000_00)).toMatchObject({ result: "deviation", deviations: ["obligations"] });
    expect(at(offer.maxAmountPaise * 2).result).toBe("fail");
  });

  it("is missing facts, not refused, before the PAN and the bureau are known", () => {
    const v = evaluatePolicy(input({ pan: null, bureau: null }));
    expect(v.result).toBe("missing");
    expect(v.eligible).toBe(false);
    expect(borrowerReasons(v, emi.minAmountPaise).map((r) => r.code)).toEqual(["pan", "bureau"]);
    expect(evaluatePolicy(input({ bureau: { ...cleanBureau, pulledOn: "2026-10-20" } })).result).toBe("missing");
  });

  it("keeps the salary advance within half the salary and its obligations rule", () => {
    const v = evaluatePolicy(input({ kind: "salary_advance", product: sa, tenureMonths: null }, { netMonthlyIncomePaise: 45_678_00 }));
    expect(v.maxAmountPaise).toBe(22_500_00);
    const self = evaluatePolicy(input({ kind: "salary_advance", product: sa }, { employmentType: "self_employed" }));
    expect(borrowerReasons(self, sa.minAmountPaise).map((r) => r.code)).toEqual(["salaried"]);
    const heavy = evaluatePolicy(input({ kind: "salary_advance", product: sa }, { declaredEmiPaise: 40_000_00 }));
    expect(heavy.eligible).toBe(false);
  });
});

// ---- Properties over generated borrowers ------------------------------------------------------

/** Mostly what a lender sees: an adult with an income, a verified PAN and a fresh, clean report; sometimes not. */
const mostly = <T, U>(usual: fc.Arbitrary<T>, rare: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 9, arbitrary: usual }, { weight: 1, arbitrary: rare });
const bureauArb = fc.option(
  fc.record({
    score: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 600, max: 900 }) },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.integer({ min: 300, max: 900 }) },
    ),
    monthlyEmiPaise: fc.integer({ min: 0, max: 40_000_00 }),
    ourMonthlyEmiPaise: fc.integer({ min: 0, max: 10_000_00 }),
    seriousDelinquency: mostly(fc.constant(false), fc.boolean()),
    pulledOn: mostly(fc.constant(today), fc.constantFrom("2026-11-01", "2026-10-01")),
    reference: fc.constant("CIR-X"),
  }),
  { nil: null, freq: 10 },
);
const loanArb = fc.record({
  reference: fc.constant("L"),
  kind: fc.constantFrom("emi" as const, "salary_advance" as const),
  status: mostly(fc.constant("active" as const), fc.constant("written_off" as const)),
  dpd: mostly(fc.constant(0), fc.integer({ min: 1, max: 200 })),
  overduePaise: fc.integer({ min: 0, max: 50_000_00 }),
  monthlyPaise: fc.integer({ min: 0, max: 30_000_00 }),
  principalOutstandingPaise: fc.integer({ min: 0, max: 3_00_000_00 }),
});
const inputArb = fc.record({
  kind: fc.constantFrom("emi" as const, "salary_advance" as const),
  ageYears: mostly(fc.integer({ min: 21, max: 60 }), fc.integer({ min: 18, max: 70 })),
  income: mostly(fc.integer({ min: 15_000_00, max: 5_00_000_00 }), fc.integer({ min: 0, max: 5_00_000_00 })),
  declared: fc.integer({ min: 0, max: 1_00_000_00 }).map((n) => (n % 3 === 0 ? n : n % 20_000_00)),
  employmentType: mostly(fc.constant("salaried" as const), fc.constant("self_employed" as const)),
  salaryDay: mostly(fc.integer({ min: 1, max: 31 }), fc.constant(null)),
  pan: mostly(fc.constant("valid" as const), fc.constantFrom("invalid" as const, "not_individual" as const, null)),
  bureau: bureauArb,
  loans: fc.array(loanArb, { maxLength: 2 }).map((ls) => ls.slice(0, ls.length > 1 && ls[1]?.dpd ? 2 : 1)),
  applications: fc
    .array(
      fc.record({
        reference: fc.constant("A"),
        kind: fc.constantFrom("emi" as const, "salary_advance" as const),
        amountPaise: fc.integer({ min: 2_000_00, max: 3_00_000_00 }),
        monthlyPaise: fc.integer({ min: 0, max: 20_000_00 }),
      }),
      { maxLength: 1 },
    )
    .map((as) => (as[0] && as[0].amountPaise % 3 === 0 ? as : [])),
  lastRejectionOn: mostly(fc.constant(null), fc.constantFrom("2026-11-20", "2026-09-01")),
  tenure: fc.integer({ min: 3, max: 36 }),
});
type Generated = typeof inputArb extends fc.Arbitrary<infer T> ? T : never;
const toInput = (g: Generated, asked?: PolicyInput["asked"]): PolicyInput =>
  input({
    kind: g.kind,
    product: g.kind === "emi" ? emi : sa,
    applicant: {
      ageYears: g.ageYears,
      netMonthlyIncomePaise: g.income,
      declaredEmiPaise: g.declared,
      employmentType: g.employmentType,
      salaryDay: g.salaryDay,
    },
    pan: g.pan,
    bureau: g.bureau,
    own: { loans: g.loans, applications: g.applications, lastRejectionOn: g.lastRejectionOn },
    tenureMonths: g.kind === "emi" ? g.tenure : null,
    asked,
  });
const LIMITS = ["obligations", "exposure", "no_history_cap", "salary_cap"];

describe("the credit policy, for any borrower", () => {
  it("offers an amount that passes every limit, and no larger amount passes", () => {
    fc.assert(
      fc.property(inputArb, (g) => {
        const v = evaluatePolicy(toInput(g));
        if (v.maxAmountPaise === 0) return;
        const product = g.kind === "emi" ? emi : sa;
        const tenureMonths = v.tenureMonths;
        const atOffer = evaluatePolicy(toInput(g, { amountPaise: v.maxAmountPaise, tenureMonths }));
        for (const row of atOffer.rules.filter((r) => LIMITS.includes(r.code))) expect(row.outcome, row.code).toBe("pass");
        expect(["pass", "deviation"]).toContain(atOffer.result);
        const larger = v.maxAmountPaise + product.amountStepPaise;
        if (larger <= product.maxAmountPaise) {
          const over = evaluatePolicy(toInput(g, { amountPaise: larger, tenureMonths }));
          expect(over.rules.filter((r) => LIMITS.includes(r.code)).some((r) => r.outcome !== "pass")).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("never offers anything when a hard stop or a needed fact fails", () => {
    fc.assert(
      fc.property(inputArb, (g) => {
        const v = evaluatePolicy(toInput(g));
        const stopped = v.rules.some((r) => r.kind !== "limit" && (r.outcome === "fail" || r.outcome === "missing"));
        if (!stopped) return;
        expect(v.eligible).toBe(false);
        expect(v.maxAmountPaise).toBe(0);
        expect(v.best.amountPaise).toBe(0);
        expect(Object.values(v.maxByTenure).every((n) => n === 0)).toBe(true);
        expect(["fail", "missing"]).toContain(v.result);
        expect(borrowerReasons(v, emi.minAmountPaise).length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });

  it("gives the same table for the same inputs", () => {
    fc.assert(
      fc.property(inputArb, (g) => {
        expect(evaluatePolicy(toInput(g))).toEqual(evaluatePolicy(structuredClone(toInput(g))));
      }),
      { numRuns: 100 },
    );
  });
});

describe("a proposed change to the policy", () => {
  const form = (over: Record<string, string> = {}) => ({
    minAgeYears: "21",
    maxAgeYears: "60",
    minIncomePaise: "15000",
    maxActiveLoans: "2",
    rejectionCoolOffDays: "30",
    minBureauScore: "600",
    deviationScoreBelow: "650",
    maxObligationsBps: "50",
    deviationObligationsBps: "60",
    maxExposurePaise: "5,00,000",
    noHistoryMaxAmountPaise: "50000",
    salaryAdvanceMaxSalaryBps: "50",
    salaryAdvanceMaxObligationsBps: "50",
    bureauMaxAgeDays: "30",
    reason: "Tighter after the quarter's review",
    ...over,
  });
  it("reads rupees and percent into the stored units, and the diff names what changed", () => {
    const parsed = policyProposalSchema.parse(form({ maxObligationsBps: "45" }));
    expect(parsed.rules).toEqual({ ...DEFAULT_POLICY_RULES, maxObligationsBps: 4500 });
    expect(policyDiff(DEFAULT_POLICY_RULES, parsed.rules)).toEqual([
      { key: "maxObligationsBps", label: "All EMIs, the new one included, as a share of income", before: "50%", after: "45%" },
    ]);
  });
  it("refuses a deviation band below the limit and ages the wrong way round, next to the field", () => {
    const r = policyProposalSchema.safeParse(form({ deviationObligationsBps: "40", maxAgeYears: "20", reason: "short" }));
    expect(r.success).toBe(false);
    const paths = r.error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(paths).toEqual(expect.arrayContaining(["deviationObligationsBps", "maxAgeYears", "reason"]));
  });
});
