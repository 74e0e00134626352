import { createHmac, randomBytes } from "node:crypto";

/**
 * The API side of the fake of Razorpay's recurring payments (fake-razorpay-recurring.ts): each
 * endpoint the provider calls, answering from the fake's state as Razorpay's documentation
 * describes the answers (an error is HTTP 400 with `error.code` BAD_REQUEST_ERROR and its
 * description).
 */
export type Entity = Record<string, unknown> & { id: string; created_at: number };

/** What the API reads and changes: the fake's records, what only the fake knows (a token's customer and account), its clock. */
export interface FakeState {
  links: Map<string, Entity>;
  orders: Map<string, Entity>;
  payments: Map<string, Entity>;
  tokens: Map<string, Entity>;
  owners: Map<string, { customerId: string; accountNumber: string }>;
  keySecret: string;
  /** Unix seconds. */
  now(): number;
  /** The API base (for a link's short_url). */
  base(): string;
  customerFor(details: Record<string, unknown>): Entity;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** A Razorpay-looking id: prefix_ and 14 characters. */
export const newId = (prefix: string) => `${prefix}_${[...randomBytes(14)].map((b) => ALPHABET[b % ALPHABET.length]).join("")}`;
export const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("hex");
/** Newest first, as Razorpay lists a collection. */
const collection = (items: Entity[]) => ({ entity: "collection", count: items.length, items: [...items].reverse() });
export const error = (description: string, field: string | null = null) => ({
  error: {
    code: "BAD_REQUEST_ERROR",
    description,
    field,
    source: "business",
    step: "payment_initiation",
    reason: "input_validation_failed",
  },
});
const LINK_FIELDS = new Set([
  "customer",
  "type",
  "amount",
  "currency",
  "description",
  "subscription_registration",
  "receipt",
  "sms_notify",
  "email_notify",
  "expire_by",
  "notes",
]);

export type Answer = [number, unknown];
export type Route = [string, RegExp, (m: string[], body: Record<string, unknown>, query: URLSearchParams) => Answer];

export function apiRoutes(s: FakeState): Route[] {
  const routes: Route[] = [
    ["POST", /^\/subscription_registration\/auth_links$/, (_m, b) => createLink(b)],
    ["GET", /^\/invoices$/, (_m, _b, q) => [200, collection([...s.links.values()].filter((l) => l.receipt === q.get("receipt")))]],
    ["GET", /^\/invoices\/(\w+)$/, ([, id]) => found(s.links.get(id ?? ""))],
    ["POST", /^\/invoices\/(\w+)\/cancel$/, ([, id]) => cancelLink(id ?? "")],
    ["GET", /^\/orders$/, (_m, _b, q) => [200, collection([...s.orders.values()].filter((o) => o.receipt === q.get("receipt")))]],
    ["POST", /^\/orders$/, (_m, b) => createOrder(b)],
    ["GET", /^\/orders\/(\w+)$/, ([, id]) => found(s.orders.get(id ?? ""))],
    ["GET", /^\/orders\/(\w+)\/payments$/, ([, id]) => [200, collection([...s.payments.values()].filter((p) => p.order_id === id))]],
    ["POST", /^\/payments\/create\/recurring$/, (_m, b) => createRecurring(b)],
    ["GET", /^\/payments\/(\w+)$/, ([, id]) => found(s.payments.get(id ?? ""))],
    ["GET", /^\/customers\/(\w+)\/tokens\/(\w+)$/, ([, c, t]) => found(tokenOf(c ?? "", t ?? ""))],
    ["DELETE", /^\/customers\/(\w+)\/tokens\/(\w+)$/, ([, c, t]) => deleteToken(c ?? "", t ?? "")],
    ["PUT", /^\/customers\/(\w+)\/tokens\/(\w+)\/cancel$/, ([, c, t]) => cancelToken(c ?? "", t ?? "")],
  ];
  const found = (entity: Entity | null | undefined): Answer =>
    entity ? [200, entity] : [400, error("The id provided does not exist", "id")];
  const tokenOf = (customerId: string, tokenId: string) =>
    s.owners.get(tokenId)?.customerId === customerId ? s.tokens.get(tokenId) : null;

  function createLink(b: Record<string, unknown>): Answer {
    const extra = Object.keys(b).find((key) => !LINK_FIELDS.has(key));
    if (extra) return [400, error(`${extra} is/are not required and should not be sent`, extra)];
    const customer = (b.customer ?? {}) as Record<string, unknown>;
    const registration = (b.subscription_registration ?? {}) as Record<string, unknown>;
    const bank = (registration.bank_account ?? {}) as Record<string, unknown>;
    if (b.type !== "link" || b.currency !== "INR" || typeof b.description !== "string") return [400, error("The request is invalid")];
    for (const field of ["name", "email", "contact"])
      if (typeof customer[field] !== "string" || customer[field] === "") return [400, error(`The customer ${field} field is required.`)];
    if (typeof registration.max_amount !== "number" || typeof registration.expire_at !== "number" || registration.expire_at <= s.now())
      return [400, error("The max amount and a future expire at are required.")];
    if (registration.method === "upi") {
      if (typeof b.amount !== "number" || b.amount < 100) return [400, error("The amount must be atleast INR 1.00", "amount")];
      if (typeof registration.frequency !== "string") return [400, error("The frequency field is required.", "frequency")];
    } else if (registration.method === "emandate") {
      if (b.amount !== 0) return [400, error("The amount must be 0 for emandate", "amount")];
      if (!bank.account_number || !bank.ifsc_code) return [400, error("The bank account is required.", "bank_account")];
      const name = bank.beneficiary_name;
      if (name !== undefined && (typeof name !== "string" || name.length < 4 || name.length > 120))
        return [400, error("The beneficiary name must be between 4 and 120 characters.", "beneficiary_name")];
    } else return [400, error("The method is invalid.", "method")];
    const at = s.now();
    const { id: customerId, ...details } = s.customerFor({ name: customer.name, email: customer.email, contact: customer.contact });
    const order = newOrder({ amount: b.amount, receipt: b.receipt, notes: [] });
    const id = newId("inv");
    const link: Entity = {
      id,
      entity: "invoice",
      receipt: b.receipt ?? null,
      invoice_number: b.receipt ?? null,
      customer_id: customerId,
      customer_details: { id: customerId, ...details },
      order_id: order.id,
      payment_id: null,
      status: "issued",
      expire_by: b.expire_by ?? null,
      issued_at: at,
      paid_at: null,
      cancelled_at: null,
      expired_at: null,
      amount: b.amount,
      currency: "INR",
      description: b.description,
      notes: b.notes ?? [],
      short_url: `${s.base()}/register/${id}`,
      type: "link",
      created_at: at,
      subscription_registration: registration,
    };
    s.links.set(id, link);
    return [200, link];
  }
  function cancelLink(id: string): Answer {
    const link = s.links.get(id);
    if (!link) return found(null);
    if (link.status !== "issued") return [400, error(`Operation not allowed for Invoice in ${String(link.status)} status.`)];
    Object.assign(link, { status: "cancelled", cancelled_at: s.now() });
    return [200, link];
  }
  function newOrder(fields: Record<string, unknown>) {
    const order: Entity = {
      id: newId("order"),
      entity: "order",
      amount_paid: 0,
      currency: "INR",
      status: "created",
      ...fields,
      created_at: s.now(),
    };
    order.amount_due = order.amount;
    s.orders.set(order.id, order);
    return order;
  }
  function createOrder(b: Record<string, unknown>): Answer {
    if (typeof b.amount !== "number" || !Number.isInteger(b.amount) || b.amount < 100)
      return [400, error("The amount must be atleast INR 1.00", "amount")];
    if (b.currency !== "INR") return [400, error("The currency is invalid.", "currency")];
    if (typeof b.receipt === "string" && b.receipt.length > 40)
      return [400, error("The receipt may not be greater than 40 characters.", "receipt")];
    return [200, newOrder({ amount: b.amount, receipt: b.receipt ?? null, notes: b.notes ?? [], payment_capture: b.payment_capture })];
  }
  function createRecurring(b: Record<string, unknown>): Answer {
    const order = s.orders.get(String(b.order_id));
    if (!order) return [400, error("The id provided does not exist", "order_id")];
    if (order.status === "paid") return [400, error("Order has already been paid")];
    if (b.amount !== order.amount) return [400, error("The amount must be the order's amount", "amount")];
    if (b.recurring !== true && b.recurring !== "1" && b.recurring !== 1) return [400, error("The recurring field is required.")];
    const token = tokenOf(String(b.customer_id), String(b.token));
    if (!token) return [400, error("The token provided is invalid", "token")];
    const status = (token.recurring_details as { status: string }).status;
    if (status !== "confirmed") return [400, error(`The token is ${status}: the mandate cannot be debited`, "token")];
    if (typeof b.amount !== "number" || b.amount > Number(token.max_amount))
      return [400, error("The amount exceeds the mandate's maximum amount", "amount")];
    const payment: Entity = {
      id: newId("pay"),
      entity: "payment",
      amount: b.amount,
      currency: "INR",
      status: "created",
      order_id: order.id,
      invoice_id: null,
      method: token.method,
      recurring: true,
      captured: false,
      description: b.description ?? null,
      email: b.email,
      contact: b.contact,
      customer_id: b.customer_id,
      token_id: token.id,
      notes: b.notes ?? [],
      error_code: null,
      error_description: null,
      created_at: s.now(),
    };
    s.payments.set(payment.id, payment);
    order.status = "attempted";
    return [
      200,
      { razorpay_payment_id: payment.id, razorpay_order_id: order.id, razorpay_signature: sign(s.keySecret, `${order.id}|${payment.id}`) },
    ];
  }
  function deleteToken(customerId: string, tokenId: string): Answer {
    if (!tokenOf(customerId, tokenId)) return found(null);
    s.tokens.delete(tokenId);
    return [200, { deleted: true }];
  }
  function cancelToken(customerId: string, tokenId: string): Answer {
    const token = tokenOf(customerId, tokenId);
    if (!token) return found(null);
    if (token.method !== "upi")
      return [400, error("The token provided is not a recurring/autopay token and is not eligible for cancellation via this API.")];
    const details = token.recurring_details as { status: string };
    if (!["initiated", "confirmed", "paused"].includes(details.status))
      return [400, error("The UPI mandate linked to this token is not in a cancellable state.")];
    token.recurring_details = { status: "cancellation_initiated", failure_reason: null };
    return [200, { status: "cancellation_initiated" }];
  }
  return routes;
}
