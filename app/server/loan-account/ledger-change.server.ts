/**
 * A change to a loan's ledger and its consequences (docs/product.md "Loan servicing"): penal
 * charges an on-time payment no longer warrants reversed, the cached figures rewritten, the loan
 * closed (or cancelled, in the cooling-off exit) when nothing is owed or opened again when a
 * reversal takes that away, and the borrower told. Every writer of the ledger (a gateway payment,
 * staff servicing, the daily run) calls this in the transaction that wrote the entry.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { loanPath, type LoanState, nextDue, replay } from "../../domain/loans/servicing.ts";
import { whatItPaid } from "../../domain/notifications.ts";
import { todayIST } from "../../domain/india-date.ts";
import { loanLedger, payments } from "../db/schema.ts";
import { changeStatus } from "../loans/lifecycle.server.ts";
import type { Application } from "../loans/rows.server.ts";
import { notify } from "../notifications/notify.server.ts";
import { cacheState, ledgerOf, refreshAccount, termsOf } from "./account.server.ts";
import { bookLoan } from "../books/book-loan.server.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import type { Instalment } from "../../domain/loans/disbursal.ts";
import { loanInstalments } from "../db/schema.ts";
import { openAccount } from "./open.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs">;

/**
 * A loan disbursed (the payout's answer, the demo's loans): its schedule fixed (replacing one an
 * earlier disbursal fixed), its account opened and the disbursal's entry in its ledger and its
 * journal, in the caller's transaction.
 */
export async function openLoan(
  services: Pick<AppServices, "db" | "config" | "now">,
  {
    applicationId,
    input,
    disbursalDate,
    schedule,
    disbursal,
    at,
  }: {
    applicationId: string;
    input: Parameters<typeof openAccount>[1]["input"];
    disbursalDate: IsoDate;
    schedule: readonly Instalment[];
    /** The disbursal's entry: the payout that paid it (none for the demo), what it says, and when it was recorded. */
    disbursal: { payoutId: string | null; details: Record<string, unknown>; recordedAt: Date };
    at: Date;
  },
) {
  const { db } = services;
  await db.delete(loanInstalments).where(eq(loanInstalments.applicationId, applicationId));
  await db.insert(loanInstalments).values(schedule.map((i) => ({ applicationId, ...i })));
  await openAccount({ db }, { applicationId, input, disbursalDate, at });
  await db.insert(loanLedger).values({
    applicationId,
    kind: "disbursal",
    principalPaise: input.amountPaise,
    businessDate: disbursalDate,
    payoutId: disbursal.payoutId,
    details: disbursal.details,
    recordedAt: disbursal.recordedAt,
  });
  await bookLoan(services, { applicationId });
}

/**
 * After a ledger entry that needs no more than today's figures (a refund, its reversal, an autopay
 * debit's answer): the figures cached and the entry journalled, in the caller's transaction.
 */
export async function ledgerWritten(services: Pick<AppServices, "db" | "config" | "now">, { applicationId }: { applicationId: string }) {
  const refreshed = await refreshAccount(services, { applicationId });
  await bookLoan(services, { applicationId });
  return refreshed;
}

/** A new payment reference (`pm_` and 24 base-32 characters). */
export const newPaymentReference = () => {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  const bytes = randomBytes(24);
  let out = "pm_";
  for (const b of bytes) out += alphabet[b & 31];
  return out;
};

/**
 * A captured payment's entry in the loan's ledger, once (the ledger's unique index on the payment:
 * a second delivery of the same payment writes nothing); the caller then calls `paymentApplied`.
 * Returns whether it was written now.
 */
export async function paymentEntry(
  { db }: Pick<AppServices, "db">,
  {
    applicationId,
    payment: p,
    details,
    actorUserId = null,
    at,
  }: {
    applicationId: string;
    payment: { id: string; reference: string; amountPaise: number; businessDate: string | null };
    /** What the entry says beside the payment's reference (how it was paid). */
    details: Record<string, unknown>;
    actorUserId?: string | null;
    at: Date;
  },
): Promise<boolean> {
  if (!p.businessDate) throw new Error("a payment without a business date cannot enter the ledger");
  const written = await db
    .insert(loanLedger)
    .values({
      applicationId,
      kind: "payment",
      principalPaise: 0,
      amountPaise: p.amountPaise,
      businessDate: p.businessDate,
      paymentId: p.id,
      actorUserId,
      details: { reference: p.reference, ...details },
      recordedAt: at,
    })
    .onConflictDoNothing()
    .returning({ id: loanLedger.id });
  return written.length > 0;
}

/**
 * Money received on a loan, stored as one captured payment and its ledger entry in the caller's
 * transaction (a payment recorded by staff, an autopay debit, the demo's history); the caller
 * audits it and then calls `paymentApplied`. The payment's business date is the entry's.
 */
export async function storeReceivedPayment(
  { db }: Pick<AppServices, "db">,
  {
    application: a,
    payment,
    details,
    actorUserId = null,
    at,
  }: {
    application: Pick<Application, "id" | "userId">;
    payment: Pick<
      typeof payments.$inferInsert,
      "provider" | "purpose" | "amountPaise" | "providerPaymentId" | "paidAt" | "businessDate" | "mode" | "recordedBy"
    > & { businessDate: string };
    /** What the ledger entry says beside the payment's reference (how it was paid). */
    details: Record<string, unknown>;
    actorUserId?: string | null;
    at: Date;
  },
) {
  const [p] = await db
    .insert(payments)
    .values({
      ...payment,
      reference: newPaymentReference(),
      applicationId: a.id,
      userId: a.userId,
      status: "captured",
      receivedPaise: payment.amountPaise,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!p) throw new Error("the payment was not stored");
  await paymentEntry({ db }, { applicationId: a.id, payment: p, details, actorUserId, at });
  return p;
}

/**
 * After a ledger change: penal charges an on-time payment no longer warrants reversed, the cached
 * figures rewritten, and the loan closed (or cancelled, in the cooling-off exit) when nothing is owed.
 */
export async function afterLedgerChange(
  services: Services,
  { application: a, at }: { application: Application; at: Date },
): Promise<LoanState | null> {
  const { db } = services;
  const found = await termsOf(services, a.id);
  if (!found) return null;
  const today = todayIST(at);
  const { events } = await ledgerOf(services, a.id);
  const state = replay(found.terms, events, today);
  for (const id of state.penalsUnwarranted) {
    const [penal] = await db.select().from(loanLedger).where(eq(loanLedger.id, id));
    if (!penal) continue;
    await db
      .insert(loanLedger)
      .values({
        applicationId: a.id,
        kind: "penal_reversal",
        principalPaise: 0,
        amountPaise: penal.amountPaise,
        businessDate: today,
        refId: id,
        seq: penal.seq,
        details: { reason: "A payment made on time arrived after the charge" },
        recordedAt: at,
      })
      .onConflictDoNothing();
  }
  // Reversals change what the ledger gives: read it again; otherwise the state above is today's.
  const refreshed = state.penalsUnwarranted.length
    ? await refreshAccount(services, { applicationId: a.id, asOf: today })
    : await cacheState(services, { applicationId: a.id, state }).then(() => ({ state }));
  if (!refreshed) return null;
  const settled = refreshed.state.settlement;
  if (settled && a.status === "active") {
    const to = settled.how === "cooling_off" ? "cancelled" : "closed";
    await changeStatus(services, {
      application: a,
      to,
      by: { actor: "system", actorUserId: null, reason: to === "closed" ? "Fully repaid" : "Exit within the cooling-off period" },
      at,
      details: { settledOn: settled.on, how: settled.how, refundDuePaise: refreshed.state.refundDuePaise },
    });
    const [closure] = await db
      .insert(loanLedger)
      .values({
        applicationId: a.id,
        kind: "closure",
        principalPaise: 0,
        amountPaise: 0,
        businessDate: settled.on,
        details: { how: settled.how, refundDuePaise: refreshed.state.refundDuePaise },
        recordedAt: at,
      })
      .returning({ id: loanLedger.id });
    if (a.loanNumber && closure)
      await notify(services, {
        userId: a.userId,
        event: to === "closed" ? "loan_closed" : "loan_cancelled",
        key: closure.id,
        data: { loanNumber: a.loanNumber, loanPath: loanPath(a.product, a.loanNumber), on: settled.on },
      });
  } else if (!settled && (a.status === "closed" || a.status === "cancelled") && a.loanNumber) {
    // A reversal took away what closed it: the loan is open again and the borrower told.
    await changeStatus(services, {
      application: a,
      to: "active",
      by: { actor: "system", actorUserId: null, reason: "A payment that closed the loan was reversed" },
      at,
    });
    const [reopening] = await db
      .insert(loanLedger)
      .values({
        applicationId: a.id,
        kind: "reopening",
        principalPaise: 0,
        amountPaise: 0,
        businessDate: today,
        details: { reason: "A payment that closed the loan was reversed" },
        recordedAt: at,
      })
      .returning({ id: loanLedger.id });
    if (reopening)
      await notify(services, {
        userId: a.userId,
        event: "loan_reopened",
        key: reopening.id,
        data: { loanNumber: a.loanNumber, loanPath: loanPath(a.product, a.loanNumber) },
      });
  }
  await bookLoan(services, { applicationId: a.id });
  return refreshed.state;
}

/**
 * A payment just written to the ledger (through the gateway, recorded by staff, or released by
 * them): the ledger's consequences, and the borrower told what it paid and what comes next (a
 * payment that settles the loan is told as its closure instead). Answers what of it the loan now
 * holds as an advance beyond what it held without it (0 once the loan is settled).
 */
export async function paymentApplied(
  services: Services,
  {
    application: a,
    payment: p,
    at,
  }: { application: Application; payment: { id: string; amountPaise: number; businessDate: string }; at: Date },
): Promise<{ advancedPaise: number }> {
  const state = await afterLedgerChange(services, { application: a, at });
  if (!a.loanNumber || !state || state.settlement) return { advancedPaise: 0 };
  // What this payment paid: the loan's figures with and without it.
  const found = await termsOf(services, a.id);
  const { events } = await ledgerOf(services, a.id);
  const before =
    found &&
    replay(
      found.terms,
      events.filter((e) => !(e.kind === "payment" && e.id === p.id)),
      state.asOf,
    );
  const next = nextDue(state);
  await notify(services, {
    userId: a.userId,
    event: "payment_received",
    key: p.id,
    data: {
      amountPaise: p.amountPaise,
      loanNumber: a.loanNumber,
      loanPath: loanPath(a.product, a.loanNumber),
      on: p.businessDate,
      paid: before ? whatItPaid(before, state) : null,
      next:
        state.overduePaise > 0
          ? { kind: "overdue", amountPaise: state.overduePaise + state.penalDuePaise }
          : next
            ? { kind: "due", ...next }
            : { kind: "done" },
    },
  });
  return { advancedPaise: before ? Math.min(p.amountPaise, Math.max(0, state.advancePaise - before.advancePaise)) : 0 };
}
