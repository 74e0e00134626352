import { and, asc, count, desc, eq, gte, inArray, like } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime } from "../../app/domain/india-date.ts";
import { addDays } from "../../app/domain/loan-math.ts";
import { accrueThrough, runBooksDay } from "../../app/server/books/daily.server.ts";
import { journalEntries, journalLines, loanAccounts, loanApplications, loanLedger, payments } from "../../app/server/db/schema.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, instalmentOf, signedInStaff, staffSessionAgain } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { expectBooksMatchLedger, reversalsNotNetting, trialTotals, unbalancedEntries } from "../helpers/books.ts";
import { postForm } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Random loan histories through the running application (docs/product.md "The lender's books"):
// payments of any size (some dated a day or two back), reversals, waivers, refunds and payoffs,
// with the daily run (servicing, then the books) every day for 130 days, long enough for a loan
// left unpaid to become NPA. Whatever happens, after every day: every entry balances to the paisa
// and the trial balance's debits equal its credits; each loan's accounts in the books equal its
// ledger's replay (principal outstanding; interest billed and unpaid plus accrued and not billed;
// penal charges; the advance; interest in suspense while NPA); the accrual run again posts
// nothing; every reversing entry and its original net to zero.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let admin: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  admin = await signedInStaff(app, "admin", "Anil Kumar");
});
afterAll(async () => {
  await app?.stop();
});

type Action =
  | { kind: "pay"; fraction: number; back: number }
  | { kind: "reverse"; pick: number }
  | { kind: "waive"; pick: number }
  | { kind: "refund" }
  | { kind: "payoff" };
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("pay" as const),
      fraction: fc.double({ min: 0.1, max: 2.5, noNaN: true }),
      back: fc.integer({ min: 0, max: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reverse" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("waive" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "refund" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "payoff" as const }) },
);
const DAYS = 130;
/** What happens on each day from the disbursal (most days nothing); a history may stop paying for good. */
const history = fc.record({
  days: fc.array(fc.option(action, { freq: 6 }), { minLength: DAYS, maxLength: DAYS }),
  stopPayingAfter: fc.integer({ min: 10, max: DAYS }),
});

/** A history that does each thing at least once: an advance, a reversal, a partial payment, a waiver, a payoff and its refund. */
const scripted = {
  days: Array.from({ length: DAYS }, (_, i): Action | null => {
    const on: Record<number, Action> = {
      5: { kind: "pay", fraction: 2.5, back: 0 },
      20: { kind: "reverse", pick: 0 },
      40: { kind: "pay", fraction: 0.5, back: 1 },
      45: { kind: "waive", pick: 0 },
      50: { kind: "pay", fraction: 1.3, back: 2 },
      75: { kind: "payoff" },
      76: { kind: "refund" },
    };
    return on[i + 1] ?? null;
  }),
  stopPayingAfter: DAYS,
};

let serial = 0;
const rupees = (paise: number) => (paise / 100).toFixed(2);

describe("the books over random loan histories", () => {
  it("balance every entry and every day, and agree with each loan's ledger", async () => {
    let npaSeen = 0;
    const happened = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(history, async ({ days, stopPayingAfter }) => {
        // Each history after the one before (time never runs back): the earlier loans go on being serviced and booked.
        clock.now = new Date(`${addDays("2026-03-02", (serial % 1000) * (DAYS + 5))}T05:30:00Z`);
        await Promise.all([credit, ops, admin].map((staff) => staffSessionAgain(app, staff)));
        const loan = await activeLoan(app, `97800${String(++serial).padStart(5, "0")}`, credit, ops);
        const first = await instalmentOf(app, loan.id, 1);
        const act = (who: { cookie: string }, fields: Record<string, string>) =>
          postForm(app, `/admin/loans/${loan.loanNumber}`, fields, { cookie: who.cookie });
        for (let k = 1; k <= DAYS; k++) {
          const day = addDays(loan.disbursalDate, k);
          clock.now = indiaTime(day, "00:30");
          await runServicingDay(app.services, day);
          await runBooksDay(app.services, day);
          const a = k < stopPayingAfter ? days[k - 1] : null;
          // Checked on days something happens, weekly and on the last day (the checks read every journal line).
          const check = a !== null || k % 7 === 0 || k === DAYS;
          if (check) {
            // The accrual run again for the same day posts nothing.
            const [before] = await app.services.db.select({ n: count() }).from(journalLines);
            await accrueThrough(app.services, day);
            const [after] = await app.services.db.select({ n: count() }).from(journalLines);
            expect(after?.n, `${day}: accrual again`).toBe(before?.n);
          }
          clock.now = indiaTime(day, "11:00");
          const [acct] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, loan.id));
          const [status] = await app.services.db
            .select({ s: loanApplications.status })
            .from(loanApplications)
            .where(eq(loanApplications.id, loan.id));
          if (acct?.npaSince) npaSeen++;
          if (a?.kind === "pay" && (status?.s === "active" || status?.s === "closed")) {
            const owed = (acct?.overduePaise ?? 0) + (acct?.penalDuePaise ?? 0);
            const base = owed > 0 ? owed : (acct?.nextDuePaise ?? first.principalPaise + first.interestPaise);
            const date = addDays(day, -Math.min(a.back, k));
            await act(ops, {
              intent: "record_payment",
              amount: rupees(Math.max(100, Math.round(base * a.fraction))),
              mode: "NEFT",
              reference: `UTRBK${serial}X${k}`,
              date,
            });
          } else if (a?.kind === "payoff" && status?.s === "active") {
            await act(ops, {
              intent: "record_payment",
              amount: rupees((acct?.outstandingPrincipalPaise ?? 0) + (acct?.overduePaise ?? 0) + (acct?.penalDuePaise ?? 0) + 50_000),
              mode: "NEFT",
              reference: `UTRPO${serial}X${k}`,
              date: day,
            });
          } else if (a?.kind === "reverse") {
            const paid = await app.services.db
              .select({ reference: payments.reference })
              .from(payments)
              .where(and(eq(payments.applicationId, loan.id), eq(payments.status, "captured")))
              .orderBy(asc(payments.createdAt));
            const p = paid[a.pick % Math.max(1, paid.length)];
            if (p) {
              await act(ops, { intent: "request_reversal", payment: p.reference, reason: "The transfer was recalled" });
              await act(admin, { intent: "confirm_reversal", payment: p.reference });
            }
          } else if (a?.kind === "waive") {
            const penals = await app.services.db
              .select({ id: loanLedger.id })
              .from(loanLedger)
              .where(and(eq(loanLedger.applicationId, loan.id), eq(loanLedger.kind, "penal")))
              .orderBy(desc(loanLedger.entryNo));
            const p = penals[a.pick % Math.max(1, penals.length)];
            if (p) await act(ops, { intent: "waive", penal: p.id, reason: "Goodwill after a call" });
          } else if (a?.kind === "refund" && (acct?.refundDuePaise ?? 0) > 0) await act(admin, { intent: "refund" });
          if (!check) continue;
          await waitForJobs(app, ["payout-check", "notify"]);
          expect(await unbalancedEntries(app.services), `${day}: unbalanced entries`).toEqual([]);
          const tb = await trialTotals(app.services, day);
          expect(tb.debits, `${day}: trial balance`).toBe(tb.credits);
          expect(tb.balances.books_suspense ?? 0, `${day}: suspense`).toBe(0);
          await expectBooksMatchLedger(app.services, day, [loan.id]);
          expect(await reversalsNotNetting(app.services), `${day}: reversals`).toEqual([]);
        }
        const kinds = await app.services.db.select({ kind: loanLedger.kind }).from(loanLedger).where(eq(loanLedger.applicationId, loan.id));
        for (const { kind } of kinds) happened.set(kind, (happened.get(kind) ?? 0) + 1);
        // The trial balance of every day of the history balances.
        const dates = await app.services.db
          .selectDistinct({ d: journalLines.entryDate })
          .from(journalLines)
          .where(and(inArray(journalLines.applicationId, [loan.id]), gte(journalLines.entryDate, loan.disbursalDate)));
        for (const { d } of dates) {
          const tb = await trialTotals(app.services, d);
          expect(tb.debits, `trial balance on ${d}`).toBe(tb.credits);
        }
      }),
      // One history never pays: its borrower is classified NPA before the 130 days are over.
      {
        numRuns: 3,
        endOnFailure: true,
        examples: [
          [{ days: Array<null>(DAYS).fill(null), stopPayingAfter: 10 }],
          [scripted],
          // NPA from about day 122, then every arrear paid on day 126: upgraded the next day.
          [
            {
              days: Array.from({ length: DAYS }, (_, i): Action | null => (i === 125 ? { kind: "pay", fraction: 1.5, back: 0 } : null)),
              stopPayingAfter: DAYS,
            },
          ],
        ],
      },
    );
    expect(npaSeen).toBeGreaterThan(0);
    const [upgraded] = await app.services.db
      .select({ n: count() })
      .from(journalEntries)
      .where(and(eq(journalEntries.kind, "npa"), like(journalEntries.narration, "%upgraded%")));
    expect(upgraded?.n, "borrowers upgraded").toBeGreaterThan(0);
    // What the histories did, so that a history that did nothing cannot pass for one that did.
    for (const kind of ["payment", "payment_reversal", "penal", "penal_waiver", "closure", "refund"])
      expect(happened.get(kind) ?? 0, kind).toBeGreaterThan(0);
  }, 900_000);
});
