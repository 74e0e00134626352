import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { loanAccounts, loanApplications, payments } from "../db/schema.ts";
import { bucketCounts } from "./collections.server.ts";

/**
 * The portfolio (docs/product.md "Loan servicing"): what is lent and outstanding now, by RBI bucket
 * (from each loan's figures as of the last ledger change or daily run), and what was collected in
 * the period (payments received, by their business date; reversed ones left out).
 */
export async function portfolio({ db }: Pick<AppServices, "db">, range: { from: IsoDate; to: IsoDate }) {
  const [buckets, [lent], [collected]] = await Promise.all([
    bucketCounts({ db }),
    db
      .select({
        loans: sql<number>`count(*)::int`,
        principal: sql<string>`coalesce(sum(${loanAccounts.principalPaise}), 0)::text`,
        closed: sql<number>`(count(*) filter (where ${loanApplications.status} = 'closed'))::int`,
        writtenOff: sql<number>`(count(*) filter (where ${loanApplications.status} = 'written_off'))::int`,
      })
      .from(loanAccounts)
      .innerJoin(loanApplications, eq(loanApplications.id, loanAccounts.applicationId)),
    db
      .select({ payments: sql<number>`count(*)::int`, amount: sql<string>`coalesce(sum(${payments.amountPaise}), 0)::text` })
      .from(payments)
      .where(and(inArray(payments.status, ["captured"]), gte(payments.businessDate, range.from), lte(payments.businessDate, range.to))),
  ]);
  return {
    buckets,
    active: buckets.reduce((s, b) => s + b.loans, 0),
    outstandingPaise: buckets.reduce((s, b) => s + b.outstandingPaise, 0),
    lent: {
      loans: Number(lent?.loans ?? 0),
      principalPaise: Number(lent?.principal ?? 0),
      closed: Number(lent?.closed ?? 0),
      writtenOff: Number(lent?.writtenOff ?? 0),
    },
    collected: { payments: Number(collected?.payments ?? 0), amountPaise: Number(collected?.amount ?? 0) },
  };
}
