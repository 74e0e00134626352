import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { borrowerDocuments, bureauRuns, loanDocuments, loanSignatures, revisedKfs } from "../db/schema.ts";

/**
 * Every column that holds a storage key (`docs/<uuid>`): an object under docs/ that none of them
 * names is an orphan, removed by the storage sweep once older than its grace period
 * (sweep.server.ts). A new column holding a key must be added here, or its files will be swept.
 */
export const STORAGE_KEY_COLUMNS = [
  borrowerDocuments.storageKey,
  bureauRuns.fileKey,
  // The generated PDFs (stored-pdf.server.ts).
  loanDocuments.pdfKey,
  loanSignatures.signedPdfKey,
  revisedKfs.pdfKey,
] as const;

/** Whether any row names storage key `key`, in any of STORAGE_KEY_COLUMNS. */
export async function keyNamed(db: Db, key: string): Promise<boolean> {
  for (const column of STORAGE_KEY_COLUMNS) {
    const [row] = await db.select({ key: column }).from(column.table).where(eq(column, key)).limit(1);
    if (row) return true;
  }
  return false;
}
