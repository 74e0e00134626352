import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeAmortisation } from "../../app/domain/books/eir.ts";
import { indiaTime, todayIST } from "../../app/domain/india-date.ts";
import { addDays } from "../../app/domain/loan-math.ts";
import { formatRupees } from "../../app/domain/money.ts";
import { runBooksDay } from "../../app/server/books/daily.server.ts";
import { provisionMonth, provisionMonthsEnded } from "../../app/server/books/provision.server.ts";
import { postEntry } from "../../app/server/books/journal.server.ts";
import { saveRule } from "../../app/server/books/rules.server.ts";
import {
  accountingPeriods,
  bookPositions,
  journalEntries,
  journalLines,
  loanAccounts,
  loanApplications,
  loanInstalments,
  monthEndClasses,
  payments,
  payouts,
} from "../../app/server/db/schema.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, instalmentOf, signedInStaff, staffSessionAgain } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { expectBooksMatchLedger, trialTotals, unbalancedEntries } from "../helpers/books.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The books (docs/product.md "The lender's books"): what each money event journals, NPA and its
// suspense, provisioning, a write-off against the provision and a recovery after it, Ind AS's
// deferred fee, and months closed to new entries.
const clock: TestClock = { now: new Date("2026-01-05T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let admin: { cookie: string; userId: string };
let serial = 0;
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  admin = await signedInStaff(app, "admin", "Anil Kumar");
});
afterAll(async () => {
  await app?.stop();
});

const newLoan = () => activeLoan(app, `97900${String(++serial).padStart(5, "0")}`, credit, ops);
/** Staff sessions anew (the clock moves months between tests). */
const freshSessions = () => Promise.all([credit, ops, admin].map((s) => staffSessionAgain(app, s)));
const client = { ip: "127.0.0.1", userAgent: "test" };

/** An entry's lines as account → signed paise (debit positive), for one loan. */
async function entryLines(entryId: string) {
  const lines = await app.services.db.select().from(journalLines).where(eq(journalLines.entryId, entryId));
  return Object.fromEntries(lines.map((l) => [l.purpose, l.debitPaise - l.creditPaise]));
}
async function entriesOf(applicationId: string, kind?: string) {
  return app.services.db
    .select()
    .from(journalEntries)
    .where(and(eq(journalEntries.applicationId, applicationId), kind ? eq(journalEntries.kind, kind) : undefined))
    .orderBy(asc(journalEntries.entryNo));
}
/** The loan's schedule, in order (throws when it has none). */
async function scheduleOf(applicationId: string) {
  const rows = await app.services.db
    .select()
    .from(loanInstalments)
    .where(eq(loanInstalments.applicationId, applicationId))
    .orderBy(asc(loanInstalments.seq));
  if (!rows[0]) throw new Error("no schedule");
  return rows as [(typeof rows)[number], ...typeof rows];
}
async function positions(applicationId: string) {
  const rows = await app.services.db.select().from(bookPositions).where(eq(bookPositions.applicationId, applicationId));
  return Object.fromEntries(rows.filter((r) => r.balancePaise !== 0).map((r) => [r.purpose, r.balancePaise]));
}
/** Runs the daily run (servicing, then the books) for each day from `from` to `to`. */
async function runDays(from: string, to: string) {
  for (let day = from; day <= to; day = addDays(day, 1)) {
    clock.now = indiaTime(day, "00:30");
    // As the 00:30 job: a month that ended is provisioned first, on the figures it ended with.
    await provisionMonthsEnded(app.services, day);
    await runServicingDay(app.services, day);
    await runBooksDay(app.services, day);
  }
}

// In order, each test starting after the last one ended: time never runs back for the loans already made.
describe("the books", { shuffle: false }, () => {
  describe("a disbursal", () => {
    it("books the principal against the net paid out, the fee and its GST: IGST across states, CGST and SGST within", async () => {
      clock.now = new Date("2026-01-05T05:30:00Z");
      const across = await newLoan();
      const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, across.id));
      const [payout] = await app.services.db.select().from(payouts).where(eq(payouts.applicationId, across.id));
      const fee = account?.feePaise ?? 0;
      const gst = account?.feeGstPaise ?? 0;
      expect(fee).toBeGreaterThan(0);
      expect(gst).toBe(Math.round((fee * 18) / 100));
      const [disbursal] = await entriesOf(across.id, "disbursal");
      // The borrower's address is in West Bengal; the lender is registered in Karnataka.
      expect(await entryLines(disbursal?.id ?? "")).toEqual({
        loans_receivable: 1_00_000_00,
        payout_account: -(1_00_000_00 - fee - gst),
        processing_fee_income: -fee,
        igst_payable: -gst,
      });
      expect(payout?.amountPaise).toBe(1_00_000_00 - fee - gst);
      const [payoutLine] = await app.services.db
        .select()
        .from(journalLines)
        .where(and(eq(journalLines.entryId, disbursal?.id ?? ""), eq(journalLines.purpose, "payout_account")));
      expect(payoutLine?.providerRef).toBe(payout?.providerPayoutId);
      expect(disbursal?.entryDate).toBe(across.disbursalDate);
      // The staff loan page: the ledger's disbursal with its fee and GST, and the loan's journal entries beside it.
      const page = (await (await app.get(`/admin/loans/${across.loanNumber}`, { headers: { Cookie: ops.cookie } })).text()).replaceAll(
        "<!-- -->",
        "",
      );
      expect(page).toContain(
        `processing fee ${formatRupees(fee)} and its GST ${formatRupees(gst)} (IGST), paid out ${formatRupees(1_00_000_00 - fee - gst)}`,
      );
      expect(page).toContain("In the books");
      expect(page).toContain(disbursal?.narration.replaceAll("'", "&#x27;") ?? "-");
      expect(page).toContain("1101</span> Loans receivable (principal)");

      // A lender registered in the borrower's state charges CGST and SGST, half each (CGST takes an odd paisa).
      const staff = { id: admin.userId, role: "admin" as const };
      expect(
        (
          await saveRule(app.services, {
            kind: "framework",
            value: { framework: "indian_gaap", lenderState: "West Bengal" },
            reason: "Moved",
            staff,
            client,
          })
        ).ok,
      ).toBe(true);
      const within = await newLoan();
      const [entry] = await entriesOf(within.id, "disbursal");
      expect(await entryLines(entry?.id ?? "")).toEqual({
        loans_receivable: 1_00_000_00,
        payout_account: -(1_00_000_00 - fee - gst),
        processing_fee_income: -fee,
        cgst_payable: -(gst - Math.floor(gst / 2)),
        sgst_payable: -Math.floor(gst / 2),
      });
      await saveRule(app.services, {
        kind: "framework",
        value: { framework: "indian_gaap", lenderState: "Karnataka" },
        reason: "Back",
        staff,
        client,
      });
      expect(await unbalancedEntries(app.services)).toEqual([]);
    });
  });

  describe("a payment and a penal charge", () => {
    it("clear interest receivable then principal; a charge is income without GST; a reversal undoes the payment's entry exactly", async () => {
      clock.now = new Date("2026-01-06T05:30:00Z");
      const loan = await newLoan();
      const [first] = await scheduleOf(loan.id);
      // Unpaid past its grace: the penal charge.
      await runDays(addDays(loan.disbursalDate, 1), addDays(first.dueDate, 2));
      const [penal] = await entriesOf(loan.id, "penal");
      expect(await entryLines(penal?.id ?? "")).toEqual({ penal_receivable: 50_000, penal_income: -50_000 });
      // By its due date the whole instalment's interest had accrued (billed and unpaid), and two days of the next's.
      const second = await instalmentOf(app, loan.id, 2);
      const days = (Date.parse(second.dueDate) - Date.parse(first.dueDate)) / 86_400_000;
      expect((await positions(loan.id)).interest_receivable).toBe(first.interestPaise + Math.floor(second.interestPaise / days) * 2);
      clock.now = indiaTime(addDays(first.dueDate, 2), "11:00");
      const emi = first.principalPaise + first.interestPaise;
      const paid = await postForm(
        app,
        `/admin/loans/${loan.loanNumber}`,
        {
          intent: "record_payment",
          amount: ((emi + 50_000) / 100).toFixed(2),
          mode: "NEFT",
          reference: `UTRBOOK${serial}`,
          date: addDays(first.dueDate, 2),
        },
        { cookie: ops.cookie },
      );
      expect(toastOf(paid)).toMatch(/recorded/);
      const [payment] = await entriesOf(loan.id, "payment");
      const lines = await entryLines(payment?.id ?? "");
      // Money recorded by staff lands in the bank; interest, then principal, then the penal charge.
      expect(lines).toMatchObject({
        bank: emi + 50_000,
        interest_receivable: -first.interestPaise,
        loans_receivable: -first.principalPaise,
        penal_receivable: -50_000,
      });
      await expectBooksMatchLedger(app.services, todayIST(clock.now), [loan.id]);
      // Reversed (four eyes): the exact reverse of the payment's entry.
      const [p] = await app.services.db.select({ reference: payments.reference }).from(payments).where(eq(payments.applicationId, loan.id));
      await postForm(
        app,
        `/admin/loans/${loan.loanNumber}`,
        { intent: "request_reversal", payment: p?.reference ?? "", reason: "Recalled" },
        { cookie: ops.cookie },
      );
      expect(
        toastOf(
          await postForm(
            app,
            `/admin/loans/${loan.loanNumber}`,
            { intent: "confirm_reversal", payment: p?.reference ?? "" },
            { cookie: admin.cookie },
          ),
        ),
      ).toMatch(/reversed/);
      const [reversal] = await entriesOf(loan.id, "payment_reversal");
      expect(reversal?.reversesId).toBe(payment?.id);
      const undone = await entryLines(reversal?.id ?? "");
      for (const [purpose, paise] of Object.entries(lines)) expect(undone[purpose], purpose).toBe(-paise);
      await expectBooksMatchLedger(app.services, todayIST(clock.now), [loan.id]);
    });
  });

  describe("NPA and provisioning", () => {
    it("holds an unpaid loan's interest in suspense from 91 days past due, provisions by class at month end, writes it off against the provision, and books a recovery", async () => {
      clock.now = new Date("2026-03-02T05:30:00Z");
      const loan = await newLoan();
      const [first] = await scheduleOf(loan.id);
      const npaDay = addDays(first.dueDate, 91);
      await runDays(addDays(loan.disbursalDate, 1), addDays(npaDay, -1));
      let [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, loan.id));
      expect(account?.npaSince).toBeNull();
      const before = await positions(loan.id);
      expect(before.interest_suspense).toBeUndefined();
      await runDays(npaDay, npaDay);
      [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, loan.id));
      expect(account?.npaSince).toBe(npaDay);
      const [npa] = await entriesOf(loan.id, "npa");
      const moved = await entryLines(npa?.id ?? "");
      // The interest accrued and unpaid leaves income for suspense.
      expect(moved.interest_suspense).toBeLessThan(0);
      expect(moved.interest_income).toBe(-(moved.interest_suspense ?? 0));
      // From then on its accrual goes to suspense, not income: each day's accrual line for it has its suspense line.
      await runDays(addDays(npaDay, 1), addDays(npaDay, 5));
      const perDay = (await app.services.db.execute(sql`
        select e.entry_date, sum(l.debit_paise) filter (where l.purpose = 'interest_receivable') as receivable,
          sum(l.credit_paise) filter (where l.purpose = 'interest_suspense') as suspense
        from journal_entries e join journal_lines l on l.entry_id = e.id
        where e.kind = 'accrual' and l.application_id = ${loan.id} and e.entry_date > ${npaDay}
        group by e.entry_date`)) as unknown as { rows: { receivable: string; suspense: string }[] };
      expect(perDay.rows.length).toBe(5);
      for (const r of perDay.rows) expect(r.suspense).toBe(r.receivable);
      await expectBooksMatchLedger(app.services, addDays(npaDay, 5), [loan.id]);

      // The month end: a sub-standard loan's provision is 10% of its book value (principal and interest, less suspense).
      const monthEnded = (await app.services.db.select().from(monthEndClasses).where(eq(monthEndClasses.applicationId, loan.id))).sort(
        (a, b) => a.month.localeCompare(b.month),
      );
      expect(monthEnded.map((m) => m.assetClass)).toContain("standard");
      const standard = monthEnded.find((m) => m.assetClass === "standard");
      expect(standard?.provisionPaise).toBe(Math.round((Number(standard?.bookValuePaise) * 40) / 10_000));

      // 180 days past due: written off, first against the provision held for it.
      const writeOffDay = addDays(first.dueDate, 181);
      await runDays(addDays(npaDay, 6), writeOffDay);
      // Each month end while NPA: sub-standard, 10% of the book value (principal and interest less suspense).
      const subStandard = (await app.services.db.select().from(monthEndClasses).where(eq(monthEndClasses.applicationId, loan.id))).filter(
        (m) => m.assetClass === "sub_standard",
      );
      expect(subStandard.length).toBeGreaterThan(0);
      for (const m of subStandard) expect(m.provisionPaise).toBe(Math.round(Number(m.bookValuePaise) / 10));
      const held = -((await positions(loan.id)).loan_loss_provision ?? 0);
      expect(held).toBeGreaterThan(0);
      const owed = await positions(loan.id);
      clock.now = indiaTime(writeOffDay, "11:00");
      await freshSessions();
      expect(
        toastOf(
          await postForm(
            app,
            `/admin/loans/${loan.loanNumber}`,
            { intent: "write_off", reason: "No contact for six months" },
            { cookie: admin.cookie },
          ),
        ),
      ).toMatch(/Written off/);
      const [writeOff] = await entriesOf(loan.id, "write_off");
      const wo = await entryLines(writeOff?.id ?? "");
      expect(wo.loans_receivable).toBe(-(owed.loans_receivable ?? 0));
      expect(wo.interest_receivable).toBe(-(owed.interest_receivable ?? 0));
      expect(wo.penal_receivable).toBe(-(owed.penal_receivable ?? 0));
      expect(wo.interest_suspense).toBe(-(owed.interest_suspense ?? 0));
      expect(wo.loan_loss_provision).toBe(held);
      expect(wo.write_off_expense).toBe(
        (owed.loans_receivable ?? 0) +
          (owed.interest_receivable ?? 0) +
          (owed.penal_receivable ?? 0) +
          (owed.interest_suspense ?? 0) -
          held,
      );
      expect(await positions(loan.id)).not.toHaveProperty("loans_receivable");
      // Money received afterwards is a recovery: income, the loan's receivables stay at nothing.
      const recovered = await postForm(
        app,
        `/admin/loans/${loan.loanNumber}`,
        { intent: "record_payment", amount: "5000.00", mode: "NEFT", reference: `UTRREC${serial}`, date: writeOffDay },
        { cookie: ops.cookie },
      );
      expect(toastOf(recovered)).toMatch(/recovery/);
      const [recovery] = await entriesOf(loan.id, "recovery");
      expect(await entryLines(recovery?.id ?? "")).toEqual({ bank: 5_000_00, recoveries: -5_000_00 });
      const tb = await trialTotals(app.services, writeOffDay);
      expect(tb.debits).toBe(tb.credits);
      expect(await unbalancedEntries(app.services)).toEqual([]);
    }, 240_000);
  });

  describe("under Ind AS", () => {
    it("defers the fee and amortises it with the interest, by the effective interest rate, to nothing at payoff", async () => {
      clock.now = new Date("2026-10-01T05:30:00Z");
      await freshSessions();
      const staff = { id: admin.userId, role: "admin" as const };
      await saveRule(app.services, {
        kind: "framework",
        value: { framework: "ind_as", lenderState: "Karnataka" },
        reason: "Ind AS from now",
        staff,
        client,
      });
      const loan = await newLoan();
      await saveRule(app.services, {
        kind: "framework",
        value: { framework: "indian_gaap", lenderState: "Karnataka" },
        reason: "Back",
        staff,
        client,
      });
      const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, loan.id));
      expect(account?.framework).toBe("ind_as");
      const fee = account?.feePaise ?? 0;
      const [disbursal] = await entriesOf(loan.id, "disbursal");
      expect(await entryLines(disbursal?.id ?? "")).toMatchObject({ deferred_fee_income: -fee });
      const schedule = await scheduleOf(loan.id);
      const amortised = feeAmortisation(schedule, 1_00_000_00, fee);
      const first = schedule[0];
      if (!first) throw new Error("no schedule");
      // Through the first due date: the first period's share of the fee is income.
      await runDays(addDays(loan.disbursalDate, 1), first.dueDate);
      expect((await positions(loan.id)).deferred_fee_income).toBe(-(fee - (amortised.get(1) ?? 0)));
      // The month's provision under Ind AS: the expected credit loss of a performing loan (stage 1, 1%), above RBI's 0.4% floor.
      const [october] = await app.services.db
        .select()
        .from(monthEndClasses)
        .where(and(eq(monthEndClasses.applicationId, loan.id), eq(monthEndClasses.month, "2026-10")));
      expect(october).toMatchObject({ assetClass: "standard", eclStage: "stage1" });
      expect(october?.provisionPaise).toBe(Math.round(Number(october?.bookValuePaise) / 100));
      // Paid off: nothing deferred is left; the rest is income.
      clock.now = indiaTime(first.dueDate, "11:00");
      const [acct] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, loan.id));
      await postForm(
        app,
        `/admin/loans/${loan.loanNumber}`,
        {
          intent: "record_payment",
          amount: (((acct?.outstandingPrincipalPaise ?? 0) + first.interestPaise + 10_000_00) / 100).toFixed(2),
          mode: "NEFT",
          reference: `UTRINDAS${serial}`,
          date: first.dueDate,
        },
        { cookie: ops.cookie },
      );
      expect(await positions(loan.id)).not.toHaveProperty("deferred_fee_income");
      expect(await unbalancedEntries(app.services)).toEqual([]);
    });
  });

  describe("a borrower with two loans", () => {
    it("is NPA on both while either is over 90 days past due, stays NPA after the bad one is written off, and a reversal after the write-off is more loss", async () => {
      clock.now = new Date("2026-11-02T05:30:00Z");
      await freshSessions();
      const bad = await newLoan();
      const [first] = await scheduleOf(bad.id);
      const npaDay = addDays(first.dueDate, 91);
      const writeOffDay = addDays(first.dueDate, 181);
      // ₹1,000 paid early on (reversed after the write-off).
      await runDays(addDays(bad.disbursalDate, 1), addDays(bad.disbursalDate, 3));
      clock.now = indiaTime(addDays(bad.disbursalDate, 3), "11:00");
      const act = (loanNumber: string, who: { cookie: string }, fields: Record<string, string>) =>
        postForm(app, `/admin/loans/${loanNumber}`, fields, { cookie: who.cookie });
      expect(
        toastOf(
          await act(bad.loanNumber, ops, {
            intent: "record_payment",
            amount: "1000.00",
            mode: "NEFT",
            reference: `UTRTWO${serial}`,
            date: addDays(bad.disbursalDate, 3),
          }),
        ),
      ).toMatch(/recorded/);
      // The same borrower's second loan, current, disbursed a few days before the first turns NPA.
      const otherStart = addDays(npaDay, -5);
      await runDays(addDays(bad.disbursalDate, 4), addDays(otherStart, -1));
      clock.now = indiaTime(otherStart, "05:30");
      await freshSessions();
      const other = await newLoan();
      const [owner] = await app.services.db
        .select({ userId: loanApplications.userId })
        .from(loanApplications)
        .where(eq(loanApplications.id, bad.id));
      await app.services.db
        .update(loanApplications)
        .set({ userId: owner?.userId ?? "" })
        .where(eq(loanApplications.id, other.id));
      await runDays(otherStart, npaDay);
      const npaOf = async (id: string) =>
        (await app.services.db.select({ npa: loanAccounts.npaSince }).from(loanAccounts).where(eq(loanAccounts.applicationId, id)))[0]?.npa;
      expect(await npaOf(bad.id)).toBe(npaDay);
      expect(await npaOf(other.id)).toBe(npaDay);
      // The second loan is paid on time, every instalment.
      let from = addDays(npaDay, 1);
      const schedule = await scheduleOf(other.id);
      for (const i of schedule.filter((x) => x.dueDate <= writeOffDay)) {
        await runDays(from, i.dueDate);
        clock.now = indiaTime(i.dueDate, "11:00");
        await freshSessions();
        expect(
          toastOf(
            await act(other.loanNumber, ops, {
              intent: "record_payment",
              amount: ((i.principalPaise + i.interestPaise) / 100).toFixed(2),
              mode: "NEFT",
              reference: `UTROTHER${serial}S${i.seq}`,
              date: i.dueDate,
            }),
          ),
        ).toMatch(/recorded/);
        from = addDays(i.dueDate, 1);
      }
      await runDays(from, writeOffDay);
      expect(await npaOf(other.id)).toBe(npaDay);
      clock.now = indiaTime(writeOffDay, "11:00");
      await freshSessions();
      expect(toastOf(await act(bad.loanNumber, admin, { intent: "write_off", reason: "No contact for six months" }))).toMatch(
        /Written off/,
      );
      // Reversed after the write-off: the payment's entry undone, and what it had paid off is more loss, not less interest.
      const [p] = await app.services.db.select({ reference: payments.reference }).from(payments).where(eq(payments.applicationId, bad.id));
      await act(bad.loanNumber, ops, { intent: "request_reversal", payment: p?.reference ?? "", reason: "Recalled" });
      expect(toastOf(await act(bad.loanNumber, admin, { intent: "confirm_reversal", payment: p?.reference ?? "" }))).toMatch(/reversed/);
      const [moved] = await entriesOf(bad.id, "reallocation");
      const lines = await entryLines(moved?.id ?? "");
      expect(lines).not.toHaveProperty("interest_income");
      expect((lines.write_off_expense ?? 0) + (lines.loan_loss_provision ?? 0)).toBe(1000_00);
      expect(await positions(bad.id)).not.toHaveProperty("loans_receivable");
      // The written-off loan's arrears are unpaid: the borrower stays NPA.
      await runDays(addDays(writeOffDay, 1), addDays(writeOffDay, 1));
      expect(await npaOf(other.id)).toBe(npaDay);
      await expectBooksMatchLedger(app.services, addDays(writeOffDay, 1), [bad.id, other.id]);
      expect(await unbalancedEntries(app.services)).toEqual([]);
    }, 240_000);
  });

  describe("month-end classification", () => {
    it("is the month end's: a loan classified NPA on the 1st was standard at the end of the month before", async () => {
      clock.now = indiaTime("2027-06-10", "05:30");
      await freshSessions();
      const loan = await newLoan();
      await app.services.db.update(loanAccounts).set({ npaSince: "2027-07-01" }).where(eq(loanAccounts.applicationId, loan.id));
      clock.now = indiaTime("2027-07-01", "00:30");
      await provisionMonth(app.services, "2027-06");
      const [june] = await app.services.db
        .select()
        .from(monthEndClasses)
        .where(and(eq(monthEndClasses.applicationId, loan.id), eq(monthEndClasses.month, "2027-06")));
      expect(june?.assetClass).toBe("standard");
      expect(june?.provisionPaise).toBe(Math.round((Number(june?.bookValuePaise) * 40) / 10_000));
    });
  });

  describe("a closed month", () => {
    it("takes no new entry: an event dated in it is journalled on the first open day, and journals never change", async () => {
      await app.services.db.insert(accountingPeriods).values({ month: "2025-12", closedAt: new Date(), note: "Closed for the test" });
      const posted = await postEntry(app.services, {
        kind: "test",
        businessDate: "2025-12-20",
        narration: "A late event",
        lines: [
          { purpose: "bank", paise: 100, applicationId: null },
          { purpose: "books_suspense", paise: -100, applicationId: null },
        ],
      });
      expect(posted?.entryDate).toBe("2026-01-01");
      await postEntry(app.services, {
        kind: "test",
        businessDate: "2026-01-01",
        narration: "Its correction",
        lines: [
          { purpose: "bank", paise: -100, applicationId: null },
          { purpose: "books_suspense", paise: 100, applicationId: null },
        ],
      });
      await expect(
        app.services.db
          .insert(journalEntries)
          .values({ entryDate: "2025-12-31", businessDate: "2025-12-31", kind: "test", narration: "x", createdAt: new Date() }),
      ).rejects.toThrow();
      await expect(
        app.services.db
          .update(journalLines)
          .set({ debitPaise: 1 })
          .where(eq(journalLines.entryId, posted?.id ?? "")),
      ).rejects.toThrow();
      await expect(app.services.db.delete(journalEntries).where(eq(journalEntries.id, posted?.id ?? ""))).rejects.toThrow();
      // An entry that does not balance is refused.
      await expect(
        postEntry(app.services, {
          kind: "test",
          businessDate: "2026-01-02",
          narration: "Off",
          lines: [{ purpose: "bank", paise: 1, applicationId: null }],
        }),
      ).rejects.toThrow(/unbalanced/);
    });
  });
});
