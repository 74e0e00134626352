import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime, todayIST } from "../../app/domain/india-date.ts";
import { addDays, addWorkingDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { payoffQuote } from "../../app/domain/loans/servicing.ts";
import { loanAccounts, loanApplications, loanLedger, mandateDebits, payments, payouts } from "../../app/server/db/schema.ts";
import { ledgerOf, termsOf } from "../../app/server/loan-account/account.server.ts";
import { applyDebitEvent, checkDebit } from "../../app/server/mandates/debit-answer.server.ts";
import { sweepAutopay } from "../../app/server/mandates/day.server.ts";
import { emiWithoutAutopayFirst, signedInStaff } from "../helpers/applications.ts";
import { autopayDay, loanWithAutopay, type TestClock } from "../helpers/autopay.ts";
import { postForm } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Random autopay histories through the running application (docs/product.md "Autopay"): a debit
// that bounces or succeeds, a payment by hand before its date (part or all of the instalment) or
// while it is in progress (the same instalment again, or the whole loan paid off), the bank's
// answer days late and delivered several times. Whatever happens: nothing is debited twice, no
// debit takes more than was due, its notice or the mandate's maximum, no penal charge while a debit
// is in progress and at most the one after a bounce, a debit for what was already paid is refunded,
// and a debit after closure is refunded without reopening the loan.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let staff: { credit: { cookie: string }; ops: { cookie: string } };
beforeAll(async () => {
  // Every run starts its loan at the same moment of the test clock: the per-address code limit would stop the 9th.
  app = await startTestServer(
    { LOCAL_PAYOUT_SETTLE_SECONDS: "0", LOCAL_DEBIT_ANSWER_SECONDS: "3600", OTP_PER_IP_PER_HOUR: "1000000" },
    { now: () => clock.now },
  );
  staff = { credit: await signedInStaff(app, "credit", "Asha Rao"), ops: await signedInStaff(app, "operations", "Omar Shaikh") };
  await emiWithoutAutopayFirst(app);
});
afterAll(async () => {
  await app?.stop();
});

let serial = 0;
const rupees = (paise: number) => (paise / 100).toFixed(2);

/** Operations record a payment received by bank transfer, dated `date`. */
async function byHand(loanNumber: string, amountPaise: number, date: IsoDate) {
  const res = await postForm(
    app,
    `/admin/loans/${loanNumber}`,
    { intent: "record_payment", amount: rupees(amountPaise), mode: "NEFT", reference: `UTRPROP${++serial}`, date },
    { cookie: staff.ops.cookie },
  );
  if (res.status !== 302) throw new Error(`recording a payment answered ${res.status}`);
}

/** The bank's answer to every debit in progress, `times` times over (a webhook delivered again). */
async function answerAll(applicationId: string, times: number) {
  clock.now = new Date(clock.now.getTime() + 2 * 3_600_000);
  const waiting = (await app.services.db.select().from(mandateDebits).where(eq(mandateDebits.applicationId, applicationId))).filter(
    (d) => d.status === "in_progress",
  );
  for (const d of waiting) {
    await checkDebit(app.services, d.id);
    for (let i = 1; i < times; i++) {
      const answer = await app.services.mandates?.fetchDebit(d.providerPaymentId ?? "");
      if (answer) expect(await applyDebitEvent(app.services, answer)).toBe("unchanged");
    }
  }
  await waitForJobs(app, ["debit-refund", "payout-check"]);
}

const scenario = fc.record({
  bounces: fc.boolean(),
  before: fc.constantFrom("none", "part", "all"),
  during: fc.constantFrom("none", "same", "payoff"),
  lateDays: fc.integer({ min: 0, max: 4 }),
  deliveries: fc.integer({ min: 1, max: 3 }),
});

describe("autopay over random histories", () => {
  it("never debits twice or above what was due, its notice or the maximum; charges nothing while in progress; refunds what was paid already or after closure", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const loan = await loanWithAutopay(app, clock, staff, {
          mobile: `97600${String(++serial).padStart(5, "0")}`,
          accountNumber: s.bounces ? "50100012341111" : "50100012345678",
        });
        const emi = loan.first.principalPaise + loan.first.interestPaise;
        const noticeOn = addDays(loan.presentOn, -2);
        await autopayDay(app, clock, noticeOn);
        // A payment by hand after the notice, before the debit's date.
        const paidBefore = s.before === "all" ? emi : s.before === "part" ? Math.floor(emi / 2) : 0;
        if (paidBefore > 0) {
          clock.now = indiaTime(noticeOn, "10:00");
          await byHand(loan.loanNumber, paidBefore, noticeOn);
        }
        await autopayDay(app, clock, loan.presentOn);
        const [first] = await app.services.db
          .select()
          .from(mandateDebits)
          .where(and(eq(mandateDebits.applicationId, loan.id), eq(mandateDebits.attempt, 1)));
        if (!first) throw new Error("no debit");
        expect(first.noticePaise).toBe(Math.min(emi, loan.mandate.maxAmountPaise));
        if (s.before === "all") {
          // Paid before its date: never presented.
          expect(first).toMatchObject({ status: "cancelled", providerPaymentId: null });
          return;
        }
        expect(first.status).toBe("in_progress");
        expect(first.amountPaise).toBe(emi - paidBefore);
        // While it is in progress: the same instalment paid again by hand, or the whole loan paid off.
        clock.now = indiaTime(loan.presentOn, "10:00");
        if (s.during === "same") await byHand(loan.loanNumber, emi, loan.presentOn);
        if (s.during === "payoff") {
          const found = await termsOf(app.services, loan.id);
          if (!found) throw new Error("no terms");
          const quote = payoffQuote(found.terms, (await ledgerOf(app.services, loan.id)).events, loan.presentOn);
          await byHand(loan.loanNumber, quote.totalPaise, loan.presentOn);
        }
        // The bank takes its time: no charge and no day past due for it meanwhile.
        for (let k = 1; k <= s.lateDays; k++) {
          await autopayDay(app, clock, addDays(loan.presentOn, k));
          const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, loan.id));
          expect(account?.dpd).toBe(0);
        }
        const answeredOn = addDays(loan.presentOn, s.lateDays);
        const charges = () =>
          app.services.db
            .select()
            .from(loanLedger)
            .where(and(eq(loanLedger.applicationId, loan.id), eq(loanLedger.kind, "penal"), eq(loanLedger.seq, 1)));
        expect(await charges()).toEqual([]);
        clock.now = indiaTime(answeredOn, "12:00");
        await answerAll(loan.id, s.deliveries);
        // Ten more days: a bounce is presented once more and answered; an excess's refund day comes.
        for (let k = 1; k <= 10; k++) {
          const day = addDays(answeredOn, k);
          await autopayDay(app, clock, day);
          clock.now = indiaTime(day, "09:00");
          await sweepAutopay(app.services);
          await answerAll(loan.id, s.deliveries);
        }

        const debits = await app.services.db.select().from(mandateDebits).where(eq(mandateDebits.applicationId, loan.id));
        const received = (await app.services.db.select().from(payments).where(eq(payments.applicationId, loan.id))).filter(
          (p) => p.mode === "autopay",
        );
        const refunds = await app.services.db
          .select()
          .from(payouts)
          .where(and(eq(payouts.applicationId, loan.id), eq(payouts.purpose, "refund")));
        const succeeded = debits.filter((d) => d.status === "succeeded");
        // Nothing debited twice: one payment per successful debit, for what it presented.
        expect(received.map((p) => p.amountPaise).sort()).toEqual(succeeded.map((d) => d.amountPaise).sort());
        expect(new Set(received.map((p) => p.providerPaymentId)).size).toBe(received.length);
        for (const d of debits) {
          expect(d.noticePaise).toBeLessThanOrEqual(loan.mandate.maxAmountPaise);
          if (d.amountPaise !== null) expect(d.amountPaise).toBeLessThanOrEqual(d.noticePaise);
        }
        // Never more than was due of the instalment, together.
        expect(succeeded.reduce((sum, d) => sum + (d.amountPaise ?? 0), 0)).toBeLessThanOrEqual(emi - paidBefore);
        expect(debits.filter((d) => d.attempt > 2)).toEqual([]);
        // At most the one penal charge, never levied while the first debit was in progress; none when it was paid on time.
        const levied = await charges();
        expect(levied.length).toBeLessThanOrEqual(1);
        for (const c of levied) expect(c.recordedAt.getTime()).toBeGreaterThan(indiaTime(answeredOn, "12:00").getTime());
        if (succeeded.some((d) => d.attempt === 1) || s.during !== "none") expect(levied).toEqual([]);
        const [status] = await app.services.db
          .select({ s: loanApplications.status })
          .from(loanApplications)
          .where(eq(loanApplications.id, loan.id));
        const debited = succeeded.reduce((sum, d) => sum + (d.amountPaise ?? 0), 0);
        if (s.during === "payoff") {
          // Closed by the payoff; a debit that arrived afterwards is refunded and never reopens it.
          expect(status?.s).toBe("closed");
          if (debited > 0) expect(refunds.map((r) => r.amountPaise)).toContain(debited);
        } else if (s.during === "same" && debited > 0) {
          // It paid an instalment already paid: refunded on the next working day, out of the advance.
          const [d] = succeeded;
          expect(d).toMatchObject({ excessPaise: d?.amountPaise, excessChoice: "refund" });
          const within = addWorkingDays(answeredOn, 2, app.services.config.holidays);
          expect(d?.excessRefundOn ?? "").toBe(addWorkingDays(answeredOn, 1, app.services.config.holidays));
          expect(refunds).toEqual([expect.objectContaining({ amountPaise: d?.amountPaise, status: "processed" })]);
          expect(todayIST(refunds[0]?.requestedAt ?? new Date(0)) <= within).toBe(true);
          expect(status?.s).toBe("active");
        } else expect(refunds).toEqual([]);
      }),
      { numRuns: 30, seed: Number(process.env.AUTOPAY_PROPERTY_SEED ?? 37) },
    );
  }, 300_000);
});
