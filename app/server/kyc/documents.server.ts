import { Readable } from "node:stream";
import busboy from "busboy";
import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { type DocumentKind, judgeFile, type SniffedType } from "../../domain/kyc/documents.ts";
import { borrowerDocuments } from "../db/schema.ts";
import type { StoredFile } from "../storage/storage.server.ts";

type Services = Pick<AppServices, "db" | "storage" | "now">;

export async function listDocuments({ db }: Pick<AppServices, "db">, userId: string) {
  return db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
}

/** One document, only if it belongs to `userId` (a foreign id is the same as a missing one). */
export async function getDocument({ db }: Pick<AppServices, "db">, userId: string, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(borrowerDocuments).where(and(eq(borrowerDocuments.id, id), eq(borrowerDocuments.userId, userId)));
  return row ?? null;
}

export async function deleteDocument(services: Services, userId: string, id: string) {
  const doc = await getDocument(services, userId, id);
  if (!doc) return false;
  await services.db.delete(borrowerDocuments).where(and(eq(borrowerDocuments.id, id), eq(borrowerDocuments.userId, userId)));
  await services.storage.remove(doc.storageKey);
  return true;
}

/** Streams a multipart form: its text fields, and its one file to temporary storage. */
export async function receiveUpload(services: Services, request: Request, maxBytes: number) {
  const fields: Record<string, string> = {};
  let file: (StoredFile & { name: string }) | null = null;
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.startsWith("multipart/form-data") || !request.body) return { fields, file };
  await new Promise<void>((resolve, reject) => {
    const parser = busboy({ headers: { "content-type": contentType }, limits: { files: 1, fields: 10, fieldSize: 1000 } });
    const writes: Promise<void>[] = [];
    parser.on("field", (name, value) => {
      fields[name] = value;
    });
    parser.on("file", (_name, stream, info) => {
      writes.push(
        services.storage.writeTemp(stream, maxBytes).then((stored) => {
          file = { ...stored, name: info.filename ?? "" };
        }),
      );
    });
    parser.on("error", reject);
    parser.on("close", () => Promise.all(writes).then(() => resolve(), reject));
    Readable.fromWeb(request.body as import("node:stream/web").ReadableStream).pipe(parser);
  });
  return { fields, file: file as (StoredFile & { name: string }) | null };
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
  file: (StoredFile & { name: string }) | null,
  { maxBytes, allowed }: { maxBytes: number; allowed: readonly SniffedType[] },
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!file || (!file.name && file.size === 0)) {
    if (file) await services.storage.remove(file.key);
    return { ok: false, message: "Choose a file to upload." };
  }
  if (file.tooLarge) {
    await services.storage.remove(file.key);
    return { ok: false, message: `This file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB. Upload a smaller file or a clearer scan at lower resolution.` };
  }
  const judged = judgeFile({ head: file.head, tail: file.tail, size: file.size, name: file.name }, allowed);
  if (!judged.ok) {
    await services.storage.remove(file.key);
    return { ok: false, message: judged.message };
  }
  const storageKey = await services.storage.commit(file.key);
  const previous = await services.db
    .select()
    .from(borrowerDocuments)
    .where(and(eq(borrowerDocuments.userId, userId), eq(borrowerDocuments.kind, kind)));
  await services.db.transaction(async (tx) => {
    await tx.delete(borrowerDocuments).where(and(eq(borrowerDocuments.userId, userId), eq(borrowerDocuments.kind, kind)));
    await tx.insert(borrowerDocuments).values({
      userId,
      kind,
      contentType: judged.type,
      sizeBytes: file.size,
      sha256: file.sha256,
      storageKey,
      originalName: file.name.slice(0, 200),
      uploadedAt: services.now(),
    });
  });
  for (const old of previous) await services.storage.remove(old.storageKey);
  return { ok: true };
}
