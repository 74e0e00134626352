// The PDF objects of a shaped CID font (./shaped-font.server.ts): its glyph widths (W), the subset's
// name tag, and the ToUnicode map that gives extractors the typed text.
import { PDFArray, type PDFDocument, PDFNumber } from "pdf-lib";

export const round = (n: number) => Math.round(n * 1000) / 1000;
export const hex4 = (n: number) => n.toString(16).padStart(4, "0");

/** W: runs of consecutive CIDs, [first [w w w] first [w] ...]; the rest are DW 0. */
export function widthsArray(doc: PDFDocument, widths: Map<number, number>) {
  const cids = [...widths.keys()].sort((a, b) => a - b);
  const W = PDFArray.withContext(doc.context);
  for (let i = 0; i < cids.length;) {
    const first = cids[i] as number;
    const ws = PDFArray.withContext(doc.context);
    while (i < cids.length && cids[i] === first + ws.size()) ws.push(PDFNumber.of(widths.get(cids[i++] as number) ?? 0));
    W.push(PDFNumber.of(first));
    W.push(ws);
  }
  return W;
}

export function subsetTag(gids: number[], name: string) {
  let h = 2166136261; // FNV-1a
  for (const c of [...gids, ...[...name].map((ch) => ch.charCodeAt(0))]) h = Math.imul(h ^ c, 16777619) >>> 0;
  let s = "";
  for (let i = 0; i < 6; i++, h = Math.floor(h / 26)) s += String.fromCharCode(65 + (h % 26));
  return s;
}

export function toUnicodeCMap(map: Map<number, string>) {
  const entries = [...map].sort(([a], [b]) => a - b);
  const utf16 = (s: string) => [...Array(s.length).keys()].map((i) => hex4(s.charCodeAt(i))).join("");
  const lines: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = entries.slice(i, i + 100);
    lines.push(`${chunk.length} beginbfchar`, ...chunk.map(([cid, s]) => `<${hex4(cid)}> <${utf16(s)}>`), "endbfchar");
  }
  return `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
${lines.join("\n")}
endcmap
CMapName currentdict /defineresource findresource pop
end
end`;
}
