/**
 * An autopay debit that paid an instalment already paid (the borrower paid by Pay now, or operations
 * recorded a payment, after the debit was presented): what it paid beyond what was due is held as an
 * advance, and refunded to the verified account on the next working day (within 2 working days)
 * unless the borrower keeps it as an advance towards the next instalments (docs/product.md "Autopay").
 * A debit the provider took after the loan was written off is held apart and returned.
 */
import { and, eq, gt, isNull, lte } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import type { LoanKind } from "../../domain/loans/application.ts";
import { excessRefundDate } from "../../domain/loans/autopay.ts";
import { loanPath, replay } from "../../domain/loans/servicing.ts";
import { todayIST } from "../../domain/india-date.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanApplications, mandateDebits, mandates, payments } from "../db/schema.ts";
import { businessToday, ledgerOf, lockLoan, termsOf } from "../loan-account/account.server.ts";
import { newPaymentReference } from "../loan-account/ledger-change.server.ts";
import { notify } from "../notifications/notify.server.ts";
import { requestRefund } from "../payouts/refund.server.ts";
import { lockDebit, type MandateDebit } from "./debit-rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payouts" | "keyring">;

/**
 * A debit that just succeeded and left `excessPaise` as an advance (in the caller's transaction, the
 * loan and the debit locked): kept on the debit with its refund day, and the borrower told.
 */
export async function holdExcess(
  services: Pick<AppServices, "db" | "config" | "now" | "jobs" | "log">,
  {
    debit: d,
    excessPaise,
    loan,
  }: { debit: MandateDebit; excessPaise: number; loan: { userId: string; loanNumber: string; product: LoanKind } },
) {
  const at = services.now();
  const refundOn = excessRefundDate(todayIST(at), services.config.holidays);
  await services.db.update(mandateDebits).set({ excessPaise, excessRefundOn: refundOn, updatedAt: at }).where(eq(mandateDebits.id, d.id));
  const [m] = await services.db.select({ accountMasked: mandates.accountMasked }).from(mandates).where(eq(mandates.id, d.mandateId));
  await notify(services, {
    userId: loan.userId,
    event: "autopay_excess",
    key: d.id,
    data: {
      loanNumber: loan.loanNumber,
      loanPath: loanPath(loan.product, loan.loanNumber),
      amountPaise: excessPaise,
      presentOn: d.presentOn,
      refundOn,
      accountMasked: m?.accountMasked ?? "",
    },
  });
}

export type ExcessResult =
  | { ok: true; choice: "keep" | "none"; message: string }
  | { ok: true; choice: "refund"; message: string; amountPaise: number; accountMasked: string }
  | { ok: false; reason: "not_found" | "already_decided" | "refund_in_flight" | "no_account" };

/**
 * The borrower's (or, on its refund day, the system's) decision about a debit's excess: kept as an
 * advance, or refunded, for at most what the loan still holds as an advance (an instalment that fell
 * due since may have used some; a loan settled since refunds its whole excess the usual way).
 */
export async function decideExcess(
  services: Services,
  {
    reference,
    userId,
    loanNumber,
    choice,
    client,
  }: { reference: string; userId: string | null; loanNumber?: string; choice: "keep" | "refund"; client: Client | null },
): Promise<ExcessResult> {
  const at = services.now();
  return services.db.transaction(async (tx): Promise<ExcessResult> => {
    const [owner] = await tx
      .select({ id: mandateDebits.id, applicationId: mandateDebits.applicationId })
      .from(mandateDebits)
      .where(and(eq(mandateDebits.reference, reference), userId ? eq(mandateDebits.userId, userId) : undefined));
    if (!owner) return { ok: false, reason: "not_found" };
    // The loan first, then the debit: the order a debit's answer locks them in.
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.id, owner.applicationId)).for("update");
    const d = await lockDebit({ db: tx }, owner.id);
    if (!a || !d || d.excessPaise <= 0 || (loanNumber && a.loanNumber !== loanNumber)) return { ok: false, reason: "not_found" };
    if (d.excessChoice !== null) return { ok: false, reason: "already_decided" };
    const by = userId ? ({ userId } as const) : ("system" as const);
    const record = async (made: "keep" | "refund" | "none", amountPaise: number, payoutId: string | null) => {
      await tx.update(mandateDebits).set({ excessChoice: made, excessPayoutId: payoutId, updatedAt: at }).where(eq(mandateDebits.id, d.id));
      await audit(
        { db: tx },
        {
          by: by === "system" ? "system" : { id: by.userId, role: "borrower" },
          client,
          at,
          action: `mandate_debit.excess_${made}`,
          subject: applicationSubject(a.id),
          details: { reference: d.reference, excessPaise: d.excessPaise, amountPaise },
        },
      );
    };
    if (choice === "keep") {
      await record("keep", d.excessPaise, null);
      return { ok: true, choice: "keep", message: "Kept as an advance: it pays your next instalments as they fall due." };
    }
    const found = await termsOf({ ...services, db: tx }, a.id);
    const state = found && replay(found.terms, (await ledgerOf({ db: tx }, a.id)).events, businessToday(services));
    const amountPaise = state && !state.settlement && a.status === "active" ? Math.min(d.excessPaise, state.advancePaise) : 0;
    if (amountPaise <= 0) {
      await record("none", 0, null);
      return { ok: true, choice: "none", message: "Nothing is left to refund: the loan has used it for what it owed." };
    }
    const sent = await requestRefund(
      { ...services, db: tx },
      { applicationId: a.id, amountPaise, by: "system", client, details: { debitReference: d.reference, fromAdvance: true } },
    );
    if (!sent.ok) return { ok: false, reason: sent.reason as "refund_in_flight" | "no_account" };
    await record("refund", amountPaise, sent.payoutId);
    return { ok: true, choice: "refund", message: sent.message, amountPaise, accountMasked: sent.accountMasked };
  });
}

/** The excesses whose refund day has come and that nobody decided about: refunded (the 10-minute sweep). */
export async function refundDueExcesses(services: Services) {
  const today = businessToday(services);
  const due = await services.db
    .select({ reference: mandateDebits.reference })
    .from(mandateDebits)
    .where(and(gt(mandateDebits.excessPaise, 0), isNull(mandateDebits.excessChoice), lte(mandateDebits.excessRefundOn, today)))
    .limit(500);
  let refunded = 0;
  for (const { reference } of due) {
    const done = await decideExcess(services, { reference, userId: null, choice: "refund", client: null });
    if (done.ok) refunded++;
    else if (done.reason !== "already_decided")
      services.log.warn({ reference, reason: done.reason }, "the excess of an autopay debit was not refunded on its day; tried again");
  }
  return refunded;
}

/**
 * An autopay debit the provider took after the loan was written off (its mandate ended then): kept
 * as a held payment, never in the loan's ledger, to be returned by `returnHeldDebits`.
 */
export async function holdLateDebit(
  { db }: Pick<AppServices, "db">,
  {
    application: a,
    debit: d,
    provider,
    event,
    amountPaise,
    at,
  }: {
    application: { id: string; userId: string };
    debit: MandateDebit;
    provider: string;
    event: { providerPaymentId: string; at?: Date | null };
    amountPaise: number;
    at: Date;
  },
) {
  const [p] = await db
    .insert(payments)
    .values({
      reference: newPaymentReference(),
      applicationId: a.id,
      userId: a.userId,
      provider,
      purpose: "due",
      mode: "autopay",
      amountPaise,
      receivedPaise: amountPaise,
      providerPaymentId: event.providerPaymentId,
      paidAt: event.at ?? at,
      businessDate: d.presentOn,
      status: "held",
      failureReason: LATE_DEBIT_HELD,
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: payments.id, reference: payments.reference });
  if (!p) throw new Error("the late debit was not stored");
  return p;
}

/** Why a debit after a write-off is held, as staff read it. */
export const LATE_DEBIT_HELD = "Debited after the loan was written off and its autopay ended: returned to the borrower";

/**
 * The held autopay debits of a written-off loan, each returned to the account the loan was paid
 * into (one refund at a time: answers "refund_in_flight" while one is on its way). The payment is
 * marked reversed while its refund is on its way or done; a refund that fails leaves it held.
 */
export async function returnHeldDebits(services: Services, { loanNumber }: { loanNumber: string }) {
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a || a.status !== "written_off") return { returned: 0, waiting: false };
    const held = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.applicationId, a.id), eq(payments.status, "held"), eq(payments.mode, "autopay")));
    for (const p of held) {
      const sent = await requestRefund(
        { ...services, db: tx },
        {
          applicationId: a.id,
          amountPaise: p.receivedPaise ?? p.amountPaise,
          by: "system",
          client: null,
          details: { returnsPayment: p.reference },
          returnsPaymentId: p.id,
        },
      );
      if (!sent.ok) return { returned: 0, waiting: true };
      await tx.update(payments).set({ status: "reversed", updatedAt: services.now() }).where(eq(payments.id, p.id));
      // One refund at a time: the next held debit waits for this one's answer.
      return { returned: 1, waiting: held.length > 1 };
    }
    return { returned: 0, waiting: false };
  });
}
