import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { istHour, indiaTime } from "../../app/domain/india-date.ts";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { promiseOutcome } from "../../app/domain/collections.ts";
import {
  collectionCases,
  dunningSends,
  loanAccounts,
  loanApplications,
  loanLedger,
  notifications,
  promisesToPay,
} from "../../app/server/db/schema.ts";
import { runDunning } from "../../app/server/collections/dunning.server.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, instalmentOf, signedInStaff } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { waitForJobs } from "../helpers/jobs.ts";

// Random payment histories through the running application (docs/product.md "Collections"): partial
// and full payments, promises kept and broken, reminders paused and resumed, over 40 days of daily
// runs. Whatever happens: a case is open exactly while the loan is past due; a promise is kept
// exactly when the ledger shows its amount by its date; dunning sends at most one reminder a day to
// a borrower, only between 08:00 and 19:00, never while paused or while a promise is open.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
});

type Action =
  { kind: "pay"; fraction: number } | { kind: "promise"; fraction: number; inDays: number } | { kind: "pause" } | { kind: "resume" };
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("pay" as const), fraction: fc.double({ min: 0.2, max: 1.3, noNaN: true }) }),
  fc.record({
    kind: fc.constant("promise" as const),
    fraction: fc.double({ min: 0.1, max: 1, noNaN: true }),
    inDays: fc.integer({ min: 0, max: 7 }),
  }),
  fc.constant({ kind: "pause" as const }),
  fc.constant({ kind: "resume" as const }),
);
/** What happens on each of the 40 days after the first due date (most days nothing). */
const history = fc.array(fc.option(action, { freq: 3 }), { minLength: 40, maxLength: 40 });

let serial = 0;
const rupees = (paise: number) => (paise / 100).toFixed(2);

describe("collections over random histories", () => {
  it("keeps a case open exactly while past due, judges promises by the ledger, and reminds within the rules", async () => {
    await fc.assert(
      fc.asyncProperty(history, async (days) => {
        clock.now = new Date("2026-03-02T05:30:00Z");
        const loan = await activeLoan(app, `97700${String(++serial).padStart(5, "0")}`, credit, ops);
        const first = await instalmentOf(app, loan.id, 1);
        const act = (fields: Record<string, string>) => postForm(app, `/admin/loans/${loan.loanNumber}`, fields, { cookie: ops.cookie });
        const pauses: { from: IsoDate; to: IsoDate | null }[] = [];
        const checkCase = async (when: string) => {
          const [acct] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, loan.id));
          const [a] = await app.services.db
            .select({ status: loanApplications.status })
            .from(loanApplications)
            .where(eq(loanApplications.id, loan.id));
          const openCases = (await app.services.db.select().from(collectionCases).where(eq(collectionCases.applicationId, loan.id))).filter(
            (c) => c.closedOn === null,
          );
          expect(openCases.length, `${when}: open cases`).toBeLessThanOrEqual(1);
          expect(openCases.length === 1, `${when}: dpd ${acct?.dpd}, ${a?.status}`).toBe((acct?.dpd ?? 0) > 0 && a?.status === "active");
          // A pause ends with its case (a later case starts unpaused).
          const last = pauses.at(-1);
          if (openCases.length === 0 && last && last.to === null) last.to = when.slice(0, 10) as IsoDate;
          return {
            owed: (acct?.overduePaise ?? 0) + (acct?.penalDuePaise ?? 0),
            open: openCases.length === 1,
            paused: openCases[0]?.pausedAt != null,
          };
        };
        for (let k = 0; k < days.length; k++) {
          const day = addDays(first.dueDate, k);
          clock.now = indiaTime(day, "00:30");
          await runServicingDay(app.services, day);
          await runDunning(app.services, { day });
          // The reminders go out (at 08:00) before anyone acts on the case that day.
          await waitForJobs(app, ["notify"]);
          const now = await checkCase(`${day} 00:30`);
          const a = days[k];
          if (!a) continue;
          clock.now = indiaTime(day, "10:00");
          if (a.kind === "pay" && now.owed > 0) {
            const paid = await act({
              intent: "record_payment",
              amount: rupees(Math.max(100, Math.round(now.owed * a.fraction))),
              mode: "NEFT",
              reference: `UTRPP${serial}X${k}`,
              date: day,
            });
            expect(paid.status).toBe(302);
          } else if (a.kind === "promise" && now.open && now.owed >= 100)
            await act({
              intent: "promise",
              amount: rupees(Math.max(100, Math.floor(now.owed * a.fraction))),
              dueOn: addDays(day, a.inDays),
            });
          else if (a.kind === "pause" && now.open && !now.paused) {
            await act({ intent: "pause_dunning", kind: "dispute", reason: "Says the amount is wrong" });
            pauses.push({ from: day, to: null });
          } else if (a.kind === "resume" && now.open && now.paused) {
            await act({ intent: "resume_dunning" });
            const last = pauses.at(-1);
            if (last) last.to = day;
          }
          await checkCase(`${day} 10:00`);
        }
        const lastDay = addDays(first.dueDate, days.length - 1);
        // Promises: each as the ledger judges it on the last day.
        const cases = await app.services.db.select().from(collectionCases).where(eq(collectionCases.applicationId, loan.id));
        const promises = cases.length
          ? await app.services.db
              .select()
              .from(promisesToPay)
              .where(
                inArray(
                  promisesToPay.caseId,
                  cases.map((c) => c.id),
                ),
              )
          : [];
        const ledger = await app.services.db.select().from(loanLedger).where(eq(loanLedger.applicationId, loan.id));
        const reversed = new Set(ledger.filter((r) => r.kind === "payment_reversal").map((r) => r.refId));
        const paid = ledger
          .filter((r) => r.kind === "payment" && !reversed.has(r.id))
          .map((r) => ({ amountPaise: r.amountPaise, businessDate: r.businessDate as IsoDate }));
        for (const p of promises) {
          if (p.status === "cancelled") continue;
          const caseClosedOn = cases.find((c) => c.id === p.caseId)?.closedOn ?? null;
          const judgedOn = (caseClosedOn ?? lastDay) as IsoDate;
          expect(p.status).toBe(
            promiseOutcome({ ...p, madeOn: p.madeOn as IsoDate, dueOn: p.dueOn as IsoDate, status: "open" }, paid, judgedOn),
          );
        }
        // Reminders: at most one a day to the borrower, in the daytime, never while paused or a promise was open.
        const sends = cases.length
          ? await app.services.db
              .select()
              .from(dunningSends)
              .where(
                inArray(
                  dunningSends.caseId,
                  cases.map((c) => c.id),
                ),
              )
          : [];
        const messages = sends.filter((s) => s.channels.length > 0);
        expect(new Set(messages.map((s) => s.sentOn)).size).toBe(messages.length);
        for (const s of messages) {
          for (const pause of pauses)
            expect(s.sentOn > pause.from && (pause.to === null || s.sentOn <= pause.to), `sent ${s.sentOn} while paused`).toBe(false);
          for (const p of promises) {
            const until = p.resolvedOn && p.resolvedOn < p.dueOn ? p.resolvedOn : p.dueOn;
            expect(
              s.sentOn > p.madeOn && s.sentOn <= until,
              `sent ${s.sentOn} while the promise of ${p.madeOn} to ${p.dueOn} was open`,
            ).toBe(false);
          }
        }
        const ids = messages.map((s) => s.notificationId).filter((x): x is string => x !== null);
        expect(ids).toHaveLength(messages.length);
        if (ids.length) {
          const told = await app.services.db.select().from(notifications).where(inArray(notifications.id, ids));
          for (const n of told) expect(istHour(n.availableAt) >= 8 && istHour(n.availableAt) < 19).toBe(true);
        }
      }),
      {
        endOnFailure: true,
        numRuns: Number(process.env.COLLECTIONS_PROPERTY_RUNS ?? 8),
        seed: Number(process.env.COLLECTIONS_PROPERTY_SEED ?? 38),
      },
    );
  }, 600_000);
});
