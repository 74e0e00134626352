// Carrying out an erasure (docs/product.md "Data rights"): the plan as of now (what the law keeps and
// until when) applied to every borrower table of the registry (tables.server.ts), in the caller's
// transaction. Kept: the groups the plan keeps, the requests themselves (the record that we
// answered), and what the registry keeps out of the borrower's reach. An account nothing keeps is
// emptied (no mobile, no name, no sign-in) rather than deleted, so the records that must name it still do.
import { getTableName, sql } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { accountStays, type ErasureGroup, erasurePlan } from "../../domain/privacy/requests.ts";
import { dataRequests, users } from "../db/schema.ts";
import { erasureFacts } from "./rights.server.ts";
import { BORROWER_TABLES, type BorrowerTable, type Keep } from "./tables.server.ts";

const GROUP_OF: Record<Keep, ErasureGroup> = { kyc: "kyc", loan: "loan", none: "other" };

/** Tables erased by other means than a delete: the account (emptied), and the requests (kept as the answer's record). */
const NOT_DELETED = new Set<PgTable>([users, dataRequests]);

/** Children before their parents: a table is deleted from before any table its foreign keys point to. */
function deletionOrder(entries: readonly BorrowerTable[]): BorrowerTable[] {
  const tables = new Set(entries.map((e) => e.table));
  const parents = new Map(
    entries.map((e) => [
      e.table,
      getTableConfig(e.table)
        .foreignKeys.map((fk) => fk.reference().foreignTable as PgTable)
        .filter((t) => t !== e.table && tables.has(t)),
    ]),
  );
  const ordered: BorrowerTable[] = [];
  const placed = new Set<PgTable>();
  // Repeatedly place every table no unplaced table still points at (its children are all placed).
  while (ordered.length < entries.length) {
    const next = entries.filter(
      (e) =>
        !placed.has(e.table) &&
        entries.every((other) => placed.has(other.table) || other.table === e.table || !parents.get(other.table)?.includes(e.table)),
    );
    if (!next.length) throw new Error("the borrower tables' foreign keys form a cycle");
    for (const e of next) {
      ordered.push(e);
      placed.add(e.table);
    }
  }
  return ordered;
}

export interface Erased {
  rows: number;
  /** Storage keys of the files erased, removed by the caller once the transaction commits. */
  files: string[];
  accountErased: boolean;
  /** The number the account had, for one last message when it is erased. */
  mobile: string | null;
  summary: Record<string, number>;
}

/** Erases what the plan does not keep for `userId`, in `services.db` (the caller's transaction). */
export async function eraseBorrower(
  services: Pick<AppServices, "db" | "now">,
  { userId }: { userId: string; requestId: string },
): Promise<Erased> {
  const { db } = services;
  const plan = erasurePlan(await erasureFacts(services, userId));
  const erasedGroups = new Set(plan.filter((i) => i.action === "erase").map((i) => i.group));
  const accountErased = !accountStays(plan);
  const [account] = await db
    .select({ mobile: users.mobile })
    .from(users)
    .where(sql`${users.id} = ${userId}`);
  const files: string[] = [];
  const summary: Record<string, number> = {};
  let rows = 0;
  const erasable = BORROWER_TABLES.filter((e) => erasedGroups.has(GROUP_OF[e.keep]) && !NOT_DELETED.has(e.table));
  for (const entry of deletionOrder(erasable)) {
    const where = entry.where(userId);
    for (const f of entry.files ?? []) {
      if (f.in !== "storage") continue;
      const found = await db
        .select({ key: sql<string | null>`${sql.identifier(f.column)}` })
        .from(entry.table)
        .where(where);
      for (const r of found) if (r.key) files.push(r.key);
    }
    const n = (
      await db
        .delete(entry.table)
        .where(where)
        .returning({ one: sql<number>`1` })
    ).length;
    if (n) summary[getTableName(entry.table)] = n;
    rows += n;
  }
  if (accountErased) {
    await db
      .update(users)
      .set({
        mobile: null,
        mobileVerifiedAt: null,
        email: null,
        name: null,
        facebookId: null,
        passwordHash: null,
        disabledAt: services.now(),
        erasedAt: services.now(),
      })
      .where(sql`${users.id} = ${userId}`);
    summary.users = 1;
  }
  return { rows, files, accountErased, mobile: account?.mobile ?? null, summary };
}
