/**
 * PDFs of the KFS and agreement (pdf-lib, DejaVu Sans embedded and subset, so
 * the ₹ sign renders and the text can be extracted), and the signature page
 * appended at signing.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import { longDate } from "../../domain/india-date.ts";
import { agreementClauses, type KfsInput, type KfsModel } from "../../domain/loans/kfs.ts";

const require = createRequire(import.meta.url);
let fontBytes: { regular: Uint8Array; bold: Uint8Array } | null = null;
function fonts() {
  fontBytes ??= {
    regular: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf")),
    bold: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf")),
  };
  return fontBytes;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const INK = rgb(0.06, 0.09, 0.16);
export const MUTED = rgb(0.35, 0.38, 0.45);
const RULE = rgb(0.8, 0.82, 0.86);
/** A table's type size and the space between its columns. */
const TABLE_SIZE = 7.8;
const TABLE_PAD = 4;

/** A top-to-bottom writer: wraps text, breaks pages, repeats table headers. */
export class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];
  readonly doc: PDFDocument;
  readonly regular: PDFFont;
  readonly bold: PDFFont;
  readonly header: string;
  constructor(doc: PDFDocument, regular: PDFFont, bold: PDFFont, header: string) {
    this.doc = doc;
    this.regular = regular;
    this.bold = bold;
    this.header = header;
    this.newPage();
  }
  get width() {
    return A4[0] - 2 * MARGIN;
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    this.page.drawText(this.header, { x: MARGIN, y: A4[1] - 30, size: 7.5, font: this.regular, color: MUTED });
    this.y = A4[1] - MARGIN - 8;
  }
  ensure(height: number) {
    if (this.y - height < MARGIN + 14) this.newPage();
  }
  /** Text width at `size`, from each word's width at size 1 (measuring is the slow part of layout). */
  measure(text: string, font: PDFFont, size: number): number {
    let widths = this.widths.get(font);
    if (!widths) this.widths.set(font, (widths = new Map()));
    let total = 0;
    const words = text.split(" ");
    for (const word of words) {
      let w = widths.get(word);
      if (w === undefined) widths.set(word, (w = font.widthOfTextAtSize(word, 1)));
      total += w;
    }
    let space = widths.get(" ");
    if (space === undefined) widths.set(" ", (space = font.widthOfTextAtSize(" ", 1)));
    return (total + space * (words.length - 1)) * size;
  }
  private readonly widths = new Map<PDFFont, Map<string, number>>();
  wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split("\n")) {
      let line = "";
      for (const word of paragraph.split(/\s+/)) {
        const candidate = line ? `${line} ${word}` : word;
        if (this.measure(candidate, font, size) <= width || !line) line = candidate;
        else {
          lines.push(line);
          line = word;
        }
      }
      lines.push(line);
    }
    return lines;
  }
  text(text: string, { size = 9.5, font = this.regular, gap = 4, color = INK } = {}) {
    const lineHeight = size * 1.35;
    for (const line of this.wrap(text, font, size, this.width)) {
      this.ensure(lineHeight);
      this.page.drawText(line, { x: MARGIN, y: this.y - size, size, font, color });
      this.y -= lineHeight;
    }
    this.y -= gap;
  }
  heading(text: string, size = 12) {
    this.ensure(size * 3);
    this.y -= 6;
    this.text(text, { size, font: this.bold, gap: 4 });
  }
  /** Two columns: label and value, each wrapped, with a rule between rows. */
  rows(rows: readonly (readonly [string, string])[]) {
    const size = 8.8;
    const lh = size * 1.35;
    const labelWidth = this.width * 0.34;
    const valueWidth = this.width - labelWidth - 10;
    for (const [label, value] of rows) {
      const l = this.wrap(label, this.bold, size, labelWidth);
      const v = this.wrap(value, this.regular, size, valueWidth);
      const height = Math.max(l.length, v.length) * lh + 6;
      this.ensure(height);
      l.forEach((line, i) => this.page.drawText(line, { x: MARGIN, y: this.y - size - i * lh, size, font: this.bold, color: INK }));
      v.forEach((line, i) =>
        this.page.drawText(line, { x: MARGIN + labelWidth + 10, y: this.y - size - i * lh, size, font: this.regular, color: INK }),
      );
      this.y -= height;
      this.page.drawLine({
        start: { x: MARGIN, y: this.y + 3 },
        end: { x: MARGIN + this.width, y: this.y + 3 },
        thickness: 0.4,
        color: RULE,
      });
    }
    this.y -= 6;
  }
  /**
   * A table; the header repeats on each page. Without `layout`: a narrow first column, a date, then
   * right-aligned figures of equal width. With it: each column's share of the width and alignment.
   * Every cell wraps within its own column (a row is as tall as its tallest cell), so text never
   * runs into the next column; a word wider than its column is cut to fit.
   */
  table(
    columns: readonly string[],
    body: readonly (readonly string[])[],
    layout?: { widths: readonly number[]; align: readonly ("left" | "right")[] },
  ) {
    const size = TABLE_SIZE;
    const lh = size * 1.45;
    const pad = TABLE_PAD;
    const widths = columns.map(
      (_, i) => (layout?.widths[i] ?? (i === 0 ? 0.06 : i === 1 ? 0.16 : 0.78 / (columns.length - 2))) * this.width,
    );
    const alignOf = (i: number) => layout?.align[i] ?? (i <= 1 ? "left" : "right");
    const fit = (line: string, font: PDFFont, width: number) => {
      let out = line;
      while (out.length > 1 && this.measure(out, font, size) > width) out = out.slice(0, -1);
      return out;
    };
    const drawRow = (cells: readonly string[], font: PDFFont) => {
      const wrapped = cells.map((cell, i) => {
        const inner = (widths[i] ?? 0) - pad;
        return this.wrap(cell, font, size, inner).map((line) => fit(line, font, inner));
      });
      const height = Math.max(1, ...wrapped.map((lines) => lines.length)) * lh + 2;
      if (this.y - height < MARGIN + 14) return false;
      let x = MARGIN;
      wrapped.forEach((lines, i) => {
        const w = widths[i] ?? 0;
        lines.forEach((line, k) => {
          const left = alignOf(i) === "left" ? x : x + w - pad - this.measure(line, font, size);
          this.page.drawText(line, { x: left, y: this.y - size - k * lh, size, font, color: INK });
        });
        x += w;
      });
      this.y -= height;
      return true;
    };
    const header = () => {
      drawRow(columns, this.bold);
      this.page.drawLine({
        start: { x: MARGIN, y: this.y + 1 },
        end: { x: MARGIN + this.width, y: this.y + 1 },
        thickness: 0.6,
        color: RULE,
      });
      this.y -= 2;
    };
    this.ensure(lh * 4);
    header();
    for (const row of body) {
      if (!drawRow(row, this.regular)) {
        this.newPage();
        header();
        drawRow(row, this.regular);
      }
    }
    this.y -= 8;
  }
  /** Whether every word of a table with these column shares fits its column (`table` cuts a word that does not). */
  tableFits(columns: readonly string[], body: readonly (readonly string[])[], widths: readonly number[]) {
    const fits = (cell: string, i: number, font: PDFFont) =>
      cell.split(/\s+/).every((word) => this.measure(word, font, TABLE_SIZE) <= (widths[i] ?? 0) * this.width - TABLE_PAD);
    return columns.every((c, i) => fits(c, i, this.bold)) && body.every((row) => row.every((cell, i) => fits(cell, i, this.regular)));
  }
  footers(note: string) {
    const total = this.pages.length;
    this.pages.forEach((page, i) => {
      page.drawText(`${note} · Page ${i + 1} of ${total}`, { x: MARGIN, y: 26, size: 7.5, font: this.regular, color: MUTED });
    });
  }
}

/**
 * fontkit parses a font file on every embed (most of a document's time);
 * parsed fonts are kept per file. Each document still makes its own subset.
 */
const parsedFonts = new Map<Uint8Array, ReturnType<typeof fontkit.create>>();
const cachingFontkit: typeof fontkit = {
  create(data, postscriptName) {
    const key = data as Uint8Array;
    let font = parsedFonts.get(key);
    if (!font) {
      font = fontkit.create(data, postscriptName);
      parsedFonts.set(key, font);
    }
    return font;
  },
};

export async function newDocument(title: string, at: Date) {
  const doc = await PDFDocument.create();
  doc.registerFontkit(cachingFontkit);
  const f = fonts();
  const regular = await doc.embedFont(f.regular, { subset: true });
  const bold = await doc.embedFont(f.bold, { subset: true });
  doc.setTitle(title);
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  doc.setProducer("pdf-lib");
  return { doc, regular, bold };
}

function writeKfs(w: Writer, kfs: KfsModel, intro: string, scheduleNote: string) {
  w.text(kfs.title, { size: 16, font: w.bold, gap: 2 });
  w.text(intro, { size: 9, color: MUTED, gap: 8 });
  for (const part of kfs.parts) {
    w.heading(part.title);
    w.rows(part.rows);
  }
  w.heading("Repayment schedule");
  w.text(scheduleNote, { size: 8.5, color: MUTED });
  w.table(kfs.schedule.columns, kfs.schedule.rows);
}

/**
 * The revised KFS issued at disbursal when the schedule fixed from the actual date differs from
 * the signed one: the same statement with the actual dates; the signed agreement still governs.
 */
export async function renderRevisedKfsPdf(input: KfsInput, kfs: KfsModel, signedOn: string, issuedAt: Date): Promise<Uint8Array> {
  const { doc, regular, bold } = await newDocument(`${kfs.title} ${input.reference.toUpperCase()}`, issuedAt);
  doc.setAuthor(input.lender.name);
  doc.setSubject(`Revised Key Fact Statement for ${input.borrower.name}`);
  const w = new Writer(doc, regular, bold, `${input.lender.name} · ${input.brandName} · Proposal ${input.reference.toUpperCase()}`);
  writeKfs(
    w,
    kfs,
    `Issued ${longDate(kfs.issuedOn)}, at disbursal. The loan was disbursed on ${longDate(kfs.assumedDisbursalDate)}, not on the date assumed in the Key Fact Statement you signed on ${longDate(signedOn)}, so its due dates or amounts changed. The rate, fees and other terms are the ones you signed; this statement replaces the signed schedule.`,
    `Disbursed on ${longDate(kfs.assumedDisbursalDate)}. Amounts in rupees.`,
  );
  w.footers(`${input.brandName} · Revised Key Fact Statement`);
  return doc.save();
}

/** The KFS followed by the loan agreement that embeds it, as one PDF. */
export async function renderAgreementPdf(input: KfsInput, kfs: KfsModel, issuedAt: Date): Promise<Uint8Array> {
  const { doc, regular, bold } = await newDocument(`${kfs.title} and loan agreement ${input.reference.toUpperCase()}`, issuedAt);
  doc.setAuthor(input.lender.name);
  doc.setSubject(`Key Fact Statement and loan agreement for ${input.borrower.name}`);
  const w = new Writer(doc, regular, bold, `${input.lender.name} · ${input.brandName} · Proposal ${input.reference.toUpperCase()}`);

  writeKfs(
    w,
    kfs,
    `Issued ${longDate(kfs.issuedOn)}. Valid for signing until the end of ${longDate(kfs.validUntil)}; after that a fresh statement is issued with the terms of that day.`,
    `Assumes disbursal on ${longDate(kfs.assumedDisbursalDate)}. Amounts in rupees.`,
  );

  w.newPage();
  w.text("Loan agreement", { size: 16, font: bold, gap: 8 });
  for (const clause of agreementClauses(input, kfs)) w.text(clause, { gap: 7 });
  w.text("The Key Fact Statement above, including its repayment schedule, forms part of this agreement.", { gap: 7 });
  w.footers(`${input.brandName} · Key Fact Statement and loan agreement`);
  return doc.save();
}

export interface SignatureFacts {
  name: string;
  mobileMasked: string;
  signedAt: Date;
  signedAtText: string;
  ip: string;
  userAgent: string;
  shownSha256: string;
  reference: string;
  brandName: string;
  lenderName: string;
}

/** The signed copy: the stored bytes' pages, then a signature page recording who, when and the hash. */
export async function appendSignaturePage(original: Uint8Array, s: SignatureFacts): Promise<Uint8Array> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  doc.registerFontkit(cachingFontkit);
  const f = fonts();
  const regular = await doc.embedFont(f.regular, { subset: true });
  const bold = await doc.embedFont(f.bold, { subset: true });
  doc.setModificationDate(s.signedAt);
  const w = new Writer(doc, regular, bold, `${s.lenderName} · ${s.brandName} · Proposal ${s.reference.toUpperCase()}`);
  w.text("Electronic signature", { size: 16, font: bold, gap: 8 });
  w.text(
    "The borrower read the Key Fact Statement and loan agreement on the preceding pages, ticked the box accepting them and entered the one-time code sent to their registered mobile number.",
    { gap: 8 },
  );
  w.rows([
    ["Signed by", s.name],
    ["Mobile (one-time code sent to)", s.mobileMasked],
    ["Signed at", s.signedAtText],
    ["From address", s.ip],
    ["Browser", s.userAgent],
    ["SHA-256 of the document shown", s.shownSha256],
    ["Proposal number", s.reference.toUpperCase()],
  ]);
  w.text("The hash identifies the exact bytes of the document that was shown and accepted; any change to it gives a different hash.", {
    size: 8.5,
    color: MUTED,
  });
  const last = w.pages.at(-1);
  last?.drawText(`${s.brandName} · Signature page`, { x: MARGIN, y: 26, size: 7.5, font: regular, color: MUTED });
  return doc.save();
}
