/**
 * Staff servicing (docs/product.md "Loan servicing"): a payment reversed, asked by one staff member
 * and confirmed by another (four eyes), with the loan locked, audited.
 */
import { and, eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type StaffResult } from "../../domain/loans/staff-servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanLedger, payments, payouts } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { businessToday, lockLoan, lockPayment } from "../loan-account/account.server.ts";
import { afterLedgerChange } from "../loan-account/ledger-change.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

/**
 * Reversing a payment (a bounced cheque, a chargeback): one staff member asks with the reason, a
 * second confirms (never the one who asked, nor who recorded it). Confirmed, the payment leaves the
 * ledger's replay; a loan it had closed opens again.
 */
export async function reversePayment(
  services: Services,
  {
    staff,
    client,
    loanNumber,
    paymentRef,
    step,
    reason,
  }: { staff: Staff; client: Client; loanNumber: string; paymentRef: string; step: "request" | "confirm" | "cancel"; reason?: string },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    const p = await lockPayment({ db: tx }, { applicationId: a.id, reference: paymentRef });
    if (!p || p.status !== "captured") return { ok: false, reason: "not_reversible" };
    if (step === "request") {
      if (p.reversalRequestedBy) return { ok: false, reason: "already_requested" };
      if (!reason) return { ok: false, reason: "reason_missing" };
      await tx
        .update(payments)
        .set({ reversalRequestedBy: staff.id, reversalRequestedAt: at, reversalReason: reason, updatedAt: at })
        .where(eq(payments.id, p.id));
      await audit(
        { db: tx },
        {
          by: staff,
          client,
          at,
          action: "payment.reversal_requested",
          subject: applicationSubject(a.id),
          details: { reference: p.reference, reason },
        },
      );
      return { ok: true, message: "Reversal asked for. A second colleague must confirm it." };
    }
    if (!p.reversalRequestedBy) return { ok: false, reason: "not_requested" };
    if (step === "cancel") {
      await tx
        .update(payments)
        .set({ reversalRequestedBy: null, reversalRequestedAt: null, reversalReason: null, updatedAt: at })
        .where(eq(payments.id, p.id));
      await audit(
        { db: tx },
        {
          by: staff,
          client,
          at,
          action: "payment.reversal_cancelled",
          subject: applicationSubject(a.id),
          details: { reference: p.reference },
        },
      );
      return { ok: true, message: "The reversal request is withdrawn." };
    }
    if (p.reversalRequestedBy === staff.id || p.recordedBy === staff.id) return { ok: false, reason: "four_eyes" };
    const [refunding] = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.applicationId, a.id), eq(payouts.purpose, "refund"), eq(payouts.status, "requested")));
    if (refunding) return { ok: false, reason: "refund_in_flight" };
    const [entry] = await tx
      .select({ id: loanLedger.id })
      .from(loanLedger)
      .where(and(eq(loanLedger.paymentId, p.id), eq(loanLedger.kind, "payment")));
    if (!entry) return { ok: false, reason: "not_reversible" };
    await tx.update(payments).set({ status: "reversed", updatedAt: at }).where(eq(payments.id, p.id));
    await tx.insert(loanLedger).values({
      applicationId: a.id,
      kind: "payment_reversal",
      principalPaise: 0,
      amountPaise: p.amountPaise,
      businessDate: businessToday(services),
      paymentId: p.id,
      refId: entry.id,
      actorUserId: staff.id,
      details: { reference: p.reference, reason: p.reversalReason, requestedBy: p.reversalRequestedBy },
      recordedAt: at,
    });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "payment.reversed",
        subject: applicationSubject(a.id),
        details: { reference: p.reference, amountPaise: p.amountPaise, reason: p.reversalReason, requestedBy: p.reversalRequestedBy },
      },
    );
    await afterLedgerChange({ ...services, db: tx }, { application: a, at });
    return { ok: true, message: `${formatRupees(p.amountPaise)} reversed.` };
  });
}
