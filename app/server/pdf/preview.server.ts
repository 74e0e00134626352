// The first page of a stored PDF as a PNG, for phones whose browsers show an embedded PDF as an
// empty box (docs/product.md "Key Fact Statement, signing and the signed agreement"). Drawn by
// PDF.js (unpdf's build) on @napi-rs/canvas, both from npm (nothing from the system), in a worker
// thread: a drawing takes a few hundred milliseconds that no other request waits for.
import { Worker } from "node:worker_threads";

/** Wide enough for a sharp page on a 360 px phone at twice its pixel density. */
export const PREVIEW_WIDTH = 720;
const KEEP = 24;

/** The worker: imports the two packages by the URLs the server resolved, draws page 1 of each PDF it is sent. */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
parentPort.on("message", async ({ id, pdf, width }) => {
  try {
    const { renderPageAsImage } = await import(workerData.unpdf);
    const png = await renderPageAsImage(pdf, 1, { canvasImport: () => import(workerData.canvas), width });
    parentPort.postMessage({ id, png: new Uint8Array(png) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});`;

type Waiting = { resolve: (png: Uint8Array) => void; reject: (error: Error) => void };
let worker: Worker | null = null;
const waiting = new Map<number, Waiting>();
let nextId = 0;

/** Where a package is, for the worker to import it (a bare name, found from the working directory, where this runtime cannot resolve). */
const located = (name: string) => (typeof import.meta.resolve === "function" ? import.meta.resolve(name) : name);

function drawer(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER, {
    eval: true,
    workerData: { unpdf: located("unpdf"), canvas: located("@napi-rs/canvas") },
  });
  // An idle worker does not keep the process alive.
  w.unref();
  w.on("message", ({ id, png, error }: { id: number; png?: Uint8Array; error?: string }) => {
    const who = waiting.get(id);
    waiting.delete(id);
    if (png) who?.resolve(png);
    else who?.reject(new Error(`the PDF's first page could not be drawn: ${error}`));
  });
  const lost = (error: Error) => {
    worker = null;
    for (const who of waiting.values()) who.reject(error);
    waiting.clear();
  };
  w.on("error", lost);
  w.on("exit", (code) => lost(new Error(`the page-drawing worker stopped (${code})`)));
  worker = w;
  return w;
}

function draw(pdf: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    // A plain copy (not a Buffer, which PDF.js refuses), handed over to the worker.
    const copy = new Uint8Array(pdf);
    drawer().postMessage({ id, pdf: copy, width: PREVIEW_WIDTH }, [copy.buffer]);
  });
}

/** Rendered pages by the PDF's SHA-256 (stored PDFs never change), the least recently used dropped first. */
const rendered = new Map<string, Promise<Uint8Array>>();
/** One page drawn at a time in this process: a burst of requests queues instead of filling memory. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The PDF's first page as a PNG, drawn once per document and kept while it is in use; `pdf` is its
 * bytes, or how to read them (from file storage), called only when the page is not kept.
 */
export function firstPagePng(pdf: Uint8Array | (() => Promise<Uint8Array>), sha256: string): Promise<Uint8Array> {
  const kept = rendered.get(sha256);
  if (kept) {
    rendered.delete(sha256);
    rendered.set(sha256, kept);
    return kept;
  }
  const drawing = queue.then(async () => draw(typeof pdf === "function" ? await pdf() : pdf));
  queue = drawing.catch(() => undefined);
  rendered.set(sha256, drawing);
  drawing.catch(() => rendered.delete(sha256));
  while (rendered.size > KEEP) rendered.delete(rendered.keys().next().value as string);
  return drawing;
}
