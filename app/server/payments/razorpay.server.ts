// Razorpay Payment Links (https://razorpay.com/docs/api/payments/payment-links): the borrower pays on
// Razorpay's own hosted page (`short_url`), so no Razorpay script runs on our pages, and comes back
// to our callback URL with a signed query. Webhooks are signed with HMAC-SHA256 of the raw body.
//
// Fields relied on, as Razorpay's documentation and its official SDKs describe them:
// - Create (POST /v1/payment_links, Basic auth key_id:key_secret): amount (paise), currency,
//   accept_partial, reference_id (unique per link), description, customer {name, contact, email},
//   notify {sms, email}, reminder_enable, notes, callback_url, callback_method ("get"), expire_by
//   (unix seconds). The answer's `id` (plink_…) and `short_url`.
// - Fetch (GET /v1/payment_links/{id}): status created | partially_paid | paid | cancelled | expired;
//   amount_paid; reference_id; updated_at; payments[] of {payment_id, amount, status, created_at}.
// - Callback query: razorpay_payment_id, razorpay_payment_link_id, razorpay_payment_link_reference_id,
//   razorpay_payment_link_status, razorpay_signature = hex HMAC-SHA256 with the key secret of
//   `${payment_link_id}|${payment_link_reference_id}|${payment_link_status}|${payment_id}` (as the
//   SDKs' validatePaymentVerification builds it).
// - Webhooks (X-Razorpay-Signature = hex HMAC-SHA256 of the raw body with the webhook secret):
//   `payment_link.paid` carries payload.payment_link.entity {id, reference_id, amount_paid, status}
//   and payload.payment.entity {id, amount, status, created_at}; `payment.captured` and
//   `payment.failed` carry payload.payment.entity {id, amount, status, order_id, notes,
//   error_description, created_at}. A link's notes are copied onto its payments' notes, which is
//   how a payment event names our reference (notes.reference) without naming the link.
import { hmac, safeEqual } from "../crypto.server.ts";
import type { CheckoutSession, PaymentEvent, PaymentGateway, PaymentMethod, PaymentOrder } from "./gateway.server.ts";

export interface RazorpayPaymentsOptions {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** https://api.razorpay.com/v1, or a local fake in tests. */
  apiUrl: string;
}

/** A payment as listed on a payment link. */
interface LinkPayment {
  payment_id?: string;
  amount?: number;
  status?: string;
  created_at?: number;
  method?: string;
}

interface PaymentLink {
  id?: string;
  short_url?: string;
  status?: string;
  amount?: number;
  amount_paid?: number;
  reference_id?: string | null;
  updated_at?: number;
  payments?: LinkPayment[] | null;
}

interface PaymentEntity {
  id?: string;
  amount?: number;
  status?: string;
  order_id?: string | null;
  /** An object, or an empty array when there are none. */
  notes?: Record<string, unknown> | unknown[] | null;
  error_description?: string | null;
  created_at?: number;
  captured_at?: number;
  method?: string;
  wallet?: string | null;
  card?: { last4?: string | null } | null;
  acquirer_data?: { rrn?: string | null; bank_transaction_id?: string | null } | null;
}

const METHODS: Record<string, PaymentMethod["kind"]> = { upi: "upi", card: "card", netbanking: "netbanking", wallet: "wallet" };
/** The payment's method and its bank reference, card digits or wallet, as far as the entity says. */
function methodOf(p: PaymentEntity | LinkPayment | undefined): PaymentMethod | null {
  if (!p?.method) return null;
  const kind = METHODS[p.method] ?? "other";
  const e = p as PaymentEntity;
  const detail =
    kind === "upi"
      ? nonEmpty(e.acquirer_data?.rrn)
      : kind === "netbanking"
        ? nonEmpty(e.acquirer_data?.bank_transaction_id)
        : kind === "card"
          ? nonEmpty(e.card?.last4)
          : kind === "wallet"
            ? nonEmpty(e.wallet)
            : null;
  return { kind, detail: detail ?? null };
}

interface WebhookEvent {
  event?: string;
  created_at?: number;
  payload?: {
    payment_link?: { entity?: PaymentLink };
    payment?: { entity?: PaymentEntity };
  };
}

const TIMEOUT_MS = 10_000;

const isInt = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);
const fromUnix = (seconds: unknown) => (isInt(seconds) && seconds > 0 ? new Date(seconds * 1000) : null);
const nonEmpty = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
const referenceOf = (notes: PaymentEntity["notes"]) =>
  notes && !Array.isArray(notes) && typeof notes === "object" ? nonEmpty(notes.reference) : null;

/** The borrower's mobile as Razorpay wants it: with the country code. */
const contactOf = (mobile: string) => (mobile.startsWith("+") ? mobile : `+91${mobile}`);

export function createRazorpayPayments(options: RazorpayPaymentsOptions, fetchImpl: typeof fetch = fetch): PaymentGateway {
  const auth = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString("base64")}`;

  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetchImpl(`${options.apiUrl}${path}`, {
        method,
        headers: { Authorization: auth, Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`Razorpay ${method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): no usable answer.
    }
    if (response.ok && json && typeof json === "object") return json;
    const description = (json as { error?: { description?: unknown } } | null)?.error?.description;
    throw new Error(
      `Razorpay ${method} ${path} answered ${response.status}${typeof description === "string" ? `: ${description}` : response.ok ? " without JSON" : ""}`,
    );
  }

  function linkEvent(link: PaymentLink): PaymentEvent {
    const base: PaymentEvent = {
      providerOrderId: link.id ?? null,
      reference: nonEmpty(link.reference_id),
      providerPaymentId: null,
      state: "pending",
      amountPaise: null,
      at: null,
      failureReason: null,
    };
    switch (link.status) {
      case "paid": {
        const captured = (link.payments ?? []).filter((p) => p.status === "captured" && nonEmpty(p.payment_id));
        const payment = captured.at(-1);
        // Paid without a captured payment listed: no payment id to apply it once by, so ask again.
        if (!payment) return base;
        return {
          ...base,
          state: "captured",
          providerPaymentId: payment.payment_id ?? null,
          amountPaise: isInt(payment.amount) ? payment.amount : isInt(link.amount_paid) ? link.amount_paid : null,
          at: fromUnix(payment.created_at) ?? fromUnix(link.updated_at),
          method: methodOf(payment),
        };
      }
      case "cancelled":
      case "expired":
        return { ...base, state: "cancelled", at: fromUnix(link.updated_at), failureReason: `The payment link was ${link.status}` };
      // `partially_paid` cannot happen with accept_partial false: it is not a final answer either way.
      default:
        return base;
    }
  }

  return {
    name: "razorpay",

    async createCheckout(order: PaymentOrder): Promise<CheckoutSession> {
      const link = (await call("POST", "/payment_links", {
        amount: order.amountPaise,
        currency: "INR",
        accept_partial: false,
        reference_id: order.reference,
        description: order.description,
        customer: {
          name: order.customer.name,
          contact: contactOf(order.customer.mobile),
          ...(order.customer.email ? { email: order.customer.email } : {}),
        },
        notify: { sms: false, email: false },
        reminder_enable: false,
        notes: { reference: order.reference },
        callback_url: order.callbackUrl,
        callback_method: "get",
        expire_by: Math.floor(order.expiresAt.getTime() / 1000),
      })) as PaymentLink;
      const providerOrderId = nonEmpty(link.id);
      const checkoutUrl = nonEmpty(link.short_url);
      if (!providerOrderId || !checkoutUrl) throw new Error("Razorpay POST /payment_links answered without an id or short_url");
      return { providerOrderId, checkoutUrl };
    },

    async fetch(providerOrderId: string): Promise<PaymentEvent> {
      const link = (await call("GET", `/payment_links/${encodeURIComponent(providerOrderId)}`)) as PaymentLink;
      if (!nonEmpty(link.id) || typeof link.status !== "string") {
        throw new Error(`Razorpay GET /payment_links/${providerOrderId} answered without an id or status`);
      }
      return linkEvent(link);
    },

    webhook(rawBody: string, headers: Headers) {
      const signature = headers.get("x-razorpay-signature");
      if (!signature || !safeEqual(signature, hmac(options.webhookSecret, rawBody))) return "bad_signature";
      let event: WebhookEvent;
      try {
        event = JSON.parse(rawBody) as WebhookEvent;
      } catch {
        return "ignored";
      }
      if (!event || typeof event !== "object") return "ignored";
      const payment = event.payload?.payment?.entity;

      if (event.event === "payment_link.paid") {
        const link = event.payload?.payment_link?.entity;
        if (!link || !nonEmpty(link.id)) return "ignored";
        const paymentId = nonEmpty(payment?.id);
        const found: PaymentEvent = {
          providerOrderId: link.id ?? null,
          reference: nonEmpty(link.reference_id) ?? referenceOf(payment?.notes),
          providerPaymentId: paymentId,
          // Without the payment there is no id to apply it once by: the app asks the link again.
          state: paymentId ? "captured" : "pending",
          amountPaise: !paymentId ? null : isInt(payment?.amount) ? payment.amount : isInt(link.amount_paid) ? link.amount_paid : null,
          at: !paymentId ? null : (fromUnix(payment?.captured_at) ?? fromUnix(payment?.created_at) ?? fromUnix(event.created_at)),
          failureReason: null,
          method: methodOf(payment),
        };
        return found;
      }

      if (event.event === "payment.captured" || event.event === "payment.failed") {
        if (!payment || !nonEmpty(payment.id)) return "ignored";
        const reference = referenceOf(payment.notes);
        // A payment that is not one of our links' (another product on the same account).
        if (!reference) return "ignored";
        const base = { providerOrderId: null, reference, providerPaymentId: payment.id ?? null };
        if (event.event === "payment.captured") {
          const found: PaymentEvent = {
            ...base,
            state: "captured",
            amountPaise: isInt(payment.amount) ? payment.amount : null,
            at: fromUnix(payment.captured_at) ?? fromUnix(payment.created_at) ?? fromUnix(event.created_at),
            failureReason: null,
            method: methodOf(payment),
          };
          return found;
        }
        const found: PaymentEvent = {
          ...base,
          state: "failed",
          amountPaise: null,
          at: fromUnix(payment.created_at),
          failureReason: nonEmpty(payment.error_description) ?? "The payment failed",
        };
        return found;
      }

      return "ignored";
    },

    callback(query: URLSearchParams) {
      const paymentId = query.get("razorpay_payment_id");
      const linkId = query.get("razorpay_payment_link_id");
      const reference = query.get("razorpay_payment_link_reference_id");
      const status = query.get("razorpay_payment_link_status");
      const signature = query.get("razorpay_signature");
      if (!paymentId || !linkId || reference === null || !status || !signature) return "ignored";
      if (!safeEqual(signature, hmac(options.keySecret, `${linkId}|${reference}|${status}|${paymentId}`))) return "bad_signature";
      const found: PaymentEvent = {
        providerOrderId: linkId,
        reference: reference || null,
        providerPaymentId: paymentId,
        // The query does not carry the amount: the app fetches the link to confirm what was paid.
        state: status === "paid" ? "captured" : "pending",
        amountPaise: null,
        at: null,
        failureReason: null,
      };
      return found;
    },
  };
}
