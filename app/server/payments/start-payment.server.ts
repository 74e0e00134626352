/**
 * Pay now (docs/product.md "Loan servicing"): an order at the gateway for what the borrower chose
 * on their own active loan; the checkout to send them to, or the field and message to show.
 */
import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { KIND_NAME } from "../../domain/loans/application.ts";
import { amountFor, type PayNow } from "../../domain/loans/pay-now.ts";
import { msg } from "../../i18n/form-message.ts";

import { istDayEnd } from "../../domain/india-date.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { payments, users } from "../db/schema.ts";
import { businessToday } from "../loan-account/account.server.ts";
import { newPaymentReference } from "../loan-account/ledger-change.server.ts";
import { ownLoanLedger, payableToday } from "../loan-account/read.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

/** An order is open at the gateway this long. */
const ORDER_MINUTES = 30;

/**
 * Pay now: the order at the gateway for what the borrower chose, on their own active loan (scoped
 * in the query). The checkout URL to send them to, or the field and message (a key of the catalogue) to show.
 */
export async function startPayment(
  services: Services,
  {
    userId,
    loanNumber,
    form,
    client,
    origin,
  }: {
    userId: string;
    loanNumber: string;
    form: PayNow;
    client: Client;
    /** The site's origin the gateway sends the borrower back to. */ origin: string;
  },
): Promise<{ ok: true; checkoutUrl: string } | { ok: false; field: "choice" | "amount" | "prepay" | "form"; message: string } | null> {
  const loan = await ownLoanLedger(services, { userId, loanNumber });
  if (!loan) return null;
  const a = loan.application;
  if (a.status !== "active") return { ok: false, field: "form", message: msg("loanPay.errors.notOpen") };
  const today = businessToday(services);
  const { payable } = payableToday(a.product, loan.terms, loan.events, today);
  const chosen = amountFor(form, payable);
  if (!chosen.ok) return chosen;
  const at = services.now();
  // The amount to close the loan is the day's: such an order ends at midnight (India), and none is taken in the last minutes.
  const endOfDay = istDayEnd(today).getTime();
  const closing = form.choice === "payoff" || form.choice === "cooling_off";
  const expiresAt = new Date(closing ? Math.min(at.getTime() + ORDER_MINUTES * 60_000, endOfDay) : at.getTime() + ORDER_MINUTES * 60_000);
  if (closing && endOfDay - at.getTime() < 16 * 60_000) return { ok: false, field: "choice", message: msg("loanPay.errors.afterMidnight") };
  const [person] = await services.db
    .select({ name: users.name, mobile: users.mobile, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  const reference = newPaymentReference();
  const [payment] = await services.db
    .insert(payments)
    .values({
      reference,
      applicationId: a.id,
      userId,
      provider: services.payments.name,
      purpose: form.choice,
      prepay: chosen.prepay,
      amountPaise: chosen.amountPaise,
      status: "created",
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!payment) throw new Error("the payment was not stored");
  await audit(services, {
    by: { id: userId, role: "borrower" },
    client,
    at,
    action: "payment.started",
    subject: applicationSubject(a.id),
    details: { reference, amountPaise: chosen.amountPaise, purpose: form.choice, prepay: chosen.prepay },
  });
  try {
    const session = await services.payments.createCheckout({
      reference,
      amountPaise: chosen.amountPaise,
      description: `${KIND_NAME[a.product]} ${loanNumber}`,
      customer: { name: person?.name ?? "Borrower", mobile: person?.mobile ?? "", email: person?.email ?? null },
      callbackUrl: `${origin}/api/payments/${services.payments.name}/return`,
      expiresAt,
    });
    await services.db
      .update(payments)
      .set({ providerOrderId: session.providerOrderId, checkoutUrl: session.checkoutUrl, updatedAt: services.now() })
      .where(eq(payments.id, payment.id));
    return { ok: true, checkoutUrl: session.checkoutUrl };
  } catch (error) {
    services.log.warn({ err: error, reference }, "the payment gateway did not take the order");
    await services.db
      .update(payments)
      .set({ status: "failed", failureReason: "The payment gateway could not be reached", updatedAt: services.now() })
      .where(eq(payments.id, payment.id));
    return { ok: false, field: "form", message: msg("loanPay.errors.gatewaySilent") };
  }
}
