import { and, eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type DocumentKind, fileTooLargeMessage, judgeFile, requiredDocuments, type SniffedType } from "../../domain/kyc/documents.ts";
import { audit } from "../audit.server.ts";
import type { User } from "../auth/session.server.ts";
import { borrowerDocuments, borrowerEmployment } from "../db/schema.ts";
import { withoutControlCharacters } from "../../domain/validators/text.ts";
import type { StoredFile } from "../storage/storage.server.ts";
import { isUuid } from "../../domain/validators/ids.ts";
import { msg } from "../../i18n/form-message.ts";

type Services = Pick<AppServices, "db" | "storage" | "now" | "log">;

export async function listDocuments({ db }: Pick<AppServices, "db">, userId: string) {
  return db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId));
}

/** One document, only if it belongs to `userId` (a foreign id is the same as a missing one). */
export async function getDocument({ db }: Pick<AppServices, "db">, { userId, id }: { userId: string; id: string }) {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(borrowerDocuments)
    .where(and(eq(borrowerDocuments.id, id), eq(borrowerDocuments.userId, userId)));
  return row ?? null;
}

/** The documents the borrower's work calls for (salary slips or tax returns), from the Employment section. */
export async function requiredDocumentKinds({ db }: Pick<AppServices, "db">, userId: string) {
  const [job] = await db
    .select({ type: borrowerEmployment.employmentType })
    .from(borrowerEmployment)
    .where(eq(borrowerEmployment.userId, userId));
  const employmentType = job?.type ?? null;
  return { employmentType, kinds: requiredDocuments(employmentType) };
}

/** The borrower's saved selfie, or null. */
export async function selfieOf({ db }: Pick<AppServices, "db">, userId: string) {
  const [selfie] = await db
    .select({ id: borrowerDocuments.id, uploadedAt: borrowerDocuments.uploadedAt })
    .from(borrowerDocuments)
    .where(and(eq(borrowerDocuments.userId, userId), eq(borrowerDocuments.kind, "selfie")));
  return selfie ?? null;
}

/** A borrower's document for a staff member's review, with its view audited; null when there is no such file. */
export async function documentForStaff(
  services: Pick<AppServices, "db" | "storage">,
  { staff, documentId, client }: { staff: Pick<User, "id" | "role">; documentId: string; client: Client },
) {
  if (!isUuid(documentId)) return null;
  const [doc] = await services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.id, documentId));
  if (!doc || !(await services.storage.exists(doc.storageKey))) return null;
  await audit(services, {
    by: staff,
    client,
    at: "database",
    action: "kyc.document_viewed",
    subject: { type: "document", id: doc.id },
    details: { borrower: doc.userId, kind: doc.kind },
  });
  return doc;
}

export async function deleteDocument(services: Services, { userId, id }: { userId: string; id: string }) {
  const doc = await getDocument(services, { userId, id });
  if (!doc) return false;
  await services.db.delete(borrowerDocuments).where(and(eq(borrowerDocuments.id, id), eq(borrowerDocuments.userId, userId)));
  await services.storage.remove(doc.storageKey);
  return true;
}

export type Upload = StoredFile & { name: string };

/**
 * Checks an uploaded file (size, type by content, completeness, name) and
 * stores it as the borrower's `kind`, replacing an earlier one. A refused
 * file leaves nothing on disk.
 */
export async function storeUpload(
  services: Services,
  {
    userId,
    kind,
    file,
    rules: { maxBytes, allowed },
  }: { userId: string; kind: DocumentKind; file: Upload | null; rules: { maxBytes: number; allowed: readonly SniffedType[] } },
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!file || (!file.name && file.size === 0)) {
    if (file) await services.storage.remove(file.key);
    return { ok: false, message: msg("profileSections.upload.noFile") };
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
  let storageKey: string;
  try {
    storageKey = await services.storage.commit(file.key);
  } catch (error) {
    // The storage (a bucket out of reach) did not take it: nothing was kept, and the borrower may try again.
    services.log.error({ err: error }, "an upload could not be kept");
    await services.storage.remove(file.key).catch(() => {});
    return { ok: false, message: msg("profileSections.upload.notStored") };
  }
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
