// The first page of a stored PDF as a PNG, for phones whose browsers show an embedded PDF as an
// empty box (docs/product.md "Key Fact Statement, signing and the signed agreement"). Drawn on the
// server by PDF.js (unpdf's build) on @napi-rs/canvas, both from npm: nothing from the system.
import { renderPageAsImage } from "unpdf";

/** Wide enough for a sharp page on a 360 px phone at twice its pixel density. */
export const PREVIEW_WIDTH = 720;
const KEEP = 24;

/** Rendered pages by the PDF's SHA-256 (stored PDFs never change), the least recently used dropped first. */
const rendered = new Map<string, Promise<Uint8Array>>();
/** One page drawn at a time in this process: a burst of requests queues instead of taking every core. */
let queue: Promise<unknown> = Promise.resolve();

async function draw(pdf: Uint8Array): Promise<Uint8Array> {
  // A plain copy (not a Buffer, which PDF.js refuses): PDF.js takes over (detaches) the buffer it is given.
  const png = await renderPageAsImage(new Uint8Array(pdf), 1, { canvasImport: () => import("@napi-rs/canvas"), width: PREVIEW_WIDTH });
  return new Uint8Array(png);
}

/** The PDF's first page as a PNG, drawn once per document and kept while it is in use. */
export function firstPagePng(pdf: Uint8Array, sha256: string): Promise<Uint8Array> {
  const kept = rendered.get(sha256);
  if (kept) {
    rendered.delete(sha256);
    rendered.set(sha256, kept);
    return kept;
  }
  const drawing = queue.then(() => draw(pdf));
  queue = drawing.catch(() => undefined);
  rendered.set(sha256, drawing);
  drawing.catch(() => rendered.delete(sha256));
  while (rendered.size > KEEP) rendered.delete(rendered.keys().next().value as string);
  return drawing;
}
