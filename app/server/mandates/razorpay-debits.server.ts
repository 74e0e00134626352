// Autopay debits through Razorpay recurring payments (docs/product.md "Autopay"; the mandate side
// is razorpay.server.ts): each debit is an order and a recurring payment on the mandate's token.
//
// Fields relied on, as Razorpay's API documentation (its markdown copy in the repository
// razorpay/razorpay-php-testapp, branch markdown-docs: llm-content/api/payments/recurring-payments/
// {emandate,upi}/create-subsequent-payments.md, webhooks.md, llm-content/api/orders/fetch-all.md
// and fetch-payments.md) describes them:
// - Order (POST /v1/orders): amount, currency "INR", receipt (at most 40 characters), notes,
//   payment_capture true. Orders by receipt: GET /v1/orders?receipt=… (items[] of {id, amount,
//   receipt, notes, status created | attempted | paid}); an order's payments: GET
//   /v1/orders/{id}/payments. No further payment is accepted on an order once it is paid.
// - Recurring payment (POST /v1/payments/create/recurring): email, contact, amount (the order's),
//   currency, order_id, customer_id, token (the token's id), recurring true, description, notes. The
//   answer names razorpay_payment_id. A refusal (HTTP 400, BAD_REQUEST_ERROR: a token cancelled at
//   the bank, an amount above the mandate's maximum) is the bank's answer for us: a failed debit.
// - Payment (GET /v1/payments/{id}): status created | authorized | captured | refunded | failed,
//   amount, notes, error_description, created_at; webhooks payment.captured and payment.failed
//   carry the same entity (payload.payment.entity), signed as razorpay.server.ts checks.
//
// Idempotency: Razorpay takes no idempotency key for payments, so the key (our debit's id) is kept
// in the order's notes and its receipt is our debit's reference; a presentation sent again (after a
// dropped connection; the app waits two minutes before it does) finds its order by receipt and
// answers with the payment already on it, creating one only when there is none. What this relies
// on: that an order and a payment Razorpay created are listed when asked two minutes later.
import type { DebitEvent, DebitOrder, MandateProvider } from "./provider.server.ts";
import {
  authorisationOf,
  fromUnix,
  isInt,
  itemsOf,
  nonEmpty,
  noteOf,
  type RazorpayCall,
  type RazorpayEntity,
  RazorpayRefusal,
} from "./razorpay-api.server.ts";

/** A debit Razorpay refused outright is named by its order (it has no payment). */
const REFUSED_PREFIX = "order_";

/** What a payment says of the debit it is; `at`: the event's time, when a webhook told it. */
function debitEventOf(payment: RazorpayEntity, at: Date | null): DebitEvent {
  const base = {
    providerPaymentId: String(payment.id),
    reference: noteOf(payment, "reference"),
    amountPaise: isInt(payment.amount) ? payment.amount : null,
  };
  switch (payment.status) {
    // Refunded later (by us, by hand) the debit still took the money: it was captured.
    case "captured":
    case "refunded":
      return { ...base, state: "captured", reason: null, at: fromUnix(payment.captured_at) ?? at ?? fromUnix(payment.created_at) };
    case "failed":
      return { ...base, state: "failed", reason: nonEmpty(payment.error_description) ?? "The bank returned the debit", at };
    default:
      return { ...base, state: "pending", reason: null, at: null };
  }
}

/** A debit's payment event (payment.captured, payment.failed on a recurring payment of ours), or "ignored". */
export function debitWebhook(name: string, payment: RazorpayEntity, at: Date | null): { debit: DebitEvent } | "ignored" {
  if (name !== "payment.captured" && name !== "payment.failed") return "ignored";
  // Our debit references (`dd_…`): what tells our debits from other products' payments on the same account.
  if (!nonEmpty(payment.id) || noteOf(payment, "reference")?.startsWith("dd_") !== true) return "ignored";
  const debit = debitEventOf({ ...payment, status: name === "payment.captured" ? "captured" : "failed" }, at);
  return { debit };
}

export function razorpayDebits(call: RazorpayCall): Pick<MandateProvider, "present" | "fetchDebit"> {
  /** An order's debit: its latest payment's, named by the order when Razorpay refused to make one. */
  async function orderDebit(order: RazorpayEntity): Promise<DebitEvent | null> {
    const [payment] = itemsOf(await call("GET", `/orders/${encodeURIComponent(String(order.id))}/payments`));
    return payment ? debitEventOf(payment, null) : null;
  }

  return {
    async present(order: DebitOrder): Promise<DebitEvent> {
      const sent = itemsOf(await call("GET", `/orders?receipt=${encodeURIComponent(order.reference)}`)).find(
        (o) => o.receipt === order.reference && noteOf(o, "key") === order.key,
      );
      if (sent && sent.amount !== order.amountPaise) throw new Error("A debit with this idempotency key was presented with another amount");
      const already = sent ? await orderDebit(sent) : null;
      if (already) return already;

      const mandate = await authorisationOf(call, order.providerMandateId);
      if (!mandate.payment || !mandate.customerId || !mandate.tokenId)
        throw new Error(`Razorpay's mandate ${order.providerMandateId} has no token to debit`);
      const notes = { reference: order.reference, key: order.key };
      const placed =
        sent ??
        (await call("POST", "/orders", {
          amount: order.amountPaise,
          currency: "INR",
          receipt: order.reference,
          notes,
          payment_capture: true,
        }));
      const orderId = nonEmpty(placed.id);
      if (!orderId) throw new Error("Razorpay POST /orders answered without an id");
      try {
        const made = await call("POST", "/payments/create/recurring", {
          email: mandate.payment.email,
          contact: mandate.payment.contact,
          amount: order.amountPaise,
          currency: "INR",
          order_id: orderId,
          customer_id: mandate.customerId,
          token: mandate.tokenId,
          recurring: true,
          description: order.description,
          notes,
        });
        const paymentId = nonEmpty(made.razorpay_payment_id);
        if (!paymentId) throw new Error("Razorpay POST /payments/create/recurring answered without razorpay_payment_id");
        return {
          providerPaymentId: paymentId,
          reference: order.reference,
          state: "pending",
          amountPaise: order.amountPaise,
          reason: null,
          at: null,
        };
      } catch (error) {
        if (!(error instanceof RazorpayRefusal)) throw error;
        return {
          providerPaymentId: orderId,
          reference: order.reference,
          state: "failed",
          amountPaise: null,
          reason: error.description,
          at: null,
        };
      }
    },

    async fetchDebit(providerPaymentId: string): Promise<DebitEvent> {
      if (providerPaymentId.startsWith(REFUSED_PREFIX)) {
        const order = await call("GET", `/orders/${encodeURIComponent(providerPaymentId)}`);
        const paid = await orderDebit(order);
        const refused: DebitEvent = {
          providerPaymentId,
          reference: noteOf(order, "reference"),
          state: "failed",
          amountPaise: null,
          reason: "Razorpay refused the debit",
          at: null,
        };
        return paid ? { ...paid, providerPaymentId } : refused;
      }
      const payment = await call("GET", `/payments/${encodeURIComponent(providerPaymentId)}`);
      if (!nonEmpty(payment.id) || typeof payment.status !== "string")
        throw new Error(`Razorpay GET /payments/${providerPaymentId} answered without an id or status`);
      return debitEventOf(payment, null);
    },
  };
}
