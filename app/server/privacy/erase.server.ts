// Carrying out an erasure (docs/product.md "Data rights"): the plan as of now (what the law keeps and
// until when) applied to every borrower table of the registry (tables.server.ts), in the caller's
// transaction. Kept: the groups the plan keeps, the requests themselves (the record that we
// answered), and what the registry keeps out of the borrower's reach. An account nothing keeps is
// emptied (no mobile, no name, no sign-in) rather than deleted, so the records that must name it still do.
import { and, eq, getTableName, ne, sql } from "drizzle-orm";
import { type AnyPgColumn, getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import type { Language } from "../../i18n/languages.ts";
import { accountStays, type ErasureGroup } from "../../domain/privacy/requests.ts";
import {
  accrualBasis,
  bookPositions,
  dataBreachBorrowers,
  dataRequests,
  journalEntries,
  journalLines,
  loanApplications,
  loanLedger,
  monthEndClasses,
  payments,
  payouts,
  reconExceptions,
  statementLines,
  users,
} from "../db/schema.ts";
import { erasurePlanNow } from "./rights.server.ts";
import { BORROWER_TABLES, type BorrowerTable, type Keep } from "./tables.server.ts";

const GROUP_OF: Record<Keep, ErasureGroup> = { kyc: "kyc", loan: "loan", none: "other" };

/**
 * The lender's books: never changed (journals refuse it) and never erased. When a borrower's loan
 * records go, an application the journals name stays as a bare key (its reference, product, amounts,
 * status and dates), no longer linked to the person, and the books with it.
 */
const LENDERS_BOOKS: readonly PgTable[] = [
  journalEntries,
  journalLines,
  bookPositions,
  accrualBasis,
  monthEndClasses,
  statementLines,
  reconExceptions,
];

/**
 * Tables an erasure does not delete from: the account (emptied instead), the requests (the record
 * of the answer), and the breach register's list of those a breach affected and when each was told
 * (the Board's report rests on it).
 */
/** The tables of a loan's money trail, by the column naming its application: kept for a loan the journals name. */
const TRAIL = new Map<PgTable, AnyPgColumn>([
  [loanApplications, loanApplications.id],
  [loanLedger, loanLedger.applicationId],
  [payouts, payouts.applicationId],
  [payments, payments.applicationId],
]);

const NOT_DELETED = new Set<PgTable>([users, dataRequests, dataBreachBorrowers, ...LENDERS_BOOKS]);

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
  /** The language the account read messages in (its last SMS is written in it). */
  language: Language;
  summary: Record<string, number>;
}

/**
 * Erases what the plan of today does not keep for the borrower of erasure request `requestId`, in
 * `services.db` (the caller's transaction), and notes on the request which groups are now erased.
 */
export async function eraseBorrower(
  services: Pick<AppServices, "db" | "now">,
  { userId, requestId }: { userId: string; requestId: string },
): Promise<Erased> {
  const { db } = services;
  const plan = await erasurePlanNow(services, userId);
  const erasedGroups = new Set(plan.filter((i) => i.action === "erase").map((i) => i.group));
  await db
    .update(dataRequests)
    .set({ details: sql`${dataRequests.details} || ${JSON.stringify({ erasedGroups: [...erasedGroups].sort() })}::jsonb` })
    .where(eq(dataRequests.id, requestId));
  const accountErased = !accountStays(plan);
  const [account] = await db
    .select({ mobile: users.mobile, language: users.language })
    .from(users)
    .where(sql`${users.id} = ${userId}`);
  const files: string[] = [];
  const summary: Record<string, number> = {};
  let rows = 0;
  const erasable = BORROWER_TABLES.filter((e) => erasedGroups.has(GROUP_OF[e.keep]) && !NOT_DELETED.has(e.table));
  for (const entry of deletionOrder(erasable)) {
    // The money trail of a loan the books name (its application kept bare, its ledger, payouts and payments) stays with the books.
    if (entry.table === loanApplications) await bareBooked(services, userId);
    const trail = TRAIL.get(entry.table);
    const where = trail
      ? and(entry.where(userId), sql`not exists (select 1 from ${journalEntries} where ${journalEntries.applicationId} = ${trail})`)
      : entry.where(userId);
    if (!where) continue;
    // The storage keys of the rows deleted, as the delete saw them (a file moved into storage meanwhile is not missed).
    const keyColumns = (entry.files ?? []).filter((f) => f.in === "storage");
    const deleted = await db
      .delete(entry.table)
      .where(where)
      .returning({
        one: sql<number>`1`,
        ...Object.fromEntries(keyColumns.map((f, i) => [`key${i}`, sql<string | null>`${sql.identifier(f.column)}`])),
      });
    for (const row of deleted as Record<string, unknown>[])
      for (const [name, key] of Object.entries(row)) if (name !== "one" && typeof key === "string") files.push(key);
    const n = deleted.length;
    if (n) summary[getTableName(entry.table)] = n;
    rows += n;
  }
  if (accountErased) {
    // The other requests: any still open is closed with why, and what a correction asked (free text about them) goes.
    await db
      .update(dataRequests)
      .set({
        status: "refused",
        answeredAt: services.now(),
        answer: "Your data was erased at your request, so this request was closed.",
      })
      .where(and(eq(dataRequests.userId, userId), eq(dataRequests.status, "open"), ne(dataRequests.id, requestId)));
    await db
      .update(dataRequests)
      .set({ details: sql`'{}'::jsonb` })
      .where(and(eq(dataRequests.userId, userId), eq(dataRequests.kind, "correction")));
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
  return { rows, files, accountErased, mobile: account?.mobile ?? null, language: account?.language ?? "en", summary };
}

/**
 * The daily run's part (docs/product.md "Data rights"): each erasure carried out that kept records
 * erases them once the day they were kept until has passed (KYC records after 5 years, loan records
 * after 8); returns how many borrowers had more erased. Files go after each one's commit.
 */
export async function eraseExpired(services: Pick<AppServices, "db" | "now" | "storage">): Promise<number> {
  const waiting = await services.db
    .select({ id: dataRequests.id, userId: dataRequests.userId, details: dataRequests.details })
    .from(dataRequests)
    .where(
      and(
        eq(dataRequests.kind, "erasure"),
        eq(dataRequests.status, "done"),
        sql`not coalesce(${dataRequests.details} -> 'erasedGroups' ?& array['kyc', 'loan', 'other'], false)`,
      ),
    );
  let erased = 0;
  for (const r of waiting) {
    const done = new Set((r.details.erasedGroups as string[] | undefined) ?? []);
    const plan = await erasurePlanNow(services, r.userId);
    if (plan.every((i) => i.action === "keep" || done.has(i.group))) continue;
    const result = await services.db.transaction((tx) => eraseBorrower({ ...services, db: tx }, { userId: r.userId, requestId: r.id }));
    await removeFiles(services, result.files);
    erased += 1;
  }
  return erased;
}

/** Stored files of erased rows, removed once the rows' erasure committed (a file already gone is no error). */
export const removeFiles = (services: Pick<AppServices, "storage">, keys: readonly string[]) =>
  Promise.all(keys.map((key) => services.storage.remove(key).catch(() => undefined)));

/**
 * The borrower's applications the journals name, kept as bare keys: what the person wrote and the
 * account's details taken off; they stay under the account's id, whose identity is erased by then
 * (KYC records go 3 years before loan records). Returns how many, which the caller deletes nothing of.
 */
async function bareBooked({ db }: Pick<AppServices, "db">, userId: string): Promise<number> {
  const bare = await db
    .update(loanApplications)
    .set({ purposeDetails: null, disbursalAccount: null, offer: null, statusReason: null, decisionNote: null })
    .where(
      and(
        eq(loanApplications.userId, userId),
        sql`exists (select 1 from ${journalEntries} where ${journalEntries.applicationId} = ${loanApplications.id})`,
      ),
    )
    .returning({ id: loanApplications.id });
  return bare.length;
}
