/**
 * The staff loan page's read model (docs/product.md "Loan servicing"): the loan, its schedule, ledger,
 * payments with what each paid, penal charges, contact notes and refunds, replayed to today.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { bucketOf, nextDue, replay } from "../../domain/loans/servicing.ts";
import { borrowerProfiles, collectionNotes, loanApplications, payments, payouts, users } from "../db/schema.ts";
import { businessToday, ledgerOf, termsOf } from "../loan-account/account.server.ts";
import { loanBooks } from "../books/loan-books.server.ts";
import { penalLines } from "../loan-account/read.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

/** Everything the staff loan page shows. */
export async function staffLoanView(services: Services, loanNumber: string) {
  const [row] = await services.db
    .select({ a: loanApplications, name: borrowerProfiles.fullName, mobile: users.mobile })
    .from(loanApplications)
    .innerJoin(users, eq(users.id, loanApplications.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, loanApplications.userId))
    .where(eq(loanApplications.loanNumber, loanNumber));
  if (!row?.a.disbursalDate) return null;
  const a = row.a;
  const found = await termsOf(services, a.id);
  if (!found) return null;
  const { rows, events } = await ledgerOf(services, a.id);
  const today = businessToday(services);
  const state = replay(found.terms, events, today);
  const paymentRows = await services.db
    .select({ p: payments, recordedBy: users.name })
    .from(payments)
    .leftJoin(users, eq(users.id, payments.recordedBy))
    .where(eq(payments.applicationId, a.id))
    .orderBy(desc(payments.createdAt));
  const staffNames = new Map(
    (
      await services.db
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(sql`${users.role} <> 'borrower'`)
    ).map((u) => [u.id, u.name]),
  );
  const notes = await services.db
    .select({
      id: collectionNotes.id,
      outcome: collectionNotes.outcome,
      channel: collectionNotes.channel,
      note: collectionNotes.note,
      followUpOn: collectionNotes.followUpOn,
      createdAt: collectionNotes.createdAt,
      by: users.name,
    })
    .from(collectionNotes)
    .innerJoin(users, eq(users.id, collectionNotes.staffUserId))
    .where(eq(collectionNotes.applicationId, a.id))
    .orderBy(desc(collectionNotes.createdAt));
  const refunds = await services.db
    .select({
      id: payouts.id,
      status: payouts.status,
      amountPaise: payouts.amountPaise,
      utr: payouts.utr,
      requestedAt: payouts.requestedAt,
    })
    .from(payouts)
    .where(and(eq(payouts.applicationId, a.id), eq(payouts.purpose, "refund")))
    .orderBy(desc(payouts.requestedAt));
  return {
    application: {
      id: a.id,
      reference: a.reference,
      status: a.status,
      kind: a.product,
      loanNumber,
      userId: a.userId,
      disbursalDate: found.terms.disbursalDate,
    },
    borrower: { name: row.name, mobile: row.mobile },
    today,
    terms: {
      principalPaise: found.terms.principalPaise,
      rateBps: found.terms.rateBps,
      tenure: found.terms.instalments.length,
      penalPaise: found.terms.penalPaise,
    },
    state: {
      outstandingPrincipalPaise: state.outstandingPrincipalPaise,
      overduePaise: state.overduePaise,
      penalDuePaise: state.penalDuePaise,
      advancePaise: state.advancePaise,
      refundDuePaise: state.refundDuePaise,
      dpd: state.dpd,
      bucket: bucketOf(state.dpd),
      settlement: state.settlement,
      nextDue: nextDue(state),
    },
    instalments: state.instalments,
    penals: penalLines(rows, state),
    ledger: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      businessDate: r.businessDate,
      amountPaise: r.kind === "disbursal" || r.kind === "disbursal_reversal" ? r.principalPaise : r.amountPaise,
      seq: r.seq,
      by: r.actorUserId ? (staffNames.get(r.actorUserId) ?? "staff") : "system",
      details: r.details,
      recordedAt: r.recordedAt.toISOString(),
    })),
    payments: paymentRows
      .filter(({ p }) => p.status !== "created")
      .map(({ p, recordedBy }) => ({
        reference: p.reference,
        provider: p.provider,
        mode: p.mode,
        providerPaymentId: p.providerPaymentId,
        amountPaise: p.amountPaise,
        receivedPaise: p.receivedPaise,
        status: p.status,
        businessDate: p.businessDate,
        failureReason: p.failureReason,
        recordedBy,
        reversalRequestedBy: p.reversalRequestedBy,
        reversalRequestedByName: p.reversalRequestedBy ? (staffNames.get(p.reversalRequestedBy) ?? "staff") : null,
        reversalReason: p.reversalReason,
        allocation: state.allocations.get(p.id) ?? null,
      })),
    books: await loanBooks(services, a.id),
    notes: notes.map((n) => ({ ...n, createdAt: n.createdAt.toISOString() })),
    refunds: refunds.map((r) => ({ ...r, requestedAt: r.requestedAt.toISOString() })),
  };
}
export type StaffLoanView = NonNullable<Awaited<ReturnType<typeof staffLoanView>>>;
