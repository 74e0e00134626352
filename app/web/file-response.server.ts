import { Readable } from "node:stream";
import type { AppServices } from "../context.ts";
import { extensionFor } from "../domain/kyc/documents.ts";
import type { borrowerDocuments } from "../server/db/schema.ts";
import { pdfBytes, pdfStream, type StoredPdf } from "../server/storage/stored-pdf.server.ts";

/**
 * A PDF answer: inline (shown) or attachment (downloaded), never cached by shared caches; `body` is
 * the bytes, or a stream (`size` its length when known).
 */
export function pdfResponse(
  body: Uint8Array | Readable,
  filename: string,
  disposition: "inline" | "attachment",
  sha256?: string,
  size?: number,
) {
  const length = body instanceof Readable ? size : body.byteLength;
  const headers = new Headers({
    "Content-Type": "application/pdf",
    "Content-Disposition": `${disposition}; filename="${filename}"`,
    "Cache-Control": "private, no-store",
  });
  if (length !== undefined) headers.set("Content-Length", String(length));
  if (sha256) headers.set("Digest", `sha-256=${Buffer.from(sha256, "hex").toString("base64")}`);
  return new Response(body instanceof Readable ? (Readable.toWeb(body) as ReadableStream) : new Uint8Array(body), { headers });
}

/**
 * A generated PDF streamed from file storage, checked against its recorded hash as it goes (a
 * mismatch cuts the download off); its first bytes are read before the answer starts, so a missing
 * or unreadable object is an error page, not a cut-off download. One from before the move (in its
 * row) is checked whole before it is sent.
 */
export async function storedPdfResponse(
  { storage }: Pick<AppServices, "storage">,
  pdf: StoredPdf,
  filename: string,
  disposition: "inline" | "attachment",
  size?: number,
) {
  // A PDF from before the move is in memory already: checked whole, then sent.
  if (!pdf.key) return pdfResponse(await pdfBytes(storage, pdf), filename, disposition, pdf.sha256);
  return pdfResponse(await started(pdfStream(storage, pdf)), filename, disposition, pdf.sha256, size);
}

/** The same stream, once its first chunk has arrived (an error before it is thrown here). */
async function started(stream: Readable): Promise<Readable> {
  const chunks = stream[Symbol.asyncIterator]();
  const first = await chunks.next();
  const rest = { [Symbol.asyncIterator]: () => chunks };
  return Readable.from(
    (async function* () {
      if (first.done) return;
      yield first.value as Buffer;
      yield* rest;
    })(),
    { objectMode: false },
  );
}

/** A page of a PDF drawn as a PNG (one person's document): never cached by shared caches. */
export function pngResponse(bytes: Uint8Array) {
  return new Response(new Uint8Array(bytes), {
    headers: { "Content-Type": "image/png", "Content-Length": String(bytes.byteLength), "Cache-Control": "private, no-store" },
  });
}

/** A KYC document (decrypted as it streams), inline, never cached by shared caches; `nosniff` comes with every answer (helmet). */
export function documentResponse({ storage }: Pick<AppServices, "storage">, doc: typeof borrowerDocuments.$inferSelect) {
  return new Response(Readable.toWeb(storage.read(doc.storageKey)) as ReadableStream, {
    headers: {
      "Content-Type": doc.contentType,
      "Content-Length": String(doc.sizeBytes),
      "Content-Disposition": `inline; filename="${doc.kind}.${extensionFor(doc.contentType)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/** The headers of a file a staff page offers for download (never cached, never sniffed). */
export const downloadHeaders = (filename: string, contentType: string) => ({
  "Content-Type": contentType,
  "Content-Disposition": `attachment; filename="${filename}"`,
  "Cache-Control": "private, no-store",
  "X-Content-Type-Options": "nosniff",
});

/**
 * A download written as it is read: `head`, then each batch of `batches` as `write` turns it into
 * text, then `tail`; so a large export never sits whole in memory. A batch that fails ends the
 * download with an error; a download the person cancels stops reading.
 */
export function streamedDownload<T>({
  head,
  tail = "",
  batches,
  write,
  filename,
  contentType,
}: {
  head: string;
  tail?: string;
  batches: AsyncGenerator<T[]>;
  write: (rows: T[]) => string;
  filename: string;
  contentType: string;
}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) {
          if (tail) controller.enqueue(encoder.encode(tail));
          controller.close();
        } else controller.enqueue(encoder.encode(write(next.value)));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, { headers: downloadHeaders(filename, contentType) });
}
