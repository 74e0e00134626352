import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { apiRoutes, type Entity, error, newId, sign } from "./fake-razorpay-recurring-api.ts";

export type { Entity };

/**
 * A local fake of Razorpay's recurring-payments HTTP API as its documentation describes it (the
 * fields app/server/mandates/razorpay.server.ts and razorpay-debits.server.ts name): Basic auth;
 * registration links (POST /v1/subscription_registration/auth_links, an invoice with a customer and
 * an order; GET /v1/invoices?receipt=…, /v1/invoices/{id}, POST /v1/invoices/{id}/cancel); a hosted
 * page at the link's short_url where the borrower approves or rejects (a form POST, or
 * `authorise`); tokens per customer (GET, DELETE /v1/customers/{c}/tokens/{t}, PUT …/cancel for
 * UPI) that the bank confirms when the test says (`confirm`); orders with receipt lookup and their
 * payments; recurring payments that stay `created` until the test settles them (`settle`: an
 * account ending 1111 fails, like the local stand-in); and webhooks signed with HMAC-SHA256 of the
 * raw body that it delivers to the app (`deliver`). Assumed, not documented: a token carries its
 * registration link's notes. The endpoints: fake-razorpay-recurring-api.ts.
 */

export interface FakeRazorpayRecurring {
  /** The API base, as RAZORPAY_API_URL: http://127.0.0.1:port/v1. */
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Where `deliver` posts (the app's /api/webhooks/mandate-razorpay). */
  webhookUrl: string | null;
  links: Map<string, Entity>;
  orders: Map<string, Entity>;
  payments: Map<string, Entity>;
  tokens: Map<string, Entity>;
  /** Every API request, in order (not the hosted page's). */
  calls: { method: string; path: string; body: Record<string, unknown> | null; authorized: boolean }[];
  /** The next API request is answered with this status and error, whatever it asks. */
  failNext: { status: number; description?: string } | null;
  /** The next request to this path (as "POST /payments/create/recurring") is done, then its connection cut before the answer. */
  dropNext: string | null;
  /** With `dropNext`: only a request whose notes name this reference (our debit's) is cut. */
  dropOnlyFor: string | null;
  /** The registration link with this receipt (our mandate reference). */
  linkOf(receipt: string): Entity;
  /**
   * The borrower at the hosted page: approve makes the authorisation payment and a token waiting
   * for the bank (`initiated`); reject a failed payment and a rejected token. For UPI, the account
   * the borrower's app debits (an e-mandate's is the link's). The signed query Razorpay would add to
   * a callback URL.
   */
  authorise(
    linkId: string,
    outcome: "approve" | "reject",
    options?: { accountNumber?: string },
  ): { token: Entity; payment: Entity; callbackQuery: URLSearchParams };
  /** The bank's answer on a token (or the borrower's, in their UPI app). */
  confirm(tokenId: string, status?: "confirmed" | "rejected" | "cancelled" | "paused"): Entity;
  /** The bank's answer on a recurring payment: captured, or failed (by default when the account ends 1111). */
  settle(paymentId: string, outcome?: "captured" | "failed", options?: { errorDescription?: string }): Entity;
  /** Posts a webhook to `webhookUrl`, each entity under its name (`{ token }`, `{ payment }`), signed unless another secret is given. */
  deliver(event: string, entities: Record<string, Entity>, options?: { secret?: string }): Promise<Response>;
  stop(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => resolve(body));
  });

export async function startFakeRazorpayRecurring(options: { now?: () => Date } = {}): Promise<FakeRazorpayRecurring> {
  const keyId = "rzp_test_fakerecurring";
  const keySecret = "fake-recurring-secret";
  const auth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}`;
  const now = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const customers = new Map<string, Entity>();
  /** What only the fake knows: a token's customer and the account it debits. */
  const owners = new Map<string, { customerId: string; accountNumber: string }>();
  let base = "";

  const must = <T>(map: Map<string, T>, id: string, what: string) => {
    const found = map.get(id);
    if (!found) throw new Error(`the fake has no ${what} ${id}`);
    return found;
  };
  const customerFor = (details: Record<string, unknown>) => {
    const existing = [...customers.values()].find((c) => c.contact === details.contact && c.email === details.email);
    if (existing) return existing;
    const customer: Entity = { id: newId("cust"), entity: "customer", ...details, created_at: now() };
    customers.set(customer.id, customer);
    return customer;
  };

  const fake: Omit<FakeRazorpayRecurring, "url" | "stop"> = {
    keyId,
    keySecret,
    webhookSecret: "fake-recurring-webhook-secret",
    webhookUrl: null,
    links: new Map(),
    orders: new Map(),
    payments: new Map(),
    tokens: new Map(),
    calls: [],
    failNext: null,
    dropNext: null,
    dropOnlyFor: null,
    linkOf(receipt) {
      const link = [...fake.links.values()].find((l) => l.receipt === receipt);
      if (!link) throw new Error(`the fake has no registration link with receipt ${receipt}`);
      return link;
    },
    authorise(linkId, outcome, { accountNumber } = {}) {
      const link = must(fake.links, linkId, "registration link");
      if (link.status !== "issued") throw new Error(`registration link ${linkId} is ${String(link.status)}`);
      const registration = link.subscription_registration as Record<string, unknown>;
      const bank = (registration.bank_account ?? {}) as Record<string, unknown>;
      const at = now();
      const approved = outcome === "approve";
      const token: Entity = {
        id: newId("token"),
        entity: "token",
        token: newId("tk").slice(3),
        bank: registration.method === "emandate" ? String(bank.ifsc_code ?? "").slice(0, 4) : null,
        wallet: null,
        method: registration.method,
        ...(registration.method === "upi" ? { vpa: { username: "borrower", handle: "upi", name: null } } : {}),
        recurring: approved,
        recurring_details: { status: approved ? "initiated" : "rejected", failure_reason: approved ? null : "Rejected by the customer" },
        auth_type: registration.method === "emandate" ? "netbanking" : null,
        mrn: null,
        used_at: at,
        created_at: at,
        max_amount: registration.max_amount,
        expired_at: registration.expire_at,
        dcc_enabled: false,
        notes: link.notes,
      };
      fake.tokens.set(token.id, token);
      owners.set(token.id, {
        customerId: String(link.customer_id),
        accountNumber: accountNumber ?? String(bank.account_number ?? "50100012345678"),
      });
      const customer = must(customers, String(link.customer_id), "customer");
      const payment: Entity = {
        id: newId("pay"),
        entity: "payment",
        amount: link.amount,
        currency: "INR",
        status: approved ? "captured" : "failed",
        order_id: link.order_id,
        invoice_id: link.id,
        method: registration.method,
        captured: approved,
        description: `Invoice #${link.id}`,
        email: customer.email,
        contact: customer.contact,
        customer_id: customer.id,
        token_id: token.id,
        notes: link.notes,
        error_code: approved ? null : "BAD_REQUEST_ERROR",
        error_description: approved ? null : "Payment failed because the customer declined the mandate",
        created_at: at,
      };
      fake.payments.set(payment.id, payment);
      if (approved) Object.assign(link, { status: "paid", payment_id: payment.id, paid_at: at });
      const status = String(link.status);
      const callbackQuery = new URLSearchParams({
        razorpay_payment_id: payment.id,
        razorpay_invoice_id: link.id,
        razorpay_invoice_receipt: String(link.receipt),
        razorpay_invoice_status: status,
        razorpay_signature: sign(keySecret, `${link.id}|${String(link.receipt)}|${status}|${payment.id}`),
      });
      return { token, payment, callbackQuery };
    },
    confirm(tokenId, status = "confirmed") {
      const token = must(fake.tokens, tokenId, "token");
      token.recurring_details = { status, failure_reason: status === "rejected" ? "Rejected by bank" : null };
      token.recurring = status === "confirmed";
      return token;
    },
    settle(paymentId, outcome, { errorDescription } = {}) {
      const payment = must(fake.payments, paymentId, "payment");
      if (payment.status !== "created") throw new Error(`payment ${paymentId} is ${String(payment.status)}`);
      const account = owners.get(String(payment.token_id))?.accountNumber ?? "";
      const result = outcome ?? (account.endsWith("1111") ? "failed" : "captured");
      const order = must(fake.orders, String(payment.order_id), "order");
      if (result === "captured") {
        Object.assign(payment, { status: "captured", captured: true, captured_at: now() });
        Object.assign(order, { status: "paid", amount_paid: order.amount, amount_due: 0 });
      } else
        Object.assign(payment, {
          status: "failed",
          error_code: "BAD_REQUEST_ERROR",
          error_description: errorDescription ?? "Insufficient funds in the account (fake: accounts ending 1111 bounce)",
        });
      return payment;
    },
    async deliver(event, entities, { secret } = {}) {
      if (!fake.webhookUrl) throw new Error("set webhookUrl first");
      const payload = Object.fromEntries(Object.entries(entities).map(([name, entity]) => [name, { entity }]));
      const body = JSON.stringify({
        entity: "event",
        account_id: "acc_fakerecurring",
        event,
        contains: Object.keys(payload),
        payload,
        created_at: now(),
      });
      return fetch(fake.webhookUrl, {
        method: "POST",
        body,
        headers: {
          "Content-Type": "application/json",
          "X-Razorpay-Signature": sign(secret ?? fake.webhookSecret, body),
          "X-Razorpay-Event-Id": newId("evt").slice(4),
        },
      });
    },
  };
  const routes = apiRoutes({ ...fake, owners, keySecret, now, base: () => base, customerFor });

  /** The stand-in for Razorpay's hosted page: no auth, as a borrower's browser reaches it. */
  async function hostedPage(req: IncomingMessage, res: ServerResponse, linkId: string, raw: string) {
    const link = fake.links.get(linkId);
    const page = (status: number, html: string) => {
      res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><title>Razorpay (fake)</title>${html}`);
    };
    if (!link) return page(404, "<p>This registration link does not exist.</p>");
    if (req.method === "POST" && link.status === "issued") {
      const form = new URLSearchParams(raw);
      const outcome = form.get("outcome") === "reject" ? "reject" : "approve";
      fake.authorise(linkId, outcome, { accountNumber: form.get("account") || undefined });
      return page(200, `<p>${outcome === "approve" ? "Approved" : "Rejected"}. You may close this page.</p>`);
    }
    const registration = link.subscription_registration as Record<string, unknown>;
    page(
      200,
      `<h1>${escapeHtml(String(link.description))}</h1><p>Method: ${String(registration.method)}; at most ₹${(Number(registration.max_amount) / 100).toFixed(2)} a debit</p><p>Status: ${String(link.status)}</p>` +
        (link.status === "issued"
          ? `<form method="post"><input name="account"><button name="outcome" value="approve">Approve</button><button name="outcome" value="reject">Reject</button></form>`
          : ""),
    );
  }

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname.replace(/^\/v1/, "");
    const registerPage = /^\/register\/(inv_\w+)$/.exec(path);
    if (registerPage) return hostedPage(req, res, registerPage[1] ?? "", raw);
    let body: Record<string, unknown> | null = null;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const authorized = req.headers.authorization === auth;
    fake.calls.push({ method: req.method ?? "", path: `${path}${url.search}`, body, authorized });
    const answer = (status: number, json: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(json));
    };
    if (!authorized) return answer(401, { error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" } });
    if (fake.failNext) {
      const { status, description } = fake.failNext;
      fake.failNext = null;
      return answer(status, {
        error: {
          code: status >= 500 ? "SERVER_ERROR" : "BAD_REQUEST_ERROR",
          description: description ?? "The server encountered an error",
        },
      });
    }
    for (const [method, pattern, handle] of routes) {
      const m = req.method === method ? pattern.exec(path) : null;
      if (!m) continue;
      const [status, json] = handle([...m], body ?? {}, url.searchParams);
      const named = (body as { notes?: { reference?: unknown } } | null)?.notes?.reference;
      if (fake.dropNext === `${method} ${path}` && (!fake.dropOnlyFor || named === fake.dropOnlyFor)) {
        fake.dropNext = null;
        fake.dropOnlyFor = null;
        return res.destroy();
      }
      return answer(status, json);
    }
    answer(404, error("The requested URL was not found on the server."));
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
