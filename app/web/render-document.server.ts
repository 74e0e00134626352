// A document's HTML, whole, in one synchronous render when it can be.
//
// Every page of this app has its loaders' data before its render starts, and the entry sends a
// page whole (never a stream of parts), yet React's streaming renderer spent about a quarter of a
// signed-in page's CPU on being a stream: encoding each of a page's thousands of small string
// chunks into byte buffers as it goes, and a render suspended and resumed for the loader data.
// `renderToString` renders the same tree into one string. Two things make its output the streaming
// renderer's, byte for byte:
//
// - React Router writes the loader data into the page (turbo-stream) from a stream read by a
//   component that suspends on each chunk (`StreamTransfer`) and keeps each chunk it read in the
//   render's `renderMeta.streamCache` under the chunk's number. The stream is read here first, whole
//   (React Router ends it at the entry's `streamTimeout`), and each chunk put where that component
//   looks, decoded as it decodes it: it renders every chunk's script at once, without suspending.
// - The streaming renderer starts a document whose root is <html> with its doctype.
//
// Should anything still suspend (a lazy component, an <Await>, or React Router reading its data
// otherwise one day), `renderToString` leaves that boundary to the browser (`<!--$!-->`) or
// throws. Then the page is rendered again by the streaming renderer, which waits for everything as
// before, and the result says so (`streamed`), for the entry to log. The render's context is given
// the same chunks again as a fresh stream each time, so either render can read them.
import { Writable } from "node:stream";
import type { ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import type { EntryContext } from "react-router";

export interface RenderedDocument {
  html: Buffer<ArrayBuffer>;
  /** Rendered by the streaming renderer, because something suspended in the one-pass render. */
  streamed: boolean;
  /** An error the render recovered from (a boundary left to the browser): the page is a 500. */
  failed: boolean;
}

/** React Router's `renderMeta.streamCache` (lib/dom/ssr/single-fetch.tsx): chunk number → what was read. */
type StreamCache = Record<number, { result: { done: boolean; value: string } }>;

/** A Suspense boundary left to the browser (`<!--$!-->`) or still waiting (`<!--$?-->`). */
const UNFINISHED_BOUNDARY = /<!--\$[!?]-->/;
const DOCTYPE = "<!DOCTYPE html>";

/**
 * The markup as bytes, after the doctype when it is a document. Written into one buffer: the markup
 * is a string of thousands of joined pieces, and joining the doctype to it first would copy it whole
 * once more (a tenth of a millisecond for a 100 kB page).
 */
function documentBytes(markup: string): Buffer<ArrayBuffer> {
  const doctype = markup.startsWith("<html") ? DOCTYPE : "";
  const bytes = Buffer.allocUnsafe(doctype.length + Buffer.byteLength(markup));
  bytes.write(doctype, 0, "latin1");
  bytes.write(markup, doctype.length);
  return bytes;
}

/** All of a stream's chunks, in order. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
}

const replay = (chunks: readonly Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

/** The chunks as React Router's `StreamTransfer` keeps what it read: decoded in turn by one decoder, then the end. */
function streamCache(chunks: readonly Uint8Array[]): StreamCache {
  const decoder = new TextDecoder();
  const cache: StreamCache = {};
  chunks.forEach((chunk, n) => {
    cache[n] = { result: { done: false, value: decoder.decode(chunk, { stream: true }) } };
  });
  cache[chunks.length] = { result: { done: true, value: decoder.decode(undefined, { stream: true }) } };
  return cache;
}

/**
 * Renders `app(context)` (the element tree around `<ServerRouter context={context}>`) to the whole
 * document. `timeoutMs`: how long the streaming renderer may wait for what suspended; `onError`: an
 * error the streaming renderer met once the page was ready (one before is the render's rejection,
 * or a boundary's, said by `failed`).
 */
export async function renderDocument(
  context: EntryContext,
  app: (context: EntryContext) => ReactElement,
  { nonce, timeoutMs, onError }: { nonce?: string; timeoutMs: number; onError: (error: unknown) => void },
): Promise<RenderedDocument> {
  const chunks = context.serverHandoffStream ? await readAll(context.serverHandoffStream) : null;
  // Each render its own context: the chunks as a fresh stream, React Router's cache of them, and the
  // handler's state it changes (which loaders hydrate), so that nothing of a first render's reading
  // is in a second's.
  const renderContext = (): EntryContext =>
    chunks
      ? {
          ...context,
          serverHandoffStream: replay(chunks),
          renderMeta: { ...context.renderMeta, streamCache: streamCache(chunks) } as EntryContext["renderMeta"],
          staticHandlerContext: { ...context.staticHandlerContext },
        }
      : context;
  let markup: string | null = null;
  try {
    markup = renderToString(app(renderContext()));
  } catch {
    // A component that threw (or suspended outside a boundary): the streaming render reports it.
  }
  if (markup !== null && !UNFINISHED_BOUNDARY.test(markup)) {
    return { html: documentBytes(markup), streamed: false, failed: false };
  }
  return { ...(await renderStreaming(app(renderContext()), { nonce, timeoutMs, onError })), streamed: true };
}

/** React's streaming render, collected whole once everything is ready. */
function renderStreaming(
  element: ReactElement,
  { nonce, timeoutMs, onError }: { nonce?: string; timeoutMs: number; onError: (error: unknown) => void },
): Promise<Omit<RenderedDocument, "streamed">> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let ready = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), timeoutMs);
    const parts: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        parts.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        timeoutId = undefined;
        resolve({ html: Buffer.concat(parts), failed });
        callback();
      },
    });
    body.on("error", reject);
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      onAllReady() {
        ready = true;
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timeoutId);
        reject(error);
      },
      onError(error: unknown) {
        failed = true;
        if (ready) onError(error);
      },
    });
  });
}
