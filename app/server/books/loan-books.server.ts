/**
 * One loan in the books, for the staff loan page (docs/product.md "The lender's books"): its own
 * journal entries with their lines, the daily accrual summed (the product's entries carry a line
 * per loan), and what each of its accounts holds now, named by the chart in force.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { AccountPurpose } from "../../domain/books/chart.ts";
import { bookPositions, journalEntries, journalLines, loanAccounts } from "../db/schema.ts";
import { chartInForce } from "./rules.server.ts";

export async function loanBooks(services: Pick<AppServices, "db">, applicationId: string) {
  const { db } = services;
  const chart = await chartInForce(services);
  const named = (purpose: AccountPurpose) => {
    const a = chart.accounts.find((x) => x.purpose === purpose);
    return { code: a?.code ?? "", name: a?.name ?? purpose };
  };
  const entries = await db
    .select()
    .from(journalEntries)
    .where(eq(journalEntries.applicationId, applicationId))
    .orderBy(asc(journalEntries.entryNo));
  const lines = entries.length
    ? await db
        .select()
        .from(journalLines)
        .where(
          inArray(
            journalLines.entryId,
            entries.map((e) => e.id),
          ),
        )
        .orderBy(asc(journalLines.id))
    : [];
  const byEntry = Map.groupBy(lines, (l) => l.entryId);
  // The daily accrual: entries of the product, each with a line for this loan.
  const [accrual] = await db
    .select({
      entries: sql<number>`count(distinct ${journalLines.entryId})`.mapWith(Number),
      receivable:
        sql<number>`coalesce(sum(${journalLines.debitPaise} - ${journalLines.creditPaise}) filter (where ${journalLines.purpose} = 'interest_receivable'), 0)`.mapWith(
          Number,
        ),
      suspense:
        sql<number>`coalesce(sum(${journalLines.creditPaise} - ${journalLines.debitPaise}) filter (where ${journalLines.purpose} = 'interest_suspense'), 0)`.mapWith(
          Number,
        ),
      fee: sql<number>`coalesce(sum(${journalLines.debitPaise} - ${journalLines.creditPaise}) filter (where ${journalLines.purpose} = 'deferred_fee_income'), 0)`.mapWith(
        Number,
      ),
    })
    .from(journalLines)
    .innerJoin(journalEntries, and(eq(journalEntries.id, journalLines.entryId), isNull(journalEntries.applicationId)))
    .where(and(eq(journalLines.applicationId, applicationId), eq(journalEntries.kind, "accrual")));
  const positions = await db.select().from(bookPositions).where(eq(bookPositions.applicationId, applicationId));
  const [account] = await db
    .select({
      accruedThrough: loanAccounts.accruedThrough,
      npaSince: loanAccounts.npaSince,
      framework: loanAccounts.framework,
      feePaise: loanAccounts.feePaise,
      feeGstPaise: loanAccounts.feeGstPaise,
      gstSplit: loanAccounts.gstSplit,
    })
    .from(loanAccounts)
    .where(eq(loanAccounts.applicationId, applicationId));
  return {
    account: account ?? null,
    entries: entries.map((e) => ({
      id: e.id,
      entryNo: e.entryNo,
      entryDate: e.entryDate,
      businessDate: e.businessDate,
      kind: e.kind,
      narration: e.narration,
      reverses: e.reversesId ? (entries.find((x) => x.id === e.reversesId)?.entryNo ?? null) : null,
      lines: (byEntry.get(e.id) ?? []).map((l) => ({ ...named(l.purpose), debitPaise: l.debitPaise, creditPaise: l.creditPaise })),
    })),
    accrual: {
      entries: accrual?.entries ?? 0,
      receivablePaise: accrual?.receivable ?? 0,
      suspensePaise: accrual?.suspense ?? 0,
      feePaise: accrual?.fee ?? 0,
    },
    balances: positions
      .filter((p) => p.balancePaise !== 0)
      .map((p) => ({ ...named(p.purpose), balancePaise: p.balancePaise }))
      .sort((a, b) => a.code.localeCompare(b.code)),
  };
}
