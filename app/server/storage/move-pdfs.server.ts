// Moving the PDFs kept in rows (before migration 0037) into file storage (docs/product.md "Key Fact
// Statement, signing and the signed agreement"): each object written first, then its row given the
// key and its bytes taken in one UPDATE that only a row still holding them matches. Two runs at once,
// or a run stopped and started again, never move a PDF twice nor lose one: the loser of a race removes
// the object it wrote, and a run picks up wherever the last one stopped (the rows still holding bytes).
import { createHash } from "node:crypto";
import { and, asc, eq, getTableColumns, gt, isNotNull } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Logger } from "pino";
import type { Db } from "../db/client.ts";
import { putBytes } from "./put-bytes.server.ts";
import { loanDocuments, loanSignatures, revisedKfs } from "../db/schema.ts";
import type { FileStorage } from "./storage.server.ts";

const BATCH = 50;

/** The tables holding generated PDFs: the bytea column of old rows, the storage key of new ones, and the recorded hash. */
const PDF_COLUMNS: readonly {
  table: PgTable;
  name: string;
  id: AnyPgColumn;
  bytes: AnyPgColumn;
  key: AnyPgColumn;
  sha256: AnyPgColumn;
}[] = [
  {
    table: loanDocuments,
    name: "loan_documents",
    id: loanDocuments.id,
    bytes: loanDocuments.pdf,
    key: loanDocuments.pdfKey,
    sha256: loanDocuments.sha256,
  },
  {
    table: loanSignatures,
    name: "loan_signatures",
    id: loanSignatures.id,
    bytes: loanSignatures.signedPdf,
    key: loanSignatures.signedPdfKey,
    sha256: loanSignatures.signedSha256,
  },
  { table: revisedKfs, name: "revised_kfs", id: revisedKfs.id, bytes: revisedKfs.pdf, key: revisedKfs.pdfKey, sha256: revisedKfs.sha256 },
];

/** The name a table's Drizzle object gives a column (what `update().set()` takes). */
function fieldOf(table: PgTable, column: AnyPgColumn): string {
  const found = Object.entries(getTableColumns(table)).find(([, c]) => c === column);
  if (!found) throw new Error(`no field for column ${column.name}`);
  return found[0];
}

export interface MovedPdfs {
  /** Per table (loan_documents, loan_signatures, revised_kfs): PDFs moved by this run. */
  moved: Record<string, number>;
  /** PDFs another run moved first (the object this run wrote is removed again). */
  movedElsewhere: number;
  /** PDFs left in their rows because their bytes do not match the hash recorded for them: someone must look. */
  mismatched: number;
}

/** Moves every PDF still kept in a row into `storage`, in batches; returns what it did. */
export async function movePdfsIntoStorage(db: Db, storage: FileStorage, log?: Pick<Logger, "info" | "warn">): Promise<MovedPdfs> {
  const result: MovedPdfs = { moved: {}, movedElsewhere: 0, mismatched: 0 };
  for (const c of PDF_COLUMNS) {
    let moved = 0;
    const set = (key: string) => ({ [fieldOf(c.table, c.key)]: key, [fieldOf(c.table, c.bytes)]: null }) as never;
    let after: string | null = null;
    for (;;) {
      const rows = (await db
        .select({ id: c.id, bytes: c.bytes, sha256: c.sha256 })
        .from(c.table)
        .where(and(isNotNull(c.bytes), after ? gt(c.id, after) : undefined))
        .orderBy(asc(c.id))
        .limit(BATCH)) as { id: string; bytes: Buffer | null; sha256: string }[];
      for (const row of rows) {
        if (!row.bytes) continue;
        if (createHash("sha256").update(row.bytes).digest("hex") !== row.sha256) {
          result.mismatched++;
          log?.warn({ table: c.name, id: row.id }, "a stored PDF does not match its recorded hash: left in its row");
          continue;
        }
        const stored = await putBytes(storage, row.bytes);
        let taken: unknown[];
        try {
          taken = await db
            .update(c.table)
            .set(set(stored.key))
            .where(and(eq(c.id, row.id), isNotNull(c.bytes)))
            .returning({ id: c.id });
        } catch (error) {
          await storage.remove(stored.key).catch(() => undefined);
          throw error;
        }
        if (taken.length) moved++;
        else {
          result.movedElsewhere++;
          await storage.remove(stored.key).catch(() => undefined);
        }
      }
      const last = rows.at(-1);
      if (!last || rows.length < BATCH) break;
      after = last.id;
    }
    result.moved[c.name] = moved;
    log?.info({ table: c.name, moved }, "PDFs moved into file storage");
  }
  return result;
}
