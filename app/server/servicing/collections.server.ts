/**
 * The collections queue's read model (docs/product.md "Loan servicing"): active loans past due by
 * bucket, and the counts the staff home shows.
 */
import { and, asc, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { BUCKETS } from "../../domain/loans/servicing.ts";
import { borrowerProfiles, collectionNotes, loanAccounts, loanApplications, users } from "../db/schema.ts";

/** The collections queue: active loans past due in a bucket, most days past due first, with the latest contact note. */
export async function collectionsQueue(
  { db }: Pick<AppServices, "db">,
  { minDpd, maxDpd, page }: { minDpd: number; maxDpd: number | null; page: number },
) {
  const perPage = 50;
  const list = await db
    .select({
      id: loanApplications.id,
      loanNumber: loanApplications.loanNumber,
      kind: loanApplications.product,
      dpd: loanAccounts.dpd,
      overduePaise: loanAccounts.overduePaise,
      penalDuePaise: loanAccounts.penalDuePaise,
      outstandingPrincipalPaise: loanAccounts.outstandingPrincipalPaise,
      name: borrowerProfiles.fullName,
      mobile: users.mobile,
    })
    .from(loanAccounts)
    .innerJoin(loanApplications, and(eq(loanApplications.id, loanAccounts.applicationId), eq(loanApplications.status, "active")))
    .innerJoin(users, eq(users.id, loanApplications.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, loanApplications.userId))
    .where(and(gte(loanAccounts.dpd, minDpd), maxDpd === null ? undefined : lte(loanAccounts.dpd, maxDpd)))
    .orderBy(desc(loanAccounts.dpd), asc(loanApplications.loanNumber))
    .limit(perPage + 1)
    .offset((page - 1) * perPage);
  const shown = list.slice(0, perPage);
  const notes = shown.length
    ? await db
        .selectDistinctOn([collectionNotes.applicationId], {
          applicationId: collectionNotes.applicationId,
          outcome: collectionNotes.outcome,
          createdAt: collectionNotes.createdAt,
          followUpOn: collectionNotes.followUpOn,
        })
        .from(collectionNotes)
        .where(
          inArray(
            collectionNotes.applicationId,
            shown.map((r) => r.id),
          ),
        )
        .orderBy(collectionNotes.applicationId, desc(collectionNotes.createdAt))
    : [];
  const latest = new Map(notes.map((n) => [n.applicationId, n]));
  return {
    more: list.length > perPage,
    rows: shown.map(({ id, ...r }) => {
      const n = latest.get(id);
      return { ...r, lastOutcome: n?.outcome ?? null, lastNoteAt: n?.createdAt.toISOString() ?? null, followUpOn: n?.followUpOn ?? null };
    }),
  };
}

const BUCKET_OF_DPD = sql<string>`case when ${loanAccounts.dpd} <= 0 then 'current' when ${loanAccounts.dpd} <= 30 then 'SMA-0' when ${loanAccounts.dpd} <= 60 then 'SMA-1' when ${loanAccounts.dpd} <= 90 then 'SMA-2' else 'NPA' end`;

/** How many active loans, their principal outstanding and what is overdue, in each bucket (the collections tabs and the portfolio report). */
export async function bucketCounts({ db }: Pick<AppServices, "db">) {
  const rows = await db
    .select({
      bucket: BUCKET_OF_DPD,
      loans: sql<number>`count(*)::int`,
      outstanding: sql<string>`coalesce(sum(${loanAccounts.outstandingPrincipalPaise}), 0)::text`,
      overdue: sql<string>`coalesce(sum(${loanAccounts.overduePaise} + ${loanAccounts.penalDuePaise}), 0)::text`,
    })
    .from(loanAccounts)
    .innerJoin(loanApplications, and(eq(loanApplications.id, loanAccounts.applicationId), eq(loanApplications.status, "active")))
    .groupBy(BUCKET_OF_DPD);
  const by = new Map(rows.map((r) => [r.bucket, r]));
  return BUCKETS.map((bucket) => {
    const r = by.get(bucket);
    return { bucket, loans: Number(r?.loans ?? 0), outstandingPaise: Number(r?.outstanding ?? 0), overduePaise: Number(r?.overdue ?? 0) };
  });
}

/** The staff home's count: active loans past due (1 day or more), what the collections queue works. */
export async function overdueLoanCount({ db }: Pick<AppServices, "db">): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(loanAccounts)
    .innerJoin(loanApplications, and(eq(loanApplications.id, loanAccounts.applicationId), eq(loanApplications.status, "active")))
    .where(gte(loanAccounts.dpd, 1));
  return Number(row?.n ?? 0);
}
