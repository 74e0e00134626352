import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { and, eq } from "drizzle-orm";
import { data } from "react-router";
import type { AppServices } from "../../context.ts";
import { type DocumentKind, fileTooLargeMessage, judgeFile, type SniffedType } from "../../domain/kyc/documents.ts";
import { borrowerDocuments } from "../db/schema.ts";
import { hasControlCharacter, withoutControlCharacters } from "../forms.server.ts";
import type { StoredFile } from "../storage/storage.server.ts";
import { isUuid } from "../../domain/validators/ids.ts";

type Services = Pick<AppServices, "db" | "storage" | "now">;

export async function listDocuments({ db }: Pick<AppServices, "db">, userId: string) {
  return db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
}

/** One document, only if it belongs to `userId` (a foreign id is the same as a missing one). */
export async function getDocument({ db }: Pick<AppServices, "db">, userId: string, id: string) {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(borrowerDocuments)
    .where(and(eq(borrowerDocuments.id, id), eq(borrowerDocuments.userId, userId)));
  return row ?? null;
}

export async function deleteDocument(services: Services, userId: string, id: string) {
  const doc = await getDocument(services, userId, id);
  if (!doc) return false;
  await services.db.delete(borrowerDocuments).where(and(eq(borrowerDocuments.id, id), eq(borrowerDocuments.userId, userId)));
  await services.storage.remove(doc.storageKey);
  return true;
}

type Upload = StoredFile & { name: string };

const uploadRefused = (status: number, message: string) => data({ message }, { status });

/**
 * Streams a multipart form: its text fields, and its one file to temporary
 * storage. A body that is not a multipart form, one cut off before its end, or
 * a client that goes away half-way is answered 400 (or 415), leaving nothing on disk.
 */
export async function receiveUpload(
  services: Services,
  request: Request,
  maxBytes: number,
): Promise<{ fields: Record<string, string>; file: Upload | null }> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) {
    throw uploadRefused(415, "Send the file with the page's upload form.");
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": contentType }, limits: { files: 1, fields: 10, fieldSize: 1000, parts: 12 } });
  } catch {
    throw uploadRefused(400, "The upload could not be read (its parts are not marked). Reload the page and try again.");
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
    // Settled below, after the whole body is read; until then a failed write must not count as unhandled.
    write.catch(() => {});
    writes.push(write);
  });
  const discard = async () => {
    const settled = await Promise.allSettled(writes);
    for (const result of settled) if (result.status === "fulfilled") await services.storage.remove(result.value.key);
  };
  try {
    await pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), parser);
  } catch {
    // Cut off or abandoned: a file still being received will never end; end it so its temporary object goes.
    for (const stream of receiving) stream.destroy(new Error("the upload ended early"));
    await discard();
    throw uploadRefused(400, "The upload did not arrive whole. Check your connection and try again.");
  }
  const settled = await Promise.allSettled(writes);
  const stored = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  if (
    stored.length !== settled.length ||
    Object.entries(fields).some(([name, value]) => hasControlCharacter(name) || hasControlCharacter(value))
  ) {
    for (const file of stored) await services.storage.remove(file.key);
    throw uploadRefused(
      400,
      stored.length !== settled.length
        ? "The upload did not arrive whole. Check your connection and try again."
        : "The form contains a hidden control character. Reload the page and try again.",
    );
  }
  return { fields, file: stored[0] ?? null };
}

/**
 * Checks an uploaded file (size, type by content, completeness, name) and
 * stores it as the borrower's `kind`, replacing an earlier one. A refused
 * file leaves nothing on disk.
 */
export async function storeUpload(
  services: Services,
  userId: string,
  kind: DocumentKind,
  file: Upload | null,
  { maxBytes, allowed }: { maxBytes: number; allowed: readonly SniffedType[] },
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!file || (!file.name && file.size === 0)) {
    if (file) await services.storage.remove(file.key);
    return { ok: false, message: "Choose a file to upload." };
  }
  if (file.tooLarge) {
    await services.storage.remove(file.key);
    return { ok: false, message: fileTooLargeMessage(maxBytes) };
  }
  const judged = judgeFile({ head: file.head, tail: file.tail, size: file.size, name: file.name }, allowed);
  if (!judged.ok) {
    await services.storage.remove(file.key);
    return { ok: false, message: judged.message };
  }
  const storageKey = await services.storage.commit(file.key);
  let previous: { storageKey: string }[];
  try {
    previous = await services.db.transaction(async (tx) => {
      const replaced = await tx
        .delete(borrowerDocuments)
        .where(and(eq(borrowerDocuments.userId, userId), eq(borrowerDocuments.kind, kind)))
        .returning({ storageKey: borrowerDocuments.storageKey });
      await tx.insert(borrowerDocuments).values({
        userId,
        kind,
        contentType: judged.type,
        sizeBytes: file.size,
        sha256: file.sha256,
        storageKey,
        originalName: withoutControlCharacters(file.name).slice(0, 200),
        uploadedAt: services.now(),
      });
      return replaced;
    });
  } catch (error) {
    // Not recorded (the database went away): the file must not stay behind unowned.
    await services.storage.remove(storageKey);
    throw error;
  }
  for (const old of previous) await services.storage.remove(old.storageKey);
  return { ok: true };
}
