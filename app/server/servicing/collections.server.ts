/**
 * The loans by RBI bucket (docs/product.md "Loan servicing"): the collections tabs', the portfolio
 * report's and the staff home's counts. The cases themselves: server/collections/read.server.ts.
 */
import { and, eq, gte, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { BUCKETS } from "../../domain/loans/servicing.ts";
import { loanAccounts, loanApplications } from "../db/schema.ts";

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
