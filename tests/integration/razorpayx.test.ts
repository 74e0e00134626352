import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  loanApplications,
  loanDocuments,
  loanInstalments,
  loanLedger,
  loanSignatures,
  payouts,
  revisedKfs,
} from "../../app/server/db/schema.ts";
import { checkPayout } from "../../app/server/payouts/check.server.ts";
import { approvedApplication, autopayBeforeDisbursal, signedInStaff } from "../helpers/applications.ts";
import { type FakePayout, type FakeRazorpayX, startFakeRazorpayX } from "../helpers/fake-razorpayx.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The RazorpayX implementation of the payout interface, against a local fake of its HTTP API:
// what it sends, idempotency across a lost answer, signed webhooks applied once, failure and
// retry with a new key, and a payout reversed after it was processed.
let fake: FakeRazorpayX;
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  fake = await startFakeRazorpayX();
  app = await startTestServer({
    PAYOUT_PROVIDER: "razorpayx",
    RAZORPAYX_API_URL: fake.url,
    RAZORPAYX_KEY_ID: fake.keyId,
    RAZORPAYX_KEY_SECRET: fake.keySecret,
    RAZORPAYX_ACCOUNT_NUMBER: fake.accountNumber,
    RAZORPAYX_WEBHOOK_SECRET: fake.webhookSecret,
  });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
  await fake?.stop();
});

let serial = 0;
const approved = () => approvedApplication(app, `95000${String(++serial).padStart(5, "0")}`, credit);
const disburse = (ref: string) =>
  postForm(app, `/admin/applications/${ref}`, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie });
const row = async (ref: string) =>
  (
    await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref))
  )[0] as typeof loanApplications.$inferSelect;
const payoutsOf = (id: string) => app.services.db.select().from(payouts).where(eq(payouts.applicationId, id)).orderBy(asc(payouts.attempt));
/** The attempt once the provider has answered (the job sends it after the request commits). */
const sent = (id: string, attempt = 1) =>
  vi.waitFor(
    async () => {
      const p = (await payoutsOf(id)).find((x) => x.attempt === attempt);
      if (!p?.providerPayoutId) throw new Error("not sent yet");
      return p;
    },
    { timeout: 15_000, interval: 200 },
  );
const deliver = (event: string, payout: FakePayout, options: { createdAt?: number; secret?: string } = {}) => {
  const { body, signature } = fake.webhook(event, payout, options);
  // From the provider's servers: another origin entirely, checked by its signature.
  return app.get("/api/webhooks/razorpayx", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "X-Razorpay-Signature": signature, Origin: "https://razorpay.com" },
  });
};
const disbursalSms = (mobile: string) => readOutbox(app.dataDir).filter((m) => m.to === mobile && m.text.includes("UTR"));

describe("RazorpayX payouts", () => {
  it("creates the contact, fund account and payout with its idempotency key, and activates on the signed webhook, once", async () => {
    const b = await approved();
    const callsBefore = fake.calls.length;
    expect(toastOf(await disburse(b.ref))).toMatch(/Payout requested/);
    const p = await sent(b.id);
    expect(p.status).toBe("requested");
    const calls = fake.calls.slice(callsBefore);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["POST /contacts", "POST /fund_accounts", "POST /payouts"]);
    expect(calls[1]?.body).toMatchObject({
      account_type: "bank_account",
      bank_account: { account_number: "50100012345678", ifsc: "HDFC0000001" },
    });
    expect(calls[2]?.idempotencyKey).toBe(p.id);
    expect(calls[2]?.body).toMatchObject({
      account_number: fake.accountNumber,
      amount: p.amountPaise,
      currency: "INR",
      mode: "IMPS",
      reference_id: p.id,
    });
    expect((await row(b.ref)).status).toBe("approved");

    // Processed on the KFS's assumed disbursal date (the provider's event time counts): no revised KFS.
    const [signed] = await app.services.db
      .select({ assumed: loanDocuments.assumedDisbursalDate })
      .from(loanSignatures)
      .innerJoin(loanDocuments, eq(loanDocuments.id, loanSignatures.documentId))
      .where(eq(loanSignatures.applicationId, b.id));
    const createdAt = Date.parse(`${signed?.assumed}T10:00:00+05:30`) / 1000;
    const processed = fake.settle(p.providerPayoutId ?? "", "processed");
    const first = await deliver("payout.processed", processed, { createdAt });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: "processed" });
    const a = await row(b.ref);
    expect(a.status).toBe("active");
    expect(a.disbursalDate).toBe(signed?.assumed);
    expect(a.disbursedAt?.getTime()).toBe(createdAt * 1000);
    expect(await app.services.db.select().from(revisedKfs).where(eq(revisedKfs.applicationId, b.id))).toHaveLength(0);
    const [stored] = await payoutsOf(b.id);
    expect(stored).toMatchObject({ status: "processed", utr: processed.utr });

    // Delivered again (Razorpay retries), and a late payout.updated: nothing changes a second time.
    const again = await deliver("payout.processed", processed, { createdAt });
    expect(await again.json()).toEqual({ status: "unchanged" });
    expect(await (await deliver("payout.updated", processed)).json()).toEqual({ status: "unchanged" });
    expect(await app.services.db.select().from(loanLedger).where(eq(loanLedger.applicationId, b.id))).toHaveLength(1);
    const sms = await vi.waitFor(() => {
      const found = disbursalSms(b.mobile);
      if (!found.length) throw new Error("no SMS yet");
      return found;
    });
    // A second notice from the repeated webhooks would be a notify job sent before they answered:
    // once every due one has been worked, its SMS would be in the outbox.
    await waitForJobs(app, "notify");
    expect(disbursalSms(b.mobile)).toHaveLength(1);
    expect(sms[0]?.text).toContain(processed.utr ?? "?");
    expect(sms[0]?.text).not.toContain("revised KFS");
  });

  it("keeps a UTR that follows the processing, and tells the borrower", async () => {
    const b = await approved();
    await disburse(b.ref);
    const p = await sent(b.id);
    const processed = { ...fake.settle(p.providerPayoutId ?? "", "processed"), utr: null };
    expect(await (await deliver("payout.processed", processed)).json()).toEqual({ status: "processed" });
    expect((await row(b.ref)).status).toBe("active");
    const updated = { ...processed, utr: "998877665544" };
    expect(await (await deliver("payout.updated", updated)).json()).toEqual({ status: "processed" });
    expect((await payoutsOf(b.id))[0]?.utr).toBe("998877665544");
    await vi.waitFor(() => {
      if (!readOutbox(app.dataDir).some((m) => m.to === b.mobile && m.text.includes("UTR 998877665544"))) throw new Error("no SMS yet");
    });
    expect(await (await deliver("payout.updated", updated)).json()).toEqual({ status: "unchanged" });
  });

  it("refuses a webhook whose signature is wrong, and changes nothing", async () => {
    const b = await approved();
    await disburse(b.ref);
    const p = await sent(b.id);
    const forged = fake.settle(p.providerPayoutId ?? "", "processed");
    const res = await deliver("payout.processed", forged, { secret: "not-the-secret" });
    expect(res.status).toBe(401);
    const unsigned = await app.get("/api/webhooks/razorpayx", {
      method: "POST",
      body: fake.webhook("payout.processed", forged).body,
      headers: { "Content-Type": "application/json" },
    });
    expect(unsigned.status).toBe(401);
    expect((await row(b.ref)).status).toBe("approved");
    expect((await payoutsOf(b.id))[0]?.status).toBe("requested");
    // The provider's word, fetched by staff ("Ask the provider now"), is trusted.
    const asked = await postForm(app, `/admin/applications/${b.ref}`, { intent: "payout_check", payout: p.id }, { cookie: ops.cookie });
    expect(toastOf(asked)).toMatch(/processed/);
    expect((await row(b.ref)).status).toBe("active");
  });

  it("sends a payout whose answer was lost again with the same key: the provider pays once", async () => {
    const b = await approved();
    fake.dropNextAnswers = 1;
    const made = fake.payouts.size;
    await disburse(b.ref);
    // The job's call lost its answer: the payout stays requested, not failed, and no new attempt is possible.
    await vi.waitFor(
      () => {
        if (fake.dropNextAnswers !== 0) throw new Error("not sent yet");
      },
      { timeout: 15_000 },
    );
    // The job has made what it will of the lost answer (its next question is a minute away).
    await waitForJobs(app, "payout-check");
    const [waiting] = await payoutsOf(b.id);
    expect(waiting).toMatchObject({ status: "requested", providerPayoutId: null });
    expect(toastOf(await disburse(b.ref))).toMatch(/already on its way/);
    // Staff asking now leave the sending to its job (one at a time per payout)…
    const asked = await postForm(
      app,
      `/admin/applications/${b.ref}`,
      { intent: "payout_check", payout: waiting?.id ?? "" },
      { cookie: ops.cookie },
    );
    expect(toastOf(asked)).toMatch(/not answered yet/);
    // …which, asking again, finds the payout the lost answer was about: nothing is sent twice.
    await checkPayout(app.services, waiting?.id ?? "");
    const p = await sent(b.id);
    expect(p.status).toBe("requested");
    expect(fake.calls.filter((c) => c.path === "/payouts" && c.idempotencyKey === p.id)).toHaveLength(1);
    expect(fake.calls.some((c) => c.method === "GET" && c.path.includes(`reference_id=${p.id}`))).toBe(true);
    expect(fake.payouts.size).toBe(made + 1);
  });

  it("keeps a failed payout, retries with a new key, then reverses a processed one back to approved", async () => {
    const b = await approved();
    fake.failNextPayoutsWith = 1;
    await disburse(b.ref);
    await vi.waitFor(
      async () => {
        if ((await payoutsOf(b.id))[0]?.status !== "failed") throw new Error("not failed yet");
      },
      { timeout: 15_000 },
    );
    const [failed] = await payoutsOf(b.id);
    expect(failed?.failureReason).toBe("Beneficiary account is frozen");
    expect((await row(b.ref)).status).toBe("approved");

    expect(toastOf(await disburse(b.ref))).toMatch(/Payout requested/);
    const second = await sent(b.id, 2);
    expect(second.id).not.toBe(failed?.id);
    expect(fake.calls.filter((c) => c.path === "/payouts").at(-1)?.idempotencyKey).toBe(second.id);
    const processed = fake.settle(second.providerPayoutId ?? "", "processed");
    await deliver("payout.processed", processed);
    const active = await row(b.ref);
    expect(active.status).toBe("active");
    const loanNumber = active.loanNumber;

    // The bank returns the money: the loan goes back to approved, the disbursal reversed in the ledger.
    const reversed = fake.settle(second.providerPayoutId ?? "", "reversed", "Beneficiary account closed");
    expect(await (await deliver("payout.reversed", reversed)).json()).toEqual({ status: "reversed" });
    const back = await row(b.ref);
    expect(back.status).toBe("approved");
    expect(back.loanNumber).toBe(loanNumber);
    const ledger = await app.services.db
      .select()
      .from(loanLedger)
      .where(eq(loanLedger.applicationId, b.id))
      .orderBy(asc(loanLedger.recordedAt));
    expect(ledger.map((l) => [l.kind, l.principalPaise])).toEqual([
      ["disbursal", back.amountPaise],
      ["disbursal_reversal", -(back.amountPaise ?? 0)],
    ]);
    expect(await app.services.db.select().from(loanInstalments).where(eq(loanInstalments.applicationId, b.id))).toHaveLength(0);
    await vi.waitFor(() => {
      if (!readOutbox(app.dataDir).some((m) => m.to === b.mobile && m.text.includes("returned"))) throw new Error("no SMS yet");
    });
    // Its autopay ended with it (the account it debited is the one the bank returned the money from):
    // the borrower sets it up again, then a new attempt may be made.
    await waitForJobs(app, "mandate-end");
    expect(toastOf(await disburse(b.ref))).toMatch(/paid out only once the borrower's autopay is active/);
    await autopayBeforeDisbursal(app, b);
    expect(toastOf(await disburse(b.ref))).toMatch(/Payout requested/);
    expect((await payoutsOf(b.id)).map((p) => p.status)).toEqual(["failed", "reversed", "requested"]);
  });
});
