/**
 * The refund of an overpayment (docs/product.md "Loan servicing"): what the loan account owes back
 * sent to the verified account the loan was disbursed to, through the payout interface; never by
 * the staff member who recorded money in on the loan (four eyes), never two at once.
 */
import { and, eq, max } from "drizzle-orm";
import { isFrozen } from "../aml/screen.server.ts";
import type { AppServices, Client } from "../../context.ts";
import { replay } from "../../domain/loans/servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanApplications, payments, payouts } from "../db/schema.ts";
import { businessToday, ledgerOf, lockLoan, termsOf } from "../loan-account/account.server.ts";
import type { Staff } from "../review/rows.server.ts";
import { askAgain } from "./check.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payouts" | "keyring">;
type RefundResult = { ok: true; message: string; payoutId: string; accountMasked: string } | { ok: false; reason: string };

/**
 * The overpayment sent back to the verified account the loan was disbursed to, through the payout
 * interface: by operations, or by the system for an autopay debit that arrived after the loan ended
 * (docs/product.md "Autopay"), which nobody recorded by hand.
 */
export async function refundOverpayment(
  services: Services,
  { by, client, loanNumber }: { by: Staff | "system"; client: Client | null; loanNumber: string },
): Promise<RefundResult> {
  return services.db.transaction(async (tx): Promise<RefundResult> => {
    const a = await lockLoan({ db: tx }, loanNumber);
    if (!a) return { ok: false, reason: "not_found" };
    const found = await termsOf({ ...services, db: tx }, a.id);
    if (!found) return { ok: false, reason: "not_found" };
    const state = replay(found.terms, (await ledgerOf({ db: tx }, a.id)).events, businessToday(services));
    if (state.refundDuePaise <= 0) return { ok: false, reason: "nothing_to_refund" };
    // Money recorded in and money sent out are never one person's alone (four eyes).
    const [recorded] =
      by === "system"
        ? []
        : await tx
            .select({ id: payments.id })
            .from(payments)
            .where(and(eq(payments.applicationId, a.id), eq(payments.recordedBy, by.id)));
    if (recorded) return { ok: false, reason: "four_eyes_refund" };
    return requestRefund({ ...services, db: tx }, { applicationId: a.id, amountPaise: state.refundDuePaise, by, client });
  });
}

/**
 * A refund payout requested in the caller's transaction (the loan locked by it): `amountPaise` to
 * the account the loan was disbursed to, audited, and the provider asked. Never two at once.
 */
export async function requestRefund(
  services: Services,
  {
    applicationId,
    amountPaise,
    by,
    client,
    details = {},
    returnsPaymentId = null,
  }: {
    applicationId: string;
    amountPaise: number;
    by: Staff | "system";
    client: Client | null;
    details?: Record<string, unknown>;
    /** It returns this payment, never applied to the loan (see `payouts.returnsPaymentId`). */
    returnsPaymentId?: string | null;
  },
): Promise<RefundResult> {
  const tx = services.db;
  const at = services.now();
  const [inFlight] = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.applicationId, applicationId), eq(payouts.purpose, "refund"), eq(payouts.status, "requested")));
  if (inFlight) return { ok: false, reason: "refund_in_flight" };
  // A borrower frozen by a confirmed sanctions match gets no money out, whoever asks.
  const [owner] = await tx.select({ userId: loanApplications.userId }).from(loanApplications).where(eq(loanApplications.id, applicationId));
  if (owner && (await isFrozen({ db: tx }, owner.userId))) return { ok: false, reason: "compliance_hold" };
  const [disbursal] = await tx
    .select()
    .from(payouts)
    .where(and(eq(payouts.applicationId, applicationId), eq(payouts.purpose, "disbursal"), eq(payouts.status, "processed")));
  if (!disbursal) return { ok: false, reason: "no_account" };
  const [last] = await tx
    .select({ n: max(payouts.attempt) })
    .from(payouts)
    .where(eq(payouts.applicationId, applicationId));
  const [payout] = await tx
    .insert(payouts)
    .values({
      applicationId,
      attempt: (last?.n ?? 0) + 1,
      purpose: "refund",
      provider: services.payouts.name,
      status: "requested",
      amountPaise,
      holderName: disbursal.holderName,
      accountNumberEnc: disbursal.accountNumberEnc,
      accountMasked: disbursal.accountMasked,
      ifsc: disbursal.ifsc,
      requestedBy: by === "system" ? null : by.id,
      returnsPaymentId,
      requestedAt: at,
      updatedAt: at,
    })
    .returning({ id: payouts.id });
  if (!payout) throw new Error("the refund was not stored");
  await audit(
    { db: tx },
    {
      by,
      client,
      at,
      action: "refund.requested",
      subject: applicationSubject(applicationId),
      details: { payoutId: payout.id, amountPaise, accountMasked: disbursal.accountMasked, ...details },
    },
  );
  await askAgain(services, payout.id, 0, { db: tx });
  return {
    ok: true,
    message: `Refund of ${formatRupees(amountPaise)} to ${disbursal.accountMasked} requested.`,
    payoutId: payout.id,
    accountMasked: disbursal.accountMasked,
  };
}
