import { inArray, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { STORAGE_KEY_COLUMNS } from "./key-columns.server.ts";
import type { ListedFile } from "./storage.server.ts";

/**
 * How old an unreferenced object must be before it is swept. A request writes its object first and
 * commits the row naming it after, within seconds; a day is far beyond any request, so an object
 * whose row is still on its way is never taken.
 */
export const SWEEP_GRACE_MS = 24 * 3_600_000;
const BATCH = 500;

/** The keys of `keys` that some row names, in any of STORAGE_KEY_COLUMNS. */
async function referenced(db: AppServices["db"], keys: string[]): Promise<Set<string>> {
  const named = new Set<string>();
  for (const column of STORAGE_KEY_COLUMNS) {
    const rows = await db
      .select({ key: sql<string>`${column}` })
      .from(column.table)
      .where(inArray(column, keys));
    for (const row of rows) named.add(row.key);
  }
  return named;
}

/**
 * Removes the objects under docs/ that no row names and that are older than `graceMs` (an upload
 * whose row was never committed, a file whose row's removal outran its own). Safe on several
 * processes at once: a key is looked up after it is listed, and removing one twice is no error.
 */
export async function sweepOrphans(
  services: Pick<AppServices, "db" | "storage">,
  // The real clock, not the application's: objects' times are the disk's or the bucket's.
  { graceMs = SWEEP_GRACE_MS, now = Date.now() }: { graceMs?: number; now?: number } = {},
): Promise<{ seen: number; removed: number }> {
  const cutoff = now - graceMs;
  let seen = 0;
  let removed = 0;
  let batch: ListedFile[] = [];
  const settle = async () => {
    const named = await referenced(
      services.db,
      batch.map((f) => f.key),
    );
    for (const file of batch) {
      if (named.has(file.key)) continue;
      await services.storage.remove(file.key);
      removed++;
    }
    batch = [];
  };
  for await (const file of services.storage.list()) {
    seen++;
    if (file.modifiedAt.getTime() > cutoff) continue;
    batch.push(file);
    if (batch.length >= BATCH) await settle();
  }
  if (batch.length) await settle();
  return { seen, removed };
}
