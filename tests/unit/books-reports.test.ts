import { describe, expect, it } from "vitest";
import { csvCell } from "../../app/domain/audit.ts";
import { DEFAULT_CHART } from "../../app/domain/books/chart.ts";
import {
  chartChanges,
  journalFilterQuery,
  monthLabel,
  nextMonth,
  parseJournalFilter,
  parseOn,
  parseRange,
  previousMonth,
  rupeesText,
  sameRule,
  tallyVoucher,
  xmlText,
} from "../../app/domain/books/reports.ts";

// The finance pages' pure rules (docs/product.md "The lender's books"): amounts in files, the
// URL's filters, Tally's vouchers and the rules' history in words.
describe("the books' reports, pure", () => {
  it("writes paise as rupees with two decimals and no grouping", () => {
    expect([0, 5, 100, 123456, -5, -1234500].map(rupeesText)).toEqual(["0.00", "0.05", "1.00", "1234.56", "-0.05", "-12345.00"]);
  });

  it("keeps a negative number a number in a CSV cell, and a formula text", () => {
    expect(csvCell("-12.50")).toBe("-12.50");
    expect(csvCell("-1+1")).toBe("'-1+1");
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell('-2,"x"')).toBe(`"'-2,""x"""`);
  });

  it("reads the date of a trial balance and a period from the URL, with a reason beside a field not understood", () => {
    expect(parseOn(new URLSearchParams("on=2026-03-31"), "2026-06-15")).toEqual({ on: "2026-03-31", problems: {} });
    expect(parseOn(new URLSearchParams("on=31/03/2026"), "2026-06-15").problems.on).toContain("is not a date");
    expect(parseRange(new URLSearchParams(""), "2026-06-15").range).toEqual({ from: "2026-06-01", to: "2026-06-15" });
    expect(parseRange(new URLSearchParams("to=2026-02-10"), "2026-06-15").range).toEqual({ from: "2026-02-01", to: "2026-02-10" });
    const swapped = parseRange(new URLSearchParams("from=2026-05-31&to=2026-05-01&page=3"), "2026-06-15");
    expect(swapped).toMatchObject({ range: { from: "2026-05-01", to: "2026-05-31" }, page: 3 });
    expect(swapped.problems.to).toContain("swapped");
  });

  it("reads the journal's filters: a loan number in any case, an amount in rupees, a kind", () => {
    const { filter, problems } = parseJournalFilter(new URLSearchParams("loan=sl12345678&amount=1,250.5&kind=payment&text=%20fee%20"));
    expect(problems).toEqual({});
    expect(filter).toMatchObject({ loan: "SL12345678", amountPaise: 125050, kind: "payment", text: "fee", page: 1 });
    expect(journalFilterQuery(filter, 2)).toBe("kind=payment&loan=SL12345678&amount=1250.50&text=fee&page=2");
    const bad = parseJournalFilter(new URLSearchParams("loan=12345678&amount=0&kind=DROP%20TABLE"));
    expect(Object.keys(bad.problems).sort()).toEqual(["amount", "kind", "loan"]);
    expect(bad.filter).toMatchObject({ loan: null, amountPaise: null, kind: null });
  });

  it("names months and steps between them", () => {
    expect(monthLabel("2026-03")).toBe("March 2026");
    expect([nextMonth("2026-12"), previousMonth("2026-01")]).toEqual(["2027-01", "2025-12"]);
  });

  it("writes an entry as a Tally journal voucher: debits deemed positive with a negative amount, everything escaped", () => {
    const xml = tallyVoucher({
      entryNo: 42,
      entryDate: "2026-03-05",
      narration: 'Fee & GST <"SL12345678">\u0007',
      lines: [
        { ledger: "Bank: collection account", paise: 11800 },
        { ledger: "Processing-fee income", paise: -10000 },
        { ledger: "CGST & SGST payable", paise: -1800 },
      ],
    });
    expect(xml).toContain('<VOUCHER VCHTYPE="Journal" ACTION="Create" OBJVIEW="Accounting Voucher View">');
    expect(xml).toContain("<DATE>20260305</DATE>");
    expect(xml).toContain("<VOUCHERNUMBER>42</VOUCHERNUMBER>");
    expect(xml).toContain("<NARRATION>Fee &amp; GST &lt;&quot;SL12345678&quot;&gt;</NARRATION>");
    expect(xml).toContain(
      "<LEDGERNAME>Bank: collection account</LEDGERNAME>\r\n<ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE>\r\n<AMOUNT>-118.00</AMOUNT>",
    );
    expect(xml).toContain(
      "<LEDGERNAME>CGST &amp; SGST payable</LEDGERNAME>\r\n<ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE>\r\n<AMOUNT>18.00</AMOUNT>",
    );
    expect(xmlText("a'b")).toBe("a&apos;b");
  });

  it("says what a version of the chart changed, and knows a version that changes nothing", () => {
    const renamed = DEFAULT_CHART.map((a) => (a.purpose === "bank" ? { ...a, code: "1210", name: "Bank: HDFC" } : a));
    expect(chartChanges(DEFAULT_CHART, renamed)).toEqual([
      "Bank: collection account: code 1201 → 1210",
      "1210: “Bank: collection account” → “Bank: HDFC”",
    ]);
    expect(sameRule("chart", DEFAULT_CHART, [...DEFAULT_CHART].reverse())).toBe(true);
    expect(sameRule("chart", DEFAULT_CHART, renamed)).toBe(false);
    expect(sameRule("framework", { framework: "ind_as", lenderState: "Goa" }, { lenderState: "Goa", framework: "ind_as" })).toBe(true);
  });
});
