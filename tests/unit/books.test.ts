import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chartSchema, DEFAULT_CHART, DEFAULT_FRAMEWORK, DEFAULT_PROVISIONING, provisioningSchema } from "../../app/domain/books/chart.ts";
import { feeAmortisation } from "../../app/domain/books/eir.ts";
import {
  accruedBy,
  balancedOn,
  basisOf,
  entryDateFor,
  gstParts,
  imbalance,
  monthEnd,
  netted,
  writeOffLines,
} from "../../app/domain/books/positions.ts";
import { addDays, emiSchedule } from "../../app/domain/loan-math.ts";

describe("accrual (docs/product.md, The lender's books)", () => {
  it("spreads an instalment's interest evenly over its days, the remainder on its due date", () => {
    expect(accruedBy(3100, "2026-01-05", "2026-02-05", "2026-01-05")).toBe(0);
    expect(accruedBy(3100, "2026-01-05", "2026-02-05", "2026-01-06")).toBe(100);
    expect(accruedBy(3107, "2026-01-05", "2026-02-05", "2026-02-04")).toBe(3000);
    expect(accruedBy(3107, "2026-01-05", "2026-02-05", "2026-02-05")).toBe(3107);
    expect(accruedBy(3107, "2026-01-05", "2026-02-05", "2026-03-01")).toBe(3107);
  });

  it("never goes down from day to day and never exceeds the interest", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_00_000_00 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: -5, max: 410 }),
        (i, n, d) => {
          const from = "2026-01-01";
          const due = addDays(from, n);
          const a = accruedBy(i, from, due, addDays(from, d));
          const b = accruedBy(i, from, due, addDays(from, d + 1));
          expect(a).toBeGreaterThanOrEqual(0);
          expect(b).toBeGreaterThanOrEqual(a);
          expect(b).toBeLessThanOrEqual(i);
        },
      ),
    );
  });

  it("reads its periods from the instalments: each from the previous due date, the first from the disbursal", () => {
    expect(
      basisOf(
        [
          { seq: 2, dueDate: "2026-03-05", interestPaise: 90 },
          { seq: 1, dueDate: "2026-02-05", interestPaise: 100 },
        ],
        "2026-01-05",
        new Map([[1, 7]]),
      ),
    ).toEqual([
      { seq: 1, fromDate: "2026-01-05", dueDate: "2026-02-05", interestPaise: 100, feePaise: 7 },
      { seq: 2, fromDate: "2026-02-05", dueDate: "2026-03-05", interestPaise: 90, feePaise: 0 },
    ]);
  });
});

describe("entries", () => {
  it("split the fee's GST by place of supply: CGST and SGST halves (CGST takes an odd paisa), or IGST", () => {
    expect(gstParts(3601, "intra")).toEqual({ cgst_payable: -1801, sgst_payable: -1800 });
    expect(gstParts(3601, "inter")).toEqual({ igst_payable: -3601 });
  });

  it("balance on the account named, net by account and loan, and charge a write-off to the provision held first", () => {
    const lines = [
      { purpose: "loans_receivable" as const, paise: -1000, applicationId: "a" },
      { purpose: "interest_receivable" as const, paise: -200, applicationId: "a" },
      { purpose: "interest_suspense" as const, paise: 200, applicationId: "a" },
    ];
    expect(imbalance(balancedOn(lines, "interest_income", "a"))).toBe(0);
    expect(writeOffLines(lines, 400, "a").slice(3)).toEqual([
      { purpose: "loan_loss_provision", paise: 400, applicationId: "a" },
      { purpose: "write_off_expense", paise: 600, applicationId: "a" },
    ]);
    expect(writeOffLines(lines, 5000, "a").slice(3)).toEqual([{ purpose: "loan_loss_provision", paise: 1000, applicationId: "a" }]);
    expect(
      netted([
        { purpose: "bank", paise: 5, applicationId: null },
        { purpose: "bank", paise: -5, applicationId: null },
        { purpose: "bank", paise: 3, applicationId: "a" },
      ]),
    ).toEqual([{ purpose: "bank", paise: 3, applicationId: "a" }]);
  });

  it("are dated on their business date, or the first open day when its month is closed", () => {
    expect(entryDateFor("2026-03-31", null)).toBe("2026-03-31");
    expect(entryDateFor("2026-03-31", "2026-02")).toBe("2026-03-31");
    expect(entryDateFor("2026-03-31", "2026-03")).toBe("2026-04-01");
    expect(entryDateFor("2026-01-10", "2026-03")).toBe("2026-04-01");
    expect(entryDateFor("2026-12-10", "2026-12")).toBe("2027-01-01");
    expect(monthEnd("2026-02-10")).toBe("2026-02-28");
  });
});

describe("Ind AS 109's effective interest rate", () => {
  it("amortises exactly the fee, never a negative share, most in the first periods", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000_00, max: 5_00_000_00 }),
        fc.integer({ min: 3, max: 36 }),
        fc.integer({ min: 900, max: 3600 }),
        fc.integer({ min: 50, max: 400 }),
        (principal, months, rateBps, feeBps) => {
          const schedule = emiSchedule({ principalPaise: principal, annualRateBps: rateBps, months }).schedule.map((l) => ({
            seq: l.instalment,
            principalPaise: l.principalPaise,
            interestPaise: l.interestPaise,
          }));
          const fee = Math.round((principal * feeBps) / 10_000);
          const parts = feeAmortisation(schedule, principal, fee);
          const values = [...parts.values()];
          expect(values.reduce((a, b) => a + b, 0)).toBe(fee);
          for (const v of values) expect(v).toBeGreaterThanOrEqual(0);
          expect(values[0]).toBeGreaterThanOrEqual(values[values.length - 2] ?? 0);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("the books' first rules", () => {
  it("are seeded by the migration exactly as the code's defaults, and pass their own schemas", () => {
    const migration = readFileSync(new URL("../../db/migrations/0028_books.sql", import.meta.url), "utf8");
    const seeded = (kind: string) => {
      const m = new RegExp(`VALUES \\('${kind}', '(.+?)'::jsonb`).exec(migration);
      return JSON.parse((m?.[1] ?? "null").replaceAll("''", "'")) as unknown;
    };
    expect(seeded("framework")).toEqual(DEFAULT_FRAMEWORK);
    expect(seeded("chart")).toEqual(DEFAULT_CHART);
    expect(seeded("provisioning")).toEqual(DEFAULT_PROVISIONING);
    expect(chartSchema.safeParse(DEFAULT_CHART).success).toBe(true);
    expect(provisioningSchema.safeParse(DEFAULT_PROVISIONING).success).toBe(true);
    // A chart missing an account, or using a code twice, is refused with what is wrong.
    const twice = DEFAULT_CHART.map((a, i) => (i === 1 ? { ...a, code: DEFAULT_CHART[0]?.code ?? "" } : a));
    expect(chartSchema.safeParse(twice).error?.issues[0]?.message).toMatch(/used twice/);
    expect(chartSchema.safeParse(DEFAULT_CHART.slice(1)).error?.issues[0]?.message).toMatch(/no account for loans_receivable/);
  });
});
