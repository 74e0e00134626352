import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime } from "../../app/domain/india-date.ts";
import { addDays, addWorkingDays } from "../../app/domain/loan-math.ts";
import { decideMatch } from "../../app/server/aml/decide.server.ts";
import { loadList } from "../../app/server/aml/lists.server.ts";
import { amlMatches, loanLedger, mandateDebits, payouts } from "../../app/server/db/schema.ts";
import { sweepAutopay } from "../../app/server/mandates/day.server.ts";
import { checkDebit } from "../../app/server/mandates/debit-answer.server.ts";
import { decideExcess } from "../../app/server/mandates/excess.server.ts";
import { askAgain, checkPayout } from "../../app/server/payouts/check.server.ts";
import { refundOverpayment } from "../../app/server/payouts/refund.server.ts";
import { activeLoan, emiWithoutAutopayFirst, signedInStaff } from "../helpers/applications.ts";
import { autopayDay, loanWithAutopay, type TestClock } from "../helpers/autopay.ts";
import { postForm } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// A borrower frozen by a confirmed sanctions match gets no money out (docs/product.md "Sanctions
// screening"): an autopay debit's excess is not refunded, whoever or whatever asks; and a refund
// payout requested before the confirmation is not sent while the match holds.
const clock: TestClock = { now: indiaTime("2026-03-02", "11:00") };
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let compliance: { cookie: string; userId: string };
const client = { ip: "127.0.0.1", userAgent: "test" };

beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", LOCAL_DEBIT_ANSWER_SECONDS: "3600" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  compliance = await signedInStaff(app, "compliance", "Chitra Menon");
  await emiWithoutAutopayFirst(app);
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

/** A new version of the WMD Act list naming the borrower, every borrower screened again, the match confirmed by compliance. */
async function confirmListed(userId: string, { ref, name, dob }: { ref: string; name: string; dob: string }) {
  const csv = `ref,kind,name,aliases,dob,nationality,listed_on,notification\n${ref},individual,${name},,${dob},Indian,2026-03-01,S.O. 1(E) (FICTIONAL SAMPLE)\n`;
  const loaded = await loadList(app.services, { source: "wmd_12a", fileName: `${ref}.csv`, text: csv, by: null });
  expect(loaded.ok).toBe(true);
  await waitForJobs(app, "aml-rescreen");
  const [match] = await app.services.db
    .select()
    .from(amlMatches)
    .where(and(eq(amlMatches.userId, userId), eq(amlMatches.ref, ref)));
  const confirmed = await decideMatch(app.services, {
    matchId: match!.id,
    decision: "confirmed",
    note: "Same name, date of birth and PAN as in the notification.",
    staff: { id: compliance.userId, role: "compliance" },
    client,
  });
  expect(confirmed.ok).toBe(true);
}

const refundsOf = (applicationId: string) =>
  app.services.db
    .select()
    .from(payouts)
    .where(and(eq(payouts.applicationId, applicationId), eq(payouts.purpose, "refund")));

describe("a confirmed sanctions match", () => {
  it("refuses an autopay debit's excess its refund, on its day and when asked", async () => {
    const loan = await loanWithAutopay(
      app,
      clock,
      { credit, ops },
      {
        mobile: "9786800001",
        profile: { name: "Farhan Akhtar Qureshi", dateOfBirth: "1984-02-03" },
      },
    );
    const emi = loan.first.principalPaise + loan.first.interestPaise;
    await autopayDay(app, clock, addDays(loan.presentOn, -2));
    await autopayDay(app, clock, loan.presentOn);
    const [presented] = await app.services.db.select().from(mandateDebits).where(eq(mandateDebits.applicationId, loan.id));
    // The instalment paid by bank transfer while the debit is in progress; then the debit succeeds too.
    clock.now = indiaTime(loan.presentOn, "10:00");
    const paid = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "record_payment", amount: (emi / 100).toFixed(2), mode: "NEFT", reference: "UTRFROZEN01", date: loan.presentOn },
      { cookie: ops.cookie },
    );
    expect(paid.status).toBe(302);
    clock.now = indiaTime(loan.presentOn, "12:00");
    expect(await checkDebit(app.services, presented!.id)).toBe("succeeded");
    const debit = async () => (await app.services.db.select().from(mandateDebits).where(eq(mandateDebits.id, presented!.id)))[0];
    expect(await debit()).toMatchObject({ excessPaise: emi, excessChoice: null });

    await confirmListed(loan.userId, { ref: "WMD-12A-991", name: "Farhan Akhtar Qureshi", dob: "1984-02-03" });
    // The borrower asks for it: refused, nothing decided.
    const asked = await decideExcess(app.services, {
      reference: presented!.reference,
      userId: loan.userId,
      choice: "refund",
      client,
    });
    expect(asked).toEqual({ ok: false, reason: "compliance_hold" });
    // Its refund day comes: the sweep sends nothing, however often it runs.
    clock.now = indiaTime(addWorkingDays(loan.presentOn, 1, app.services.config.holidays), "00:40");
    await sweepAutopay(app.services);
    await sweepAutopay(app.services);
    expect(await refundsOf(loan.id)).toEqual([]);
    expect((await debit())?.excessChoice).toBeNull();
  });

  it("stops a refund payout requested before the confirmation from being sent", async () => {
    clock.now = indiaTime("2026-03-02", "11:00");
    const loan = await activeLoan(app, "9786800002", credit, ops, { name: "Salim Mirza Baig", dateOfBirth: "1979-09-09" });
    // Paid off with more than was owed: a refund is due.
    const overpaid = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "record_payment", amount: "150000.00", mode: "NEFT", reference: "UTRFROZEN02", date: "2026-03-02" },
      { cookie: ops.cookie },
    );
    expect(overpaid.status).toBe(302);
    // The refund is requested, its question to the provider not yet asked (as if its job were still waiting).
    const waiting = { ...app.services, jobs: { ...app.services.jobs, send: async () => null } } as typeof app.services;
    const requested = await refundOverpayment(waiting, { by: "system", client: null, loanNumber: loan.loanNumber });
    expect(requested.ok).toBe(true);
    const payoutId = requested.ok ? requested.payoutId : "";

    await confirmListed(loan.userId, { ref: "WMD-12A-992", name: "Salim Mirza Baig", dob: "1979-09-09" });
    // Asked about now, and by its job: never sent while the match holds.
    expect(await checkPayout(app.services, payoutId)).toBe("pending");
    await askAgain(app.services, payoutId, 0);
    await waitForJobs(app, "payout-check");
    const [payout] = await refundsOf(loan.id);
    expect(payout).toMatchObject({ id: payoutId, status: "requested", providerPayoutId: null });
    const refunded = await app.services.db
      .select()
      .from(loanLedger)
      .where(and(eq(loanLedger.applicationId, loan.id), eq(loanLedger.kind, "refund")));
    expect(refunded).toEqual([]);
  });
});
