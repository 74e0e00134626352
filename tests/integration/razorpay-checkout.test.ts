import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loanLedger, payments } from "../../app/server/db/schema.ts";
import { activeLoan, signedInStaff } from "../helpers/applications.ts";
import { type FakeRazorpay, startFakeRazorpay } from "../helpers/fake-razorpay.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Pay now through Razorpay Payment Links, against a local fake of its API: the borrower goes to the
// link's hosted page, comes back to a callback checked by its signature, the payment is confirmed
// with Razorpay before it is applied, and its webhooks (delivered again, or forged) change nothing more.
let fake: FakeRazorpay;
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  fake = await startFakeRazorpay();
  app = await startTestServer({
    LOCAL_PAYOUT_SETTLE_SECONDS: "0",
    PAYMENT_PROVIDER: "razorpay",
    RAZORPAY_API_URL: fake.url,
    RAZORPAY_KEY_ID: fake.keyId,
    RAZORPAY_KEY_SECRET: fake.keySecret,
    RAZORPAY_WEBHOOK_SECRET: fake.webhookSecret,
  });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
  await fake?.stop();
});

let serial = 0;
const newLoan = () => activeLoan(app, `97300${String(++serial).padStart(5, "0")}`, credit, ops);
const paymentsOf = (id: string) => app.services.db.select().from(payments).where(eq(payments.applicationId, id));
const applied = async (id: string) =>
  (
    await app.services.db
      .select()
      .from(loanLedger)
      .where(and(eq(loanLedger.applicationId, id), eq(loanLedger.kind, "payment")))
  ).length;
const deliver = (hook: { body: string; headers: Record<string, string> }) =>
  fetch(new URL("/api/webhooks/razorpay", app.url), { method: "POST", body: hook.body, headers: hook.headers });

describe("Pay now through Razorpay Payment Links", () => {
  it("sends the borrower to the hosted page and applies the payment once, on the return and on every webhook", async () => {
    const b = await newLoan();
    const started = await postForm(
      app,
      `/User/Loans/Emi/${b.loanNumber}`,
      { intent: "pay", choice: "amount", amount: "1500" },
      { cookie: b.cookie },
    );
    expect(started.status).toBe(302);
    const location = started.headers.get("location") ?? "";
    expect(location.startsWith(fake.url)).toBe(true);
    const linkId = /plink_\w+/.exec(location)?.[0] ?? "";
    const link = fake.links.get(linkId);
    expect(link).toMatchObject({ amount: 1500_00, currency: "INR", accept_partial: false });
    const [p] = await paymentsOf(b.id);
    expect(link?.reference_id).toBe(p?.reference);
    expect(link?.callback_url).toBe(`${new URL(app.url).origin}/api/payments/razorpay/return`);

    const { callbackQuery } = fake.pay(linkId);
    const tampered = new URLSearchParams(callbackQuery);
    tampered.set("razorpay_payment_link_status", "paid");
    tampered.set("razorpay_payment_id", "pay_forged000000");
    expect((await app.get(`/api/payments/razorpay/return?${tampered}`)).status).toBe(400);
    const back = await app.get(`/api/payments/razorpay/return?${callbackQuery}`);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(`/success/${p?.reference}`);
    expect(await applied(b.id)).toBe(1);

    for (const event of ["payment_link.paid", "payment.captured"] as const) {
      const res = await deliver(fake.webhookFor(event, linkId));
      expect(res.status).toBe(200);
    }
    expect((await deliver(fake.webhookFor("payment_link.paid", linkId, { secret: "not-the-secret" }))).status).toBe(401);
    expect(await applied(b.id)).toBe(1);
    const [after] = await paymentsOf(b.id);
    expect(after).toMatchObject({ status: "captured", receivedPaise: 1500_00 });
  });

  it("applies a payment whose borrower never came back, from the webhook alone; the local checkout does not exist", async () => {
    const b = await newLoan();
    const started = await postForm(
      app,
      `/User/Loans/Emi/${b.loanNumber}`,
      { intent: "pay", choice: "amount", amount: "700" },
      { cookie: b.cookie },
    );
    const linkId = /plink_\w+/.exec(started.headers.get("location") ?? "")?.[0] ?? "";
    fake.pay(linkId);
    const res = await deliver(fake.webhookFor("payment_link.paid", linkId));
    expect(await res.json()).toEqual({ status: "captured" });
    expect(await applied(b.id)).toBe(1);
    expect((await app.get("/local-checkout/lco_abcdefghijklmnopqrstu")).status).toBe(404);
  });
});
