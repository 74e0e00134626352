import { describe, expect, it } from "vitest";
import {
  fittingStep,
  kindOfPath,
  parseReference,
  STEPS,
  stepAllowed,
  termsSchema,
  type FlowState,
} from "../../app/domain/loans/application.ts";
import { buildKfs } from "../../app/domain/loans/kfs.ts";
import { said } from "../helpers/messages.ts";
import { sampleKfsInput } from "../fixtures/kfs.ts";
import { kfsWords } from "../../app/server/loans/kfs-words.server.ts";
import { borrowerCanCancel, canTransition, LOAN_STATUSES } from "../../app/domain/loans/lifecycle.ts";
import { calculate } from "../../app/domain/calculator.ts";
import { processingFee } from "../../app/domain/loan-math.ts";
import { newReference } from "../../app/server/loans/reference.server.ts";

describe("the lifecycle (docs/product.md, Loan applications)", () => {
  it("allows exactly the listed moves, each by its actor", () => {
    const allowed = LOAN_STATUSES.flatMap((from) =>
      LOAN_STATUSES.flatMap((to) =>
        (["borrower", "credit", "operations", "support", "finance", "compliance", "admin", "system"] as const)
          .filter((a) => canTransition(from, to, a))
          .map((a) => `${from}>${to}:${a}`),
      ),
    );
    expect(allowed.sort()).toEqual(
      [
        "draft>signed:borrower",
        "draft>cancelled:borrower",
        "signed>under_review:credit",
        "signed>under_review:admin",
        "signed>rejected:credit",
        "signed>rejected:admin",
        "signed>cancelled:borrower",
        // Back to the borrower for a fresh KFS when the credit policy now allows less than was signed.
        "signed>draft:credit",
        "signed>draft:admin",
        "signed>draft:system",
        "under_review>draft:credit",
        "under_review>draft:admin",
        "under_review>draft:system",
        "under_review>approved:credit",
        "under_review>approved:admin",
        "under_review>rejected:credit",
        "under_review>rejected:admin",
        "under_review>cancelled:borrower",
        "approved>active:system",
        "active>approved:system",
        "approved>cancelled:borrower",
        "active>closed:operations",
        "active>closed:admin",
        "active>closed:system",
        "active>cancelled:borrower",
        "active>cancelled:operations",
        "active>cancelled:admin",
        "active>cancelled:system",
        "active>written_off:admin",
        "closed>active:system",
        "cancelled>active:system",
      ].sort(),
    );
  });

  it("never lets a borrower approve, disburse or skip signing, nor support decide or credit disburse", () => {
    expect(canTransition("draft", "approved", "borrower")).toBe(false);
    expect(canTransition("signed", "approved", "borrower")).toBe(false);
    expect(canTransition("approved", "active", "borrower")).toBe(false);
    expect(canTransition("draft", "under_review", "credit")).toBe(false);
    expect(canTransition("under_review", "approved", "support")).toBe(false);
    expect(canTransition("approved", "active", "credit")).toBe(false);
    // Staff request a payout; only the provider's confirmation, applied by the system, activates the loan.
    expect(canTransition("approved", "active", "operations")).toBe(false);
    expect(canTransition("closed", "active", "admin")).toBe(false);
  });

  it("lets the borrower cancel from draft to approved only (cooling-off exit is its own flow)", () => {
    expect(LOAN_STATUSES.filter(borrowerCanCancel)).toEqual(["draft", "signed", "under_review", "approved"]);
  });
});

describe("references", () => {
  it("are 26 base32 characters (130 random bits), all different", () => {
    const refs = new Set(Array.from({ length: 2000 }, newReference));
    expect(refs.size).toBe(2000);
    for (const r of refs) expect(r).toMatch(/^[a-z2-7]{26}$/);
  });
  it("parse case-insensitively and refuse anything else", () => {
    expect(parseReference("ABCDEFGHIJKLMNOPQRSTUVWXYZ")).toBe("abcdefghijklmnopqrstuvwxyz");
    for (const bad of [undefined, "", "12", "abcdefghijklmnopqrstuvwxy1", "abcdefghijklmnopqrstuvwxyz2", "1"])
      expect(parseReference(bad)).toBeNull();
  });
  it("tell the kind from the path, whatever its case", () => {
    expect(kindOfPath("/User/newLoan/Emi/x/Step0")).toBe("emi");
    expect(kindOfPath("/user/newloan/salaryadvance")).toBe("salary_advance");
    expect(kindOfPath("/User/newLoan/Emi.data")).toBe("emi");
    expect(kindOfPath("/User/newLoan/Other")).toBeNull();
  });
});

describe("which step fits", () => {
  const draft = (over: Partial<FlowState> = {}): FlowState => ({
    status: "draft",
    termsSaved: false,
    detailsSaved: false,
    hasDocument: false,
    ...over,
  });
  it("goes in order and never skips a step", () => {
    expect(fittingStep(draft())).toBe("Step0");
    expect(fittingStep(draft({ termsSaved: true }))).toBe("Step1");
    expect(fittingStep(draft({ termsSaved: true, detailsSaved: true }))).toBe("Step5");
    expect(STEPS.filter((s) => stepAllowed(s, draft()))).toEqual(["Step0"]);
    expect(STEPS.filter((s) => stepAllowed(s, draft({ termsSaved: true, detailsSaved: true })))).toEqual(["Step0", "Step1", "Step5"]);
    expect(STEPS.filter((s) => stepAllowed(s, draft({ termsSaved: true, detailsSaved: true, hasDocument: true })))).toEqual([
      "Step0",
      "Step1",
      "Step5",
      "Step6",
    ]);
  });
  it("shows only Step7 once the application is submitted or closed", () => {
    for (const status of ["signed", "under_review", "cancelled", "rejected"] as const) {
      const s = draft({ status, termsSaved: true, detailsSaved: true, hasDocument: true });
      expect(STEPS.filter((step) => stepAllowed(step, s))).toEqual(["Step7"]);
      expect(fittingStep(s)).toBe("Step7");
    }
  });
});

describe("Step0's form", () => {
  const bounds = {
    kind: "emi" as const,
    minAmountPaise: 1_000_000,
    stepPaise: 100_000,
    maxAmountPaise: 30_000_000,
    maxByTenure: { 3: 5_000_000, 12: 20_000_000 },
    minTenure: 3,
    maxTenure: 36,
  };
  const parse = (v: Record<string, string>) => termsSchema(bounds).safeParse(v);
  it("accepts an amount on the steps within the offer for the tenure, typed the Indian way", () => {
    expect(parse({ amount: "1,50,000", tenure: "12" })).toMatchObject({
      success: true,
      data: { amountPaise: 15_000_000, tenureMonths: 12 },
    });
  });
  it("refuses, with the reason, amounts outside the offer or off the steps", () => {
    const message = (v: Record<string, string>) => {
      const r = parse(v);
      return r.success ? null : said(r.error.issues[0]?.message);
    };
    expect(message({ amount: "60000", tenure: "3" })).toBe("Choose an amount from ₹10,000 to ₹50,000 over 3 months.");
    expect(message({ amount: "5000", tenure: "12" })).toBe("Choose an amount from ₹10,000 to ₹2,00,000 over 12 months.");
    expect(message({ amount: "10500", tenure: "12" })).toBe("Choose an amount in steps of ₹1,000.");
    expect(message({ amount: "abc", tenure: "12" })).toBe("Enter the amount in rupees, like 50000.");
    expect(message({ amount: "50000", tenure: "37" })).toBe("Choose a tenure from 3 to 36 months.");
    expect(message({ amount: "", tenure: "12" })).toBe("Enter the amount you want to borrow.");
  });
});

describe("the KFS model", () => {
  const input = sampleKfsInput({ assumedDisbursalDate: "2026-01-31", amountPaise: 36_000_000 });
  it("prints the calculator's figures and every schedule line, with month-end due dates clamped", () => {
    const fee = processingFee(input.amountPaise, input.fees);
    const calc = calculate({ amountPaise: input.amountPaise, rateBps: 1800, months: 36, feePaise: fee.totalUpfrontPaise });
    const kfs = buildKfs(input, kfsWords("en"));
    expect(kfs.figures).toMatchObject({
      instalmentPaise: calc.emiPaise,
      aprPercent: calc.aprPercent,
      totalInterestPaise: calc.totalInterestPaise,
      netDisbursedPaise: calc.netDisbursedPaise,
      instalments: 36,
      firstDueDate: "2026-02-28",
      lastDueDate: "2029-01-31",
    });
    expect(kfs.schedule.rows).toHaveLength(36);
    expect(kfs.schedule.rows.at(-1)?.at(-1)).toBe("₹0");
    const part1 = Object.fromEntries(kfs.parts[0]?.rows ?? []);
    expect(part1["Annual Percentage Rate (APR)"]).toBe(`${calc.aprPercent.toFixed(2)}%`);
    expect(part1["Processing fee (payable to the lender)"]).toMatch(/^₹7,200 \+ GST ₹1,296 = ₹8,496 /);
    expect(part1["Loan proposal number"]).toBe("ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    expect(Object.fromEntries(kfs.parts[1]?.rows ?? [])["Grievance redressal"]).toContain("RBI Integrated Ombudsman");
  });
});
