import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local fake of Razorpay's Payment Links HTTP API as its documentation describes it: Basic auth,
 * POST /v1/payment_links (reference_id unique), GET /v1/payment_links/{id}; a stand-in hosted page
 * at the link's short_url (GET shows it, POST pays and sends the borrower back to callback_url); the
 * signed callback query Razorpay appends; and webhooks signed with HMAC-SHA256 of the raw body.
 */
export interface FakeLinkPayment {
  payment_id: string;
  amount: number;
  method: string;
  status: "captured" | "failed";
  created_at: number;
  updated_at: number;
}

export interface FakePaymentLink {
  id: string;
  entity: "payment_link";
  short_url: string;
  status: "created" | "partially_paid" | "paid" | "cancelled" | "expired";
  amount: number;
  amount_paid: number;
  currency: "INR";
  accept_partial: boolean;
  reference_id: string;
  description: string;
  customer: Record<string, unknown>;
  notify: Record<string, unknown>;
  reminder_enable: boolean;
  notes: Record<string, unknown> | null;
  callback_url: string | null;
  callback_method: string | null;
  expire_by: number;
  order_id: string | null;
  created_at: number;
  updated_at: number;
  cancelled_at: number;
  expired_at: number;
  payments: FakeLinkPayment[] | null;
}

export interface FakePaymentEntity {
  id: string;
  entity: "payment";
  amount: number;
  currency: "INR";
  status: "captured" | "failed";
  order_id: string;
  method: string;
  /** The bank's data: a UPI payment's reference number (RRN). */
  acquirer_data: { rrn?: string };
  captured: boolean;
  description: string;
  notes: Record<string, unknown> | unknown[];
  error_code: string | null;
  error_description: string | null;
  created_at: number;
}

export type FakeWebhookEvent = "payment_link.paid" | "payment.captured" | "payment.failed";

export interface FakeRazorpay {
  /** The API base, as RAZORPAY_API_URL: http://127.0.0.1:port/v1. */
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  links: Map<string, FakePaymentLink>;
  /** Every payment made or tried, by its pay_… id. */
  payments: Map<string, FakePaymentEntity>;
  /** Every API request, in order (not the hosted page's). */
  calls: { method: string; path: string; body: Record<string, unknown> | null; authorized: boolean }[];
  /** The next API request is answered with this status and error, whatever it asks. */
  failNext: { status: number; description?: string } | null;
  /** The borrower pays the link (the whole amount unless told): it is marked paid; the callback query Razorpay appends, signed. */
  pay(
    linkId: string,
    options?: { amountPaise?: number; at?: Date; method?: string },
  ): { paymentId: string; callbackQuery: URLSearchParams };
  /** The link expires unpaid (or is cancelled). */
  expire(linkId: string, status?: "expired" | "cancelled"): FakePaymentLink;
  /**
   * The webhook Razorpay posts for that link: payment_link.paid and payment.captured for its captured
   * payment (pay it first); payment.failed for a new failed try on it. Signed with the webhook secret
   * unless another secret is given.
   */
  webhookFor(
    event: FakeWebhookEvent,
    linkId: string,
    options?: { secret?: string; createdAt?: number; errorDescription?: string },
  ): { body: string; headers: Record<string, string> };
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => resolve(body));
  });

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** A Razorpay-looking id: prefix_ and 14 characters. */
const newId = (prefix: string) => `${prefix}_${[...randomBytes(14)].map((b) => ALPHABET[b % ALPHABET.length]).join("")}`;
const now = () => Math.floor(Date.now() / 1000);
const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("hex");
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeRazorpay(): Promise<FakeRazorpay> {
  const keyId = "rzp_test_fakelinks";
  const keySecret = "fake-links-secret";
  const auth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}`;
  let base = "";

  const linkOf = (linkId: string) => {
    const link = fake.links.get(linkId);
    if (!link) throw new Error(`no payment link ${linkId}`);
    return link;
  };
  const capturedOf = (link: FakePaymentLink) => {
    const listed = (link.payments ?? []).findLast((p) => p.status === "captured");
    const payment = listed && fake.payments.get(listed.payment_id);
    if (!payment) throw new Error(`payment link ${link.id} has no captured payment: pay it first`);
    return payment;
  };
  const orderOf = (link: FakePaymentLink) => (link.order_id ??= newId("order"));
  const record = (link: FakePaymentLink, payment: FakePaymentEntity) => {
    fake.payments.set(payment.id, payment);
    (link.payments ??= []).push({
      payment_id: payment.id,
      amount: payment.amount,
      method: payment.method,
      status: payment.status,
      created_at: payment.created_at,
      updated_at: payment.created_at,
    });
  };

  const fake: Omit<FakeRazorpay, "url" | "stop"> = {
    keyId,
    keySecret,
    webhookSecret: "fake-links-webhook-secret",
    links: new Map(),
    payments: new Map(),
    calls: [],
    failNext: null,
    pay(linkId, options = {}) {
      const link = linkOf(linkId);
      if (link.status !== "created" && link.status !== "partially_paid") throw new Error(`payment link ${linkId} is ${link.status}`);
      const at = options.at ? Math.floor(options.at.getTime() / 1000) : now();
      const amount = options.amountPaise ?? link.amount - link.amount_paid;
      const payment: FakePaymentEntity = {
        id: newId("pay"),
        entity: "payment",
        amount,
        currency: "INR",
        status: "captured",
        order_id: orderOf(link),
        method: options.method ?? "upi",
        acquirer_data: (options.method ?? "upi") === "upi" ? { rrn: String(600_000_000_000 + Math.floor(Math.random() * 99_999_999)) } : {},
        captured: true,
        description: `#${link.id.replace(/^plink_/, "")}`,
        // A link's notes are copied onto its payments.
        notes: link.notes ?? [],
        error_code: null,
        error_description: null,
        created_at: at,
      };
      record(link, payment);
      link.amount_paid += amount;
      link.status = link.amount_paid >= link.amount || !link.accept_partial ? "paid" : "partially_paid";
      link.updated_at = at;
      const callbackQuery = new URLSearchParams({
        razorpay_payment_id: payment.id,
        razorpay_payment_link_id: link.id,
        razorpay_payment_link_reference_id: link.reference_id,
        razorpay_payment_link_status: link.status,
        razorpay_signature: sign(keySecret, `${link.id}|${link.reference_id}|${link.status}|${payment.id}`),
      });
      return { paymentId: payment.id, callbackQuery };
    },
    expire(linkId, status = "expired") {
      const link = linkOf(linkId);
      link.status = status;
      link.updated_at = now();
      if (status === "expired") link.expired_at = link.updated_at;
      else link.cancelled_at = link.updated_at;
      return link;
    },
    webhookFor(event, linkId, options = {}) {
      const link = linkOf(linkId);
      let payment: FakePaymentEntity;
      let payload: Record<string, { entity: unknown }>;
      if (event === "payment.failed") {
        payment = {
          id: newId("pay"),
          entity: "payment",
          amount: link.amount,
          currency: "INR",
          status: "failed",
          order_id: orderOf(link),
          method: "card",
          acquirer_data: {},
          captured: false,
          description: `#${link.id.replace(/^plink_/, "")}`,
          notes: link.notes ?? [],
          error_code: "BAD_REQUEST_ERROR",
          error_description: options.errorDescription ?? "Payment failed because the card was declined by the bank",
          created_at: options.createdAt ?? now(),
        };
        record(link, payment);
        payload = { payment: { entity: payment } };
      } else {
        payment = capturedOf(link);
        payload = { payment: { entity: payment } };
        if (event === "payment_link.paid") {
          const { payments: _listed, ...entity } = link;
          payload = {
            payment_link: { entity },
            order: {
              entity: {
                id: payment.order_id,
                entity: "order",
                amount: link.amount,
                amount_paid: link.amount_paid,
                amount_due: Math.max(0, link.amount - link.amount_paid),
                currency: "INR",
                receipt: link.reference_id,
                status: "paid",
                notes: link.notes ?? [],
                created_at: link.created_at,
              },
            },
            payment: { entity: payment },
          };
        }
      }
      const body = JSON.stringify({
        entity: "event",
        account_id: "acc_fakelinks",
        event,
        contains: Object.keys(payload),
        payload,
        created_at: options.createdAt ?? now(),
      });
      return {
        body,
        headers: {
          "Content-Type": "application/json",
          "X-Razorpay-Signature": sign(options.secret ?? fake.webhookSecret, body),
          "X-Razorpay-Event-Id": newId("evt").replace(/^evt_/, ""),
        },
      };
    },
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const error = (description: string, field?: string) => ({
    error: {
      code: "BAD_REQUEST_ERROR",
      description,
      field: field ?? null,
      source: "business",
      step: "payment_initiation",
      reason: "input_validation_failed",
    },
  });

  const createLink = (res: ServerResponse, body: Record<string, unknown> | null) => {
    if (!body) return json(res, 400, error("The request body is not valid JSON"));
    const amount = body.amount;
    if (typeof amount !== "number" || !Number.isInteger(amount)) return json(res, 400, error("The amount must be an integer.", "amount"));
    if (amount < 100) return json(res, 400, error("The amount must be atleast INR 1.00", "amount"));
    if (body.currency !== "INR") return json(res, 400, error("The currency is invalid.", "currency"));
    const reference = body.reference_id;
    if (reference !== undefined && (typeof reference !== "string" || reference.length > 40))
      return json(res, 400, error("The reference id may not be greater than 40 characters.", "reference_id"));
    if (typeof reference === "string" && [...fake.links.values()].some((l) => l.reference_id === reference))
      return json(res, 400, error("reference_id already exists", "reference_id"));
    if (body.callback_url !== undefined && body.callback_method !== "get")
      return json(res, 400, error("callback_method should be get when callback_url is passed", "callback_method"));
    const expireBy = body.expire_by ?? 0;
    if (typeof expireBy !== "number" || !Number.isInteger(expireBy) || (expireBy !== 0 && expireBy <= now()))
      return json(res, 400, error("expire_by should be a timestamp in the future", "expire_by"));
    const id = newId("plink");
    const at = now();
    const link: FakePaymentLink = {
      id,
      entity: "payment_link",
      short_url: `${base}/pay/${id}`,
      status: "created",
      amount,
      amount_paid: 0,
      currency: "INR",
      accept_partial: body.accept_partial === true,
      reference_id: typeof reference === "string" ? reference : "",
      description: typeof body.description === "string" ? body.description : "",
      customer: (body.customer as Record<string, unknown> | undefined) ?? {},
      notify: (body.notify as Record<string, unknown> | undefined) ?? { sms: false, email: false },
      reminder_enable: body.reminder_enable === true,
      notes: (body.notes as Record<string, unknown> | undefined) ?? null,
      callback_url: typeof body.callback_url === "string" ? body.callback_url : null,
      callback_method: typeof body.callback_method === "string" ? body.callback_method : null,
      expire_by: expireBy,
      order_id: null,
      created_at: at,
      updated_at: at,
      cancelled_at: 0,
      expired_at: 0,
      payments: null,
    };
    fake.links.set(id, link);
    return json(res, 200, link);
  };

  /** The stand-in for Razorpay's hosted page: no auth, as a borrower's browser reaches it. */
  const hostedPage = (req: IncomingMessage, res: ServerResponse, linkId: string) => {
    const link = fake.links.get(linkId);
    if (!link) {
      res.writeHead(404, { "Content-Type": "text/html; charset=utf-8" });
      return res.end("<!doctype html><title>Not found</title><p>This payment link does not exist.</p>");
    }
    if (req.method === "POST" && link.status === "created") {
      const { callbackQuery } = fake.pay(linkId);
      if (link.callback_url) {
        const target = new URL(link.callback_url);
        for (const [key, value] of callbackQuery) target.searchParams.append(key, value);
        res.writeHead(303, { Location: target.toString() });
        return res.end();
      }
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><title>Razorpay (fake)</title><h1>${escapeHtml(link.description)}</h1>` +
        `<p>Amount: ₹${(link.amount / 100).toFixed(2)}</p><p>Status: ${link.status}</p>` +
        (link.status === "created" ? `<form method="post"><button type="submit">Pay</button></form>` : ""),
    );
  };

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = (req.url ?? "").replace(/^\/v1/, "").replace(/\?.*$/, "");
    const page = /^\/pay\/(plink_\w+)$/.exec(path);
    if (page) return hostedPage(req, res, page[1] ?? "");
    let body: Record<string, unknown> | null = null;
    let malformed = false;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    } catch {
      malformed = true;
    }
    const authorized = req.headers.authorization === auth;
    fake.calls.push({ method: req.method ?? "", path, body, authorized });
    if (!authorized) return json(res, 401, { error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" } });
    if (fake.failNext) {
      const { status, description } = fake.failNext;
      fake.failNext = null;
      return json(res, status, {
        error: {
          code: status >= 500 ? "SERVER_ERROR" : "BAD_REQUEST_ERROR",
          description: description ?? "The server encountered an error",
        },
      });
    }
    if (malformed) return json(res, 400, error("The request body is not valid JSON"));
    if (req.method === "POST" && (path === "/payment_links" || path === "/payment_links/")) return createLink(res, body);
    const fetchMatch = /^\/payment_links\/(\w+)$/.exec(path);
    if (req.method === "GET" && fetchMatch) {
      const link = fake.links.get(fetchMatch[1] ?? "");
      return link ? json(res, 200, link) : json(res, 400, error("The id provided does not exist", "id"));
    }
    json(res, 404, error("The requested URL was not found on the server."));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}/v1`;
  return Object.assign(fake, {
    url: base,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
