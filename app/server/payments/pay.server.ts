/**
 * Repayments (docs/product.md "Loan servicing"): Pay now starts an order at the gateway; what the
 * gateway says about it (webhook, the borrower's return, our own question) is applied once, in one
 * transaction with the loan locked: a captured payment of the ordered amount goes to the ledger
 * (keyed by the payment, so a second delivery changes nothing), any penal charge an on-time payment
 * no longer warrants is reversed, the loan closes when nothing is owed, and the borrower gets an
 * SMS. An amount that differs from the order is held for staff.
 */
import { and, eq, gt, inArray, isNotNull, lt } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { KIND_NAME } from "../../domain/loans/application.ts";
import { amountFor, PAYMENT_REFERENCE, type PayNow } from "../../domain/loans/pay-now.ts";

import { formatRupees } from "../../domain/money.ts";
import { istDayEnd, todayIST } from "../../domain/india-date.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanApplications, loanLedger, payments, users } from "../db/schema.ts";
import { businessToday } from "../loan-account/account.server.ts";
import { newPaymentReference, paymentApplied } from "../loan-account/ledger-change.server.ts";
import { ownLoanLedger, payableToday } from "../loan-account/read.server.ts";
import type { PaymentEvent } from "./gateway.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;
type Payment = typeof payments.$inferSelect;

/** An order is open at the gateway this long. */
const ORDER_MINUTES = 30;

/**
 * Pay now: the order at the gateway for what the borrower chose, on their own active loan (scoped
 * in the query). The checkout URL to send them to, or the field and message to show.
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
  if (a.status !== "active") return { ok: false, field: "form", message: "This loan is not open for payments." };
  const today = businessToday(services);
  const { payable } = payableToday(a.product, loan.terms, loan.events, today);
  const chosen = amountFor(form, payable);
  if (!chosen.ok) return chosen;
  const at = services.now();
  // The amount to close the loan is the day's: such an order ends at midnight (India), and none is taken in the last minutes.
  const endOfDay = istDayEnd(today).getTime();
  const closing = form.choice === "payoff" || form.choice === "cooling_off";
  const expiresAt = new Date(closing ? Math.min(at.getTime() + ORDER_MINUTES * 60_000, endOfDay) : at.getTime() + ORDER_MINUTES * 60_000);
  if (closing && endOfDay - at.getTime() < 16 * 60_000)
    return { ok: false, field: "choice", message: "The amount to close the loan changes at midnight: please pay it after 00:00." };
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
    return { ok: false, field: "form", message: "The payment service did not answer. Nothing was charged; please try again in a minute." };
  }
}

export type PaymentApplied = "captured" | "held" | "failed" | "cancelled" | "pending" | "unchanged" | "unknown";

/**
 * What the gateway says about one of our orders, applied once: the loan and the payment locked in
 * one transaction, so a webhook delivered twice, a webhook racing the borrower's return, or events
 * arriving out of order change nothing a second time.
 */
export async function applyPaymentEvent(services: Services, event: PaymentEvent): Promise<PaymentApplied> {
  const at = services.now();
  const where = event.providerOrderId
    ? and(eq(payments.provider, services.payments.name), eq(payments.providerOrderId, event.providerOrderId))
    : event.reference
      ? and(eq(payments.provider, services.payments.name), eq(payments.reference, event.reference))
      : null;
  if (!where) return "unknown";
  const [owner] = await services.db.select({ applicationId: payments.applicationId, id: payments.id }).from(payments).where(where);
  if (!owner) {
    services.log.warn(
      { providerOrderId: event.providerOrderId, reference: event.reference },
      "a payment event for an order this application did not make",
    );
    return "unknown";
  }
  return services.db.transaction(async (tx) => {
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.id, owner.applicationId)).for("update");
    const [p] = await tx.select().from(payments).where(eq(payments.id, owner.id)).for("update");
    if (!a || !p) return "unknown";
    // What every audit row of the gateway's answer names: the order.
    const order = { reference: p.reference, provider: p.provider };
    const open = p.status === "created" || p.status === "pending" || p.status === "failed" || p.status === "cancelled";
    if (event.state === "captured") {
      if (!open) {
        if (event.providerPaymentId && p.providerPaymentId && event.providerPaymentId !== p.providerPaymentId) {
          // A second payment on one order: money arrived that nothing expects; staff must look.
          services.log.error(
            { reference: p.reference, first: p.providerPaymentId, second: event.providerPaymentId },
            "a second payment on one order",
          );
          await audit(
            { db: tx },
            {
              by: "system",
              at,
              action: "payment.second_capture",
              subject: applicationSubject(a.id),
              details: { ...order, providerPaymentId: event.providerPaymentId, amountPaise: event.amountPaise },
            },
          );
        }
        return "unchanged";
      }
      if (event.amountPaise === null) return "pending";
      const paidAt = event.at ?? at;
      const businessDate = todayIST(paidAt);
      const base = {
        providerPaymentId: event.providerPaymentId,
        receivedPaise: event.amountPaise,
        paidAt,
        businessDate,
        failureReason: null,
        updatedAt: at,
      };
      if (event.amountPaise !== p.amountPaise) {
        await tx
          .update(payments)
          .set({
            ...base,
            status: "held",
            failureReason: `Received ${formatRupees(event.amountPaise)} for an order of ${formatRupees(p.amountPaise)}`,
          })
          .where(eq(payments.id, p.id));
        await audit(
          { db: tx },
          {
            by: "system",
            at,
            action: "payment.held",
            subject: applicationSubject(a.id),
            details: {
              ...order,
              expectedPaise: p.amountPaise,
              receivedPaise: event.amountPaise,
              providerPaymentId: event.providerPaymentId,
            },
          },
        );
        return "held";
      }
      await tx
        .update(payments)
        .set({ ...base, status: "captured" })
        .where(eq(payments.id, p.id));
      await tx
        .insert(loanLedger)
        .values({
          applicationId: a.id,
          kind: "payment",
          principalPaise: 0,
          amountPaise: p.amountPaise,
          businessDate,
          paymentId: p.id,
          details: {
            reference: p.reference,
            provider: p.provider,
            providerPaymentId: event.providerPaymentId,
            purpose: p.purpose,
            prepay: p.prepay,
            method: event.method?.kind ?? null,
            methodDetail: event.method?.detail ?? null,
          },
          recordedAt: at,
        })
        .onConflictDoNothing();
      await audit(
        { db: tx },
        {
          by: "system",
          at,
          action: "payment.captured",
          subject: applicationSubject(a.id),
          details: { ...order, amountPaise: p.amountPaise, businessDate, providerPaymentId: event.providerPaymentId },
        },
      );
      await paymentApplied(
        { ...services, db: tx },
        { application: a, payment: { id: p.id, amountPaise: p.amountPaise, businessDate }, at },
      );
      return "captured";
    }
    if (!open || p.status === event.state) return "unchanged";
    if (event.state === "failed" || event.state === "cancelled") {
      await tx
        .update(payments)
        .set({ status: event.state, failureReason: event.failureReason, updatedAt: at })
        .where(eq(payments.id, p.id));
      return event.state;
    }
    if (p.status === "created") await tx.update(payments).set({ status: "pending", updatedAt: at }).where(eq(payments.id, p.id));
    return "pending";
  });
}

/** A gateway's webhook: signature checked, then applied once. */
export async function receivePaymentWebhook(
  services: Services,
  rawBody: string,
  headers: Headers,
): Promise<PaymentApplied | "bad_signature" | "ignored"> {
  const event = services.payments.webhook(rawBody, headers);
  if (event === "bad_signature" || event === "ignored") return event;
  if (!event.providerOrderId && event.reference) {
    // An event that names only our reference (payment.captured carries the link's notes, not the link)
    // is not trusted to say which order it paid: the gateway is asked about the order itself.
    const [p] = await services.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, services.payments.name), eq(payments.reference, event.reference)));
    return p ? checkPayment(services, p) : "unknown";
  }
  return applyPaymentEvent(services, event);
}

/** Asks the gateway about an order still without a final answer, and applies what it says. */
export async function checkPayment(
  services: Services,
  p: Pick<Payment, "providerOrderId" | "provider" | "status">,
): Promise<PaymentApplied> {
  // A failed try can be followed by a paid one on the same order (a payment link takes another try).
  if (!p.providerOrderId || p.provider !== services.payments.name || !["created", "pending", "failed"].includes(p.status))
    return "unchanged";
  return applyPaymentEvent(services, await services.payments.fetch(p.providerOrderId));
}

/**
 * The borrower's return from the gateway: the query's signature checked; a payment it reports is
 * confirmed with the gateway (the return carries no amount) before it is applied. Where to send
 * the borrower: `/{state}/{reference}`, or null when the return is not the gateway's.
 */
export async function returnFromGateway(services: Services, query: URLSearchParams): Promise<string | null> {
  const event = services.payments.callback(query);
  if (event === "bad_signature" || event === "ignored") return null;
  const where = event.providerOrderId
    ? and(eq(payments.provider, services.payments.name), eq(payments.providerOrderId, event.providerOrderId))
    : event.reference
      ? and(eq(payments.provider, services.payments.name), eq(payments.reference, event.reference))
      : null;
  if (!where) return null;
  const [p] = await services.db.select().from(payments).where(where);
  if (!p) return null;
  try {
    await checkPayment(services, p);
  } catch (error) {
    services.log.warn({ err: error, reference: p.reference }, "the payment gateway did not answer on the borrower's return");
  }
  const [now] = await services.db.select({ status: payments.status }).from(payments).where(eq(payments.id, p.id));
  return `/${outcomeState(now?.status ?? p.status)}/${p.reference}`;
}

/** The `/{state}/{id}` a payment's status comes back to. */
export const outcomeState = (status: Payment["status"]) =>
  status === "captured" ? "success" : status === "failed" ? "failure" : status === "cancelled" ? "cancelled" : "pending";

/** One of the borrower's own payments by its reference (scoped in the query), with its loan; asked about again while waiting. */
export async function ownPayment(services: Services, { userId, reference }: { userId: string; reference: string }) {
  if (!PAYMENT_REFERENCE.test(reference)) return null;
  const read = () =>
    services.db
      .select({
        payment: payments,
        loanNumber: loanApplications.loanNumber,
        kind: loanApplications.product,
        loanStatus: loanApplications.status,
      })
      .from(payments)
      .innerJoin(loanApplications, eq(loanApplications.id, payments.applicationId))
      .where(and(eq(payments.reference, reference), eq(payments.userId, userId)));
  let [row] = await read();
  if (!row) return null;
  if (
    (row.payment.status === "created" || row.payment.status === "pending") &&
    services.now().getTime() - row.payment.createdAt.getTime() > 5_000
  ) {
    try {
      await checkPayment(services, row.payment);
      [row] = await read();
    } catch (error) {
      services.log.warn({ err: error, reference }, "the payment gateway did not answer a status question");
    }
  }
  return row ?? null;
}

/**
 * Repayments the gateway never told us the end of (a lost webhook, a borrower who closed the tab):
 * orders from the last day, older than 5 minutes, asked about; what the gateway says is applied.
 */
export async function sweepPayments(services: Services): Promise<number> {
  const at = services.now().getTime();
  const waiting = await services.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.provider, services.payments.name),
        inArray(payments.status, ["created", "pending"]),
        isNotNull(payments.providerOrderId),
        lt(payments.createdAt, new Date(at - 5 * 60_000)),
        gt(payments.createdAt, new Date(at - 24 * 3600_000)),
      ),
    );
  for (const p of waiting) {
    try {
      await checkPayment(services, p);
    } catch (error) {
      services.log.warn({ err: error, reference: p.reference }, "the payment gateway did not answer a sweep question");
    }
  }
  return waiting.length;
}
