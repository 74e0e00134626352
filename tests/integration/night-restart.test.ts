import { type SQL, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { indiaTime, todayIST } from "../../app/domain/india-date.ts";
import { addDays, isWorkingDay } from "../../app/domain/loan-math.ts";
import { runDailyJob } from "../../app/server/jobs/daily-run.server.ts";
import { catchUpServicing } from "../../app/server/servicing/daily.server.ts";
import { createLocalMandates, localMandateSecret } from "../../app/server/mandates/local.server.ts";
import type { Db } from "../../app/server/db/client.ts";
import { seedNightBook } from "../../scripts/bench-seed.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The night's run (docs/product.md "Loan servicing": the daily run) stopped part-way, as a process killed or a
// database gone between two of its transactions, then run again: on the same book (300 loans as bench-daily.ts
// seeds them, the first night after the seeding: every loan's figures, the penal charges of the loans in arrears,
// the books' first accrual and provisioning, the autopay notices, the collections' first reminders) it leaves the
// ledger, the journals, the positions, the cached figures, the debits, the notices and the collections exactly as
// a run never stopped leaves them, and a third run adds nothing.
const LOANS = 300;
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

/** The `db` with every call failing once `transactions` transactions have begun (the one that would begin next never does). */
function dyingAfter(db: Db, transactions: number) {
  let begun = 0;
  const state = { dead: false };
  const dead = () => {
    state.dead = true;
    throw new Error("the process stopped here");
  };
  const proxy = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      if (prop === "transaction")
        return (...args: unknown[]) => {
          if (state.dead || ++begun > transactions) dead();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      return (...args: unknown[]) => {
        if (state.dead) dead();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: proxy, begun: () => begun, state };
}

/** A server with the seeded book, its clock the first night's (00:30 on D − 1), and the night run on it. */
async function nightBook() {
  const app = await startTestServer({ APP_ENV: "local", MANDATE_PROVIDER: "local", LOCAL_DEBIT_ANSWER_SECONDS: "3600" });
  servers.push(app);
  const db = app.services.db;
  const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  // The server's own start-up night (the real date, over an empty book) first.
  await waitForJobs(app, "servicing-daily", { timeout: 60_000 });
  let day = addDays(todayIST(new Date()), 7);
  while (!isWorkingDay(day, app.services.config.holidays)) day = addDays(day, 1);
  let clock = indiaTime(addDays(day, -1), "00:30");
  const now = () => clock;
  const mandates = createLocalMandates(app.dataDir, now, {
    secret: localMandateSecret(app.services.config.sessionSecret),
    debitSeconds: app.services.config.mandates.localDebitSeconds,
  });
  const services = { ...app.services, now, mandates };
  await seedNightBook(services, {
    loans: LOANS,
    days: 90,
    day,
    dataDir: app.dataDir,
    url: app.url,
    setClock: (at) => {
      clock = at;
    },
  });
  return { services, rows, day };
}

/** What the night leaves, keyed by what is the same on every seeding of the book (loan numbers, mobiles, dates, amounts). */
async function leftBy(rows: <T>(query: SQL) => Promise<T[]>) {
  return {
    ledger: await rows(sql`
      select a.loan_number, l.kind, l.business_date, l.seq, l.principal_paise, l.amount_paise
      from loan_ledger l join loan_applications a on a.id = l.application_id order by 1, 2, 3, 4, 5, 6`),
    // Per loan, line by line; the lines of no loan (the entries' income and expense) summed by entry kind and date.
    journal: await rows(sql`
      select a.loan_number, e.kind, e.business_date, l.purpose, count(*) filter (where a.id is not null)::int as lines,
        sum(l.debit_paise)::bigint as debit, sum(l.credit_paise)::bigint as credit
      from journal_lines l join journal_entries e on e.id = l.entry_id left join loan_applications a on a.id = l.application_id
      group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
    positions: await rows(sql`
      select a.loan_number, p.purpose, p.balance_paise from book_positions p join loan_applications a on a.id = p.application_id
      order by 1, 2`),
    accounts: await rows(sql`
      select a.loan_number, c.as_of, c.outstanding_principal_paise, c.overdue_paise, c.penal_due_paise, c.dpd, c.next_due_date,
        c.next_due_paise, c.advance_paise, c.accrued_through, c.npa_since, c.booked_through > 0 as booked
      from loan_accounts c join loan_applications a on a.id = c.application_id order by 1`),
    classes: await rows(sql`
      select m.month, a.loan_number, m.asset_class, m.provision_paise from month_end_classes m
      join loan_applications a on a.id = m.application_id order by 1, 2`),
    debits: await rows(sql`
      select a.loan_number, d.seq, d.attempt, d.due_date, d.present_on, d.status, d.notice_paise
      from mandate_debits d join loan_applications a on a.id = d.application_id order by 1, 2, 3`),
    notices: await rows(sql`
      select u.mobile, n.event, count(*)::int as n from notifications n join users u on u.id = n.user_id group by 1, 2 order by 1, 2`),
    cases: await rows(sql`
      select a.loan_number, k.opened_on, k.closed_on,
        (select count(*) from collection_tasks t where t.case_id = k.id)::int as tasks,
        (select array_agg(s.step_dpd order by s.step_dpd) from dunning_sends s where s.case_id = k.id) as steps
      from collection_cases k join loan_applications a on a.id = k.application_id order by 1, 2`),
  };
}

describe("the night's run stopped part-way and run again", { shuffle: false }, () => {
  it("leaves what a run never stopped leaves, wherever it stopped; a third run adds nothing", { timeout: 600_000 }, async () => {
    // The run never stopped, counting the transactions each stage begins.
    const whole = await nightBook();
    const counted = dyingAfter(whole.services.db, Number.POSITIVE_INFINITY);
    const stages: { stage: string; from: number; to: number }[] = [];
    await runDailyJob(
      { ...whole.services, db: counted.db },
      {
        skip: ["bureau"],
        around: async (stage, run) => {
          const from = counted.begun();
          await run();
          stages.push({ stage, from, to: counted.begun() });
        },
      },
    );
    const expected = await leftBy(whole.rows);
    expect(expected.ledger.length).toBeGreaterThan(LOANS);
    expect(expected.journal.length).toBeGreaterThan(LOANS);
    // Stopped half-way through each stage that writes (at its only transaction, where it has one): servicing, the books,
    // autopay and collections at least.
    const stops = stages.filter((s) => s.to > s.from);
    expect(stops.map((s) => s.stage)).toEqual(expect.arrayContaining(["servicing", "books", "autopay", "dunning"]));
    for (const { stage, from, to } of stops) {
      const stopped = await nightBook();
      const dying = dyingAfter(stopped.services.db, from + Math.floor((to - from) / 2));
      await expect(runDailyJob({ ...stopped.services, db: dying.db }, { skip: ["bureau"] })).rejects.toThrow("the process stopped here");
      expect(await leftBy(stopped.rows), `stopped in ${stage} after ${dying.begun() - 1} transactions`).not.toEqual(expected);
      await runDailyJob(stopped.services, { skip: ["bureau"] });
      expect(await leftBy(stopped.rows), `run again after stopping in ${stage}`).toEqual(expected);
      await runDailyJob(stopped.services, { skip: ["bureau"] });
      expect(await leftBy(stopped.rows), `a third run after stopping in ${stage}`).toEqual(expected);
      for (const s of servers.splice(1)) await s.stop();
    }
  });

  it(
    "serves a page of loans together to what serving each loan alone leaves, notices and books included",
    { timeout: 600_000 },
    async () => {
      // Each server has its own address, in the SMS's link.
      const notices = (rows: <T>(query: SQL) => Promise<T[]>) =>
        rows(sql`
        select u.mobile, n.event, n.title, regexp_replace(n.body, '//[^/]+/', '//site/', 'g') as body,
          regexp_replace(n.sms, '//[^/]+/', '//site/', 'g') as sms, n.language, n.available_at
        from notifications n join users u on u.id = n.user_id order by 1, 2, 3, 4, 5`);
      const paged = await nightBook();
      await runDailyJob(paged.services, { skip: ["bureau"] });
      const alone = await nightBook();
      await runDailyJob(alone.services, {
        skip: ["bureau"],
        around: (stage, run) => (stage === "servicing" ? catchUpServicing(alone.services, { oneByOne: true }) : run()),
      });
      const expected = await leftBy(alone.rows);
      // The night levied charges (the book's loans in arrears), booked each with its own entry.
      const charged = expected.ledger.filter((r) => (r as { kind: string }).kind === "penal");
      expect(charged.length).toBeGreaterThan(LOANS / 20);
      expect(expected.journal.filter((r) => (r as { kind: string }).kind === "penal").length).toBeGreaterThan(0);
      expect(await leftBy(paged.rows)).toEqual(expected);
      expect(await notices(paged.rows)).toEqual(await notices(alone.rows));
    },
  );
});
