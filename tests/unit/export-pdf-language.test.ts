import { extractText } from "unpdf";
import { describe, expect, it } from "vitest";
import { cellText, columnLabel } from "../../app/domain/privacy/export-format.ts";
import type { Language } from "../../app/i18n/languages.ts";
import type { BorrowerExport } from "../../app/server/privacy/export.server.ts";
import { renderExportPdf } from "../../app/server/privacy/export-pdf.server.ts";
import { englishWords } from "../helpers/english.ts";
import { sampleKfsInput } from "../fixtures/kfs.ts";

// "Download my data"'s PDF in each language (the catalogue's dataExport namespace): the same
// values, the words around them in the request's language.
const pdfText = async (bytes: Uint8Array) => ((await extractText(bytes.slice(), { mergePages: true })).text as string).replace(/\s+/g, " ");

const data: BorrowerExport = {
  generatedAt: "2026-03-16T05:30:00.000Z",
  borrower: { name: "Neha Gupta", mobile: "9810000001" },
  sections: [
    {
      table: "users",
      label: "Your account",
      item: "mobile",
      rows: [{ mobile: "9810000001", name: "Neha Gupta", role: "borrower", mobile_verified_at: "2026-03-02T05:30:00.000Z", quirk: "kept" }],
    },
    {
      table: "consents",
      label: "Your consents",
      item: "mobile",
      rows: [
        { purpose: "credit_report", granted: true, created_at: "2026-03-02T05:30:00.000Z" },
        { purpose: "marketing", granted: false, created_at: "2026-03-03T05:30:00.000Z" },
      ],
    },
    {
      table: "loan_instalments",
      label: "Your repayment schedules",
      item: "mobile",
      rows: [{ seq: 1, due_date: "2026-04-02", amount_paise: 1_00_000_00, rate_bps: 1800 }],
    },
    { table: "tickets", label: "Your help tickets and complaints", item: "mobile", rows: [] },
  ],
  recipients: [{ kind: "sms_gateway", name: "local", firstAt: "2026-03-02T05:30:00.000Z", lastAt: "2026-03-03T05:30:00.000Z" }],
};

const render = (language: Language) => renderExportPdf(data, { brandName: "Sugam Loans", lender: sampleKfsInput().lender }, language);

describe("the data export PDF in the request's language", () => {
  it("writes English as before", async () => {
    const text = await pdfText(await render("en"));
    for (const words of [
      "Your personal data",
      "Prepared for Neha Gupta, mobile 9810000001, on 16 Mar 2026, 11:00 am.",
      "Amounts are in rupees.",
      "Your consents",
      "2 records",
      "1 record",
      "We hold nothing about you in these sections:",
      "Your help tickets and complaints",
      "Mobile number verified",
      "2 Apr 2026",
      "₹1,00,000",
      "18.00%",
      "Yes",
      "No",
      "The SMS gateway",
      "Who we shared your data with",
      "Page 1 of",
    ])
      expect(text).toContain(words);
    expect(text).not.toMatch(/[\u0900-\u097F]/);
  });

  it("writes Hindi around the same values, with no English but the borrower's own values", async () => {
    const text = await pdfText(await render("hi"));
    for (const words of [
      "आपकी निजी जानकारी",
      "Neha Gupta",
      "16 मार्च 2026",
      "आपकी सहमतियाँ",
      "2 रिकॉर्ड",
      "मोबाइल नंबर की पुष्टि",
      "2 अप्रैल 2026",
      "₹1,00,000",
      "18.00%",
      "हाँ",
      "नहीं",
      "SMS गेटवे",
      "हमने आपका डेटा किसके साथ साझा किया",
      "पेज 1 /",
    ])
      expect(text).toContain(words);
    // The stored values (a column the catalogue does not name keeps its database name), the brand and the lender.
    const own = [
      "Neha Gupta",
      "borrower",
      "credit_report",
      "marketing",
      "quirk",
      "kept",
      "local",
      "Sugam Loans",
      sampleKfsInput().lender.name,
    ];
    expect(englishWords(text, own)).toEqual([]);
  });

  it("reads values in the language given, English by default", () => {
    const hi = { language: "hi" as const, yes: "हाँ", no: "नहीं", shortened: "(छोटा किया गया)" };
    expect(cellText("granted", true, 1500, hi)).toBe("हाँ");
    expect(cellText("due_date", "2026-04-02", 1500, hi)).toBe("2 अप्रैल 2026");
    expect(cellText("created_at", "2026-03-02T05:30:00.000Z", 1500, hi)).toBe("2 मार्च 2026, 11:00 am");
    expect(cellText("amount_paise", 1_00_000_00, 1500, hi)).toBe("₹1,00,000");
    expect(cellText("body", "x".repeat(50), 10, hi)).toBe("xxxxxxxxxx… (छोटा किया गया)");
    expect(cellText("granted", true)).toBe("Yes");
    expect(columnLabel("net_monthly_income_paise")).toBe("Net monthly income");
  });
});
