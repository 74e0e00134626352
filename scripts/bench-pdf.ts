/** PDF figures for `npm run bench`: the KFS + agreement of a 36-month EMI loan, and signing it. */
import { buildKfs } from "../app/domain/loans/kfs.ts";
import { kfsWords } from "../app/server/loans/kfs-words.server.ts";
import { sampleKfsInput } from "../tests/fixtures/kfs.ts";
import { appendSignaturePage, renderAgreementPdf } from "../app/server/pdf/pdf.server.ts";

const input = sampleKfsInput();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

export async function pdfBench(runs = 40) {
  const at = new Date("2026-11-23T05:00:00Z");
  await renderAgreementPdf(input, buildKfs(input, kfsWords("en")), at); // load fonts, warm up
  const renderMs: number[] = [];
  const signMs: number[] = [];
  let pdf: Uint8Array = new Uint8Array();
  let signed: Uint8Array = new Uint8Array();
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    pdf = await renderAgreementPdf(input, buildKfs(input, kfsWords("en")), at);
    renderMs.push(performance.now() - t);
    t = performance.now();
    signed = await appendSignaturePage(pdf, {
      name: "Neha Gupta",
      mobileMasked: "XXXXXX0001",
      signedAt: at,
      ip: "203.0.113.7",
      userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/130",
      shownSha256: "0".repeat(64),
      reference: input.reference,
      brandName: input.brandName,
      lenderName: input.lender.name,
      language: "en",
    });
    signMs.push(performance.now() - t);
  }
  renderMs.sort((a, b) => a - b);
  signMs.sort((a, b) => a - b);
  return {
    runs,
    render: { p50: percentile(renderMs, 0.5), p95: percentile(renderMs, 0.95), bytes: pdf.byteLength },
    sign: { p50: percentile(signMs, 0.5), p95: percentile(signMs, 0.95), bytes: signed.byteLength },
  };
}
