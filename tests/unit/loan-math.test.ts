import fc from "fast-check";
import { irr, pmt } from "financial";
import { describe, expect, it } from "vitest";
import {
  addMonths,
  addWorkingDays,
  aprPercent,
  daysBetween,
  emiQuote,
  emiSchedule,
  foreclosureQuote,
  isWorkingDay,
  monthlyInterestPaise,
  processingFee,
  salaryAdvanceQuote,
  salaryRepaymentDate,
  singlePaymentAprPercent,
} from "../../app/domain/loan-math.ts";

describe("EMI schedule (docs/product.md, Money, dates and the loan math)", () => {
  it("matches the worked example: ₹100 at 12% for 6 months", () => {
    const loan = emiSchedule({ principalPaise: 10_000, annualRateBps: 1200, months: 6 });
    expect(loan.emiPaise).toBe(1725);
    expect(loan.schedule.map((l) => l.paymentPaise)).toEqual([1725, 1725, 1725, 1725, 1725, 1728]);
    expect(loan.totalInterestPaise).toBe(353);
    expect(loan.schedule.at(-1)?.closingPaise).toBe(0);
  });

  it("rounds an EMI that is exactly half a paisa up, despite float error", () => {
    // ₹11,214 at 3% for 2 months: the exact EMI is 5,628.035 rupees (562,803.5 paise).
    expect(emiSchedule({ principalPaise: 1_121_400, annualRateBps: 300, months: 2 }).emiPaise).toBe(562_804);
  });

  it("rounds each month's interest half-up to the paisa", () => {
    expect(monthlyInterestPaise(8375, 1200)).toBe(84); // 83.75
    expect(monthlyInterestPaise(250, 1200)).toBe(3); // 2.5 → 3
    expect(monthlyInterestPaise(249, 1200)).toBe(2); // 2.49
  });

  it("handles 0%: P/n with the last instalment absorbing the remainder", () => {
    const loan = emiSchedule({ principalPaise: 1_000_000, annualRateBps: 0, months: 3 });
    expect(loan.emiPaise).toBe(333_333);
    expect(loan.schedule.map((l) => l.paymentPaise)).toEqual([333_333, 333_333, 333_334]);
    expect(loan.totalInterestPaise).toBe(0);
  });

  it("puts due dates one calendar month apart, clamped to the month's end", () => {
    const loan = emiSchedule({ principalPaise: 1_000_000, annualRateBps: 1800, months: 4, disbursalDate: "2026-01-31" });
    expect(loan.schedule.map((l) => l.dueDate)).toEqual(["2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]);
    expect(addMonths("2027-12-29", 2)).toBe("2028-02-29");
  });
});

const loanArb = fc.record({
  principalPaise: fc.integer({ min: 10_000, max: 5_000_000 }).map((r) => r * 100),
  annualRateBps: fc.integer({ min: 0, max: 3600 }),
  months: fc.integer({ min: 3, max: 360 }),
});

describe("schedule properties over random loans", () => {
  it("principal parts sum to the amount, the last balance is 0, each interest is the rounded opening × r", () => {
    fc.assert(
      fc.property(loanArb, ({ principalPaise, annualRateBps, months }) => {
        const { schedule } = emiSchedule({ principalPaise, annualRateBps, months });
        expect(schedule.reduce((s, l) => s + l.principalPaise, 0)).toBe(principalPaise);
        expect(schedule.at(-1)?.closingPaise).toBe(0);
        for (const line of schedule) {
          expect(line.interestPaise).toBe(Math.floor((line.openingPaise * annualRateBps) / 120_000 + 0.5 + 1e-9));
          expect(line.closingPaise).toBe(line.openingPaise - line.principalPaise);
          expect(line.principalPaise).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("APR ≥ the nominal rate with fees; within 0.01 of it without; the APR discounts the payments back to the net", () => {
    fc.assert(
      fc.property(loanArb, fc.integer({ min: 0, max: 500 }), ({ principalPaise, annualRateBps, months }, feeBps) => {
        const upfront = Math.floor((principalPaise * feeBps) / 10_000);
        const quote = emiQuote({ principalPaise, annualRateBps, months, upfrontPaise: upfront });
        const nominal = annualRateBps / 100;
        if (upfront > 0) expect(quote.aprPercent).toBeGreaterThanOrEqual(nominal - 0.005);
        else expect(Math.abs(quote.aprPercent - nominal)).toBeLessThanOrEqual(0.01);
        // Discount at the unrounded IRR behind the APR: back to the net within a paisa per instalment.
        const x = quote.aprPercent / 1200;
        let pv = 0;
        quote.schedule.forEach((l, i) => (pv += l.paymentPaise / (1 + x) ** (i + 1)));
        const tolerance = months * 1 + (quote.netDisbursedPaise * 0.00005 * months) / 12; // APR is rounded to 0.01%
        expect(Math.abs(pv - quote.netDisbursedPaise)).toBeLessThanOrEqual(tolerance);
      }),
      { numRuns: 200 },
    );
  });

  it("agrees with Excel-compatible PMT and IRR (the `financial` package)", () => {
    fc.assert(
      fc.property(
        loanArb.filter((l) => l.annualRateBps > 0),
        fc.integer({ min: 0, max: 400 }),
        (loan, feeBps) => {
          const r = loan.annualRateBps / 120_000;
          const excelEmi = -pmt(r, loan.months, loan.principalPaise);
          const quote = emiQuote({ ...loan, upfrontPaise: Math.floor((loan.principalPaise * feeBps) / 10_000) });
          expect(Math.abs(quote.emiPaise - excelEmi)).toBeLessThanOrEqual(0.5 + 1e-6);
          const excelIrr = irr([-quote.netDisbursedPaise, ...quote.schedule.map((l) => l.paymentPaise)], r, 1e-12, 200);
          expect(Math.abs(quote.aprPercent - excelIrr * 1200)).toBeLessThanOrEqual(0.006);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("APR", () => {
  it("is 12 × the monthly IRR of the net disbursal and the instalments", () => {
    // ₹1,00,000 at 18% for 12 months, ₹2,360 upfront (2% fee + 18% GST).
    const quote = emiQuote({ principalPaise: 10_000_000, annualRateBps: 1800, months: 12, upfrontPaise: 236_000 });
    expect(quote.emiPaise).toBe(916_800); // ₹9,167.999 rounds to ₹9,168.00
    expect(quote.netDisbursedPaise).toBe(9_764_000);
    expect(quote.aprPercent).toBeGreaterThan(22);
    expect(quote.aprPercent).toBeLessThan(23);
    expect(aprPercent(10_000, [10_100])).toBe(12);
  });
});

describe("fees", () => {
  it("charges the percentage with a minimum, plus GST", () => {
    const emiTerms = { feeBps: 200, minFeePaise: 49_900, gstBps: 1800 };
    expect(processingFee(10_000_000, emiTerms)).toEqual({ feePaise: 200_000, gstPaise: 36_000, totalUpfrontPaise: 236_000 });
    expect(processingFee(1_000_000, emiTerms)).toEqual({ feePaise: 49_900, gstPaise: 8_982, totalUpfrontPaise: 58_882 });
  });
});

describe("salary advance", () => {
  it("repays on the next salary date 7 or more days away", () => {
    expect(salaryRepaymentDate("2026-11-22", 1)).toBe("2026-12-01");
    expect(salaryRepaymentDate("2026-11-26", 1)).toBe("2027-01-01"); // 5 days away: the one after
    expect(salaryRepaymentDate("2026-01-20", 31)).toBe("2026-01-31");
    expect(salaryRepaymentDate("2026-01-28", 31)).toBe("2026-02-28"); // clamped
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3650 }), fc.integer({ min: 1, max: 31 }), (offset, day) => {
        const d = new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
        const days = daysBetween(d, salaryRepaymentDate(d, day));
        expect(days).toBeGreaterThanOrEqual(7);
        expect(days).toBeLessThanOrEqual(45);
      }),
    );
  });

  it("charges simple interest per day and states the APR", () => {
    const quote = salaryAdvanceQuote({
      principalPaise: 2_000_000,
      dailyRateBps: 8,
      disbursalDate: "2026-11-22",
      salaryDay: 7,
      fees: { feeBps: 300, minFeePaise: 0, gstBps: 1800 },
    });
    expect(quote.repaymentDate).toBe("2026-12-07");
    expect(quote.days).toBe(15);
    expect(quote.interestPaise).toBe(24_000); // ₹20,000 × 0.08% × 15
    expect(quote.fees.totalUpfrontPaise).toBe(70_800);
    expect(quote.netDisbursedPaise).toBe(1_929_200);
    expect(quote.aprPercent).toBe(singlePaymentAprPercent(2_024_000, 1_929_200, 15));
  });
});

describe("foreclosure", () => {
  it("quotes outstanding principal, interest since the last due date, dues and penal charges", () => {
    const loan = emiSchedule({ principalPaise: 10_000_000, annualRateBps: 1800, months: 12, disbursalDate: "2026-01-10" });
    const quote = foreclosureQuote({
      schedule: loan.schedule,
      principalPaise: 10_000_000,
      disbursalDate: "2026-01-10",
      annualRateBps: 1800,
      asOf: "2026-03-20",
      unpaidDuesPaise: 0,
      unpaidPenalPaise: 50_000,
    });
    const after2 = loan.schedule[1]?.closingPaise ?? 0;
    expect(quote.outstandingPrincipalPaise).toBe(after2);
    expect(quote.daysSinceLastDue).toBe(10);
    expect(quote.accruedInterestPaise).toBe(Math.floor((after2 * 1800 * 10) / 3_650_000 + 0.5));
    expect(quote.totalPaise).toBe(after2 + quote.accruedInterestPaise + 50_000);
  });
});

describe("working days", () => {
  it("skips weekends and configured holidays", () => {
    expect(isWorkingDay("2026-11-21")).toBe(false); // Saturday
    expect(isWorkingDay("2026-11-23")).toBe(true);
    expect(addWorkingDays("2026-11-20", 1)).toBe("2026-11-23");
    expect(addWorkingDays("2026-11-20", 3, ["2026-11-24"])).toBe("2026-11-26");
  });
});

describe("prepayment what-if", () => {
  it("reducing the tenure keeps the EMI, ends sooner and saves interest", async () => {
    const { prepaymentWhatIf } = await import("../../app/domain/loan-math.ts");
    const loan = { principalPaise: 50_000_000, annualRateBps: 1400, months: 36 };
    const base = emiSchedule(loan);
    const result = prepaymentWhatIf(loan, { afterInstalment: 6, amountPaise: 10_000_000, reduce: "tenure" });
    expect(result.newEmiPaise).toBe(base.emiPaise);
    expect(result.months).toBeLessThan(36);
    expect(result.interestSavedPaise).toBeGreaterThan(0);
    expect(result.schedule.reduce((s, l) => s + l.principalPaise, 0)).toBe(loan.principalPaise);
    expect(result.schedule.at(-1)?.closingPaise).toBe(0);
  });

  it("reducing the EMI keeps the tenure with a smaller EMI", async () => {
    const { prepaymentWhatIf } = await import("../../app/domain/loan-math.ts");
    const loan = { principalPaise: 50_000_000, annualRateBps: 1400, months: 36 };
    const result = prepaymentWhatIf(loan, { afterInstalment: 6, amountPaise: 10_000_000, reduce: "emi" });
    expect(result.months).toBe(36);
    expect(result.newEmiPaise).toBeLessThan(emiSchedule(loan).emiPaise);
    expect(result.interestSavedPaise).toBeGreaterThan(0);
    expect(result.schedule.reduce((s, l) => s + l.principalPaise, 0)).toBe(loan.principalPaise);
  });
});
