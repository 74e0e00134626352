/**
 * Text shaped by HarfBuzz (harfbuzzjs, WASM) and drawn with pdf-lib, for documents in Hindi:
 * pdf-lib's fontkit path draws one glyph per character, so Devanagari conjuncts, reordered vowel
 * signs (ि) and reph come out broken. Here each word is shaped (script `deva`, language `hi`), the
 * glyph ids are written as CIDs of a Type0 / CIDFontType2 font (Identity-H), and the font is subset
 * at the end with hb-subset keeping the glyph ids. The font is Noto Sans Devanagari, which also
 * draws Latin letters, digits and ₹, so a Hindi document needs no second font.
 *
 * Text extraction ("carriers"): the visible glyphs have width 0 and map to U+200B, which pdf.js
 * drops; after each word, invisible carrier CIDs (one per character, drawn with the empty space
 * glyph) spell the word in typed order, scaled (Tz) to the word's width. So pdf.js, poppler and a
 * screen reader get the typed text; each word also carries its ActualText.
 *
 * harfbuzzjs is imported on first use (an English-only process never loads its WASM).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as HarfBuzz from "harfbuzzjs";
import {
  type Color,
  PDFArray,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames as Ops,
  type PDFPage,
  PDFString,
  type PDFRef,
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
} from "pdf-lib";
import { hex4, round, subsetTag, toUnicodeCMap, widthsArray } from "./cid-font.server.ts";
import { subsetRetainGids } from "./hb-subset.server.ts";
import type { Face } from "./pdf.server.ts";

const require = createRequire(import.meta.url);

/** One shaped glyph, in font units; `text` = the typed characters it stands for ("" for a second glyph of one cluster). */
interface Glyph {
  gid: number;
  cluster: number;
  text: string;
  xAdvance: number;
  xOffset: number;
  yOffset: number;
}
interface Run {
  text: string;
  glyphs: Glyph[];
  /** Font units. */
  advance: number;
}

/** Shaped words kept per font: a document repeats its words, and so do documents. Oldest dropped first. */
const SHAPED_WORDS_KEPT = 5000;
const DEVANAGARI = /[\u0900-\u097F\uA8E0-\uA8FF\u1CD0-\u1CFF]/;

/** One TTF parsed by HarfBuzz, shaping words (cached) for every document of the process. */
class Shaper {
  readonly upem: number;
  readonly numGlyphs: number;
  readonly metrics: { bbox: number[]; ascent: number; descent: number; capHeight: number };
  /** The space's glyph: drawn (empty) for carriers. */
  readonly emptyGid: number;
  private readonly font: HarfBuzz.Font;
  private readonly buffer: HarfBuzz.Buffer;
  private readonly cache = new Map<string, Run>();
  private readonly hb: typeof HarfBuzz;
  readonly bytes: Uint8Array;

  constructor(hb: typeof HarfBuzz, bytes: Uint8Array) {
    this.hb = hb;
    this.bytes = bytes;
    const face = new hb.Face(new hb.Blob(bytes));
    this.font = new hb.Font(face); // scale = upem: positions in font units
    this.upem = face.upem;
    this.buffer = new hb.Buffer(); // reused (harfbuzzjs frees WASM objects only when collected)
    const table = (tag: string) => {
      const t = face.referenceTable(tag);
      if (!t) throw new Error(`font without ${tag}`);
      return new DataView(t.slice().buffer);
    };
    const head = table("head");
    const hhea = table("hhea");
    const os2 = table("OS/2");
    this.numGlyphs = table("maxp").getUint16(4);
    this.metrics = {
      bbox: [head.getInt16(36), head.getInt16(38), head.getInt16(40), head.getInt16(42)],
      ascent: hhea.getInt16(4),
      descent: hhea.getInt16(6),
      capHeight: os2.getUint16(0) >= 2 ? os2.getInt16(88) : hhea.getInt16(4),
    };
    this.emptyGid = this.font.glyph(0x20) ?? 0;
  }

  /** One word (or a space), shaped on its own: Devanagari shaping never crosses a space. */
  shape(text: string): Run {
    const hit = this.cache.get(text);
    if (hit) {
      this.cache.delete(text); // most recently used last
      this.cache.set(text, hit);
      return hit;
    }
    const { hb, buffer: b } = this;
    const deva = DEVANAGARI.test(text);
    b.reset();
    b.addText(text);
    b.setDirection(hb.Direction.LTR);
    b.setScript(deva ? "deva" : "latn");
    b.setLanguage(deva ? "hi" : "en");
    // Per-character clusters: a reordered glyph (pre-base ि, reph) keeps its own character's index.
    b.setClusterLevel(hb.ClusterLevel.CHARACTERS);
    hb.shape(this.font, b);
    const positions = b.getGlyphPositions();
    const glyphs: Glyph[] = b.getGlyphInfos().map((g, i) => ({
      gid: g.codepoint,
      cluster: g.cluster,
      text: "",
      xAdvance: positions[i]?.xAdvance ?? 0,
      xOffset: positions[i]?.xOffset ?? 0,
      yOffset: positions[i]?.yOffset ?? 0,
    }));
    const starts = [...new Set(glyphs.map((g) => g.cluster))].sort((x, y) => x - y);
    const seen = new Set<number>();
    for (const g of glyphs) {
      const next = starts[starts.indexOf(g.cluster) + 1] ?? text.length;
      g.text = seen.has(g.cluster) ? "" : text.slice(g.cluster, next);
      seen.add(g.cluster);
    }
    const run = { text, glyphs, advance: glyphs.reduce((s, g) => s + g.xAdvance, 0) };
    this.cache.set(text, run);
    if (this.cache.size > SHAPED_WORDS_KEPT) this.cache.delete(this.cache.keys().next().value as string);
    return run;
  }
}

// ---------------------------------------------------------------- the PDF font

const CARRIER_WIDTH = 500; // a spacing carrier's W, thousandths of an em (scaled by Tz per word)
const NONSPACING = /\p{Mn}/u; // pdf.js gives a glyph whose text holds one of these no width
const ZWSP = "\u200B"; // pdf.js skips it

/** One shaped font in one document: drawn words are recorded; `finish()` writes the subset and its dictionaries. */
class ShapedFont {
  private readonly ref: PDFRef;
  private readonly visible = new Set<number>();
  /** character -> carrier CID (past the font's glyphs; mapped to the empty glyph) */
  private readonly carriers = new Map<string, number>();
  private readonly keys = new WeakMap<PDFPage, PDFName>();
  private finished = false;
  private readonly doc: PDFDocument;
  private readonly shaper: Shaper;
  private readonly postScriptName: string;

  constructor(doc: PDFDocument, shaper: Shaper, postScriptName: string) {
    this.doc = doc;
    this.shaper = shaper;
    this.postScriptName = postScriptName;
    this.ref = doc.context.nextRef();
  }

  draw(page: PDFPage, runs: Run[], { x, y, size, color }: { x: number; y: number; size: number; color: Color }) {
    if (this.finished) throw new Error("the font's document is already finished");
    let key = this.keys.get(page);
    if (!key) this.keys.set(page, (key = page.node.newFontDictionary("HB", this.ref)));
    const ops = [pushGraphicsState(), setFillingColor(color), beginText(), setFontAndSize(key, size), setTextMatrix(1, 0, 0, 1, x, y)];
    for (const run of runs) {
      const word = run.text.trim() !== "";
      if (word)
        ops.push(PDFOperator.of(Ops.BeginMarkedContentSequence, [PDFName.of("Span"), this.actualText(run.text) as unknown as PDFName]));
      ops.push(...this.runWithCarriers(run, size, word));
      if (word) ops.push(PDFOperator.of(Ops.EndMarkedContent));
    }
    ops.push(endText(), popGraphicsState());
    page.pushOperators(...ops);
  }

  private actualText(text: string) {
    const d = this.doc.context.obj({});
    d.set(PDFName.of("ActualText"), PDFHexString.fromText(text));
    return d;
  }

  /** Zero-width visible glyphs placed by TJ numbers, then the word's characters as invisible carriers. */
  private runWithCarriers(run: Run, size: number, word: boolean) {
    const tj = new TJ(this.doc, this.shaper.upem, size);
    let pen = 0;
    for (const g of word ? run.glyphs : []) {
      this.visible.add(g.gid);
      tj.glyph(g.gid, pen + g.xOffset, g.yOffset);
      pen += g.xAdvance;
    }
    tj.moveTo(0);
    const chars = [...run.text];
    const spacing = chars.filter((c) => !NONSPACING.test(c)).length;
    let cids = "";
    for (const c of chars) {
      let cid = this.carriers.get(c);
      if (cid === undefined) this.carriers.set(c, (cid = this.shaper.numGlyphs + this.carriers.size));
      cids += hex4(cid);
    }
    const scale = spacing ? (100 * run.advance * (1000 / this.shaper.upem)) / (CARRIER_WIDTH * spacing) : 100;
    tj.raw(PDFOperator.of(Ops.SetTextHorizontalScaling, [PDFNumber.of(round(scale))]));
    tj.hex(cids);
    tj.raw(PDFOperator.of(Ops.SetTextHorizontalScaling, [PDFNumber.of(100)]));
    return tj.ops();
  }

  /** Subset the font, then write FontFile2, FontDescriptor, CIDFont (W, CIDToGIDMap), ToUnicode and the Type0 dict. */
  finish() {
    if (this.finished) return;
    this.finished = true;
    const ctx = this.doc.context;
    const { shaper } = this;
    const gids = [...new Set([...this.visible, shaper.emptyGid])].sort((a, b) => a - b);
    const sub = subsetRetainGids(shaper.bytes, gids);
    // The subset tag from the glyph set: the same document gives the same bytes.
    const baseName = `${subsetTag(gids, this.postScriptName)}+${this.postScriptName}`;
    const s = 1000 / shaper.upem;
    const m = shaper.metrics;
    const descriptor = ctx.register(
      ctx.obj({
        Type: "FontDescriptor",
        FontName: baseName,
        Flags: 4,
        FontBBox: m.bbox.map((v) => Math.round(v * s)),
        ItalicAngle: 0,
        Ascent: Math.round(m.ascent * s),
        Descent: Math.round(m.descent * s),
        CapHeight: Math.round(m.capHeight * s),
        StemV: 80,
        FontFile2: ctx.register(ctx.flateStream(sub, { Length1: sub.length })),
      }),
    );
    const widths = new Map<number, number>();
    for (const [c, cid] of this.carriers) if (!NONSPACING.test(c)) widths.set(cid, CARRIER_WIDTH);
    const cidFont = ctx.obj({ Type: "Font", Subtype: "CIDFontType2", BaseFont: baseName, FontDescriptor: descriptor, DW: 0 });
    cidFont.set(PDFName.of("W"), widthsArray(this.doc, widths));
    const info = ctx.obj({ Supplement: 0 });
    info.set(PDFName.of("Registry"), PDFString.of("Adobe"));
    info.set(PDFName.of("Ordering"), PDFString.of("Identity"));
    cidFont.set(PDFName.of("CIDSystemInfo"), info);
    // CID -> GID: the glyph itself below numGlyphs, the empty glyph for carriers.
    const n = shaper.numGlyphs + this.carriers.size;
    const map = new Uint8Array(2 * n);
    for (let cid = 0; cid < n; cid++) {
      const gid = cid < shaper.numGlyphs ? cid : shaper.emptyGid;
      map[2 * cid] = gid >> 8;
      map[2 * cid + 1] = gid & 255;
    }
    cidFont.set(PDFName.of("CIDToGIDMap"), ctx.register(ctx.flateStream(map)));
    const unicode = new Map<number, string>();
    for (const gid of this.visible) unicode.set(gid, ZWSP);
    for (const [c, cid] of this.carriers) unicode.set(cid, c);
    ctx.assign(
      this.ref,
      ctx.obj({
        Type: "Font",
        Subtype: "Type0",
        BaseFont: baseName,
        Encoding: "Identity-H",
        DescendantFonts: [ctx.register(cidFont)],
        ToUnicode: ctx.register(ctx.flateStream(toUnicodeCMap(unicode))),
      }),
    );
  }
}

/**
 * TJ operators for glyphs at absolute x (font units from the run's start), tracking the viewer's pen;
 * y offsets by Ts (text rise). A TJ number is thousandths of an em, positive moves left.
 */
class TJ {
  private cur = 0;
  private items: (PDFHexString | PDFNumber)[] = [];
  private hexs = "";
  private readonly out: PDFOperator[] = [];
  private readonly k: number;
  private readonly doc: PDFDocument;
  private readonly upem: number;
  private readonly size: number;
  constructor(doc: PDFDocument, upem: number, size: number) {
    this.doc = doc;
    this.upem = upem;
    this.size = size;
    this.k = 1000 / upem;
  }
  private flushHex() {
    if (this.hexs) this.items.push(PDFHexString.of(this.hexs));
    this.hexs = "";
  }
  private flush() {
    this.flushHex();
    if (this.items.length) {
      const array = PDFArray.withContext(this.doc.context);
      for (const it of this.items) array.push(it);
      this.out.push(PDFOperator.of(Ops.ShowTextAdjusted, [array]));
    }
    this.items = [];
  }
  raw(op: PDFOperator) {
    this.flush();
    this.out.push(op);
  }
  moveTo(x: number) {
    const n = round(-(x - this.cur) * this.k);
    this.cur = x;
    if (n === 0) return;
    this.flushHex();
    this.items.push(PDFNumber.of(n));
  }
  hex(h: string) {
    this.hexs += h;
  }
  /** A zero-width glyph at x (font units). */
  glyph(gid: number, x: number, yOffset: number) {
    if (yOffset) this.raw(PDFOperator.of(Ops.SetTextRise, [PDFNumber.of(round((yOffset * this.size) / this.upem))]));
    this.moveTo(x);
    this.hexs += hex4(gid);
    if (yOffset) this.raw(PDFOperator.of(Ops.SetTextRise, [PDFNumber.of(0)]));
  }
  ops() {
    this.flush();
    return this.out;
  }
}

// ---------------------------------------------------------------- faces

/** A face of the Writer drawing shaped text in one document. */
class ShapedFace implements Face {
  private readonly font: ShapedFont;
  private readonly shaper: Shaper;
  constructor(doc: PDFDocument, shaper: Shaper, postScriptName: string) {
    this.shaper = shaper;
    this.font = new ShapedFont(doc, shaper, postScriptName);
  }
  private runs(line: string) {
    return line
      .split(/( )/)
      .filter(Boolean)
      .map((part) => this.shaper.shape(part));
  }
  measure(text: string, size: number) {
    let units = 0;
    for (const run of this.runs(text)) units += run.advance;
    return (units * size) / this.shaper.upem;
  }
  draw(page: PDFPage, text: string, options: { x: number; y: number; size: number; color: Color }) {
    this.font.draw(page, this.runs(text), options);
  }
  finish() {
    this.font.finish();
  }
}

const NOTO = {
  regular: { file: "@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf", name: "NotoSansDevanagari" },
  bold: { file: "@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf", name: "NotoSansDevanagari-Bold" },
};

let shapers: Promise<{ regular: Shaper; bold: Shaper }> | null = null;
/** The two shapers of the process, made on first use (harfbuzzjs and its WASM loaded then). */
function devanagariShapers() {
  shapers ??= import("harfbuzzjs").then((hb) => ({
    regular: new Shaper(hb, readFileSync(require.resolve(NOTO.regular.file))),
    bold: new Shaper(hb, readFileSync(require.resolve(NOTO.bold.file))),
  }));
  return shapers;
}

/** Noto Sans Devanagari, regular and bold, shaped, for one document; `finish()` before saving it. */
export async function devanagariFaces(doc: PDFDocument) {
  const s = await devanagariShapers();
  const regular = new ShapedFace(doc, s.regular, NOTO.regular.name);
  const bold = new ShapedFace(doc, s.bold, NOTO.bold.name);
  return {
    regular,
    bold,
    finish() {
      regular.finish();
      bold.finish();
    },
  };
}
