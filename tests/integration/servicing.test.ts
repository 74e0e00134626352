import { and, asc, desc, eq, gte } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays, addMonths, daysBetween } from "../../app/domain/loan-math.ts";
import { graceDate, loanAprBps } from "../../app/domain/loans/servicing.ts";
import { coolingOffRule } from "../../app/domain/loans/cooling-off.ts";
import { extractText, extractTextItems } from "unpdf";
import { formatRupees } from "../../app/domain/money.ts";
import { catchUpServicing, runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import {
  bookPositions,
  journalEntries,
  journalLines,
  loanAccounts,
  loanApplications,
  loanInstalments,
  loanLedger,
  payments,
  servicingRuns,
} from "../../app/server/db/schema.ts";
import { localCheckoutSecret } from "../../app/server/payments/local.server.ts";
import { createHmac } from "node:crypto";
import { activeLoan, instalmentOf, signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { shownMarkup } from "../helpers/english.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Servicing an active loan through the pages: the loans list and loan page, the payoff contract,
// Pay now through the local checkout stand-in (Pay, Fail, Cancel; its signed webhook applied once),
// a forged or mismatched webhook, closure with the no-dues certificate, and another borrower's
// loan number refused on every page, PDF and API.
let clock = new Date("2026-03-02T05:30:00Z");
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }, { now: () => clock });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
const newLoan = () => activeLoan(app, `97100${String(++serial).padStart(5, "0")}`, credit, ops);
// The page as rendered, without its scripts: the loader data carries the page's messages (every
// sentence it may say), so what the page does not say is checked in its markup only.
const html = async (res: Response) =>
  shownMarkup(await res.text())
    .replaceAll("<!-- -->", "")
    .replaceAll("&amp;", "&")
    .replaceAll("&#x27;", "'");
const page = (path: string, cookie: string) => app.get(path, { headers: { Cookie: cookie } });
/** A new session for the borrower (after the clock moved on past the old one's life). */
async function freshCookie(userId: string) {
  const { setCookie } = await createUserSession(app.services, {
    userId,
    deviceId: `again-${userId}-${clock.getTime()}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return setCookie.split(";")[0] ?? "";
}
const ledger = (id: string) =>
  app.services.db.select().from(loanLedger).where(eq(loanLedger.applicationId, id)).orderBy(asc(loanLedger.recordedAt));

/** Pay now on the loan page, then the local checkout's button; returns where the borrower lands and the payment's reference. */
async function payNow(loanPath: string, cookie: string, fields: Record<string, string>, outcome: "pay" | "fail" | "cancel" = "pay") {
  const started = await postForm(app, loanPath, { intent: "pay", ...fields }, { cookie });
  expect(started.status).toBe(302);
  const checkout = started.headers.get("location") ?? "";
  expect(checkout).toMatch(/^\/local-checkout\/lco_/);
  expect(await html(await app.get(checkout))).toContain("Local checkout stand-in");
  const done = await postForm(app, checkout, { outcome });
  expect(done.status).toBe(302);
  const back = new URL(done.headers.get("location") ?? "");
  expect(back.pathname).toBe("/api/payments/local/return");
  const returned = await app.get(`${back.pathname}${back.search}`);
  expect(returned.status).toBe(302);
  const landing = returned.headers.get("location") ?? "";
  const reference = /\/(pm_[a-z2-7]{24})$/.exec(landing)?.[1] ?? "";
  return { landing, reference, checkout };
}

describe("the borrower's loan pages", () => {
  it("lists the loan and shows its page, schedule and documents; the dashboard shows the next due", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    const list = await html(await page("/User/Loans", b.cookie));
    expect(list).toContain(b.loanNumber);
    const body = await html(await page(path, b.cookie));
    expect(body).toContain("Repayment schedule");
    expect(body).toContain(`Disbursed`);
    // Twelve instalments, the first one calendar month after the disbursal.
    expect(body.match(/<td class="py-2 pr-2">\d+<\/td>/g)?.length).toBe(12);
    const dashboard = await html(await page("/User/Dashboard", b.cookie));
    expect(dashboard).toMatch(/Next due: ₹[\d,]+\.?\d* on/);
    const schedule = await page(`/User/Loans/${b.loanNumber}/schedule.pdf`, b.cookie);
    expect(schedule.status).toBe(200);
    expect(schedule.headers.get("content-type")).toBe("application/pdf");
    const statement = await page(`/User/Loans/${b.loanNumber}/statement.pdf?from=${b.disbursalDate}&to=${b.disbursalDate}`, b.cookie);
    expect(statement.status).toBe(200);
    const badRange = await page(`/User/Loans/${b.loanNumber}/statement.pdf?from=2020-01-01&to=2020-02-30`, b.cookie);
    expect(badRange.status).toBe(400);
    // The page's statement form: a wrong period is said next to its fields, a good one downloads.
    const wrong = await html(await page(`${path}?statement=1&from=2020-01-01&to=${b.disbursalDate}`, b.cookie));
    expect(wrong).toMatch(/<p id="statement-error"[^>]*>Choose dates from the disbursal to today/);
    const good = await page(`${path}?statement=1&from=${b.disbursalDate}&to=${b.disbursalDate}`, b.cookie);
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toBe(`/User/Loans/${b.loanNumber}/statement.pdf?from=${b.disbursalDate}&to=${b.disbursalDate}`);
    // No closure letter for an open loan; the salary-advance address of an EMI loan is not its page.
    expect((await page(`/User/Loans/${b.loanNumber}/no-dues.pdf`, b.cookie)).status).toBe(404);
    expect((await page(`/User/Loans/SalaryAdvance/${b.loanNumber}`, b.cookie)).status).toBe(404);
  });

  it("refuses another borrower's loan number on every page, PDF and API, as a missing one", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const owner = await newLoan();
    const other = await newLoan();
    const paths = [
      `/User/Loans/Emi/${owner.loanNumber}`,
      `/User/Loans/${owner.loanNumber}/schedule.pdf`,
      `/User/Loans/${owner.loanNumber}/statement.pdf`,
      `/User/Loans/${owner.loanNumber}/no-dues.pdf`,
      `/User/Loans/${owner.loanNumber}/revised-kfs.pdf`,
      `/api/loans/${owner.loanNumber}/payoff?on=${owner.disbursalDate}`,
    ];
    for (const p of paths) expect([p, (await page(p, other.cookie)).status]).toEqual([p, 404]);
    expect(
      (await postForm(app, `/User/Loans/Emi/${owner.loanNumber}`, { intent: "pay", choice: "payoff" }, { cookie: other.cookie })).status,
    ).toBe(404);
    expect(await app.services.db.select().from(payments).where(eq(payments.applicationId, owner.id))).toHaveLength(0);
    // No session: the API says so, the pages send to sign-in.
    expect((await app.get(`/api/loans/${owner.loanNumber}/payoff?on=${owner.disbursalDate}`)).status).toBe(401);
  });

  it("answers the payoff contract for today to 30 days ahead, and 400 outside it", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const on = addDays(b.disbursalDate, 10);
    const res = await page(`/api/loans/${b.loanNumber}/payoff?on=${on}`, b.cookie);
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(quote).sort()).toEqual(["interestPaise", "on", "overduePaise", "penalPaise", "principalPaise", "totalPaise"].sort());
    // ₹1,00,000 at the loan's rate for 10 days, actual/365, half-up; nothing due yet.
    const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    const rate = account?.rateBps ?? 0;
    expect(quote).toMatchObject({ on, principalPaise: 1_00_000_00, overduePaise: 0, penalPaise: 0 });
    expect(quote.interestPaise).toBe(Math.floor((2 * 1_00_000_00 * rate * 10 + 365 * 10_000) / (2 * 365 * 10_000)));
    expect(quote.totalPaise).toBe(1_00_000_00 + (quote.interestPaise as number));
    for (const bad of [addDays(b.disbursalDate, -1), addDays(b.disbursalDate, 31), "2026-02-30", "tomorrow", ""])
      expect([bad, (await page(`/api/loans/${b.loanNumber}/payoff?on=${bad}`, b.cookie)).status]).toEqual([bad, 400]);
    // The page shows the same figures for a chosen date.
    expect(await html(await page(`/User/Loans/Emi/${b.loanNumber}?on=${on}`, b.cookie))).toContain(`To close on`);
  });
});

describe("Pay now through the local checkout", () => {
  it("pays the instalment due: the ledger, the schedule, the SMS; the outcome page shows the server's status", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    clock = new Date(`${addMonths(b.disbursalDate, 1)}T06:00:00Z`);
    const cookie = await freshCookie(b.userId);
    const before = await html(await page(path, cookie));
    expect(before).toContain("Pay now");
    const { landing, reference } = await payNow(path, cookie, { choice: "due" });
    expect(landing).toBe(`/success/${reference}`);
    const outcome = await html(await page(landing, cookie));
    expect(outcome).toContain("Payment received");
    const [p] = await app.services.db.select().from(payments).where(eq(payments.reference, reference));
    expect(p).toMatchObject({ status: "captured", businessDate: addMonths(b.disbursalDate, 1) });
    const entries = await ledger(b.id);
    expect(entries.filter((e) => e.kind === "payment")).toHaveLength(1);
    const after = await html(await page(path, cookie));
    expect(after).toMatch(/data-testid="instalment-1-status">Paid<\/td>/);
    await vi.waitFor(
      () =>
        expect(
          readOutbox(app.dataDir).some(
            (m) => m.to === b.mobile && m.text.includes(`for loan ${b.loanNumber}`) && m.text.includes("received"),
          ),
        ).toBe(true),
      { timeout: 10_000, interval: 100 },
    );
    // Someone else cannot see the payment's outcome.
    const stranger = await newLoan();
    expect((await page(landing, stranger.cookie)).status).toBe(404);
  });

  it("Fail and Cancel change nothing on the loan and say so", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    const failed = await payNow(path, b.cookie, { choice: "amount", amount: "500" }, "fail");
    expect(failed.landing).toBe(`/failure/${failed.reference}`);
    expect(await html(await page(failed.landing, b.cookie))).toContain("Payment failed");
    const cancelled = await payNow(path, b.cookie, { choice: "amount", amount: "500" }, "cancel");
    expect(cancelled.landing).toBe(`/cancelled/${cancelled.reference}`);
    expect((await ledger(b.id)).filter((e) => e.kind === "payment")).toHaveLength(0);
    // The address's state is not believed: the page shows what the server knows.
    expect(await html(await page(`/success/${failed.reference}`, b.cookie))).toContain("Payment failed");
  });

  it("checks the amount next to the field and refuses one above the payoff or below ₹100", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    for (const amount of ["50", "99999999", "abc"]) {
      const res = await postForm(app, path, { intent: "pay", choice: "amount", amount }, { cookie: b.cookie });
      expect(res.status).toBe(400);
      expect(await html(res)).toMatch(/Enter an amount/);
    }
    const prepay = await postForm(app, path, { intent: "pay", choice: "amount", amount: "200", prepay: "on" }, { cookie: b.cookie });
    expect(await html(prepay)).toMatch(/pay at least one EMI/);
    expect(await app.services.db.select().from(payments).where(eq(payments.applicationId, b.id))).toHaveLength(0);
  });

  it("applies a webhook delivered twice once; refuses a forged one; holds a mismatched amount for staff", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    const started = await postForm(app, path, { intent: "pay", choice: "amount", amount: "1000" }, { cookie: b.cookie });
    const orderId = /lco_[\w-]+/.exec(started.headers.get("location") ?? "")?.[0] ?? "";
    const [p] = await app.services.db.select().from(payments).where(eq(payments.providerOrderId, orderId));
    const secret = localCheckoutSecret(app.services.config.sessionSecret);
    const send = (payload: Record<string, unknown>, sign = secret) => {
      const body = JSON.stringify({ event: "payment.captured", payload });
      return fetch(new URL("/api/webhooks/local", app.url), {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-local-signature": createHmac("sha256", sign).update(body).digest("hex") },
      });
    };
    const order = {
      id: orderId,
      reference: p?.reference,
      amountPaise: 1000_00,
      state: "paid",
      paymentId: "lpay_test_1",
      paidPaise: 1000_00,
      paidAt: clock.toISOString(),
      failureReason: null,
    };
    const forged = await send(order, "not-the-secret");
    expect(forged.status).toBe(401);
    // Not refused by origin: a webhook comes from the gateway, with no Origin of ours.
    expect((await send(order)).status).toBe(200);
    expect((await send(order)).status).toBe(200);
    expect((await ledger(b.id)).filter((e) => e.kind === "payment")).toHaveLength(1);

    const second = await postForm(app, path, { intent: "pay", choice: "amount", amount: "1000" }, { cookie: b.cookie });
    const orderId2 = /lco_[\w-]+/.exec(second.headers.get("location") ?? "")?.[0] ?? "";
    const [p2] = await app.services.db.select().from(payments).where(eq(payments.providerOrderId, orderId2));
    const mismatched = await send({ ...order, id: orderId2, reference: p2?.reference, paymentId: "lpay_test_2", paidPaise: 900_00 });
    expect(await mismatched.json()).toEqual({ status: "held" });
    const [held] = await app.services.db.select().from(payments).where(eq(payments.providerOrderId, orderId2));
    expect(held).toMatchObject({ status: "held", receivedPaise: 900_00 });
    expect((await ledger(b.id)).filter((e) => e.kind === "payment")).toHaveLength(1);
    // In the books: money at the gateway, an unapplied receipt of no loan's (none of the loan's accounts move).
    const linesOf = async (kind: string) => {
      const [e] = await app.services.db
        .select()
        .from(journalEntries)
        .where(and(eq(journalEntries.applicationId, b.id), eq(journalEntries.kind, kind)))
        .orderBy(desc(journalEntries.entryNo));
      return (
        await app.services.db
          .select()
          .from(journalLines)
          .where(eq(journalLines.entryId, e?.id ?? ""))
      ).map((l) => ({
        purpose: l.purpose,
        paise: l.debitPaise - l.creditPaise,
        loan: l.applicationId,
        ref: l.providerRef,
      }));
    };
    expect(await linesOf("held_receipt")).toEqual(
      expect.arrayContaining([
        { purpose: "gateway_clearing", paise: 900_00, loan: b.id, ref: "lpay_test_2" },
        { purpose: "unapplied_receipts", paise: -900_00, loan: null, ref: null },
      ]),
    );
    // Operations look at it and apply what was actually received.
    const released = await postForm(
      app,
      `/admin/loans/${b.loanNumber}`,
      { intent: "release", payment: held?.reference ?? "" },
      { cookie: ops.cookie },
    );
    expect(toastOf(released)).toMatch(/₹900 applied/);
    const payments2 = (await ledger(b.id)).filter((e) => e.kind === "payment");
    expect(payments2.map((e) => e.amountPaise).sort((x, y) => x - y)).toEqual([900_00, 1000_00]);
    // Applied: the payment's entry takes the money from the unapplied receipts, not the gateway a second time.
    const applied = await linesOf("payment");
    expect(applied).toContainEqual({ purpose: "unapplied_receipts", paise: 900_00, loan: null, ref: null });
    expect(applied.some((l) => l.purpose === "gateway_clearing")).toBe(false);
  });

  it("pays off the loan on a chosen day: closed, the no-dues certificate, the SMS; nothing more to pay", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    clock = new Date(`${addDays(b.disbursalDate, 20)}T06:00:00Z`);
    const cookie = await freshCookie(b.userId);
    const quote = (await (await page(`/api/loans/${b.loanNumber}/payoff?on=${addDays(b.disbursalDate, 20)}`, cookie)).json()) as {
      totalPaise: number;
    };
    const { landing } = await payNow(path, cookie, { choice: "payoff" });
    expect(landing).toMatch(/^\/success\//);
    const [a] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, b.id));
    expect(a?.status).toBe("closed");
    const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    expect(account).toMatchObject({ outstandingPrincipalPaise: 0, refundDuePaise: 0, settledOn: addDays(b.disbursalDate, 20) });
    const [p] = await app.services.db
      .select()
      .from(payments)
      .where(and(eq(payments.applicationId, b.id), eq(payments.status, "captured")));
    expect(p?.amountPaise).toBe(quote.totalPaise);
    const noDues = await page(`/User/Loans/${b.loanNumber}/no-dues.pdf`, cookie);
    expect(noDues.status).toBe(200);
    expect(noDues.headers.get("content-type")).toBe("application/pdf");
    const body = await html(await page(path, cookie));
    expect(body).toContain("Fully repaid and closed");
    expect(body).not.toContain("Continue to payment");
    await vi.waitFor(
      () => expect(readOutbox(app.dataDir).some((m) => m.to === b.mobile && m.text.includes("fully repaid and closed"))).toBe(true),
      {
        timeout: 10_000,
        interval: 200,
      },
    );
    expect((await page(`/api/loans/${b.loanNumber}/payoff?on=${addDays(b.disbursalDate, 20)}`, cookie)).status).toBe(404);
  });
});

describe("the cooling-off exit", () => {
  it("offers the exit within the period: the net amount and its cost at the APR for the day used, the loan ends cancelled with its letter; not after", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    clock = new Date(`${addDays(b.disbursalDate, 1)}T06:00:00Z`);
    const cookie = await freshCookie(b.userId);
    const body = await html(await page(path, cookie));
    expect(body).toContain("Changed your mind?");
    const { landing, reference } = await payNow(path, cookie, { choice: "cooling_off" });
    expect(landing).toBe(`/success/${reference}`);
    const [a] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, b.id));
    expect(a?.status).toBe("cancelled");
    const [p] = await app.services.db.select().from(payments).where(eq(payments.reference, reference));
    const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    // The net amount received and its cost at the APR for the one day used (net × APR × 1 ÷ 365, half-up):
    // less than closing the loan that day, which would cost the whole principal and a day's interest.
    const schedule = await app.services.db
      .select()
      .from(loanInstalments)
      .where(eq(loanInstalments.applicationId, b.id))
      .orderBy(asc(loanInstalments.seq));
    const net = account?.netDisbursedPaise ?? 0;
    const apr = loanAprBps({
      kind: "emi",
      netDisbursedPaise: net,
      rateBps: account?.rateBps ?? 0,
      instalments: schedule,
      disbursalDate: b.disbursalDate,
    });
    expect(net).toBeLessThan(1_00_000_00);
    expect(p?.amountPaise).toBe(net + Math.floor((2 * net * apr * 1 + 365 * 10_000) / (2 * 365 * 10_000)));
    expect(p?.amountPaise).toBeLessThan(1_00_000_00);
    expect(account).toMatchObject({ outstandingPrincipalPaise: 0, refundDuePaise: 0 });
    const letter = await page(`/User/Loans/${b.loanNumber}/no-dues.pdf`, cookie);
    expect(letter.status).toBe(200);
    expect(letter.headers.get("content-disposition")).toContain("cancellation-");
    const words = (await extractText(new Uint8Array(await letter.arrayBuffer()), { mergePages: true })).text as string;
    expect(words.replace(/\s+/g, " ")).toContain(coolingOffRule(3).replace(/\s+/g, " "));
    expect(words).toContain("Processing fee and GST returned");
    expect(await html(await page(path, cookie))).toContain("Cancelled within the cooling-off period");
    // In the books (docs/product.md "The lender's books"): the fee income reversed and a GST credit note for its GST;
    // the loan holds nothing, and what the borrower paid beyond the net amount is interest income.
    const [exit] = await app.services.db
      .select()
      .from(journalEntries)
      .where(and(eq(journalEntries.applicationId, b.id), eq(journalEntries.kind, "cooling_off")));
    const lines = await app.services.db
      .select()
      .from(journalLines)
      .where(eq(journalLines.entryId, exit?.id ?? ""));
    const line = (purpose: string) => lines.filter((l) => l.purpose === purpose).reduce((s, l) => s + l.debitPaise - l.creditPaise, 0);
    expect(exit?.narration).toContain("GST credit note");
    expect(line("processing_fee_income")).toBe(account?.feePaise);
    expect(line("igst_payable")).toBe(account?.feeGstPaise);
    expect(line("loans_receivable")).toBe(-1_00_000_00);
    expect(line("gateway_clearing")).toBe(p?.amountPaise);
    // (Less any interest already accrued, which the exit clears from interest receivable.)
    expect(line("interest_income") + line("interest_receivable")).toBe(-((p?.amountPaise ?? 0) - net));
    const held = await app.services.db.select().from(bookPositions).where(eq(bookPositions.applicationId, b.id));
    expect(
      held.filter((h) => h.balancePaise !== 0 && !["payout_account", "gateway_clearing", "interest_income"].includes(h.purpose)),
    ).toEqual([]);

    // After the period the exit is not offered, and asking for it is refused next to the choice.
    const later = await newLoan();
    clock = new Date(`${addDays(later.disbursalDate, 4)}T06:00:00Z`);
    const cookie2 = await freshCookie(later.userId);
    expect(await html(await page(`/User/Loans/Emi/${later.loanNumber}`, cookie2))).not.toContain("Changed your mind?");
    const refused = await postForm(
      app,
      `/User/Loans/Emi/${later.loanNumber}`,
      { intent: "pay", choice: "cooling_off" },
      { cookie: cookie2 },
    );
    expect(refused.status).toBe(400);
    expect(await html(refused)).toContain("not something you can pay on this loan today");
  });
});

describe("the daily run", () => {
  it("levies one penal charge the day after a missed due date, with its SMS; again changes nothing; a late on-time payment reverses it", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const first = await instalmentOf(app, b.id, 1);
    const grace = graceDate(first.dueDate, app.services.config.holidays);
    clock = new Date(`${addDays(grace, 2)}T02:00:00Z`);
    const ran = await catchUpServicing(app.services);
    expect(ran.at(-1)?.day).toBe(addDays(grace, 2));
    const penals = (await ledger(b.id)).filter((e) => e.kind === "penal");
    expect(penals).toMatchObject([{ seq: 1, amountPaise: 500_00, businessDate: addDays(grace, 1) }]);
    const sms = () => readOutbox(app.dataDir).filter((m) => m.to === b.mobile && m.text.includes("penal charge"));
    await vi.waitFor(() => expect(sms()).toHaveLength(1), { timeout: 10_000, interval: 200 });
    const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    expect(account?.dpd).toBe(daysBetween(first.dueDate, addDays(grace, 2)));
    // The same day again, and the whole catch-up again: nothing new.
    await runServicingDay(app.services, addDays(grace, 2));
    await catchUpServicing(app.services);
    expect((await ledger(b.id)).filter((e) => e.kind === "penal")).toHaveLength(1);
    // A second notice the runs made would be a notify job sent with them: once every due one has
    // been worked, its SMS would be in the outbox.
    await waitForJobs(app, "notify");
    expect(sms()).toHaveLength(1);
    const cookie = await freshCookie(b.userId);
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    expect(await html(await page(path, cookie))).toMatch(/Penal charge for instalment 1/);

    // A payment captured on the due date whose webhook arrives only now: on time, so the charge goes.
    const emi = first.principalPaise + first.interestPaise;
    const started = await postForm(app, path, { intent: "pay", choice: "amount", amount: (emi / 100).toFixed(2) }, { cookie });
    const orderId = /lco_[\w-]+/.exec(started.headers.get("location") ?? "")?.[0] ?? "";
    const [p] = await app.services.db.select().from(payments).where(eq(payments.providerOrderId, orderId));
    const body = JSON.stringify({
      event: "payment.captured",
      payload: {
        id: orderId,
        reference: p?.reference,
        amountPaise: emi,
        state: "paid",
        paymentId: "lpay_late",
        paidPaise: emi,
        paidAt: `${first.dueDate}T09:00:00Z`,
        failureReason: null,
      },
    });
    const secret = localCheckoutSecret(app.services.config.sessionSecret);
    const res = await fetch(new URL("/api/webhooks/local", app.url), {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-local-signature": createHmac("sha256", secret).update(body).digest("hex") },
    });
    expect(await res.json()).toEqual({ status: "captured" });
    const after = await ledger(b.id);
    expect(after.filter((e) => e.kind === "penal_reversal")).toHaveLength(1);
    const pageAfter = await html(await page(path, cookie));
    expect(pageAfter).toContain("reversed (paid on time)");
    expect(pageAfter).not.toContain("is overdue");
    // The next run does not levy it again.
    await runServicingDay(app.services, addDays(grace, 3));
    expect((await ledger(b.id)).filter((e) => e.kind === "penal")).toHaveLength(1);
  });

  it("catches up each missed day after downtime, in order", async () => {
    // Whatever ran before (tests run in any order): the last day run, then four days without a process.
    await catchUpServicing(app.services);
    const last =
      (await app.services.db.select().from(servicingRuns))
        .map((r) => r.businessDate)
        .sort()
        .at(-1) ?? "2026-03-02";
    clock = new Date(`${addDays(last, 4)}T05:30:00Z`);
    const ran = await catchUpServicing(app.services);
    expect(ran.map((r) => r.day)).toEqual([1, 2, 3, 4].map((n) => addDays(last, n)));
    const rows = await app.services.db
      .select()
      .from(servicingRuns)
      .where(gte(servicingRuns.businessDate, addDays(last, 1)));
    expect(rows.map((r) => [r.businessDate, r.finishedAt !== null]).sort()).toEqual([1, 2, 3, 4].map((n) => [addDays(last, n), true]));
  });
});

describe("the statement of account", () => {
  it("reads as a bank's: entries in words with the balance after each, tied to the opening and closing, no column running into the next", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await newLoan();
    const path = `/User/Loans/Emi/${b.loanNumber}`;
    const first = await instalmentOf(app, b.id, 1);
    // Instalment 1 missed: its penal charge is levied, then waived by staff with a long reason.
    const grace = graceDate(first.dueDate, app.services.config.holidays);
    clock = new Date(`${addDays(grace, 2)}T05:00:00Z`);
    await catchUpServicing(app.services);
    const [penal] = (await ledger(b.id)).filter((e) => e.kind === "penal");
    const reason =
      "The borrower was in hospital from the due date for a week and has sent the discharge summary; the branch manager agreed to waive the charge once.";
    const waived = await postForm(
      app,
      `/admin/loans/${b.loanNumber}`,
      { intent: "waive", penal: penal?.id ?? "", reason },
      { cookie: ops.cookie },
    );
    expect(waived.status).toBe(302);
    // Then paid by UPI through the stand-in.
    const cookie = await freshCookie(b.userId);
    await payNow(path, cookie, { choice: "due" });
    const today = addDays(grace, 2);
    const res = await page(`/User/Loans/${b.loanNumber}/statement.pdf?from=${b.disbursalDate}&to=${today}`, cookie);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const words = ((await extractText(bytes.slice(), { mergePages: true })).text as string).replace(/\s+/g, " ");
    const [payment] = (await ledger(b.id)).filter((e) => e.kind === "payment");
    const rrn = String(payment ? (payment.details as { methodDetail?: string }).methodDetail : "");
    expect(rrn).toMatch(/^\d{12}$/);
    for (const expected of [
      "Date Description Debit Credit Balance",
      "Opening balance",
      "Loan disbursed: ",
      `Interest of instalment 1, due on`,
      "Penal charge for instalment 1, not paid by its due date",
      "Penal charge for instalment 1 waived: The borrower was in hospital",
      `Payment by UPI, reference ${rrn}`,
      "Closing balance",
    ])
      expect(words).toContain(expected);
    expect(words).not.toMatch(/pay_|lpay_|pm_[a-z2-7]{24}/);
    // The closing balance is what the loan owes: the principal outstanding less the advance the payment left
    // (it paid the overdue instalment and the next, not yet due).
    const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    const closing = /Closing balance ₹ ([\d,.]+)/.exec(words)?.[1];
    expect(account?.advancePaise).toBeGreaterThan(0);
    expect(closing).toBe(formatRupees((account?.outstandingPrincipalPaise ?? 0) - (account?.advancePaise ?? 0)).replace("₹", ""));
    // Positions: on every line of text, no item starts before the one to its left ends.
    const { items } = await extractTextItems(bytes.slice());
    let checked = 0;
    for (const pageItems of items) {
      const lines = Map.groupBy(
        pageItems.filter((i) => i.str.trim()),
        (i) => Math.round(i.y),
      );
      for (const line of lines.values()) {
        const sorted = [...line].sort((x, y) => x.x - y.x);
        for (let k = 1; k < sorted.length; k++) {
          const left = sorted[k - 1]!;
          expect(left.x + left.width, `"${left.str}" runs into "${sorted[k]!.str}"`).toBeLessThanOrEqual(sorted[k]!.x + 0.5);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
