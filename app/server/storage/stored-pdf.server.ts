// Reading a generated PDF kept in file storage (its key in the row) or, from before migration 0037,
// in the row itself (bytea), with the SHA-256 the row recorded for it checked on the way out.
import { createHash } from "node:crypto";
import { Readable, Transform } from "node:stream";
import type { FileStorage } from "./storage.server.ts";

/** A stored PDF as its row has it: exactly one of `bytes` (a row from before the move) and `key` is set. */
export interface StoredPdf {
  bytes: Buffer | null;
  key: string | null;
  /** SHA-256 (hex) of the PDF, as recorded when it was issued. */
  sha256: string;
}

export class PdfHashMismatch extends Error {
  constructor(where: string) {
    super(`the stored PDF ${where} does not match the SHA-256 recorded for it`);
  }
}

const describe = (pdf: StoredPdf) => (pdf.key ? `at ${pdf.key}` : "in its row");

/** Passes the PDF through and fails at its end when the bytes are not the ones recorded. */
function checked(pdf: StoredPdf): Transform {
  const hash = createHash("sha256");
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      callback(hash.digest("hex") === pdf.sha256 ? null : new PdfHashMismatch(describe(pdf)));
    },
  });
}

/** The PDF as a stream, checked against its recorded hash (a mismatch ends the stream with an error). */
export function pdfStream(storage: FileStorage, pdf: StoredPdf): Readable {
  const source = pdf.key ? storage.read(pdf.key) : Readable.from([pdf.bytes ?? Buffer.alloc(0)]);
  const out = checked(pdf);
  source.on("error", (error) => out.destroy(error));
  return source.pipe(out);
}

/** The PDF's bytes, read whole and checked against its recorded hash. */
export async function pdfBytes(storage: FileStorage, pdf: StoredPdf): Promise<Buffer> {
  const chunks: Buffer[] = [];
  if (pdf.key) for await (const chunk of storage.read(pdf.key)) chunks.push(chunk as Buffer);
  const bytes = pdf.key ? Buffer.concat(chunks) : (pdf.bytes ?? Buffer.alloc(0));
  if (createHash("sha256").update(bytes).digest("hex") !== pdf.sha256) throw new PdfHashMismatch(describe(pdf));
  return bytes;
}
