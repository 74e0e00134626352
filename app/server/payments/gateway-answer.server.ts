/**
 * Repayments (docs/product.md "Loan servicing"): what the gateway says about an order (webhook, the
 * borrower's return, our own question, the sweep of orders never answered) is applied once, in one
 * transaction with the loan locked: a captured payment of the ordered amount goes to the loan
 * account's ledger (keyed by the payment, so a second delivery changes nothing) and the loan
 * account does the rest (app/server/loan-account/ledger-change.server.ts); an amount that differs
 * from the order is held for staff.
 */
import { and, eq, gt, inArray, isNotNull, lt } from "drizzle-orm";
import type { AppServices } from "../../context.ts";

import { formatRupees } from "../../domain/money.ts";
import { todayIST } from "../../domain/india-date.ts";
import { bookHeldReceipt } from "../books/held.server.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanApplications, payments } from "../db/schema.ts";
import { paymentApplied, paymentEntry } from "../loan-account/ledger-change.server.ts";
import type { PaymentEvent } from "./gateway.server.ts";
type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;
type Payment = typeof payments.$inferSelect;

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
        // The money is at the gateway all the same: in the books, not applied to the loan.
        await bookHeldReceipt({ ...services, db: tx }, { paymentId: p.id });
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
      await paymentEntry(
        { db: tx },
        {
          applicationId: a.id,
          payment: { ...p, businessDate },
          details: {
            provider: p.provider,
            providerPaymentId: event.providerPaymentId,
            purpose: p.purpose,
            prepay: p.prepay,
            method: event.method?.kind ?? null,
            methodDetail: event.method?.detail ?? null,
          },
          at,
        },
      );
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

/** The `/{state}/{id}` a payment's status comes back to. */
export const outcomeState = (status: Payment["status"]) =>
  status === "captured" ? "success" : status === "failed" ? "failure" : status === "cancelled" ? "cancelled" : "pending";
