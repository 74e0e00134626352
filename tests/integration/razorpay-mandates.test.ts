import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { indiaTime } from "../../app/domain/india-date.ts";
import { presentationDate } from "../../app/domain/loans/autopay.ts";
import { loanLedger, mandateDebits, mandates, payments } from "../../app/server/db/schema.ts";
import { runAutopayDay } from "../../app/server/mandates/day.server.ts";
import { presentDebit } from "../../app/server/mandates/present.server.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, emiWithoutAutopayFirst, instalmentOf, signedInStaff } from "../helpers/applications.ts";
import { type Entity, type FakeRazorpayRecurring, startFakeRazorpayRecurring } from "../helpers/fake-razorpay-recurring.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Autopay through Razorpay recurring payments (docs/product.md "Autopay"), against a local fake of
// its API: the borrower authorises on the registration link's hosted page, Razorpay's signed
// webhooks make the mandate active (or not) and answer for each debit the daily run presents, once
// however often they come, and a presentation sent again after a dropped connection charges once.
let clock = new Date("2026-03-02T05:30:00Z");
let fake: FakeRazorpayRecurring;
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  fake = await startFakeRazorpayRecurring({ now: () => clock });
  app = await startTestServer(
    {
      LOCAL_PAYOUT_SETTLE_SECONDS: "0",
      MANDATE_PROVIDER: "razorpay",
      RAZORPAY_API_URL: fake.url,
      RAZORPAY_KEY_ID: fake.keyId,
      RAZORPAY_KEY_SECRET: fake.keySecret,
      RAZORPAY_WEBHOOK_SECRET: fake.webhookSecret,
    },
    { now: () => clock },
  );
  fake.webhookUrl = new URL("/api/webhooks/mandate-razorpay", app.url).toString();
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  // Autopay here is set up on the loan's page, after the money arrived.
  await emiWithoutAutopayFirst(app);
});
afterAll(async () => {
  await app?.stop();
  await fake?.stop();
});

let serial = 0;
const at = (day: IsoDate, time: `${number}:${number}`) => indiaTime(day, time);
const mandateOf = async (applicationId: string) =>
  (await app.services.db.select().from(mandates).where(eq(mandates.applicationId, applicationId)))[0];
const debitsOf = (applicationId: string) =>
  app.services.db.select().from(mandateDebits).where(eq(mandateDebits.applicationId, applicationId)).orderBy(asc(mandateDebits.attempt));
const statusOf = async (res: Response) => ((await res.json()) as { status: string }).status;
/** The fake's token of a registration link (once the borrower has been to its page). */
const tokenOfLink = (link: Entity) => {
  const payment = [...fake.payments.values()].findLast((p) => p.invoice_id === link.id);
  const token = fake.tokens.get(String(payment?.token_id));
  if (!token) throw new Error("the link has no token");
  return token;
};

/** An active loan whose borrower clicked "Set up autopay": where they were sent, and the link there. */
async function setUp(accountNumber = "50100012345678") {
  clock = new Date("2026-03-02T05:30:00Z");
  const loan = await activeLoan(app, `97500${String(++serial).padStart(5, "0")}`, credit, ops, { accountNumber });
  const path = `/User/Loans/Emi/${loan.loanNumber}`;
  const started = await postForm(app, path, { intent: "autopay_start" }, { cookie: loan.cookie });
  expect(started.status).toBe(302);
  const authUrl = started.headers.get("location") ?? "";
  const m = await mandateOf(loan.id);
  if (!m) throw new Error("no mandate");
  return { ...loan, path, authUrl, link: fake.linkOf(m.reference), reference: m.reference, accountNumber };
}

/** Set up, approved on Razorpay's page, confirmed by the bank and told by token.confirmed. */
async function withAutopay(accountNumber?: string) {
  const loan = await setUp(accountNumber);
  fake.authorise(loan.link.id, "approve", { accountNumber: loan.accountNumber });
  const token = fake.confirm(tokenOfLink(loan.link).id);
  expect(await statusOf(await fake.deliver("token.confirmed", { token }))).toBe("active");
  const m = await mandateOf(loan.id);
  if (!m) throw new Error("no mandate");
  const first = await instalmentOf(app, loan.id, 1);
  return { ...loan, mandate: m, first, presentOn: presentationDate(first.dueDate, m.kind, app.services.config.holidays) };
}

/** The daily job's work on `day` at 00:30 India time: servicing, then autopay. */
async function dailyRun(day: IsoDate) {
  clock = at(day, "00:30");
  await runServicingDay(app.services, day);
  return runAutopayDay(app.services);
}

/** A loan with autopay whose first debit the daily run presented: the debit and the fake's payment. */
async function presented(accountNumber?: string) {
  const loan = await withAutopay(accountNumber);
  await dailyRun(addDays(loan.presentOn, -2));
  await dailyRun(loan.presentOn);
  const [debit] = await debitsOf(loan.id);
  const payment = fake.payments.get(debit?.providerPaymentId ?? "");
  if (!debit || !payment) throw new Error("the debit was not presented at the fake");
  return { ...loan, debit, payment };
}

const autopayPayments = async (applicationId: string) =>
  (await app.services.db.select().from(payments).where(eq(payments.applicationId, applicationId))).filter((p) => p.mode === "autopay");
const ledgerPayments = async (applicationId: string) =>
  (
    await app.services.db
      .select()
      .from(loanLedger)
      .where(and(eq(loanLedger.applicationId, applicationId), eq(loanLedger.kind, "payment")))
  ).length;

describe("autopay through Razorpay recurring payments", () => {
  it("registers a UPI AutoPay link, is active on token.confirmed, and a repeated or forged webhook changes nothing", async () => {
    const loan = await setUp();
    expect(loan.authUrl).toBe(loan.link.short_url);
    expect(loan.authUrl.startsWith(fake.url)).toBe(true);
    // A second click while it waits resumes the same link.
    const again = await postForm(app, loan.path, { intent: "autopay_start" }, { cookie: loan.cookie });
    expect(again.headers.get("location")).toBe(loan.authUrl);
    const m = await mandateOf(loan.id);
    expect(m).toMatchObject({ status: "pending", kind: "upi_autopay", providerMandateId: loan.reference });
    expect(loan.link).toMatchObject({
      type: "link",
      amount: 100,
      currency: "INR",
      receipt: loan.reference,
      notes: { reference: loan.reference },
      description: `Autopay for EMI loan ${loan.loanNumber}`,
      subscription_registration: { method: "upi", max_amount: m?.maxAmountPaise, frequency: "as_presented" },
    });
    expect(fake.calls.every((c) => c.authorized)).toBe(true);

    // The borrower approves on Razorpay's page; the authorisation alone does not make it active.
    const page = await fetch(loan.authUrl);
    expect(await page.text()).toContain(`Autopay for EMI loan ${loan.loanNumber}`);
    const approved = await fetch(loan.authUrl, {
      method: "POST",
      body: new URLSearchParams({ outcome: "approve", account: loan.accountNumber }),
    });
    expect(approved.status).toBe(200);
    const authorisation = [...fake.payments.values()].find((p) => p.invoice_id === loan.link.id);
    expect(await statusOf(await fake.deliver("invoice.paid", { payment: authorisation as Entity, invoice: loan.link }))).toBe("unchanged");
    expect((await mandateOf(loan.id))?.status).toBe("pending");

    // The bank confirms: token.confirmed makes it active, once.
    const token = fake.confirm(tokenOfLink(loan.link).id);
    expect(await statusOf(await fake.deliver("token.confirmed", { token }))).toBe("active");
    expect((await mandateOf(loan.id))?.status).toBe("active");
    expect(await statusOf(await fake.deliver("token.confirmed", { token }))).toBe("unchanged");
    const forged = await fake.deliver("token.cancelled", { token }, { secret: "not-the-secret" });
    expect(forged.status).toBe(401);
    expect((await mandateOf(loan.id))?.status).toBe("active");
    // Another product's token (no reference of ours) is not ours to apply.
    expect(await statusOf(await fake.deliver("token.cancelled", { token: { ...token, notes: [] } }))).toBe("ignored");
  });

  it("takes the borrower's return, should Razorpay send one, only as a hint checked by its signature", async () => {
    const loan = await setUp();
    const { callbackQuery, token } = fake.authorise(loan.link.id, "approve", { accountNumber: loan.accountNumber });
    fake.confirm(token.id);
    const tampered = new URLSearchParams(callbackQuery);
    tampered.set("razorpay_invoice_status", "cancelled");
    expect((await app.get(`/api/mandates/razorpay/return?${tampered}`)).status).toBe(400);
    const back = await app.get(`/api/mandates/razorpay/return?${callbackQuery}`, { headers: { Cookie: loan.cookie } });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(`${loan.path}#autopay-title`);
    expect(toastOf(back)).toContain("Autopay is set up");
    expect((await mandateOf(loan.id))?.status).toBe("active");
  });

  it("is not approved when the borrower rejects it on Razorpay's page", async () => {
    const loan = await setUp();
    const { token } = fake.authorise(loan.link.id, "reject");
    expect(await statusOf(await fake.deliver("token.rejected", { token }))).toBe("rejected");
    expect(await mandateOf(loan.id)).toMatchObject({ status: "rejected", reason: "Rejected by the customer" });
  });

  it("presents a debit on its date that becomes one payment on payment.captured, however often and in whatever order told", async () => {
    const loan = await presented();
    const emi = loan.first.principalPaise + loan.first.interestPaise;
    expect(loan.debit).toMatchObject({ status: "in_progress", amountPaise: emi });
    const order = fake.orders.get(String(loan.payment.order_id));
    expect(order).toMatchObject({
      amount: emi,
      receipt: loan.debit.reference,
      notes: { reference: loan.debit.reference, key: loan.debit.id },
    });
    expect(loan.payment).toMatchObject({ status: "created", recurring: true, amount: emi, token_id: tokenOfLink(loan.link).id });
    expect(await app.services.mandates?.fetchDebit(loan.payment.id)).toMatchObject({ state: "pending" });

    const captured = fake.settle(loan.payment.id);
    expect(await statusOf(await fake.deliver("payment.captured", { payment: captured }))).toBe("succeeded");
    expect(await statusOf(await fake.deliver("payment.captured", { payment: captured }))).toBe("unchanged");
    // A failure told after the capture (out of order) changes nothing.
    const late = { ...captured, status: "failed", error_description: "Payment failed" };
    expect(await statusOf(await fake.deliver("payment.failed", { payment: late }))).toBe("unchanged");
    expect((await debitsOf(loan.id))[0]?.status).toBe("succeeded");
    expect(await autopayPayments(loan.id)).toEqual([
      expect.objectContaining({ amountPaise: emi, businessDate: loan.presentOn, providerPaymentId: loan.payment.id }),
    ]);
    expect(await ledgerPayments(loan.id)).toBe(1);
    expect(await app.services.mandates?.fetchDebit(loan.payment.id)).toMatchObject({ state: "captured", amountPaise: emi });
  });

  it("bounces on payment.failed with the bank's reason and is presented once more later", async () => {
    const loan = await presented("50100012341111");
    const failed = fake.settle(loan.payment.id);
    expect(failed.status).toBe("failed");
    expect(await statusOf(await fake.deliver("payment.failed", { payment: failed }))).toBe("bounced");
    expect(await statusOf(await fake.deliver("payment.failed", { payment: failed }))).toBe("unchanged");
    const [bounced, again] = await debitsOf(loan.id);
    expect(bounced).toMatchObject({ status: "bounced", reason: expect.stringContaining("Insufficient funds") });
    expect(again).toMatchObject({ attempt: 2, status: "notified" });
    expect(await autopayPayments(loan.id)).toEqual([]);
  });

  it("charges once when a presentation is sent again with the same key after a dropped connection", async () => {
    const loan = await withAutopay();
    await dailyRun(addDays(loan.presentOn, -2));
    // This loan's debit, not another loan's presented in the same run.
    fake.dropNext = "POST /payments/create/recurring";
    fake.dropOnlyFor = (await debitsOf(loan.id))[0]?.reference ?? null;
    await dailyRun(loan.presentOn);
    const [cut] = await debitsOf(loan.id);
    expect(cut?.status).toBe("presenting");
    const ordersOf = () => [...fake.orders.values()].filter((o) => o.receipt === cut?.reference);
    expect(ordersOf()).toHaveLength(1);
    // Two minutes later the sweep sends it again with the same key: the payment already made is found.
    clock = new Date(clock.getTime() + 5 * 60_000);
    expect(await presentDebit(app.services, { debitId: cut?.id ?? "", day: loan.presentOn })).toBe("in_progress");
    const charges = [...fake.payments.values()].filter((p) => p.order_id === ordersOf()[0]?.id);
    expect(ordersOf()).toHaveLength(1);
    expect(charges).toHaveLength(1);
    expect((await debitsOf(loan.id))[0]).toMatchObject({ status: "in_progress", providerPaymentId: charges[0]?.id });
  });

  it("cancels the mandate at Razorpay when the borrower cancels autopay", async () => {
    const loan = await withAutopay();
    const token = tokenOfLink(loan.link);
    const res = await postForm(app, loan.path, { intent: "autopay_cancel" }, { cookie: loan.cookie });
    expect(res.status).toBe(302);
    expect(await mandateOf(loan.id)).toMatchObject({ status: "cancelled", cancelledBy: loan.userId });
    // UPI: the mandate is cancelled at NPCI through Razorpay's cancel, not deleted.
    expect(fake.calls.filter((c) => c.path.endsWith(`/tokens/${token.id}/cancel`)).map((c) => c.method)).toEqual(["PUT"]);
    expect(fake.tokens.get(token.id)?.recurring_details).toMatchObject({ status: "cancellation_initiated" });
    expect(await statusOf(await fake.deliver("token.cancelled", { token: fake.confirm(token.id, "cancelled") }))).toBe("unchanged");
  });

  it("takes an e-mandate on the borrower's account and deletes its token at Razorpay on cancelling", async () => {
    const provider = app.services.mandates;
    if (provider?.name !== "razorpay") throw new Error("Razorpay is expected");
    const reference = "md_enachtest00000000000000000";
    const session = await provider.create({
      reference,
      kind: "enach",
      maxAmountPaise: 3_000_000,
      startDate: "2026-03-02",
      endDate: "2027-06-05",
      account: { holderName: "Neha Sharma", accountNumber: "50100012345678", ifsc: "HDFC0000001" },
      customer: { name: "Neha Sharma", mobile: "9750099001", email: "neha@example.com" },
      description: "Autopay for EMI loan SL12345678",
      callbackUrl: new URL("/api/mandates/razorpay/return", app.url).toString(),
    });
    expect(session.providerMandateId).toBe(reference);
    const link = fake.linkOf(reference);
    expect(link).toMatchObject({
      amount: 0,
      subscription_registration: {
        method: "emandate",
        max_amount: 3_000_000,
        bank_account: {
          beneficiary_name: "Neha Sharma",
          account_number: "50100012345678",
          account_type: "savings",
          ifsc_code: "HDFC0000001",
        },
      },
    });
    expect(await provider.fetch(reference)).toMatchObject({ state: "pending" });
    const { token } = fake.authorise(link.id, "approve");
    expect(await provider.fetch(reference)).toMatchObject({ state: "pending" });
    fake.confirm(token.id);
    expect(await provider.fetch(reference)).toMatchObject({ state: "active" });
    expect(await provider.cancel(reference)).toMatchObject({ state: "cancelled" });
    expect(fake.tokens.has(token.id)).toBe(false);
    expect(await provider.fetch(reference)).toMatchObject({ state: "cancelled" });
  });

  it("withdraws a link not yet authorised when autopay is cancelled before approval", async () => {
    const provider = app.services.mandates;
    if (!provider) throw new Error("no provider");
    const loan = await setUp();
    expect(await provider.cancel(loan.reference)).toMatchObject({ state: "cancelled" });
    expect(fake.links.get(loan.link.id)?.status).toBe("cancelled");
  });
});
