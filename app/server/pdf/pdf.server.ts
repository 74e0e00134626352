/**
 * PDFs of the KFS and agreement, and the signature page appended at signing. English documents
 * use pdf-lib with DejaVu Sans embedded and subset (so the ₹ sign renders and the text can be
 * extracted); Hindi ones use Noto Sans Devanagari shaped by HarfBuzz (./shaped-font.server.ts).
 * The Writer lays out either through a `Face`.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import { type Color, PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import { formatDateIST, formatTimeIST, longDate } from "../../domain/india-date.ts";
import { agreementClauses, type KfsInput, type KfsModel } from "../../domain/loans/kfs.ts";
import type { Language } from "../../i18n/languages.ts";
import { kfsWords } from "../loans/kfs-words.server.ts";

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

/** What the Writer needs of a font: a line's width and drawing a line. */
export interface Face {
  measure(text: string, size: number): number;
  draw(page: PDFPage, text: string, options: { x: number; y: number; size: number; color: Color }): void;
}

/** A pdf-lib font (fontkit: no shaping, enough for Latin text). */
class PdfLibFace implements Face {
  private readonly font: PDFFont;
  private readonly widths = new Map<string, number>();
  constructor(font: PDFFont) {
    this.font = font;
  }
  /** Width at `size`, from each word's width at size 1 (measuring is the slow part of layout). */
  measure(text: string, size: number): number {
    const widths = this.widths;
    let total = 0;
    const words = text.split(" ");
    for (const word of words) {
      let w = widths.get(word);
      if (w === undefined) widths.set(word, (w = this.font.widthOfTextAtSize(word, 1)));
      total += w;
    }
    let space = widths.get(" ");
    if (space === undefined) widths.set(" ", (space = this.font.widthOfTextAtSize(" ", 1)));
    return (total + space * (words.length - 1)) * size;
  }
  draw(page: PDFPage, text: string, { x, y, size, color }: { x: number; y: number; size: number; color: Color }) {
    page.drawText(text, { x, y, size, font: this.font, color });
  }
}

export interface WriterOptions {
  /** Line spacing relative to the English documents' (Devanagari needs room above and below). */
  leading?: number;
  /** The footer's page number. */
  pageLabel?: (page: number, pages: number) => string;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A top-to-bottom writer: wraps text, breaks pages, repeats table headers. */
export class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];
  readonly doc: PDFDocument;
  readonly regular: Face;
  readonly bold: Face;
  readonly header: string;
  private readonly leading: number;
  private readonly pageLabel: (page: number, pages: number) => string;
  constructor(doc: PDFDocument, regular: Face, bold: Face, header: string, options: WriterOptions = {}) {
    this.doc = doc;
    this.regular = regular;
    this.bold = bold;
    this.header = header;
    this.leading = options.leading ?? 1;
    this.pageLabel = options.pageLabel ?? ((page, pages) => `Page ${page} of ${pages}`);
    this.newPage();
  }
  get width() {
    return A4[0] - 2 * MARGIN;
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    this.regular.draw(this.page, this.header, { x: MARGIN, y: A4[1] - 30, size: 7.5, color: MUTED });
    this.y = A4[1] - MARGIN - 8;
  }
  ensure(height: number) {
    if (this.y - height < MARGIN + 14) this.newPage();
  }
  measure(text: string, font: Face, size: number): number {
    return font.measure(text, size);
  }
  wrap(text: string, font: Face, size: number, width: number): string[] {
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
    const lineHeight = size * 1.35 * this.leading;
    for (const line of this.wrap(text, font, size, this.width)) {
      this.ensure(lineHeight);
      font.draw(this.page, line, { x: MARGIN, y: this.y - size, size, color });
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
    const lh = size * 1.35 * this.leading;
    const labelWidth = this.width * 0.34;
    const valueWidth = this.width - labelWidth - 10;
    for (const [label, value] of rows) {
      const l = this.wrap(label, this.bold, size, labelWidth);
      const v = this.wrap(value, this.regular, size, valueWidth);
      const height = Math.max(l.length, v.length) * lh + 6;
      this.ensure(height);
      l.forEach((line, i) => this.bold.draw(this.page, line, { x: MARGIN, y: this.y - size - i * lh, size, color: INK }));
      v.forEach((line, i) =>
        this.regular.draw(this.page, line, { x: MARGIN + labelWidth + 10, y: this.y - size - i * lh, size, color: INK }),
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
    const lh = size * 1.45 * this.leading;
    const pad = TABLE_PAD;
    const widths = columns.map(
      (_, i) => (layout?.widths[i] ?? (i === 0 ? 0.06 : i === 1 ? 0.16 : 0.78 / (columns.length - 2))) * this.width,
    );
    const alignOf = (i: number) => layout?.align[i] ?? (i <= 1 ? "left" : "right");
    const fit = (line: string, font: Face, width: number) => {
      // cut between graphemes (never inside a Devanagari conjunct or vowel sign)
      const parts = [...graphemes.segment(line)].map((g) => g.segment);
      while (parts.length > 1 && this.measure(parts.join(""), font, size) > width) parts.pop();
      return parts.join("");
    };
    const drawRow = (cells: readonly string[], font: Face) => {
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
          font.draw(this.page, line, { x: left, y: this.y - size - k * lh, size, color: INK });
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
    const fits = (cell: string, i: number, font: Face) =>
      cell.split(/\s+/).every((word) => this.measure(word, font, TABLE_SIZE) <= (widths[i] ?? 0) * this.width - TABLE_PAD);
    return columns.every((c, i) => fits(c, i, this.bold)) && body.every((row) => row.every((cell, i) => fits(cell, i, this.regular)));
  }
  footers(note: string) {
    const total = this.pages.length;
    this.pages.forEach((page, i) => {
      this.regular.draw(page, `${note} · ${this.pageLabel(i + 1, total)}`, { x: MARGIN, y: 26, size: 7.5, color: MUTED });
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

/** A new document with its two faces: DejaVu through pdf-lib in English, Noto Sans Devanagari shaped in Hindi. */
export async function newDocument(title: string, at: Date, language: Language = "en") {
  const doc = await PDFDocument.create();
  const faces = await facesFor(doc, language);
  doc.setTitle(title);
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  doc.setProducer("pdf-lib");
  return { doc, ...faces };
}

/**
 * The faces of a document in `language`; `finish` (before `doc.save()`) writes the Hindi fonts.
 * English keeps the DejaVu path, so its documents are what they were.
 */
export async function facesFor(doc: PDFDocument, language: Language) {
  if (language === "hi") {
    const { devanagariFaces } = await import("./shaped-font.server.ts");
    const faces = await devanagariFaces(doc);
    return { regular: faces.regular as Face, bold: faces.bold as Face, leading: 1.15, finish: faces.finish };
  }
  doc.registerFontkit(cachingFontkit);
  const f = fonts();
  const regular = new PdfLibFace(await doc.embedFont(f.regular, { subset: true }));
  const bold = new PdfLibFace(await doc.embedFont(f.bold, { subset: true }));
  return { regular: regular as Face, bold: bold as Face, leading: 1, finish: () => {} };
}

type Words = ReturnType<typeof kfsWords>["t"];

function writeKfs(w: Writer, t: Words, kfs: KfsModel, intro: string, scheduleNote: string) {
  w.text(kfs.title, { size: 16, font: w.bold, gap: 2 });
  w.text(intro, { size: 9, color: MUTED, gap: 8 });
  for (const part of kfs.parts) {
    w.heading(part.title);
    w.rows(part.rows);
  }
  w.heading(t("pdf.schedule"));
  w.text(scheduleNote, { size: 8.5, color: MUTED });
  w.table(kfs.schedule.columns, kfs.schedule.rows);
}

/** A KFS document in its language: the document, its Writer and the words. */
async function kfsDocument(input: KfsInput, kfs: KfsModel, at: Date, title: (t: Words) => string, subject: (t: Words) => string) {
  const language = kfs.language ?? "en";
  const words = kfsWords(language);
  const { t } = words;
  const { doc, regular, bold, leading, finish } = await newDocument(title(t), at, language);
  doc.setAuthor(input.lender.name);
  doc.setSubject(subject(t));
  const header = t("pdf.header", { lender: input.lender.name, brand: input.brandName, reference: input.reference.toUpperCase() });
  const w = new Writer(doc, regular, bold, header, { leading, pageLabel: (page, pages) => t("pdf.page", { page, pages }) });
  const date = (d: string) => longDate(d, language);
  const save = () => {
    finish();
    return doc.save();
  };
  return { w, t, words, date, save };
}

/**
 * The revised KFS issued at disbursal when the schedule fixed from the actual date differs from
 * the signed one: the same statement with the actual dates; the signed agreement still governs.
 */
export async function renderRevisedKfsPdf(input: KfsInput, kfs: KfsModel, signedOn: string, issuedAt: Date): Promise<Uint8Array> {
  const { w, t, date, save } = await kfsDocument(
    input,
    kfs,
    issuedAt,
    () => `${kfs.title} ${input.reference.toUpperCase()}`,
    (tr) => tr("pdf.revisedSubject", { name: input.borrower.name }),
  );
  writeKfs(
    w,
    t,
    kfs,
    t("pdf.revisedIntro", { issued: date(kfs.issuedOn), disbursed: date(kfs.assumedDisbursalDate), signed: date(signedOn) }),
    t("pdf.revisedNote", { date: date(kfs.assumedDisbursalDate) }),
  );
  w.footers(t("pdf.revisedFooter", { brand: input.brandName }));
  return save();
}

/** The KFS followed by the loan agreement that embeds it, as one PDF, in the KFS's language. */
export async function renderAgreementPdf(input: KfsInput, kfs: KfsModel, issuedAt: Date): Promise<Uint8Array> {
  const { w, t, words, date, save } = await kfsDocument(
    input,
    kfs,
    issuedAt,
    (tr) => tr("pdf.title", { kfs: kfs.title, reference: input.reference.toUpperCase() }),
    (tr) => tr("pdf.subject", { name: input.borrower.name }),
  );
  writeKfs(
    w,
    t,
    kfs,
    t("pdf.intro", { issued: date(kfs.issuedOn), validUntil: date(kfs.validUntil) }),
    t("pdf.scheduleNote", { date: date(kfs.assumedDisbursalDate) }),
  );

  w.newPage();
  w.text(t("pdf.agreement"), { size: 16, font: w.bold, gap: 8 });
  for (const clause of agreementClauses(input, kfs, words)) w.text(clause, { gap: 7 });
  w.text(t("pdf.embedded"), { gap: 7 });
  w.footers(t("pdf.footer", { brand: input.brandName }));
  return save();
}

export interface SignatureFacts {
  name: string;
  mobileMasked: string;
  signedAt: Date;
  ip: string;
  userAgent: string;
  shownSha256: string;
  reference: string;
  brandName: string;
  lenderName: string;
  /** The signed document's language: the page is written in it. */
  language: Language;
}

/** The signed copy: the stored bytes' pages, then a signature page recording who, when and the hash. */
export async function appendSignaturePage(original: Uint8Array, s: SignatureFacts): Promise<Uint8Array> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  const { regular, bold, leading, finish } = await facesFor(doc, s.language);
  const t = kfsWords(s.language).t;
  doc.setModificationDate(s.signedAt);
  const header = t("pdf.header", { lender: s.lenderName, brand: s.brandName, reference: s.reference.toUpperCase() });
  const w = new Writer(doc, regular, bold, header, { leading });
  w.text(t("signature.title"), { size: 16, font: bold, gap: 8 });
  w.text(t("signature.intro"), { gap: 8 });
  w.rows([
    [t("signature.signedBy"), s.name],
    [t("signature.mobile"), s.mobileMasked],
    [
      t("signature.signedAt"),
      t("signature.signedAtValue", {
        date: formatDateIST(s.signedAt, s.language),
        time: formatTimeIST(s.signedAt),
        iso: s.signedAt.toISOString(),
      }),
    ],
    [t("signature.ip"), s.ip],
    [t("signature.browser"), s.userAgent],
    [t("signature.hash", { algorithm: "SHA-256" }), s.shownSha256],
    [t("signature.proposal"), s.reference.toUpperCase()],
  ]);
  w.text(t("signature.hashNote"), { size: 8.5, color: MUTED });
  const last = w.pages.at(-1);
  if (last) regular.draw(last, t("signature.footer", { brand: s.brandName }), { x: MARGIN, y: 26, size: 7.5, color: MUTED });
  finish();
  return doc.save();
}
