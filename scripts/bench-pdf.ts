/**
 * PDF figures for `npm run bench`: the KFS + agreement of a 36-month EMI loan, signing it, and
 * keeping it in file storage (the data directory's, sealed) and reading it back as a request does.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildKfs } from "../app/domain/loans/kfs.ts";
import { keyringFromHex, sha256Bytes } from "../app/server/crypto.server.ts";
import { putBytes } from "../app/server/storage/put-bytes.server.ts";
import { pdfBytes } from "../app/server/storage/stored-pdf.server.ts";
import { createLocalStorage } from "../app/server/storage/storage.server.ts";
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
  const dir = mkdtempSync(path.join(tmpdir(), "bench-pdf-"));
  const storage = createLocalStorage(dir, keyringFromHex(randomBytes(32).toString("hex")));
  const storeMs: number[] = [];
  const readMs: number[] = [];
  const sha256 = sha256Bytes(signed);
  try {
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const { key } = await putBytes(storage, signed);
      storeMs.push(performance.now() - t);
      t = performance.now();
      await pdfBytes(storage, { bytes: null, key, sha256 });
      readMs.push(performance.now() - t);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const list of [renderMs, signMs, storeMs, readMs]) list.sort((a, b) => a - b);
  const figures = (list: number[], bytes: number) => ({ p50: percentile(list, 0.5), p95: percentile(list, 0.95), bytes });
  return {
    runs,
    render: figures(renderMs, pdf.byteLength),
    sign: figures(signMs, signed.byteLength),
    store: figures(storeMs, signed.byteLength),
    read: figures(readMs, signed.byteLength),
  };
}
