import { extractText } from "unpdf";
import { describe, expect, it } from "vitest";
import type { Language } from "../../app/i18n/languages.ts";
import { sampleKfsInput } from "../fixtures/kfs.ts";
import { type LoanFacts, renderClosureLetterPdf, renderReminderLetterPdf } from "../../app/server/pdf/servicing-pdf.server.ts";

const pdfText = async (bytes: Uint8Array) => (await extractText(bytes.slice(), { mergePages: true })).text as string;
const money = (text: string) => text.match(/₹ ?\d+(?:,\d+)*(?:\.\d\d)?|\d+(?:\.\d+)?%/g) ?? [];
const at = new Date("2026-12-01T05:00:00Z");

const facts = (language: Language): LoanFacts => ({
  brandName: "Sugam Loans",
  lender: sampleKfsInput().lender,
  borrowerName: "Neha Gupta",
  loanNumber: "SL2611000123",
  kindName: language === "hi" ? "EMI लोन" : "EMI loan",
  principalPaise: 10_000_000,
  termsText: "18.00%",
  disbursalDate: "2026-11-24",
  language,
});

const letters = (language: Language) =>
  Promise.all([
    renderClosureLetterPdf(
      facts(language),
      {
        on: "2026-11-26",
        how: "cooling_off",
        totalPaidPaise: 9_850_000,
        interestPaidPaise: 10_000,
        penalPaidPaise: 0,
        refundPaise: 500,
        coolingOffDays: 3,
        feeReturnedPaise: 150_000,
      },
      at,
    ),
    renderReminderLetterPdf(
      facts(language),
      {
        sentOn: "2026-12-10",
        dpd: 7,
        amountPaise: 916_800,
        payLink: "https://example.invalid/pay",
        grievanceLink: "https://example.invalid/help",
      },
      at,
    ),
  ]).then((pdfs) => Promise.all(pdfs.map(pdfText)));

describe("the servicing letters in the borrower's language", () => {
  it("write Hindi for a Hindi borrower with the English letters' figures", async () => {
    const [en, hi] = await Promise.all([letters("en"), letters("hi")]);
    for (const [i, text] of hi.entries()) {
      expect(money(text)).toEqual(money(en[i] as string));
      expect(text).toMatch(/\d{1,2} (नवंबर|दिसंबर) 2026/);
    }
    expect(hi[0]).toContain("सोचने की अवधि (कूलिंग-ऑफ़) में रद्द किया गया लोन");
    expect(hi[1]).toContain("याद दिलाना: भुगतान बकाया है");
    expect(hi[1]).toContain("https://example.invalid/pay");
    expect(en[1]).toContain("Reminder: payment overdue");
    expect(en.join(" ")).not.toMatch(/[\u0900-\u097F]/);
  });
});
