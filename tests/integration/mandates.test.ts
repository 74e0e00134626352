import { createHmac } from "node:crypto";
import { addMonths, type IsoDate } from "../../app/domain/loan-math.ts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, loanInstalments, mandates, payouts } from "../../app/server/db/schema.ts";
import { applyAnswer } from "../../app/server/payouts/answer.server.ts";
import { localMandateSecret } from "../../app/server/mandates/local.server.ts";
import { activeLoan, emiWithoutAutopayFirst, signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { shownMarkup } from "../helpers/english.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Autopay on an active loan through the pages (docs/product.md "Autopay"): set up at the local
// stand-in (Approve, Reject), the provider's signed answers applied once, cancelled by the borrower
// or by operations on the borrower's request, and nobody else's loan reachable.
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
let support: { cookie: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  support = await signedInStaff(app, "support", "Sara Iyer");
  // Autopay here is set up on the loan's page, after the money arrived.
  await emiWithoutAutopayFirst(app);
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
const newLoan = () => activeLoan(app, `97300${String(++serial).padStart(5, "0")}`, credit, ops);
// The page as rendered, without its scripts: the loader data carries the page's messages (every
// sentence it may say), so what the page does not say is checked in its markup only.
const html = async (res: Response) =>
  shownMarkup(await res.text())
    .replaceAll("<!-- -->", "")
    .replaceAll("&amp;", "&")
    .replaceAll("&#x27;", "'");
const loanPath = (loanNumber: string) => `/User/Loans/Emi/${loanNumber}`;
const mandatesOfLoan = (applicationId: string) => app.services.db.select().from(mandates).where(eq(mandates.applicationId, applicationId));

/** "Set up autopay" on the loan page: where the borrower is sent. */
async function setUp(loanNumber: string, cookie: string) {
  const res = await postForm(app, loanPath(loanNumber), { intent: "autopay_start" }, { cookie });
  expect(res.status).toBe(302);
  return res.headers.get("location") ?? "";
}

/** The stand-in's button, then the borrower's return: where they land and the toast they read. */
async function answer(authUrl: string, outcome: "approve" | "reject", cookie: string) {
  const done = await postForm(app, authUrl, { outcome });
  expect(done.status).toBe(302);
  const back = done.headers.get("location") ?? "";
  expect(back).toMatch(/\/api\/mandates\/local\/return\?/);
  const landed = await app.get(new URL(back).pathname + new URL(back).search, { headers: { Cookie: cookie } });
  expect(landed.status).toBe(302);
  return { location: landed.headers.get("location") ?? "", toast: toastOf(landed), returnUrl: back };
}

describe("autopay on a loan", () => {
  it("is set up at 1.5 × the EMI on the account the loan was paid into, approved at the bank, and shown on the loan page", async () => {
    const loan = await newLoan();
    const authUrl = await setUp(loan.loanNumber, loan.cookie);
    expect(authUrl).toMatch(/^\/local-mandate\/lmd_/);
    // A second click while it waits resumes the same mandate.
    expect(await setUp(loan.loanNumber, loan.cookie)).toBe(authUrl);
    const [pending, ...more] = await mandatesOfLoan(loan.id);
    expect(more).toEqual([]);
    const schedule = await app.services.db.select().from(loanInstalments).where(eq(loanInstalments.applicationId, loan.id));
    const emi = Math.max(...schedule.map((i) => i.principalPaise + i.interestPaise));
    const lastDue =
      schedule
        .map((i) => i.dueDate)
        .sort()
        .at(-1) ?? "";
    expect(pending).toMatchObject({ status: "pending", kind: "upi_autopay", maxAmountPaise: Math.ceil((emi * 3) / 2) });
    expect(pending?.endDate).toBe(addMonths(lastDue as IsoDate, 3));
    expect(pending?.accountMasked).toMatch(/\d{4}$/);

    const page = await html(await app.get(authUrl));
    expect(page).toContain("Local autopay stand-in");
    expect(page).toContain(`Autopay for EMI loan ${loan.loanNumber}`);

    const back = await answer(authUrl, "approve", loan.cookie);
    expect(back.location).toBe(`${loanPath(loan.loanNumber)}#autopay-title`);
    expect(back.toast).toContain("Autopay is set up");
    const [active] = await mandatesOfLoan(loan.id);
    expect(active?.status).toBe("active");
    expect(active?.activatedAt).not.toBeNull();
    const shown = await html(await app.get(loanPath(loan.loanNumber), { headers: { Cookie: loan.cookie } }));
    expect(shown).toContain('data-testid="autopay-status">Active<');
    expect(shown).toContain("a debit, until");
    expect(shown).toContain("Cancel autopay");
    // Another click now answers that the loan has autopay already; nothing new is stored.
    const again = await postForm(app, loanPath(loan.loanNumber), { intent: "autopay_start" }, { cookie: loan.cookie });
    expect(again.status).toBe(400);
    expect(await html(again)).toContain("This loan already has autopay.");
    expect(await mandatesOfLoan(loan.id)).toHaveLength(1);
    const audit = await app.services.db
      .select({ action: auditLog.action, role: auditLog.actorRole })
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id)));
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "mandate.started", role: "borrower" },
        { action: "mandate.active", role: "system" },
      ]),
    );

    // The same webhook again, the return again, a forged webhook, a forged return: nothing more.
    const provider = app.services.mandates;
    if (provider?.name !== "local") throw new Error("the local stand-in is expected");
    const id = authUrl.split("/").at(-1) ?? "";
    const body = JSON.stringify({ event: "mandate.cancelled", payload: { id, reference: active?.reference, state: "cancelled" } });
    const sign = (secret: string) => createHmac("sha256", secret).update(body).digest("hex");
    const forged = await fetch(new URL("/api/webhooks/mandate-local", app.url), {
      method: "POST",
      headers: { "content-type": "application/json", "x-local-signature": sign("not the secret") },
      body,
    });
    expect(forged.status).toBe(401);
    const replayed = await app.get(new URL(back.returnUrl).pathname + new URL(back.returnUrl).search);
    expect(replayed.status).toBe(302);
    const tampered = new URL(back.returnUrl);
    tampered.searchParams.set("status", "rejected");
    expect((await app.get(tampered.pathname + tampered.search)).status).toBe(400);
    expect((await mandatesOfLoan(loan.id))[0]?.status).toBe("active");
    // A cancellation the provider signs (the borrower cancelled at their bank) ends it here too.
    const cancelledAtBank = await fetch(new URL("/api/webhooks/mandate-local", app.url), {
      method: "POST",
      headers: { "content-type": "application/json", "x-local-signature": sign(localMandateSecret(app.services.config.sessionSecret)) },
      body,
    });
    expect(await cancelledAtBank.json()).toEqual({ status: "cancelled" });
    const [ended] = await mandatesOfLoan(loan.id);
    expect(ended).toMatchObject({ status: "cancelled", reason: "Cancelled at the bank" });
    // Delivered again, it changes nothing.
    const redelivered = await fetch(new URL("/api/webhooks/mandate-local", app.url), {
      method: "POST",
      headers: { "content-type": "application/json", "x-local-signature": sign(localMandateSecret(app.services.config.sessionSecret)) },
      body,
    });
    expect(await redelivered.json()).toEqual({ status: "unchanged" });
  });

  it("rejected at the bank says so and offers to try again", async () => {
    const loan = await newLoan();
    const back = await answer(await setUp(loan.loanNumber, loan.cookie), "reject", loan.cookie);
    expect(back.toast).toContain("Autopay was not approved");
    expect((await mandatesOfLoan(loan.id))[0]?.status).toBe("rejected");
    const shown = await html(await app.get(loanPath(loan.loanNumber), { headers: { Cookie: loan.cookie } }));
    expect(shown).toContain("Your last autopay was not approved");
    expect(shown).toContain("Set up autopay");
  });

  it("is cancelled by the borrower at the provider and here, and can be set up again", async () => {
    const loan = await newLoan();
    const authUrl = await setUp(loan.loanNumber, loan.cookie);
    await answer(authUrl, "approve", loan.cookie);
    const cancelled = await postForm(app, loanPath(loan.loanNumber), { intent: "autopay_cancel" }, { cookie: loan.cookie });
    expect(cancelled.status).toBe(302);
    expect(toastOf(cancelled)).toContain("Autopay is cancelled");
    const [m] = await mandatesOfLoan(loan.id);
    expect(m).toMatchObject({ status: "cancelled", cancelledBy: loan.userId, reason: "Cancelled by the borrower" });
    const provider = app.services.mandates;
    if (provider?.name !== "local") throw new Error("the local stand-in is expected");
    expect((await provider.fetch(authUrl.split("/").at(-1) ?? "")).state).toBe("cancelled");
    // Nothing left to cancel; a new one may be set up.
    const twice = await postForm(app, loanPath(loan.loanNumber), { intent: "autopay_cancel" }, { cookie: loan.cookie });
    expect(twice.status).toBe(400);
    expect(await html(twice)).toContain("This loan has no autopay to cancel.");
    expect(await setUp(loan.loanNumber, loan.cookie)).not.toBe(authUrl);
    expect(await mandatesOfLoan(loan.id)).toHaveLength(2);
  });

  it("is cancelled by operations on the borrower's request with how it was asked, never by support", async () => {
    const loan = await newLoan();
    await answer(await setUp(loan.loanNumber, loan.cookie), "approve", loan.cookie);
    const staffPage = await html(await app.get(`/admin/loans/${loan.loanNumber}`, { headers: { Cookie: ops.cookie } }));
    expect(staffPage).toContain("Autopay mandates");
    expect(staffPage).toContain("How the borrower asked to cancel autopay");
    const bySupport = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "cancel_mandate", reason: "Borrower called" },
      { cookie: support.cookie },
    );
    expect(bySupport.status).toBe(403);
    const noReason = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "cancel_mandate", reason: "" },
      { cookie: ops.cookie },
    );
    expect(noReason.status).toBe(400);
    expect((await mandatesOfLoan(loan.id))[0]?.status).toBe("active");
    const done = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "cancel_mandate", reason: "Borrower asked by phone, call of 2 April" },
      { cookie: ops.cookie },
    );
    expect(done.status).toBe(302);
    expect(toastOf(done)).toContain("Autopay is cancelled");
    expect((await mandatesOfLoan(loan.id))[0]).toMatchObject({ status: "cancelled", reason: "Borrower asked by phone, call of 2 April" });
    const [row] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id), eq(auditLog.action, "mandate.cancelled")));
    expect(row?.actorRole).toBe("operations");
  });

  it("says so and stores nothing live when the provider does not answer, and never cancels one still being registered", async () => {
    const loan = await newLoan();
    const provider = app.services.mandates;
    if (!provider) throw new Error("a mandate provider is expected");
    const silent = vi.spyOn(provider, "create").mockRejectedValueOnce(new Error("connect ETIMEDOUT"));
    const res = await postForm(app, loanPath(loan.loanNumber), { intent: "autopay_start" }, { cookie: loan.cookie });
    silent.mockRestore();
    expect(res.status).toBe(400);
    expect(await html(res)).toContain("The autopay service did not answer. Nothing changed");
    const [failed] = await mandatesOfLoan(loan.id);
    expect(failed).toMatchObject({ status: "rejected", reason: "The autopay service could not be reached" });
    const [audited] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id), eq(auditLog.action, "mandate.rejected")));
    expect(audited?.actorRole).toBe("system");

    // One stored a moment ago and not yet back from the provider: neither cancelled nor duplicated.
    const [registering] = await app.services.db
      .insert(mandates)
      .values({
        reference: "md_registering0000000000000",
        applicationId: loan.id,
        userId: loan.userId,
        provider: provider.name,
        kind: "upi_autopay",
        status: "pending",
        maxAmountPaise: 100,
        startDate: "2026-04-02",
        endDate: "2027-06-05",
        holderName: "A",
        accountMasked: "XXXX1234",
        ifsc: "HDFC0000001",
        createdAt: new Date(),
        updatedAt: new Date(),
      })
      .returning();
    for (const intent of ["autopay_cancel", "autopay_start"]) {
      const busy = await postForm(app, loanPath(loan.loanNumber), { intent }, { cookie: loan.cookie });
      expect(busy.status, intent).toBe(400);
      expect(await html(busy), intent).toContain("Autopay is being set up with your bank");
    }
    // Cut off (a process stopped mid-way): after a minute it is given up and a new one made.
    await app.services.db
      .update(mandates)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(mandates.id, registering?.id ?? ""));
    expect(await setUp(loan.loanNumber, loan.cookie)).toMatch(/^\/local-mandate\/lmd_/);
    const statuses = (await mandatesOfLoan(loan.id)).map((m) => m.status).sort();
    expect(statuses).toEqual(["pending", "rejected", "rejected"]);
  });

  it("ends at the provider and here when the loan is paid off", async () => {
    const loan = await newLoan();
    const authUrl = await setUp(loan.loanNumber, loan.cookie);
    await answer(authUrl, "approve", loan.cookie);
    // Pay the loan off through the local checkout stand-in.
    const started = await postForm(app, loanPath(loan.loanNumber), { intent: "pay", choice: "payoff" }, { cookie: loan.cookie });
    expect(started.status).toBe(302);
    const paid = await postForm(app, started.headers.get("location") ?? "", { outcome: "pay" });
    const back = new URL(paid.headers.get("location") ?? "");
    expect((await app.get(`${back.pathname}${back.search}`)).status).toBe(302);
    await waitForJobs(app, "mandate-end");
    const [m] = await mandatesOfLoan(loan.id);
    expect(m).toMatchObject({ status: "cancelled", reason: "The loan is closed", cancelledBy: null });
    const provider = app.services.mandates;
    if (provider?.name !== "local") throw new Error("the local stand-in is expected");
    expect((await provider.fetch(authUrl.split("/").at(-1) ?? "")).state).toBe("cancelled");
    const [row] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id), eq(auditLog.action, "mandate.cancelled")));
    expect(row?.actorRole).toBe("system");
    // The closed loan's page says how it ended and offers nothing to set up.
    const shown = await html(await app.get(loanPath(loan.loanNumber), { headers: { Cookie: loan.cookie } }));
    expect(shown).toContain("Your autopay was cancelled on");
    expect(shown).not.toContain("Set up autopay");
  });

  it("ends at the provider and here when the bank returns the loan's disbursal", async () => {
    const loan = await newLoan();
    const authUrl = await setUp(loan.loanNumber, loan.cookie);
    await answer(authUrl, "approve", loan.cookie);
    const [payout] = await app.services.db.select().from(payouts).where(eq(payouts.applicationId, loan.id));
    if (!payout?.providerPayoutId) throw new Error("no processed payout");
    // The money comes back: the loan is approved again, not active, and may never be debited.
    const applied = await applyAnswer(app.services, payout.id, {
      providerPayoutId: payout.providerPayoutId,
      state: "reversed",
      utr: null,
      failureReason: "Beneficiary account closed",
      at: null,
    });
    expect(applied).toBe("reversed");
    await waitForJobs(app, "mandate-end");
    const [m] = await mandatesOfLoan(loan.id);
    expect(m).toMatchObject({ status: "cancelled", reason: "The loan's disbursal was returned", cancelledBy: null });
    const provider = app.services.mandates;
    if (provider?.name !== "local") throw new Error("the local stand-in is expected");
    expect((await provider.fetch(authUrl.split("/").at(-1) ?? "")).state).toBe("cancelled");
  });

  it("is nobody else's to set up or cancel", async () => {
    const mine = await newLoan();
    const other = await newLoan();
    for (const intent of ["autopay_start", "autopay_cancel"]) {
      const res = await postForm(app, loanPath(mine.loanNumber), { intent }, { cookie: other.cookie });
      expect(res.status, intent).toBe(404);
    }
    expect(await mandatesOfLoan(mine.id)).toEqual([]);
    expect((await app.get("/local-mandate/lmd_nosuchmandate0000000000")).status).toBe(404);
  });
});

describe("without a mandate provider", () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", MANDATE_PROVIDER: "none" });
  });
  afterAll(async () => {
    await bare?.stop();
  });

  it("the loan page says autopay is not offered, and setting it up is refused", async () => {
    const officer = await signedInStaff(bare, "credit", "Asha Rao");
    const operations = await signedInStaff(bare, "operations", "Omar Shaikh");
    const loan = await activeLoan(bare, "9730099001", officer, operations);
    const page = await html(await bare.get(loanPath(loan.loanNumber), { headers: { Cookie: loan.cookie } }));
    expect(page).toContain("Autopay is not offered yet");
    const res = await postForm(bare, loanPath(loan.loanNumber), { intent: "autopay_start" }, { cookie: loan.cookie });
    expect(res.status).toBe(400);
    expect((await bare.get("/local-mandate/lmd_nosuchmandate0000000000")).status).toBe(404);
  });
});
