import { Readable } from "node:stream";
import busboy from "busboy";
import { data } from "react-router";
import type { AppServices } from "../context.ts";
import { hasControlCharacter } from "../domain/validators/text.ts";
import { translator } from "../i18n/messages.server.ts";
import type { Upload } from "../server/kyc/documents.server.ts";
import { languageOfRequest } from "./i18n.server.ts";

type Services = Pick<AppServices, "storage" | "log">;

/** The file could not be written (the disk, not the form): the borrower is told to try again later. */
class StorageFailure extends Error {
  constructor(cause: unknown) {
    super("the upload could not be stored", { cause });
  }
}

type Refusal = "notMultipart" | "unreadable" | "notStored" | "cutOff" | "controlCharacter";

/** An answer refusing the upload, in the request's language (staff pages' uploads are English). */
const uploadRefused = (request: Request, status: number, refusal: Refusal) =>
  data({ message: translator(languageOfRequest(request), "profileSections")(`upload.${refusal}`) }, { status });

/**
 * Streams a multipart form: its text fields, and its one file to temporary
 * storage. A body that is not a multipart form, one cut off before its end, or
 * a client that goes away half-way is answered 400 (or 415), a file the storage cannot
 * write 503, leaving nothing on disk.
 */
export async function receiveUpload(
  services: Services,
  request: Request,
  maxBytes: number,
): Promise<{ fields: Record<string, string>; file: Upload | null }> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) {
    throw uploadRefused(request, 415, "notMultipart");
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": contentType }, limits: { files: 1, fields: 10, fieldSize: 1000, parts: 12 } });
  } catch {
    throw uploadRefused(request, 400, "unreadable");
  }
  const fields: Record<string, string> = {};
  const writes: Promise<Upload>[] = [];
  const receiving = new Set<Readable>();
  parser.on("field", (name, value) => {
    fields[name] = value;
  });
  parser.on("file", (_name, stream, info) => {
    receiving.add(stream);
    stream.once("close", () => receiving.delete(stream));
    const write = services.storage.writeTemp(stream, maxBytes).then((stored) => ({ ...stored, name: info.filename ?? "" }));
    // A write that fails (a full disk) ends the file's stream, after which busboy would wait for ever
    // for it to be read: reading the form stops at once. Otherwise a failed write is settled below,
    // after the whole body is read.
    write.catch((error: unknown) => parser.destroy(new StorageFailure(error)));
    writes.push(write);
  });
  const notStored = (cause: unknown) => {
    services.log.error({ err: cause }, "an upload could not be stored");
    return uploadRefused(request, 503, "notStored");
  };
  const discard = async () => {
    const settled = await Promise.allSettled(writes);
    for (const result of settled) if (result.status === "fulfilled") await services.storage.remove(result.value.key);
  };
  const source = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  try {
    await new Promise<void>((resolve, reject) => {
      // Listeners that stay: busboy may report more than one error for one bad form.
      source.on("error", reject);
      parser.on("error", reject);
      parser.once("close", resolve);
      source.pipe(parser);
    });
  } catch (error) {
    // A form busboy cannot read (cut off, malformed, over its limits): reading stops, but the request
    // is not destroyed, which would close the connection under the answer; what is left of it (its
    // declared length is within the route's limit) is drained once the answer is sent (server/web-request.ts).
    source.unpipe(parser);
    source.pause();
    parser.destroy();
    // Cut off or abandoned: a file still being received will never end; end it so its temporary object goes.
    for (const stream of receiving) stream.destroy(new Error("the upload ended early"));
    await discard();
    if (error instanceof StorageFailure) throw notStored(error.cause);
    throw uploadRefused(request, 400, "cutOff");
  }
  const settled = await Promise.allSettled(writes);
  const stored = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const failed = settled.find((r) => r.status === "rejected");
  if (failed || Object.entries(fields).some(([name, value]) => hasControlCharacter(name) || hasControlCharacter(value))) {
    for (const file of stored) await services.storage.remove(file.key);
    // The whole form was read: a write that failed all the same failed on our side.
    if (failed) throw notStored(failed.reason);
    throw uploadRefused(request, 400, "controlCharacter");
  }
  return { fields, file: stored[0] ?? null };
}

/** An upload's bytes as stored (it is at most the route's limit: `receiveUpload` stopped keeping bytes past it). */
export async function uploadedBytes(services: Pick<AppServices, "storage">, key: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of services.storage.read(key)) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(parts);
}
