// Devanagari in the PDFs is shaped by HarfBuzz (app/server/pdf/shaped-font.server.ts). This draws a
// set of conjuncts, reph, pre-base vowel signs and stacked forms into a PDF, draws its page with
// PDF.js (unpdf + @napi-rs/canvas, as the Step5 preview does), draws the same words in Chromium
// with the same font file at the same size, and compares the ink of each word: a glyph in the
// wrong place or an unformed conjunct makes the two differ far beyond anti-aliasing.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { PDFDocument, rgb } from "pdf-lib";
import { renderPageAsImage } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { devanagariFaces } from "../../app/server/pdf/shaped-font.server.ts";
import { launchBrowser } from "../helpers/browser.ts";

const WORDS = ["क्ष", "त्र", "ज्ञ", "श्री", "द्व", "प्र", "क्रि", "र्क", "ह्न", "कि", "हिन्दी", "स्त्री", "द्ध", "कर्म", "ट्रेन", "शृंखला", "पुरुष", "रुपये"];
const SIZE = 28; // points in the PDF, CSS pixels in Chromium
const LINE = 56;
const WIDTH = 360;
const HEIGHT = LINE * WORDS.length;
const SCALE = 2; // pixels per point in both pictures
const LEFT = 20;
const BASELINE = 38; // from the top of each line

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function pdfPicture() {
  const doc = await PDFDocument.create();
  const page = doc.addPage([WIDTH, HEIGHT]);
  const faces = await devanagariFaces(doc);
  WORDS.forEach((word, i) => faces.regular.draw(page, word, { x: LEFT, y: HEIGHT - i * LINE - BASELINE, size: SIZE, color: rgb(0, 0, 0) }));
  faces.finish();
  const pdf = await doc.save();
  return new Uint8Array(await renderPageAsImage(pdf, 1, { canvasImport: () => import("@napi-rs/canvas"), width: WIDTH * SCALE }));
}

async function chromiumPicture() {
  const ttf = readFileSync(
    createRequire(import.meta.url).resolve("@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf"),
  );
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: SCALE });
  const lines = WORDS.map((w, i) => `<div style="top:${i * LINE}px">${w}</div>`).join("");
  await page.setContent(`<!doctype html><html lang="hi"><style>
    @font-face { font-family: Noto; src: url(data:font/ttf;base64,${ttf.toString("base64")}); }
    html, body { margin: 0; background: #fff; }
    div { position: absolute; left: ${LEFT}px; height: ${LINE}px; line-height: ${LINE}px; font: ${SIZE}px Noto; color: #000; white-space: nowrap; }
  </style>${lines}</html>`);
  await page.evaluate(() => document.fonts.ready);
  const png = await page.screenshot({ type: "png" });
  await page.close();
  return new Uint8Array(png);
}

/** Ink (dark pixels) of a picture, WIDTH × HEIGHT points at SCALE. */
async function ink(png: Uint8Array) {
  const w = WIDTH * SCALE;
  const h = HEIGHT * SCALE;
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, w, h);
  ctx.drawImage(await loadImage(Buffer.from(png)), 0, 0);
  const data = ctx.getImageData(0, 0, w, h).data;
  return { w, h, at: (x: number, y: number) => (data[(y * w + x) * 4] ?? 255) < 128 };
}

type Ink = Awaited<ReturnType<typeof ink>>;
/** The ink box of line `i` (inside its band). */
function box(p: Ink, i: number) {
  let top = Infinity;
  let left = Infinity;
  let bottom = -1;
  let right = -1;
  for (let y = i * LINE * SCALE; y < (i + 1) * LINE * SCALE; y++)
    for (let x = 0; x < p.w; x++)
      if (p.at(x, y)) {
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
  return { top, left, bottom, right };
}

/**
 * Pixels inked in one picture only, over pixels inked in either, with each word's ink aligned at its
 * top left; the best of the alignments within a pixel (rounding puts a stroke a pixel apart).
 */
function difference(a: Ink, b: Ink, i: number) {
  const ba = box(a, i);
  const bb = box(b, i);
  const w = Math.max(ba.right - ba.left, bb.right - bb.left) + 1;
  const h = Math.max(ba.bottom - ba.top, bb.bottom - bb.top) + 1;
  let ratio = 1;
  for (const dy of [-1, 0, 1])
    for (const dx of [-1, 0, 1]) {
      let either = 0;
      let one = 0;
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const pa = a.at(ba.left + x, ba.top + y);
          const pb = b.at(bb.left + x + dx, bb.top + y + dy);
          if (pa || pb) either++;
          if (pa !== pb) one++;
        }
      ratio = Math.min(ratio, one / either);
    }
  return { ratio, width: [ba.right - ba.left, bb.right - bb.left], height: [ba.bottom - ba.top, bb.bottom - bb.top] };
}

describe("Devanagari conjuncts in the PDFs", () => {
  it("are drawn as Chromium draws them from the same font", async () => {
    const [pdf, chromium] = await Promise.all([pdfPicture().then(ink), chromiumPicture().then(ink)]);
    const results = WORDS.map((word, i) => ({ word, ...difference(pdf, chromium, i) }));
    for (const r of results) {
      // Same ink box to within 2 pixels (1 point), and under 10 % of the ink differing (the words measure 0.2–6 %).
      expect(Math.abs((r.width[0] ?? 0) - (r.width[1] ?? 0)), r.word).toBeLessThanOrEqual(2);
      expect(Math.abs((r.height[0] ?? 0) - (r.height[1] ?? 0)), r.word).toBeLessThanOrEqual(2);
      expect(r.ratio, `${r.word}: ${r.ratio.toFixed(3)}`).toBeLessThan(0.1);
    }
    // A control: two different words differ far more than the threshold.
    expect(difference(pdf, chromium, 0).ratio).toBeLessThan(
      difference(pdf, { ...chromium, at: (x, y) => chromium.at(x, y + LINE * SCALE) }, 0).ratio,
    );
  });
});
