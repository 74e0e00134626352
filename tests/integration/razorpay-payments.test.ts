import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentGateway, PaymentOrder } from "../../app/server/payments/gateway.server.ts";
import { createRazorpayPayments } from "../../app/server/payments/razorpay.server.ts";
import { type FakeRazorpay, startFakeRazorpay } from "../helpers/fake-razorpay.ts";

// The Razorpay Payment Links implementation of the payment-gateway interface, against a local fake
// of Razorpay's HTTP API: what it sends, the link's states as fetched, the signed callback query and
// the signed webhooks.
let fake: FakeRazorpay;
let gateway: PaymentGateway;
beforeAll(async () => {
  fake = await startFakeRazorpay();
  gateway = createRazorpayPayments({ keyId: fake.keyId, keySecret: fake.keySecret, webhookSecret: fake.webhookSecret, apiUrl: fake.url });
});
afterAll(async () => {
  await fake?.stop();
});

let serial = 0;
const order = (overrides: Partial<PaymentOrder> = {}): PaymentOrder => {
  const reference = `pm_test${Date.now().toString(36)}${String(++serial).padStart(4, "0")}`;
  return {
    reference,
    amountPaise: 1_234_500,
    description: "Loan SL12345678: instalment due",
    customer: { name: "Meera Iyer", mobile: "9876543210", email: "meera@example.com" },
    callbackUrl: `https://app.example.in/loans/payments/callback?payment=${reference}`,
    expiresAt: new Date(Date.now() + 30 * 60_000),
    ...overrides,
  };
};
/** A link created through the gateway: the order, its id, and the fake's record of it. */
const created = async (overrides: Partial<PaymentOrder> = {}) => {
  const o = order(overrides);
  const session = await gateway.createCheckout(o);
  const link = fake.links.get(session.providerOrderId);
  if (!link) throw new Error("the fake has no such link");
  return { order: o, session, link };
};
const headersOf = (h: Record<string, string>) => new Headers(h);
const createHmacHex = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

describe("Razorpay payment links: createCheckout", () => {
  it("creates the link with Basic auth and the documented body, and answers its id and hosted page", async () => {
    const before = fake.calls.length;
    const o = order();
    const session = await gateway.createCheckout(o);
    const calls = fake.calls.slice(before);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call).toMatchObject({ method: "POST", path: "/payment_links", authorized: true });
    expect(call?.body).toEqual({
      amount: 1_234_500,
      currency: "INR",
      accept_partial: false,
      reference_id: o.reference,
      description: "Loan SL12345678: instalment due",
      customer: { name: "Meera Iyer", contact: "+919876543210", email: "meera@example.com" },
      notify: { sms: false, email: false },
      reminder_enable: false,
      notes: { reference: o.reference },
      callback_url: o.callbackUrl,
      callback_method: "get",
      expire_by: Math.floor(o.expiresAt.getTime() / 1000),
    });
    expect(session.providerOrderId).toMatch(/^plink_\w{14}$/);
    const link = fake.links.get(session.providerOrderId);
    expect(session.checkoutUrl).toBe(link?.short_url);
    expect(session.checkoutUrl).toBe(`${fake.url}/pay/${session.providerOrderId}`);
  });

  it("leaves the email out when the borrower has none", async () => {
    const { link } = await created({ customer: { name: "Ravi Kumar", mobile: "9123456780", email: null } });
    expect(link.customer).toEqual({ name: "Ravi Kumar", contact: "+919123456780" });
  });

  it("throws with the gateway's reason on a non-2xx answer", async () => {
    fake.failNext = { status: 500, description: "The server encountered an error" };
    await expect(gateway.createCheckout(order())).rejects.toThrow(
      /Razorpay POST \/payment_links answered 500: The server encountered an error/,
    );

    const wrongKey = createRazorpayPayments({
      keyId: fake.keyId,
      keySecret: "not-the-secret",
      webhookSecret: fake.webhookSecret,
      apiUrl: fake.url,
    });
    await expect(wrongKey.createCheckout(order())).rejects.toThrow(/answered 401: Authentication failed/);

    await expect(gateway.createCheckout(order({ amountPaise: 99 }))).rejects.toThrow(/answered 400: The amount must be atleast INR 1.00/);
  });

  it("throws when the answer has no id or short_url, and asks with a timeout", async () => {
    let signal: AbortSignal | null | undefined;
    const empty = createRazorpayPayments(
      { keyId: "k", keySecret: "s", webhookSecret: "w", apiUrl: "https://razorpay.invalid/v1" },
      async (_url, init) => {
        signal = init?.signal;
        return Response.json({ status: "created" });
      },
    );
    await expect(empty.createCheckout(order())).rejects.toThrow(/without an id or short_url/);
    expect(signal).toBeInstanceOf(AbortSignal);

    const unreachable = createRazorpayPayments({ keyId: "k", keySecret: "s", webhookSecret: "w", apiUrl: "http://127.0.0.1:1/v1" });
    await expect(unreachable.createCheckout(order())).rejects.toThrow(/Razorpay POST \/payment_links failed/);
  });

  it("is refused a second link with the same reference_id (the fake, as Razorpay)", async () => {
    const { order: o } = await created();
    await expect(gateway.createCheckout(order({ reference: o.reference }))).rejects.toThrow(/answered 400: reference_id already exists/);

    const response = await fetch(`${fake.url}/payment_links`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${fake.keyId}:${fake.keySecret}`).toString("base64")}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ amount: 10_000, currency: "INR", reference_id: o.reference }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "BAD_REQUEST_ERROR", description: "reference_id already exists" } });
  });
});

describe("Razorpay payment links: fetch", () => {
  it("answers pending for a link not yet paid", async () => {
    const { order: o, session } = await created();
    expect(await gateway.fetch(session.providerOrderId)).toEqual({
      providerOrderId: session.providerOrderId,
      reference: o.reference,
      providerPaymentId: null,
      state: "pending",
      amountPaise: null,
      at: null,
      failureReason: null,
    });
  });

  it("answers captured with the payment's id, amount and time once paid", async () => {
    const { order: o, session } = await created();
    const at = new Date("2026-03-05T09:15:42Z");
    // A failed try first: only the captured payment counts.
    fake.webhookFor("payment.failed", session.providerOrderId);
    const { paymentId } = fake.pay(session.providerOrderId, { at });
    expect(await gateway.fetch(session.providerOrderId)).toEqual({
      providerOrderId: session.providerOrderId,
      reference: o.reference,
      providerPaymentId: paymentId,
      state: "captured",
      amountPaise: 1_234_500,
      at,
      failureReason: null,
      // The link lists the payment's method, not its bank reference.
      method: { kind: "upi", detail: null },
    });
  });

  it("answers cancelled for an expired or cancelled link", async () => {
    const expired = await created();
    fake.expire(expired.session.providerOrderId);
    expect(await gateway.fetch(expired.session.providerOrderId)).toMatchObject({
      state: "cancelled",
      providerPaymentId: null,
      amountPaise: null,
    });
    const cancelled = await created();
    fake.expire(cancelled.session.providerOrderId, "cancelled");
    expect(await gateway.fetch(cancelled.session.providerOrderId)).toMatchObject({
      state: "cancelled",
      reference: cancelled.order.reference,
    });
  });

  it("throws for a link the gateway does not know", async () => {
    await expect(gateway.fetch("plink_DoesNotExist01")).rejects.toThrow(/answered 400: The id provided does not exist/);
  });
});

describe("Razorpay payment links: callback", () => {
  it("accepts the signed query of a paid link as captured, without an amount (the app fetches the link)", async () => {
    const { order: o, session } = await created();
    const { paymentId, callbackQuery } = fake.pay(session.providerOrderId);
    expect(gateway.callback(callbackQuery)).toEqual({
      providerOrderId: session.providerOrderId,
      reference: o.reference,
      providerPaymentId: paymentId,
      state: "captured",
      amountPaise: null,
      at: null,
      failureReason: null,
    });
  });

  it("sends the borrower back from the hosted page with the query Razorpay appends", async () => {
    const { order: o, session } = await created();
    const page = await fetch(session.checkoutUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Loan SL12345678");
    const paid = await fetch(session.checkoutUrl, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe("https://app.example.in/loans/payments/callback");
    expect(back.searchParams.get("payment")).toBe(o.reference);
    expect(gateway.callback(back.searchParams)).toMatchObject({ state: "captured", providerOrderId: session.providerOrderId });
  });

  it("refuses a query whose signature does not match, and ignores one without the parameters", async () => {
    const { session } = await created();
    const { callbackQuery } = fake.pay(session.providerOrderId);

    const otherPayment = new URLSearchParams(callbackQuery);
    otherPayment.set("razorpay_payment_id", "pay_SomeoneElses01");
    expect(gateway.callback(otherPayment)).toBe("bad_signature");

    const otherStatus = new URLSearchParams(callbackQuery);
    otherStatus.set("razorpay_payment_link_status", "partially_paid");
    expect(gateway.callback(otherStatus)).toBe("bad_signature");

    const shortSignature = new URLSearchParams(callbackQuery);
    shortSignature.set("razorpay_signature", "abc123");
    expect(gateway.callback(shortSignature)).toBe("bad_signature");

    // Signed with the webhook secret, not the key secret.
    const webhookSigned = createRazorpayPayments({
      keyId: fake.keyId,
      keySecret: fake.webhookSecret,
      webhookSecret: fake.webhookSecret,
      apiUrl: fake.url,
    });
    expect(webhookSigned.callback(callbackQuery)).toBe("bad_signature");

    const unsigned = new URLSearchParams(callbackQuery);
    unsigned.delete("razorpay_signature");
    expect(gateway.callback(unsigned)).toBe("ignored");
    expect(gateway.callback(new URLSearchParams({ payment: "pm_x" }))).toBe("ignored");
    expect(gateway.callback(new URLSearchParams())).toBe("ignored");
  });
});

describe("Razorpay payment links: webhook", () => {
  it("maps a signed payment_link.paid to captured, with the link, our reference, the payment and its time", async () => {
    const { order: o, session } = await created();
    const at = new Date("2026-03-05T04:30:07Z");
    const { paymentId } = fake.pay(session.providerOrderId, { at });
    const { body, headers } = fake.webhookFor("payment_link.paid", session.providerOrderId);
    const rrn = (JSON.parse(body) as { payload: { payment: { entity: { acquirer_data: { rrn: string } } } } }).payload.payment.entity
      .acquirer_data.rrn;
    expect(gateway.webhook(body, headersOf(headers))).toEqual({
      providerOrderId: session.providerOrderId,
      reference: o.reference,
      providerPaymentId: paymentId,
      state: "captured",
      amountPaise: 1_234_500,
      at,
      failureReason: null,
      method: { kind: "upi", detail: rrn },
    });
  });

  it("maps a signed payment.captured to captured, naming our reference from the payment's notes", async () => {
    const { order: o, session } = await created({ amountPaise: 50_000 });
    const at = new Date("2026-03-06T11:00:00Z");
    const { paymentId } = fake.pay(session.providerOrderId, { at });
    const { body, headers } = fake.webhookFor("payment.captured", session.providerOrderId);
    const rrn = (JSON.parse(body) as { payload: { payment: { entity: { acquirer_data: { rrn: string } } } } }).payload.payment.entity
      .acquirer_data.rrn;
    expect(rrn).toMatch(/^\d{12}$/);
    expect(gateway.webhook(body, headersOf(headers))).toEqual({
      providerOrderId: null,
      reference: o.reference,
      providerPaymentId: paymentId,
      state: "captured",
      amountPaise: 50_000,
      at,
      failureReason: null,
      // How it was paid, for the statement: by UPI with the bank's reference number.
      method: { kind: "upi", detail: rrn },
    });
  });

  it("maps a signed payment.failed to failed with Razorpay's description", async () => {
    const { order: o, session } = await created();
    const { body, headers } = fake.webhookFor("payment.failed", session.providerOrderId, {
      errorDescription: "Payment was cancelled by the customer",
    });
    const event = gateway.webhook(body, headersOf(headers));
    expect(event).toMatchObject({
      providerOrderId: null,
      reference: o.reference,
      state: "failed",
      amountPaise: null,
      failureReason: "Payment was cancelled by the customer",
    });
    expect(event).toHaveProperty("providerPaymentId", expect.stringMatching(/^pay_/));
  });

  it("refuses a forged or unsigned body", async () => {
    const { session } = await created();
    fake.pay(session.providerOrderId);
    const forged = fake.webhookFor("payment_link.paid", session.providerOrderId, { secret: "not-the-webhook-secret" });
    expect(gateway.webhook(forged.body, headersOf(forged.headers))).toBe("bad_signature");

    const genuine = fake.webhookFor("payment_link.paid", session.providerOrderId);
    // Signed, then altered on the way.
    const altered = genuine.body.replace('"amount_paid":1234500', '"amount_paid":1');
    expect(altered).not.toBe(genuine.body);
    expect(gateway.webhook(altered, headersOf(genuine.headers))).toBe("bad_signature");
    expect(gateway.webhook(genuine.body, new Headers({ "Content-Type": "application/json" }))).toBe("bad_signature");
    expect(gateway.webhook(genuine.body, new Headers({ "X-Razorpay-Signature": "" }))).toBe("bad_signature");
    expect(gateway.webhook(genuine.body, new Headers({ "X-Razorpay-Signature": "zz" }))).toBe("bad_signature");
  });

  it("ignores other events, and a signed body that is not JSON", async () => {
    const sign = (body: string) => new Headers({ "X-Razorpay-Signature": createHmacHex(fake.webhookSecret, body) });
    const { session } = await created();
    fake.pay(session.providerOrderId);
    const paid = fake.webhookFor("payment_link.paid", session.providerOrderId);
    const otherEvent = paid.body.replace('"event":"payment_link.paid"', '"event":"payment_link.expired"');
    expect(gateway.webhook(otherEvent, sign(otherEvent))).toBe("ignored");
    const orderPaid = JSON.stringify({ entity: "event", event: "order.paid", payload: {}, created_at: 1_772_000_000 });
    expect(gateway.webhook(orderPaid, sign(orderPaid))).toBe("ignored");
    expect(gateway.webhook("{not json", sign("{not json"))).toBe("ignored");
    expect(gateway.webhook("null", sign("null"))).toBe("ignored");
    // A captured payment that is none of our links' (no reference in its notes).
    const foreign = JSON.stringify({
      event: "payment.captured",
      payload: { payment: { entity: { id: "pay_Foreign0000001", amount: 100, status: "captured", notes: [], created_at: 1_772_000_000 } } },
    });
    expect(gateway.webhook(foreign, sign(foreign))).toBe("ignored");
  });
});
