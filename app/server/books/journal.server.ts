/**
 * Posting to the books (docs/product.md "The lender's books"): one balanced journal entry at a
 * time, dated in an open month, its lines kept in each loan's positions in the same transaction.
 * Nothing else writes journals; nothing ever changes them (the database refuses it).
 */
import { desc, eq, type SQL, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { type AccountPurpose } from "../../domain/books/chart.ts";
import { entryDateFor, imbalance, type Line, netted, type Positions } from "../../domain/books/positions.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { accountingPeriods, bookPositions, journalEntries, journalLines } from "../db/schema.ts";

type Db = Pick<AppServices, "db">;

/** The rows of a raw statement (the same shape on PGlite and node-postgres). */
export async function rowsOf<T>(db: AppServices["db"], query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export interface EntryInput {
  kind: string;
  businessDate: IsoDate;
  narration: string;
  applicationId?: string | null;
  ledgerId?: string | null;
  reversesId?: string | null;
  sourceKey?: string | null;
  createdBy?: string | null;
  lines: readonly Line[];
}

export type Posted = { id: string; entryDate: IsoDate; lines: Line[] };

/** The latest closed month (YYYY-MM), or null when none is. */
export async function lastClosedMonth({ db }: Db): Promise<string | null> {
  const [last] = await db
    .select({ month: accountingPeriods.month })
    .from(accountingPeriods)
    .orderBy(desc(accountingPeriods.month))
    .limit(1);
  return last?.month ?? null;
}

/** The accounting date an event of `businessDate` is journalled on (the first open day when its month is closed). */
export async function entryDateOf(services: Db, businessDate: IsoDate): Promise<IsoDate> {
  return entryDateFor(businessDate, await lastClosedMonth(services));
}

/**
 * One journal entry with its lines (netted by account and loan; none when they net to nothing),
 * and each loan's positions moved by them. An entry that does not balance to the paisa is a fault
 * in the code that made it: it is refused, and the caller's transaction with it.
 */
export async function postEntry(services: Db & Pick<AppServices, "now">, input: EntryInput): Promise<Posted | null> {
  const lines = netted(input.lines);
  if (lines.length === 0) return null;
  const off = imbalance(lines);
  if (off !== 0) throw new Error(`an unbalanced journal entry (${input.kind}, off by ${off} paise) was refused`);
  const { db } = services;
  const entryDate = await entryDateOf(services, input.businessDate);
  const [entry] = await db
    .insert(journalEntries)
    .values({
      entryDate,
      businessDate: input.businessDate,
      kind: input.kind,
      narration: input.narration,
      applicationId: input.applicationId ?? null,
      ledgerId: input.ledgerId ?? null,
      reversesId: input.reversesId ?? null,
      sourceKey: input.sourceKey ?? null,
      createdBy: input.createdBy ?? null,
      createdAt: services.now(),
    })
    .returning({ id: journalEntries.id });
  if (!entry) throw new Error("the journal entry was not stored");
  await db.insert(journalLines).values(
    lines.map((l) => ({
      entryId: entry.id,
      entryDate,
      purpose: l.purpose,
      applicationId: l.applicationId,
      debitPaise: Math.max(0, l.paise),
      creditPaise: Math.max(0, -l.paise),
      providerRef: l.providerRef ?? null,
    })),
  );
  await movePositions(services, lines);
  return { id: entry.id, entryDate, lines };
}

/** Each loan's positions moved by `lines` (one statement). */
export async function movePositions({ db }: Db, lines: readonly Line[]) {
  const by = new Map<string, { applicationId: string; purpose: AccountPurpose; balancePaise: number }>();
  for (const l of lines) {
    if (!l.applicationId) continue;
    const key = `${l.applicationId}|${l.purpose}`;
    const had = by.get(key);
    if (had) had.balancePaise += l.paise;
    else by.set(key, { applicationId: l.applicationId, purpose: l.purpose, balancePaise: l.paise });
  }
  if (by.size === 0) return;
  await db
    .insert(bookPositions)
    .values([...by.values()])
    .onConflictDoUpdate({
      target: [bookPositions.applicationId, bookPositions.purpose],
      set: { balancePaise: sql`${bookPositions.balancePaise} + excluded.balance_paise` },
    });
}

/** A loan's positions: its balance on each account (debit − credit). */
export async function positionsOfLoan({ db }: Db, applicationId: string): Promise<Positions> {
  const rows = await db.select().from(bookPositions).where(eq(bookPositions.applicationId, applicationId));
  const p: Positions = {};
  for (const r of rows) p[r.purpose] = r.balancePaise;
  return p;
}

/** The lines of an entry, as posted (debit positive). */
export async function linesOf({ db }: Db, entryId: string): Promise<Line[]> {
  const rows = await db.select().from(journalLines).where(eq(journalLines.entryId, entryId));
  return rows.map((r) => ({
    purpose: r.purpose,
    paise: r.debitPaise - r.creditPaise,
    applicationId: r.applicationId,
    providerRef: r.providerRef,
  }));
}

/** The entry that reverses `original` exactly: every line on the other side, dated in an open month. */
export async function reverseEntry(
  services: Db & Pick<AppServices, "now">,
  original: { id: string },
  input: Omit<EntryInput, "lines" | "reversesId">,
): Promise<Posted | null> {
  const lines = await linesOf(services, original.id);
  return postEntry(services, {
    ...input,
    reversesId: original.id,
    lines: lines.map((l) => ({ ...l, paise: -l.paise })),
  });
}
