/**
 * Posting to the books (docs/product.md "The lender's books"): one balanced journal entry at a
 * time, dated in an open month, its lines kept in each loan's positions in the same transaction.
 * Nothing else writes journals; nothing ever changes them (the database refuses it).
 */
import { randomUUID } from "node:crypto";
import { desc, eq, inArray, type SQL, sql } from "drizzle-orm";
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
  return (await postEntries(services, [input]))[0] ?? null;
}

/**
 * Several journal entries as `postEntry` posts each, in three statements (entries, lines,
 * positions) after one look at the closed months: the daily run's page of penal charges. Entries
 * are numbered in the order given. Answers each input's posting (null where its lines net to
 * nothing), in order.
 */
export async function postEntries(services: Db & Pick<AppServices, "now">, inputs: readonly EntryInput[]): Promise<(Posted | null)[]> {
  const netLines = inputs.map((input) => {
    const lines = netted(input.lines);
    const off = imbalance(lines);
    if (off !== 0) throw new Error(`an unbalanced journal entry (${input.kind}, off by ${off} paise) was refused`);
    return lines;
  });
  if (netLines.every((lines) => lines.length === 0)) return inputs.map(() => null);
  const { db } = services;
  const closed = await lastClosedMonth(services);
  const createdAt = services.now();
  const posted = inputs.map((input, i): Posted | null => {
    const lines = netLines[i] ?? [];
    return lines.length ? { id: randomUUID(), entryDate: entryDateFor(input.businessDate, closed), lines } : null;
  });
  const entries = inputs.flatMap((input, i) => {
    const p = posted[i];
    return p
      ? [
          {
            id: p.id,
            entryDate: p.entryDate,
            businessDate: input.businessDate,
            kind: input.kind,
            narration: input.narration,
            applicationId: input.applicationId ?? null,
            ledgerId: input.ledgerId ?? null,
            reversesId: input.reversesId ?? null,
            sourceKey: input.sourceKey ?? null,
            createdBy: input.createdBy ?? null,
            createdAt,
          },
        ]
      : [];
  });
  const stored = await db.insert(journalEntries).values(entries).returning({ id: journalEntries.id });
  if (stored.length !== entries.length) throw new Error("the journal entries were not stored");
  const lines = posted.flatMap((p) => p?.lines ?? []);
  await db.insert(journalLines).values(
    posted.flatMap((p) =>
      p
        ? p.lines.map((l) => ({
            entryId: p.id,
            entryDate: p.entryDate,
            purpose: l.purpose,
            applicationId: l.applicationId,
            debitPaise: Math.max(0, l.paise),
            creditPaise: Math.max(0, -l.paise),
            providerRef: l.providerRef ?? null,
          }))
        : [],
    ),
  );
  await movePositions(services, lines);
  return posted;
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
export async function positionsOfLoan(services: Db, applicationId: string): Promise<Positions> {
  return (await positionsOfLoans(services, [applicationId])).get(applicationId) ?? {};
}

/** Several loans' positions in one query, by application id (a loan with none: no key). */
export async function positionsOfLoans({ db }: Db, applicationIds: readonly string[]): Promise<Map<string, Positions>> {
  const out = new Map<string, Positions>();
  if (applicationIds.length === 0) return out;
  const rows = await db
    .select()
    .from(bookPositions)
    .where(
      applicationIds.length === 1
        ? eq(bookPositions.applicationId, applicationIds[0] ?? "")
        : inArray(bookPositions.applicationId, [...applicationIds]),
    );
  for (const r of rows) {
    const p = out.get(r.applicationId) ?? {};
    p[r.purpose] = r.balancePaise;
    out.set(r.applicationId, p);
  }
  return out;
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
