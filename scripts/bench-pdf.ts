/** PDF figures for `npm run bench`: the KFS + agreement of a 36-month EMI loan, and signing it. */
import { buildKfs, type KfsInput } from "../app/domain/loans/kfs.ts";
import { appendSignaturePage, renderAgreementPdf } from "../app/server/pdf/pdf.server.ts";

const input: KfsInput = {
  kind: "emi",
  reference: "abcdefghijklmnopqrstuvwxyz",
  brandName: "Sugam Loans",
  lender: {
    name: "Demo NBFC Ltd",
    rbiRegistration: "N-00.00000",
    cin: "U00000KA2026PLC000000",
    address: "Demo House, 1 Example Road, Bengaluru 560001",
    grievanceOfficer: { name: "A. Demo", phone: "+91 80 0000 0000", email: "grievance@example.invalid" },
  },
  borrower: { name: "Neha Gupta", panMasked: "XXXXXX321K", mobileMasked: "XXXXXX0001", address: "Kolkata, West Bengal 700016" },
  issuedOn: "2026-11-23",
  validUntil: "2026-11-26",
  assumedDisbursalDate: "2026-11-24",
  amountPaise: 50_000_000,
  tenureMonths: 36,
  rateBps: 1800,
  fees: { feeBps: 200, minFeePaise: 49_900, gstBps: 1800 },
  penalChargePaise: 50_000,
  coolingOffDays: 3,
  salaryDay: null,
  purpose: "Education",
  disbursalAccount: { holderName: "Neha Gupta", accountMasked: "XXXXXXXXXX5678", ifsc: "HDFC0000001", bankName: "HDFC Bank" },
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

export async function pdfBench(runs = 40) {
  const at = new Date("2026-11-23T05:00:00Z");
  await renderAgreementPdf(input, buildKfs(input), at); // load fonts, warm up
  const renderMs: number[] = [];
  const signMs: number[] = [];
  let pdf: Uint8Array = new Uint8Array();
  let signed: Uint8Array = new Uint8Array();
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    pdf = await renderAgreementPdf(input, buildKfs(input), at);
    renderMs.push(performance.now() - t);
    t = performance.now();
    signed = await appendSignaturePage(pdf, {
      name: "Neha Gupta",
      mobileMasked: "XXXXXX0001",
      signedAt: at,
      signedAtText: "23 Nov 2026, 10:30 am",
      ip: "203.0.113.7",
      userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/130",
      shownSha256: "0".repeat(64),
      reference: input.reference,
      brandName: input.brandName,
      lenderName: input.lender.name,
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
