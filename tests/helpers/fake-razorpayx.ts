import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local fake of the RazorpayX HTTP API (contacts, fund accounts, payouts) as its documentation
 * describes it: Basic auth, X-Payout-Idempotency required on a payout and honoured (the same key
 * answers the same payout; the same key with another body is a 400), GET /payouts/{id}; and
 * webhooks signed with HMAC-SHA256 of the raw body, sent to the application on request.
 */
export interface FakePayout {
  id: string;
  entity: "payout";
  fund_account_id: string;
  amount: number;
  currency: "INR";
  status: string;
  utr: string | null;
  mode: string;
  purpose: string;
  reference_id: string;
  narration: string;
  status_details: { description: string; reason: string } | null;
  created_at: number;
}

export interface FakeRazorpayX {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  accountNumber: string;
  /** Every request, in order. */
  calls: { method: string; path: string; body: Record<string, unknown> | null; idempotencyKey: string | null }[];
  payouts: Map<string, FakePayout>;
  /** The next N new payouts are created failed. */
  failNextPayoutsWith: number | null;
  /** The next N new payouts are created, then the connection is dropped before the answer (a lost response). */
  dropNextAnswers: number;
  /** Moves a payout to a final state, as the bank would. */
  settle(id: string, status: "processed" | "failed" | "reversed", reason?: string): FakePayout;
  /** A payout webhook for that payout, signed (or with another signature), as Razorpay posts it. */
  webhook(event: string, payout: FakePayout, options?: { createdAt?: number; secret?: string }): { body: string; signature: string };
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => resolve(body));
  });

export async function startFakeRazorpayX(): Promise<FakeRazorpayX> {
  const keyId = "rzp_test_fake";
  const keySecret = "fake-secret";
  const auth = `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}`;
  let serial = 0;
  const id = (prefix: string) => `${prefix}_${String(++serial).padStart(14, "0")}`;
  const byKey = new Map<string, { body: string; payoutId: string }>();
  const fake: Omit<FakeRazorpayX, "url" | "stop"> = {
    keyId,
    keySecret,
    webhookSecret: "fake-webhook-secret",
    accountNumber: "7878780080316316",
    calls: [],
    payouts: new Map(),
    failNextPayoutsWith: null,
    dropNextAnswers: 0,
    settle(payoutId, status, reason) {
      const p = fake.payouts.get(payoutId);
      if (!p) throw new Error(`no payout ${payoutId}`);
      p.status = status;
      if (status === "processed") p.utr = String(100_000_000_000 + serial * 7919);
      if (status !== "processed") p.status_details = { description: reason ?? "Beneficiary bank is down", reason: "bank_error" };
      return p;
    },
    webhook(event, payout, options = {}) {
      const body = JSON.stringify({
        entity: "event",
        account_id: "acc_fake",
        event,
        contains: ["payout"],
        payload: { payout: { entity: payout } },
        created_at: options.createdAt ?? Math.floor(Date.now() / 1000),
      });
      const signature = createHmac("sha256", options.secret ?? fake.webhookSecret)
        .update(body)
        .digest("hex");
      return { body, signature };
    },
  };
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const error = (description: string, field?: string) => ({ error: { code: "BAD_REQUEST_ERROR", description, field: field ?? null } });

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    const path = (req.url ?? "").replace(/^\/v1/, "");
    const idempotencyKey = (req.headers["x-payout-idempotency"] as string | undefined) ?? null;
    fake.calls.push({ method: req.method ?? "", path, body, idempotencyKey });
    if (req.headers.authorization !== auth)
      return json(res, 401, { error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" } });
    if (req.method === "POST" && path === "/contacts") return json(res, 201, { id: id("cont"), entity: "contact", ...body });
    if (req.method === "POST" && path === "/fund_accounts") {
      const bank = body?.bank_account as { ifsc?: string } | undefined;
      if (!bank?.ifsc || !/^[A-Z]{4}0[A-Z0-9]{6}$/.test(bank.ifsc)) return json(res, 400, error("The ifsc field is invalid.", "ifsc"));
      return json(res, 201, { id: id("fa"), entity: "fund_account", ...body });
    }
    if (req.method === "POST" && path === "/payouts") {
      if (!idempotencyKey) return json(res, 400, error("Idempotency key is missing.", "X-Payout-Idempotency"));
      const seen = byKey.get(idempotencyKey);
      if (seen) {
        if (seen.body !== raw) return json(res, 400, error("Different request body sent for the same idempotency key"));
        return json(res, 200, fake.payouts.get(seen.payoutId));
      }
      if (body?.account_number !== fake.accountNumber) return json(res, 400, error("Invalid account number"));
      const payout: FakePayout = {
        id: id("pout"),
        entity: "payout",
        fund_account_id: String(body.fund_account_id),
        amount: Number(body.amount),
        currency: "INR",
        status: "processing",
        utr: null,
        mode: String(body.mode),
        purpose: String(body.purpose),
        reference_id: String(body.reference_id),
        narration: String(body.narration),
        status_details: null,
        created_at: Math.floor(Date.now() / 1000),
      };
      if (fake.failNextPayoutsWith) {
        fake.failNextPayoutsWith--;
        payout.status = "failed";
        payout.status_details = { description: "Beneficiary account is frozen", reason: "beneficiary_bank_rejected" };
      }
      fake.payouts.set(payout.id, payout);
      byKey.set(idempotencyKey, { body: raw, payoutId: payout.id });
      if (fake.dropNextAnswers > 0) {
        fake.dropNextAnswers--;
        req.socket.destroy();
        return;
      }
      return json(res, 200, payout);
    }
    if (req.method === "GET" && path.startsWith("/payouts?")) {
      const query = new URL(path, "http://fake").searchParams;
      if (query.get("account_number") !== fake.accountNumber) return json(res, 400, error("The account number field is required."));
      const items = [...fake.payouts.values()].filter((p) => !query.get("reference_id") || p.reference_id === query.get("reference_id"));
      return json(res, 200, { entity: "collection", count: items.length, items });
    }
    const fetchMatch = /^\/payouts\/([\w]+)$/.exec(path);
    if (req.method === "GET" && fetchMatch) {
      const p = fake.payouts.get(fetchMatch[1] ?? "");
      return p ? json(res, 200, p) : json(res, 400, error("The id provided does not exist"));
    }
    json(res, 404, error("No such endpoint"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
