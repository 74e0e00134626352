import { extractText } from "unpdf";
import { describe, expect, it } from "vitest";
import { buildKfs, type KfsInput } from "../../app/domain/loans/kfs.ts";
import { kfsWords } from "../../app/server/loans/kfs-words.server.ts";
import { appendSignaturePage, renderAgreementPdf, renderRevisedKfsPdf } from "../../app/server/pdf/pdf.server.ts";
import type { Language } from "../../app/i18n/languages.ts";
import { sampleKfsInput } from "../fixtures/kfs.ts";

const pdfText = async (bytes: Uint8Array) => (await extractText(bytes.slice(), { mergePages: true })).text as string;
const at = new Date("2026-11-23T05:00:00Z");

/** Every ₹ amount and percentage, in order. */
const money = (text: string) => text.match(/₹\d+(?:,\d+)*(?:\.\d\d)?|\d+(?:\.\d+)?%/g) ?? [];
/** The numbers that are not part of a date ("24 नवंबर 2026" / "24 Nov 2026") or a page number, in order (pages break elsewhere). */
const numbers = (text: string) =>
  (
    text
      .replace(/Page \d+ of \d+|पेज \d+ \/ \d+/g, " ")
      .replace(/\b\d{1,2} (?:\p{L}|\p{M})+ \d{4}\b/gu, " DATE ")
      .match(/\d+(?:[,.]\d+)*/g) ?? []
  ).filter((n) => !/^20\d\d$/.test(n));

const advance = (): KfsInput =>
  sampleKfsInput({ kind: "salary_advance", tenureMonths: null, rateBps: 10, salaryDay: 5, amountPaise: 2_000_000 });

async function agreement(input: KfsInput, language: Language) {
  return pdfText(await renderAgreementPdf(input, buildKfs(input, kfsWords(language)), at));
}

describe("the KFS and agreement PDF in Hindi", () => {
  for (const [name, input] of [
    ["EMI loan", sampleKfsInput()],
    ["salary advance", advance()],
  ] as const) {
    it(`has the English one's figures: amounts and percentages in the same order (${name})`, async () => {
      const en = await agreement(input, "en");
      const hi = await agreement(input, "hi");
      expect(money(en).length).toBeGreaterThan(20);
      expect(money(hi)).toEqual(money(en));
      // Every other number too (Hindi word order may put a count after an amount within a sentence).
      expect(numbers(hi).sort()).toEqual(numbers(en).sort());
      // Written in Hindi, with its dates in Hindi.
      expect(hi).toContain("किस्तों की सूची");
      expect(hi).toContain("लोन अनुबंध");
      expect(hi).toMatch(/\d{1,2} नवंबर 2026/);
      expect(hi).not.toContain("Repayment schedule");
    });
  }

  it("keeps the English document in English", async () => {
    const en = await agreement(sampleKfsInput(), "en");
    expect(en).toContain("Repayment schedule");
    expect(en).toContain("Loan agreement");
    expect(en).not.toMatch(/[\u0900-\u097F]/);
  });

  it("signs in the document's language, and a revised KFS keeps the figures", async () => {
    const input = sampleKfsInput();
    const pdf = await renderAgreementPdf(input, buildKfs(input, kfsWords("hi")), at);
    const signed = await appendSignaturePage(pdf, {
      name: "Neha Gupta",
      mobileMasked: "XXXXXX0001",
      signedAt: at,
      ip: "203.0.113.7",
      userAgent: "UA",
      shownSha256: "0".repeat(64),
      reference: input.reference,
      brandName: input.brandName,
      lenderName: input.lender.name,
      language: "hi",
    });
    const text = await pdfText(signed);
    expect(text).toContain("इलेक्ट्रॉनिक हस्ताक्षर");
    expect(text).toContain("23 नवंबर 2026");
    const revisedInput = { ...input, assumedDisbursalDate: "2026-11-26", disbursedOn: "2026-11-26" };
    const revised = async (language: Language) =>
      pdfText(await renderRevisedKfsPdf(revisedInput, buildKfs(revisedInput, kfsWords(language)), "2026-11-23", at));
    expect(money(await revised("hi"))).toEqual(money(await revised("en")));
  });
});
