// hb-subset, which harfbuzzjs ships as an import-free WASM without a JavaScript wrapper: a TTF cut to
// the glyphs a document drew, keeping their ids (./shaped-font.server.ts writes them as CIDs).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

type SubsetExports = Record<string, (...args: number[]) => number> & { memory: WebAssembly.Memory };
let subsetExports: SubsetExports | null = null;
/** harfbuzzjs ships hb-subset as an import-free WASM without a wrapper: instantiated here. */
function subsetter(): SubsetExports {
  if (!subsetExports) {
    const wasm = readFileSync(require.resolve("harfbuzzjs/dist/harfbuzz-subset.wasm"));
    subsetExports = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports as unknown as SubsetExports;
  }
  return subsetExports;
}
const tag = (s: string) => ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3)) >>> 0;
// hb-subset.h
const RETAIN_GIDS = 0x2;
const NO_LAYOUT_CLOSURE = 0x200;
const SETS_GLYPH_INDEX = 0;
const SETS_DROP_TABLE_TAG = 3;
const DROPPED_TABLES = ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "kern", "DSIG", "STAT", "vhea", "vmtx"];

/**
 * The TTF cut to `gids`, keeping glyph ids (the content stream's CIDs are the shaper's glyph ids).
 * Layout tables are dropped: the shaping is done, a viewer needs only outlines and metrics.
 */
export function subsetRetainGids(bytes: Uint8Array, gids: Iterable<number>): Uint8Array {
  const x = subsetter();
  const fontPtr = x.malloc!(bytes.byteLength);
  new Uint8Array(x.memory.buffer).set(bytes, fontPtr);
  const blob = x.hb_blob_create!(fontPtr, bytes.byteLength, 2 /* writable: no copy */, 0, 0);
  const face = x.hb_face_create!(blob, 0);
  x.hb_blob_destroy!(blob);
  const input = x.hb_subset_input_create_or_fail!();
  if (!input) throw new Error("hb_subset_input_create_or_fail");
  const glyphSet = x.hb_subset_input_set!(input, SETS_GLYPH_INDEX);
  x.hb_set_add!(glyphSet, 0);
  for (const g of gids) x.hb_set_add!(glyphSet, g);
  const drop = x.hb_subset_input_set!(input, SETS_DROP_TABLE_TAG);
  for (const t of DROPPED_TABLES) x.hb_set_add!(drop, tag(t));
  x.hb_subset_input_set_flags!(input, RETAIN_GIDS | NO_LAYOUT_CLOSURE);
  const subsetFace = x.hb_subset_or_fail!(face, input);
  x.hb_subset_input_destroy!(input);
  try {
    if (!subsetFace) throw new Error("hb_subset_or_fail");
    const out = x.hb_face_reference_blob!(subsetFace);
    const ptr = x.hb_blob_get_data!(out, 0);
    const result = new Uint8Array(x.memory.buffer, ptr, x.hb_blob_get_length!(out)).slice();
    x.hb_blob_destroy!(out);
    x.hb_face_destroy!(subsetFace);
    return result;
  } finally {
    x.hb_face_destroy!(face);
    x.free!(fontPtr);
  }
}
