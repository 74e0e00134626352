import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addMonths, type IsoDate } from "../../app/domain/loan-math.ts";
import { mandateTerms, UPI_AUTOPAY_MAX_PAISE } from "../../app/domain/loans/mandate.ts";

describe("the mandate a loan asks for", () => {
  it("is at most 1.5 × the instalment a debit, UPI AutoPay up to ₹15,000 and e-NACH above, until 3 months after the last due date", () => {
    // A ₹1,00,000 loan's EMI of ₹9,168: at most ₹13,752, UPI AutoPay.
    expect(mandateTerms({ instalmentPaise: 916_800, lastDueDate: "2027-03-05", today: "2026-04-02" })).toEqual({
      kind: "upi_autopay",
      maxAmountPaise: 1_375_200,
      startDate: "2026-04-02",
      endDate: "2027-06-05",
    });
    // ₹10,000 × 1.5 is exactly ₹15,000: still UPI AutoPay; a paisa more is e-NACH.
    expect(mandateTerms({ instalmentPaise: 1_000_000, lastDueDate: "2026-05-31", today: "2026-04-02" }).kind).toBe("upi_autopay");
    expect(mandateTerms({ instalmentPaise: 1_000_001, lastDueDate: "2026-05-31", today: "2026-04-02" })).toMatchObject({
      kind: "enach",
      maxAmountPaise: 1_500_002,
      endDate: "2026-08-31",
    });
    // Three months after a month's last day is that later month's last day.
    expect(mandateTerms({ instalmentPaise: 100, lastDueDate: "2026-11-30", today: "2026-04-02" }).endDate).toBe("2027-02-28");
    expect(mandateTerms({ instalmentPaise: 100, lastDueDate: "2027-11-30", today: "2026-04-02" }).endDate).toBe("2028-02-29");
    // An odd number of paise rounds up: the mandate never falls short of 1.5 × the instalment.
    expect(mandateTerms({ instalmentPaise: 3, lastDueDate: "2026-05-31", today: "2026-04-02" }).maxAmountPaise).toBe(5);
  });

  it("covers 1.5 × any instalment by less than a paisa over, and its kind follows the ₹15,000 line", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_00_000_00 }),
        fc.date({ min: new Date("2026-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }),
        (instalmentPaise, last) => {
          const lastDueDate = last.toISOString().slice(0, 10) as IsoDate;
          const t = mandateTerms({ instalmentPaise, lastDueDate, today: "2026-01-01" });
          expect(t.maxAmountPaise * 2).toBeGreaterThanOrEqual(instalmentPaise * 3);
          expect(t.maxAmountPaise * 2 - instalmentPaise * 3).toBeLessThan(2);
          expect(t.kind).toBe(t.maxAmountPaise <= UPI_AUTOPAY_MAX_PAISE ? "upi_autopay" : "enach");
          expect(t.endDate).toBe(addMonths(lastDueDate, 3));
        },
      ),
    );
  });
});
