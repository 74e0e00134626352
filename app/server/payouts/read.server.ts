import { and, desc, eq, isNull, type SQLWrapper, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { type BorrowerDisbursal, isStuck } from "../../domain/loans/disbursal.ts";
import { loanApplications, payouts, revisedKfs, users } from "../db/schema.ts";
import { userColumnsReader } from "../db/json-rows.ts";

type Services = Pick<AppServices, "db">;

/**
 * The borrower's disbursals (scoped to the owner in the query): for each application with a
 * payout on its way or processed, what reached which account, the loan number and the first due.
 */
export async function borrowerDisbursals({ db }: Services, userId: string): Promise<BorrowerDisbursal[]> {
  const row = await disbursalsOf(db, userId);
  return disbursalsFromJson(row?.disbursals ?? []);
}
const disbursalsOf = userColumnsReader("disbursals_of_user", (userId) => ({ disbursals: disbursalsColumn(userId) }));

/**
 * `borrowerDisbursals` as JSON (a subquery on `userId`, the owner's id): the dashboard reads it in
 * its one statement. `disbursalsFromJson` reads it.
 */
export const disbursalsColumn = (userId: SQLWrapper) =>
  sql`(select coalesce(json_agg(json_build_object('reference', a.reference, 'loanNumber', a.loan_number, 'disbursalDate', a.disbursal_date, 'payoutStatus', o.status, 'paidOutPaise', o.amount_paise, 'utr', o.utr, 'accountMasked', o.account_masked, 'firstDueDate', (select i.due_date from loan_instalments i where i.application_id = a.id order by i.seq limit 1), 'firstDuePaise', (select i.principal_paise + i.interest_paise from loan_instalments i where i.application_id = a.id order by i.seq limit 1), 'revisedKfs', exists (select 1 from revised_kfs r where r.application_id = a.id and r.superseded_at is null))), '[]') from loan_applications a join payouts o on o.application_id = a.id and o.purpose = 'disbursal' and o.status in ('requested', 'processed') where a.user_id = ${userId})`;

/** The disbursals of `disbursalsColumn`. */
export function disbursalsFromJson(json: unknown): BorrowerDisbursal[] {
  type Row = {
    reference: string;
    loanNumber: string | null;
    disbursalDate: string | null;
    payoutStatus: string;
    paidOutPaise: number;
    utr: string | null;
    accountMasked: string;
    firstDueDate: string | null;
    firstDuePaise: number | null;
    revisedKfs: boolean;
  };
  return (json as Row[]).map((r) => ({
    reference: r.reference,
    inFlight: r.payoutStatus === "requested",
    loanNumber: r.loanNumber,
    disbursalDate: r.disbursalDate,
    paidOutPaise: r.paidOutPaise,
    utr: r.utr,
    accountMasked: r.accountMasked,
    firstDueDate: r.firstDueDate,
    firstDuePaise: r.firstDuePaise === null ? null : Number(r.firstDuePaise),
    revisedKfs: Boolean(r.revisedKfs),
  }));
}

/** The current revised KFS (where it is stored and its hash) of the borrower's own loan, by loan number; null for anyone else's. */
export async function revisedKfsPdf({ db }: Services, { userId, loanNumber }: { userId: string; loanNumber: string }) {
  const [row] = await db
    .select({ pdf: { bytes: revisedKfs.pdf, key: revisedKfs.pdfKey, sha256: revisedKfs.sha256 }, reference: loanApplications.reference })
    .from(revisedKfs)
    .innerJoin(loanApplications, eq(loanApplications.id, revisedKfs.applicationId))
    .where(and(eq(loanApplications.loanNumber, loanNumber), eq(loanApplications.userId, userId), isNull(revisedKfs.supersededAt)));
  return row ?? null;
}

/** Every payout attempt of an application, newest first, for the staff page (with who asked and whether it is stuck). */
export async function payoutsFor({ db, now, config }: Pick<AppServices, "db" | "now" | "config">, applicationId: string) {
  const rows = await db
    .select({
      id: payouts.id,
      attempt: payouts.attempt,
      provider: payouts.provider,
      status: payouts.status,
      amountPaise: payouts.amountPaise,
      accountMasked: payouts.accountMasked,
      ifsc: payouts.ifsc,
      providerPayoutId: payouts.providerPayoutId,
      utr: payouts.utr,
      failureReason: payouts.failureReason,
      requestedAt: payouts.requestedAt,
      providerAt: payouts.providerAt,
      checkedAt: payouts.checkedAt,
      requestedBy: users.name,
    })
    .from(payouts)
    .leftJoin(users, eq(users.id, payouts.requestedBy))
    .where(eq(payouts.applicationId, applicationId))
    .orderBy(desc(payouts.attempt));
  const at = now();
  return rows.map((p) => ({
    ...p,
    stuck: p.status === "requested" && isStuck(p.requestedAt, at, config.payouts.stuckMinutes),
    requestedAt: p.requestedAt.toISOString(),
    providerAt: p.providerAt?.toISOString() ?? null,
    checkedAt: p.checkedAt?.toISOString() ?? null,
  }));
}

/** Payouts on their way, and those of them stuck (no final answer after PAYOUT_STUCK_MINUTES): the staff home's counts. */
export async function payoutCounts({ db, now, config }: Pick<AppServices, "db" | "now" | "config">) {
  const stuckBefore = new Date(now().getTime() - config.payouts.stuckMinutes * 60_000);
  const [row] = await db
    .select({
      inFlight: sql<number>`count(*)::int`,
      stuck: sql<number>`(count(*) filter (where ${payouts.requestedAt} <= ${stuckBefore.toISOString()}))::int`,
    })
    .from(payouts)
    .where(eq(payouts.status, "requested"));
  return { inFlight: Number(row?.inFlight ?? 0), stuck: Number(row?.stuck ?? 0) };
}
