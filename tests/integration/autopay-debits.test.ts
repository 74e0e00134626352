import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays, addWorkingDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { indiaTime } from "../../app/domain/india-date.ts";
import {
  auditLog,
  loanAccounts,
  loanApplications,
  loanLedger,
  journalEntries,
  journalLines,
  mandateDebits,
  mandates,
  notifications,
  payments,
  payouts,
} from "../../app/server/db/schema.ts";
import { ledgerOf, termsOf } from "../../app/server/loan-account/account.server.ts";
import { payoffQuote } from "../../app/domain/loans/servicing.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { applyDebitEvent, checkDebit } from "../../app/server/mandates/debit-answer.server.ts";
import { sweepAutopay } from "../../app/server/mandates/day.server.ts";
import { presentDebit } from "../../app/server/mandates/present.server.ts";
import type { LocalMandates } from "../../app/server/mandates/local.server.ts";
import { activeLoan, emiWithoutAutopayFirst, signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { shownMarkup } from "../helpers/english.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { autopayDay, loanWithAutopay as withAutopay, type TestClock } from "../helpers/autopay.ts";

// Autopay debits (docs/product.md "Autopay"): the pre-debit notice 2 days before, the debit
// presented on its date for what is then due, the instalment not past due while it is in progress,
// a success as a payment of the presentation date, a bounce with one penal charge and one
// re-presentation, a Pay now before the date lowering or cancelling the debit.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", LOCAL_DEBIT_ANSWER_SECONDS: "3600" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  // Autopay here is set up on the loan's page, after the money arrived.
  await emiWithoutAutopayFirst(app);
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
// The page as rendered, without its scripts: the loader data carries the page's messages (every
// sentence it may say), so what the page does not say is checked in its markup only.
const html = async (res: Response) =>
  shownMarkup(await res.text())
    .replaceAll("<!-- -->", "")
    .replaceAll("&amp;", "&")
    .replaceAll("&#x27;", "'");
/** One section of a page, by its heading's id. */
const section = (page: string, titleId: string) => {
  const start = page.indexOf(`<section aria-labelledby="${titleId}"`);
  return start < 0 ? "" : page.slice(start, page.indexOf("</section>", start));
};
/** India time on a date. */
const at = (day: IsoDate, time: `${number}:${number}`) => indiaTime(day, time);

/** An active loan with autopay approved at the stand-in; the account decides whether its debits bounce. */
const loanWithAutopay = (accountNumber?: string) =>
  withAutopay(app, clock, { credit, ops }, { mobile: `97400${String(++serial).padStart(5, "0")}`, accountNumber });
const debitsOf = (applicationId: string) =>
  app.services.db
    .select()
    .from(mandateDebits)
    .where(eq(mandateDebits.applicationId, applicationId))
    .orderBy(asc(mandateDebits.seq), asc(mandateDebits.attempt));
const accountOf = async (applicationId: string) =>
  (await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, applicationId)))[0];
const noticesOf = (userId: string, event: string) =>
  app.services.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.event, event as "autopay_notice")));
const penalsOf = (applicationId: string) =>
  app.services.db
    .select()
    .from(loanLedger)
    .where(and(eq(loanLedger.applicationId, applicationId), eq(loanLedger.kind, "penal")));
/** The daily job's work on `day` at 00:30 India time: servicing, then autopay. */
const dailyRun = (day: IsoDate) => autopayDay(app, clock, day);

describe("autopay debits", () => {
  it("are announced 2 days ahead, presented on the date, not past due while in progress, and paid as of the presentation date", async () => {
    const loan = await loanWithAutopay();
    const emi = loan.first.principalPaise + loan.first.interestPaise;
    // Three days before: nothing yet.
    await dailyRun(addDays(loan.presentOn, -3));
    expect(await debitsOf(loan.id)).toEqual([]);
    // Two days before, at 00:30: the notice waits for 08:00, still more than 24 hours before the debit.
    const noticeDay = addDays(loan.presentOn, -2);
    await dailyRun(noticeDay);
    const [notified, ...others] = await debitsOf(loan.id);
    expect(others).toEqual([]);
    expect(notified).toMatchObject({ seq: 1, attempt: 1, status: "notified", noticePaise: emi, presentOn: loan.presentOn });
    expect(notified?.noticeAt.toISOString()).toBe(at(noticeDay, "08:00").toISOString());
    expect(at(loan.presentOn, "00:00").getTime() - (notified?.noticeAt.getTime() ?? 0)).toBeGreaterThanOrEqual(24 * 3_600_000);
    const [notice] = await noticesOf(loan.userId, "autopay_notice");
    expect(notice?.availableAt.toISOString()).toBe(at(noticeDay, "08:00").toISOString());
    expect(notice?.sms).toContain(`autopay will debit`);
    expect(notice?.sms).toContain(loan.loanNumber);
    // Run again the same day: nothing twice.
    await dailyRun(noticeDay);
    expect(await debitsOf(loan.id)).toHaveLength(1);
    expect(await noticesOf(loan.userId, "autopay_notice")).toHaveLength(1);
    clock.now = at(noticeDay, "10:00");
    expect(await html(await app.get(loan.path, { headers: { Cookie: loan.cookie } }))).toContain("Autopay will debit");

    // On its date: presented for what is due, and in progress.
    await dailyRun(loan.presentOn);
    const [presented] = await debitsOf(loan.id);
    expect(presented).toMatchObject({ status: "in_progress", amountPaise: emi });
    expect(presented?.providerPaymentId).toMatch(/^ldd_/);
    // The day after its due date, still unanswered: no penal charge, no days past due.
    await dailyRun(addDays(loan.presentOn, 1));
    await dailyRun(addDays(loan.presentOn, 2));
    expect(await penalsOf(loan.id)).toEqual([]);
    expect(await accountOf(loan.id)).toMatchObject({ dpd: 0, overduePaise: 0 });
    const page = await html(await app.get(loan.path, { headers: { Cookie: loan.cookie } }));
    expect(page).toContain("Autopay debit in progress");
    // Operations see it among the debits in progress; the borrower may not open that list.
    const watched = await html(await app.get("/admin/autopay", { headers: { Cookie: ops.cookie } }));
    expect(section(watched, "in-progress-title")).toContain(loan.loanNumber);
    expect(section(watched, "bounced-title")).not.toContain(loan.loanNumber);
    expect((await app.get("/admin/autopay", { headers: { Cookie: loan.cookie } })).status).not.toBe(200);

    // The bank's answer: a payment of the presentation date, applied once however often it is told.
    clock.now = new Date(clock.now.getTime() + 2 * 3_600_000);
    expect(await checkDebit(app.services, presented?.id ?? "")).toBe("succeeded");
    const answer = await app.services.mandates?.fetchDebit(presented?.providerPaymentId ?? "");
    if (!answer) throw new Error("no answer");
    expect(await applyDebitEvent(app.services, answer)).toBe("unchanged");
    const [succeeded] = await debitsOf(loan.id);
    expect(succeeded?.status).toBe("succeeded");
    const paid = await app.services.db.select().from(payments).where(eq(payments.applicationId, loan.id));
    expect(paid.filter((p) => p.mode === "autopay")).toEqual([
      expect.objectContaining({ amountPaise: emi, businessDate: loan.presentOn, status: "captured" }),
    ]);
    const entries = await app.services.db
      .select()
      .from(loanLedger)
      .where(and(eq(loanLedger.applicationId, loan.id), eq(loanLedger.kind, "payment")));
    expect(entries).toHaveLength(1);
    expect(await penalsOf(loan.id)).toEqual([]);
    expect(await accountOf(loan.id)).toMatchObject({ dpd: 0, overduePaise: 0 });
    expect(await noticesOf(loan.userId, "payment_received")).toHaveLength(1);
  });

  it("bounces with one penal charge and one re-presentation 3 working days later, with its notice", async () => {
    const loan = await loanWithAutopay("50100012341111");
    await dailyRun(addDays(loan.presentOn, -2));
    await dailyRun(loan.presentOn);
    const [first] = await debitsOf(loan.id);
    expect(first?.status).toBe("in_progress");
    clock.now = at(loan.presentOn, "14:00");
    expect(await checkDebit(app.services, first?.id ?? "")).toBe("bounced");
    const bounceDay = loan.presentOn;
    const again = addWorkingDays(bounceDay, 3, app.services.config.holidays);
    const [bounced, second] = await debitsOf(loan.id);
    expect(bounced).toMatchObject({ status: "bounced", reason: expect.stringContaining("Insufficient funds") });
    expect(second).toMatchObject({ attempt: 2, status: "notified", presentOn: again, noticePaise: first?.amountPaise });
    const [told] = await noticesOf(loan.userId, "autopay_bounced");
    expect(told?.body).toContain("once more");
    const returned = await html(await app.get("/admin/autopay", { headers: { Cookie: ops.cookie } }));
    expect(section(returned, "bounced-title")).toContain(loan.loanNumber);
    expect(section(returned, "bounced-title")).toContain("Insufficient funds");
    expect(section(returned, "in-progress-title")).not.toContain(loan.loanNumber);
    // Past due again once the bank said no: the daily run levies the instalment's one penal charge.
    await dailyRun(addDays(bounceDay, 1));
    expect(await penalsOf(loan.id)).toHaveLength(1);
    expect((await accountOf(loan.id))?.dpd).toBeGreaterThan(0);
    // The re-presentation bounces too: no third try, no second charge.
    await dailyRun(again);
    const [, represented] = await debitsOf(loan.id);
    expect(represented?.status).toBe("in_progress");
    clock.now = at(again, "14:00");
    expect(await checkDebit(app.services, represented?.id ?? "")).toBe("bounced");
    await dailyRun(addDays(again, 1));
    expect(await debitsOf(loan.id)).toHaveLength(2);
    expect(await penalsOf(loan.id)).toHaveLength(1);
    const last = await noticesOf(loan.userId, "autopay_bounced");
    expect(last.map((n) => n.body).join(" ")).toContain("It will not be presented again");
    // At the borrower's request, operations present it once more: a new notice now, the debit when it is 24 hours old.
    clock.now = at(addDays(again, 1), "11:00");
    const staffPage = await html(await app.get(`/admin/loans/${loan.loanNumber}`, { headers: { Cookie: ops.cookie } }));
    expect(staffPage).toContain("Present again");
    const lastDebit = (await debitsOf(loan.id)).at(-1);
    // Someone else's debit, or one not bounced, is refused.
    const other = await loanWithAutopay();
    expect(
      (
        await postForm(
          app,
          `/admin/loans/${other.loanNumber}`,
          { intent: "represent_debit", debit: lastDebit?.id ?? "" },
          { cookie: ops.cookie },
        )
      ).status,
    ).toBe(404);
    clock.now = at(addDays(again, 1), "11:00");
    const asked = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "represent_debit", debit: lastDebit?.id ?? "" },
      { cookie: ops.cookie },
    );
    expect(toastOf(asked)).toContain("will be presented again on");
    const [, , third] = await debitsOf(loan.id);
    expect(third).toMatchObject({ attempt: 3, status: "notified" });
    expect(at(third?.presentOn as IsoDate, "00:00").getTime() - (third?.noticeAt.getTime() ?? 0)).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(await noticesOf(loan.userId, "autopay_notice")).toHaveLength(2);
    // Twice: refused while that one waits.
    const twice = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "represent_debit", debit: lastDebit?.id ?? "" },
      { cookie: ops.cookie },
    );
    expect(toastOf(twice)).toContain("already waiting");
  });

  it("is lowered by a part paid before its date, and cancelled when the instalment is paid", async () => {
    const loan = await loanWithAutopay();
    const emi = loan.first.principalPaise + loan.first.interestPaise;
    await dailyRun(addDays(loan.presentOn, -2));
    // Operations record ₹1,000 received from the borrower the day before the debit.
    clock.now = at(addDays(loan.presentOn, -1), "11:00");
    const recorded = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "record_payment", amount: "1000", mode: "UPI", reference: "UTR1234567890", date: addDays(loan.presentOn, -1) },
      { cookie: ops.cookie },
    );
    expect(recorded.status).toBe(302);
    await dailyRun(loan.presentOn);
    const [lowered] = await debitsOf(loan.id);
    expect(lowered).toMatchObject({ status: "in_progress", amountPaise: emi - 100_000, noticePaise: emi });

    const paidUp = await loanWithAutopay();
    await dailyRun(addDays(paidUp.presentOn, -2));
    clock.now = at(addDays(paidUp.presentOn, -1), "11:00");
    const whole = paidUp.first.principalPaise + paidUp.first.interestPaise;
    const res = await postForm(
      app,
      `/admin/loans/${paidUp.loanNumber}`,
      {
        intent: "record_payment",
        amount: (whole / 100).toFixed(2),
        mode: "UPI",
        reference: "UTR1234567891",
        date: addDays(paidUp.presentOn, -1),
      },
      { cookie: ops.cookie },
    );
    expect(res.status).toBe(302);
    await dailyRun(paidUp.presentOn);
    const [cancelled] = await debitsOf(paidUp.id);
    expect(cancelled).toMatchObject({ status: "cancelled", amountPaise: null, reason: expect.stringContaining("paid before") });
  });

  it("cut off on the way to the provider, is presented again with the same key, once, however many try at once", async () => {
    const loan = await loanWithAutopay();
    await dailyRun(addDays(loan.presentOn, -2));
    const provider = app.services.mandates;
    if (!provider) throw new Error("no provider");
    const [announced] = await debitsOf(loan.id);
    // What the provider is asked for this debit (other loans' debits go through untouched).
    const keys: string[] = [];
    const real = provider.present.bind(provider);
    const spy = vi.spyOn(provider, "present").mockImplementation(async (order) => {
      if (order.key !== announced?.id) return real(order);
      keys.push(order.key);
      // The first try: the connection drops after the provider may have taken it.
      if (keys.length === 1) {
        await real(order);
        throw new Error("socket hang up");
      }
      return real(order);
    });
    try {
      await dailyRun(loan.presentOn);
      const [cut] = await debitsOf(loan.id);
      expect(cut?.status).toBe("presenting");
      // Not past due while it may have been debited.
      expect(await accountOf(loan.id)).toMatchObject({ dpd: 0, overduePaise: 0 });
      // Too soon to send again; a few minutes later two sweeps at once send it once more, with the same key.
      expect(await presentDebit(app.services, { debitId: cut?.id ?? "", day: loan.presentOn })).toBe("unchanged");
      clock.now = new Date(clock.now.getTime() + 5 * 60_000);
      const both = await Promise.all([
        presentDebit(app.services, { debitId: cut?.id ?? "", day: loan.presentOn }),
        presentDebit(app.services, { debitId: cut?.id ?? "", day: loan.presentOn }),
      ]);
      expect(both.sort()).toEqual(["in_progress", "unchanged"]);
      expect(new Set(keys)).toEqual(new Set([cut?.id]));
      expect(keys).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
    const [presented] = await debitsOf(loan.id);
    expect(presented?.status).toBe("in_progress");
    clock.now = new Date(clock.now.getTime() + 2 * 3_600_000);
    expect(await checkDebit(app.services, presented?.id ?? "")).toBe("succeeded");
    const paid = await app.services.db.select().from(payments).where(eq(payments.applicationId, loan.id));
    expect(paid.filter((p) => p.mode === "autopay")).toHaveLength(1);
  });

  it("a mandate approved at the bank whose answer never arrived is asked about by the sweep and becomes active", async () => {
    clock.now = new Date("2026-03-02T05:30:00Z");
    const loan = await activeLoan(app, `97400${String(++serial).padStart(5, "0")}`, credit, ops);
    const path = `/User/Loans/Emi/${loan.loanNumber}`;
    const started = await postForm(app, path, { intent: "autopay_start" }, { cookie: loan.cookie });
    // Approved at the bank, but neither the webhook nor the borrower's return reaches us.
    const provider = app.services.mandates;
    if (provider?.name !== "local") throw new Error("the local stand-in is expected");
    const id = (started.headers.get("location") ?? "").split("/").at(-1) ?? "";
    expect((await (provider as LocalMandates).complete(id, "approve"))?.mandate.state).toBe("active");
    const pendingNow = async () => (await app.services.db.select().from(mandates).where(eq(mandates.applicationId, loan.id)))[0]?.status;
    expect(await pendingNow()).toBe("pending");
    await sweepAutopay(app.services);
    expect(await pendingNow()).toBe("pending");
    clock.now = new Date(clock.now.getTime() + 11 * 60_000);
    await sweepAutopay(app.services);
    expect(await pendingNow()).toBe("active");
  });

  it("arriving after the loan was closed is refunded by the system, and the loan stays closed", async () => {
    const loan = await loanWithAutopay();
    await dailyRun(addDays(loan.presentOn, -2));
    await dailyRun(loan.presentOn);
    const [presented] = await debitsOf(loan.id);
    expect(presented?.status).toBe("in_progress");
    // While the debit is in progress, the borrower pays the whole loan off by bank transfer.
    clock.now = at(loan.presentOn, "10:00");
    const found = await termsOf(app.services, loan.id);
    if (!found) throw new Error("no terms");
    const quote = payoffQuote(found.terms, (await ledgerOf(app.services, loan.id)).events, loan.presentOn);
    const paidOff = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      {
        intent: "record_payment",
        amount: (quote.totalPaise / 100).toFixed(2),
        mode: "NEFT",
        reference: "UTRPAYOFF01",
        date: loan.presentOn,
      },
      { cookie: ops.cookie },
    );
    expect(paidOff.status).toBe(302);
    const status = async () => (await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, loan.id)))[0]?.status;
    expect(await status()).toBe("closed");
    // Then the bank's answer: the debit went through after all.
    clock.now = at(loan.presentOn, "12:00");
    expect(await checkDebit(app.services, presented?.id ?? "")).toBe("succeeded");
    await waitForJobs(app, ["debit-refund", "payout-check"]);
    expect(await status()).toBe("closed");
    const refunds = await app.services.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.applicationId, loan.id), eq(payouts.purpose, "refund")));
    expect(refunds).toEqual([expect.objectContaining({ amountPaise: presented?.amountPaise, requestedBy: null })]);
    const [audited] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id), eq(auditLog.action, "refund.requested")));
    expect(audited?.actorRole).toBe("system");
  });

  /** A loan whose first debit is in progress when operations record the same instalment paid by bank transfer, then the debit succeeds. */
  async function paidTwice() {
    const loan = await loanWithAutopay();
    const emi = loan.first.principalPaise + loan.first.interestPaise;
    await dailyRun(addDays(loan.presentOn, -2));
    await dailyRun(loan.presentOn);
    const [presented] = await debitsOf(loan.id);
    clock.now = at(loan.presentOn, "10:00");
    const recorded = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "record_payment", amount: (emi / 100).toFixed(2), mode: "NEFT", reference: `UTRTWICE${serial}`, date: loan.presentOn },
      { cookie: ops.cookie },
    );
    expect(recorded.status).toBe(302);
    clock.now = at(loan.presentOn, "12:00");
    expect(await checkDebit(app.services, presented?.id ?? "")).toBe("succeeded");
    return { ...loan, emi, debitId: presented?.id ?? "" };
  }
  const debitRow = async (id: string) => (await app.services.db.select().from(mandateDebits).where(eq(mandateDebits.id, id)))[0];
  const refundsOf = (applicationId: string) =>
    app.services.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.applicationId, applicationId), eq(payouts.purpose, "refund")));

  it("that paid an instalment already paid is refunded out of the advance on the next working day, once", async () => {
    const loan = await paidTwice();
    const refundOn = addWorkingDays(loan.presentOn, 1, app.services.config.holidays);
    expect(await debitRow(loan.debitId)).toMatchObject({
      status: "succeeded",
      excessPaise: loan.emi,
      excessRefundOn: refundOn,
      excessChoice: null,
    });
    expect(await accountOf(loan.id)).toMatchObject({ advancePaise: loan.emi, refundDuePaise: 0, dpd: 0 });
    const [told] = await noticesOf(loan.userId, "autopay_excess");
    expect(told?.sms).toContain(loan.loanNumber);
    expect(told?.body).toContain("already paid");
    const page = await html(await app.get(loan.path, { headers: { Cookie: loan.cookie } }));
    expect(section(page, "autopay-title")).toContain("for an instalment you had already paid");
    expect(section(page, "autopay-title")).toContain("Keep it as an advance");
    // Before its day the sweep leaves it for the borrower to decide.
    await sweepAutopay(app.services);
    expect(await refundsOf(loan.id)).toEqual([]);
    // On its day: refunded by the system, for the advance it left, once however often the sweep runs.
    clock.now = at(refundOn, "00:40");
    await sweepAutopay(app.services);
    await sweepAutopay(app.services);
    expect(await refundsOf(loan.id)).toEqual([expect.objectContaining({ amountPaise: loan.emi, requestedBy: null })]);
    await waitForJobs(app, ["payout-check"]);
    const [sent] = await app.services.db
      .select()
      .from(loanLedger)
      .where(and(eq(loanLedger.applicationId, loan.id), eq(loanLedger.kind, "refund")));
    expect(sent).toMatchObject({ amountPaise: loan.emi, details: expect.objectContaining({ fromAdvance: true }) });
    expect(await accountOf(loan.id)).toMatchObject({ advancePaise: 0, refundDuePaise: 0, dpd: 0 });
    expect((await debitRow(loan.debitId))?.excessChoice).toBe("refund");
    const [loanNow] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, loan.id));
    expect(loanNow?.status).toBe("active");
    const statement = await html(await app.get(loan.path, { headers: { Cookie: loan.cookie } }));
    expect(statement).toContain("is being refunded to your bank account");
    expect(statement).not.toContain("Keep it as an advance");
  });

  it("that paid an instalment already paid is kept as an advance when the borrower asks, and only by that borrower", async () => {
    const loan = await paidTwice();
    const [d] = (await debitsOf(loan.id)).filter((x) => x.id === loan.debitId);
    // Another borrower cannot decide about it, through their own loan or this one.
    const other = await loanWithAutopay();
    const theirs = await postForm(app, other.path, { intent: "excess_keep", debit: d?.reference ?? "" }, { cookie: other.cookie });
    expect(theirs.status).toBe(404);
    const here = await postForm(app, loan.path, { intent: "excess_keep", debit: d?.reference ?? "" }, { cookie: other.cookie });
    expect(here.status).toBe(404);
    const kept = await postForm(app, loan.path, { intent: "excess_keep", debit: d?.reference ?? "" }, { cookie: loan.cookie });
    expect(kept.status).toBe(302);
    expect(toastOf(kept)).toContain("Kept as an advance");
    // The same tap twice (a retry on a flaky network) changes nothing, and says so.
    const again = await postForm(app, loan.path, { intent: "excess_refund", debit: d?.reference ?? "" }, { cookie: loan.cookie });
    expect(again.status).toBe(400);
    expect((await debitRow(loan.debitId))?.excessChoice).toBe("keep");
    clock.now = at(addWorkingDays(loan.presentOn, 2, app.services.config.holidays), "09:00");
    await sweepAutopay(app.services);
    expect(await refundsOf(loan.id)).toEqual([]);
    expect(await accountOf(loan.id)).toMatchObject({ advancePaise: loan.emi });
    const [audited] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, loan.id), eq(auditLog.action, "mandate_debit.excess_keep")));
    expect(audited).toMatchObject({ actorRole: "borrower", actorUserId: loan.userId });
  });

  it("arriving after the loan was written off is held apart, never applied, and returned to the borrower", async () => {
    const loan = await loanWithAutopay();
    await dailyRun(addDays(loan.presentOn, -2));
    await dailyRun(loan.presentOn);
    const [presented] = await debitsOf(loan.id);
    expect(presented?.status).toBe("in_progress");
    // The loan was written off while the debit was at the bank (how it got there is tested with the write-off).
    await app.services.db.update(loanApplications).set({ status: "written_off" }).where(eq(loanApplications.id, loan.id));
    const ledgerBefore = await app.services.db.select().from(loanLedger).where(eq(loanLedger.applicationId, loan.id));
    clock.now = at(loan.presentOn, "12:00");
    expect(await checkDebit(app.services, presented?.id ?? "")).toBe("succeeded");
    await waitForJobs(app, ["debit-refund", "payout-check"]);
    const [late] = (await app.services.db.select().from(payments).where(eq(payments.applicationId, loan.id))).filter(
      (p) => p.mode === "autopay",
    );
    expect(late).toMatchObject({ status: "reversed", receivedPaise: presented?.amountPaise });
    // Nothing of it in the loan's ledger: not a recovery, and no refund entry either.
    expect(await app.services.db.select().from(loanLedger).where(eq(loanLedger.applicationId, loan.id))).toHaveLength(ledgerBefore.length);
    const refunds = await refundsOf(loan.id);
    expect(refunds).toEqual([
      expect.objectContaining({ amountPaise: presented?.amountPaise, returnsPaymentId: late?.id, status: "processed" }),
    ]);
    const [status] = await app.services.db
      .select({ s: loanApplications.status })
      .from(loanApplications)
      .where(eq(loanApplications.id, loan.id));
    expect(status?.s).toBe("written_off");
    expect(await noticesOf(loan.userId, "refund_processed")).toHaveLength(1);
    // In the books: received at the gateway and held (no loan's), then returned through the payout account.
    const entries = await app.services.db.select().from(journalEntries).where(eq(journalEntries.applicationId, loan.id));
    const held = entries.find((e) => e.kind === "held_receipt");
    const returned = entries.find((e) => e.kind === "held_returned");
    const sum = async (entryId: string | undefined) =>
      Object.fromEntries(
        (
          await app.services.db
            .select()
            .from(journalLines)
            .where(eq(journalLines.entryId, entryId ?? ""))
        ).map((l) => [l.purpose, l.debitPaise - l.creditPaise]),
      );
    expect(await sum(held?.id)).toEqual({ gateway_clearing: presented?.amountPaise, unapplied_receipts: -(presented?.amountPaise ?? 0) });
    expect(await sum(returned?.id)).toEqual({ unapplied_receipts: presented?.amountPaise, payout_account: -(presented?.amountPaise ?? 0) });
    // Asked again about the same debit: nothing more.
    await waitForJobs(app, ["debit-refund"]);
    expect(await refundsOf(loan.id)).toHaveLength(1);
  });

  it("is never presented once autopay is cancelled", async () => {
    const loan = await loanWithAutopay();
    await dailyRun(addDays(loan.presentOn, -2));
    clock.now = at(addDays(loan.presentOn, -1), "11:00");
    const res = await postForm(app, loan.path, { intent: "autopay_cancel" }, { cookie: loan.cookie });
    expect(res.status).toBe(302);
    await dailyRun(loan.presentOn);
    const [debit] = await debitsOf(loan.id);
    expect(debit).toMatchObject({ status: "cancelled", providerPaymentId: null });
  });
});
