import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRupees } from "../../app/domain/money.ts";

const wholeRupees = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });
const withPaise = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 2 });
/** Intl's en-IN rupee format: what formatRupees must say. */
const intl = (paise: number) => (paise % 100 === 0 ? wholeRupees.format(paise / 100) : withPaise.format(paise / 100));

describe("formatRupees", () => {
  it("says what Intl's en-IN rupee format says, for any integer paise", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -10_00_000_00, max: 10_00_000_00 }), fc.integer({ min: -1e12, max: 1e12 }), fc.integer()),
        (paise) => {
          expect(formatRupees(paise)).toBe(intl(paise));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it("groups in lakhs and crores, and shows paise only when there are some", () => {
    expect(formatRupees(0)).toBe("₹0");
    expect(formatRupees(5)).toBe("₹0.05");
    expect(formatRupees(1_725)).toBe("₹17.25");
    expect(formatRupees(1_00_000_00)).toBe("₹1,00,000");
    expect(formatRupees(1_23_45_678_90)).toBe("₹1,23,45,678.90");
    expect(formatRupees(-50_000)).toBe("-₹500");
    expect(formatRupees(1e12)).toBe("₹10,00,00,00,000");
  });

  it("leaves what is not integer paise to Intl", () => {
    for (const odd of [-0, 0.5, 1_725.5, 1e12 + 1, -1e12 - 1, Number.MAX_SAFE_INTEGER]) expect(formatRupees(odd)).toBe(intl(odd));
  });
});
