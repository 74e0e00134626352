// Dunning for `npm run bench` (BENCH_ONLY=dunning for this part alone), on PostgreSQL in a schema of its own:
// the daily dunning pass over BENCH_DUNNING_LOANS (100,000; 2,000 with BENCH_PROFILE=ci) active EMI loans, 15 in
// 100 in arrears. The book is seeded as bench-servicing.ts seeds its loans (seedLoanBook, as of a day D a week
// ahead: 85 in 100 paid every instalment due before D, 15 in 100 missed their latest one or two), with three
// operations staff members to take the call tasks. Its figures (days past due) are written by the daily servicing
// run itself (runServicingDay for D at D 00:30), which opens the cases of the loans it finds past due; those cases
// are then removed, so the book is as it stood the day collections came to it: every loan in arrears, no case.
// Then, each timed on its own (wall seconds, rows, rate):
//  - syncCases (D) over the whole book: every case opened;
//  - runDunning (D 00:30): each open case sent the step its days past due have reached (the rules of migration
//    0027: day 1 SMS and push, day 3 SMS, day 7 e-mail and a call task, day 15 a call task, day 30 a letter);
//  - runDunning (D) again: nothing sent;
//  - the next day as the 00:30 job does it: runServicingDay (D+1) (not the pass: its figures, and the cases of the
//    loans due on D and unpaid), then runDunning (D+1), a steady-state day, and it again.
// The collections tables' statistics are an empty table's as the measured runs start (analyzed before any case was
// opened; nothing analyzes them after where autovacuum is off, as on the test PostgreSQL): stale statistics, as a
// book has them the day collections comes to it. The statements must not depend on them (syncCases' priority update
// did: a join of the cases to themselves, planned as a nested loop on 1 estimated row, was quadratic in the cases).
// Checked in SQL (the part throws if one fails): open cases = active loans past due (after D and after D+1); every
// open case sent its step on D, each reminder with its notice; no borrower sent two reminders on one day; every
// call task in an operations staff member's name, one per call step sent; the second run of a day inserted nothing;
// nothing dated but D and D+1 (the server's own jobs kept out).
// The measured calls run with a clock of their own (D 00:30, then D+1 00:30), as bench-autopay.ts does: the
// reminders (and the servicing run's penal and due notices) go out from 08:00 on their day, days ahead of the real
// clock, so the server's own workers, on the real clock, send none of them while the part runs.
import { type SQL, sql } from "drizzle-orm";
import { addDays, type IsoDate } from "../app/domain/loan-math.ts";
import { indiaTime, todayIST } from "../app/domain/india-date.ts";
import type { DunningStep } from "../app/domain/collections.ts";
import { checkSeededSchedules, seedLoanBook, seedOperationsStaff } from "./bench-seed.ts";

const CI_PROFILE = process.env.BENCH_PROFILE === "ci";
const LOANS = Number(process.env.BENCH_DUNNING_LOANS ?? (CI_PROFILE ? 2_000 : 100_000));
/** Operations staff members: the call tasks go to the one with the fewest open cases. */
const OPERATIONS_STAFF = 3;
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { runServicingDay } = await import("../app/server/servicing/daily.server.ts");
const { syncCases } = await import("../app/server/collections/cases.server.ts");
const { runDunning } = await import("../app/server/collections/dunning.server.ts");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Row counts read before and after each run. */
interface Counts {
  cases: number;
  open: number;
  sends: number;
  /** Sends with a message (a step with channels; the others are a call task only). */
  messages: number;
  notifications: number;
  notifyJobs: number;
  tasks: number;
  assigned: number;
}

export interface DunningRun {
  label: string;
  /** The bench clock's India time. */
  at: string;
  seconds: number;
  /** Open cases after the run (the cases the pass walks). */
  open: number;
  /** Rows the run added (after − before). */
  added: Counts;
  /** What runDunning returned. */
  returned?: { sent: number; tasks: number; held: number };
  /** Whether it is the dunning pass (or syncCases) rather than the servicing run beside it. */
  measured: boolean;
}

export interface DunningFigures {
  loans: number;
  day: IsoDate;
  seedSeconds: number;
  seedSteps: Record<string, number>;
  /** Cases the servicing run of D opened while writing the figures, removed before the measured runs. */
  casesRemoved: number;
  operationsStaff: number;
  /** Active loans past due on D, by days past due. */
  arrearsOnD: Record<string, number>;
  runs: DunningRun[];
  checks: [string, boolean][];
}

export async function dunningBench(): Promise<DunningFigures> {
  const app = await startTestServer({ APP_ENV: "local", LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent" });
  try {
    const db = app.services.db;
    const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const one = async (query: SQL) => Number((await rows<{ n: number | string }>(query))[0]?.n ?? 0);
    const [{ schema = "" } = {}] = await rows<{ schema: string }>(sql`select current_schema() as schema`);
    const jobs = sql.raw(`"${schema}_jobs".job`);
    const realToday = todayIST(new Date());

    // The server's start-up daily job (servicing, autopay, then dunning, on the real date) runs over an empty
    // schema: let it finish first (its servicing run, then the job itself).
    for (let waited = 0; ; waited += 200) {
      const done = await one(
        sql`select count(*)::int as n from servicing_runs where business_date = ${realToday} and finished_at is not null`,
      );
      const running = await one(
        sql`select count(*)::int as n from ${jobs} where name = 'servicing-daily' and state in ('created', 'retry', 'active')`,
      );
      if (done && !running) break;
      if (waited > 60_000) throw new Error("the start-up daily job did not finish in 60 s");
      await sleep(200);
    }
    // D: a week ahead, so the reminders (due at 08:00 on D and D+1) wait beyond the part's end.
    const day = addDays(realToday, 7);
    const nextDay = addDays(day, 1);
    let clock = indiaTime(day, "00:30");
    const services = { ...app.services, now: () => clock };

    const seeded = performance.now();
    const seedSteps = await seedLoanBook(db, { loans: LOANS, today: day });
    await checkSeededSchedules(db);
    let t = performance.now();
    await seedOperationsStaff(db, OPERATIONS_STAFF);
    seedSteps["operations staff"] = (performance.now() - t) / 1000;
    // The figures as the 00:30 job writes them (the penal charges levied on the loans in arrears, with their notices).
    t = performance.now();
    await runServicingDay(services, day);
    seedSteps["runServicingDay (D)"] = (performance.now() - t) / 1000;
    t = performance.now();
    const casesRemoved = await one(sql`with gone as (delete from collection_cases returning 1) select count(*)::int as n from gone`);
    await db.execute(sql`analyze`);
    seedSteps["cases removed, analyze"] = (performance.now() - t) / 1000;
    const seedSeconds = (performance.now() - seeded) / 1000;
    const arrearsOnD = Object.fromEntries(
      (
        await rows<{ bucket: string; n: number }>(sql`
          select case when c.dpd < 3 then '1–2' when c.dpd < 7 then '3–6' when c.dpd < 15 then '7–14' when c.dpd < 30 then '15–29'
            else '30+' end as bucket, count(*)::int as n
          from loan_accounts c join loan_applications a on a.id = c.application_id and a.status = 'active'
          where c.dpd > 0 group by 1 order by min(c.dpd)`)
      ).map((r) => [r.bucket, r.n]),
    );

    const counts = async (): Promise<Counts> => {
      const [c] = await rows<Record<string, number>>(sql`
        select (select count(*) from collection_cases)::int as cases,
          (select count(*) from collection_cases where closed_on is null)::int as open,
          (select count(*) from dunning_sends)::int as sends,
          (select count(*) from dunning_sends where jsonb_array_length(channels) > 0)::int as messages,
          (select count(*) from notifications where event in ('dunning_gentle', 'dunning_firm', 'dunning_letter'))::int as notifications,
          (select count(*) from ${jobs} where name = 'notify')::int as "notifyJobs",
          (select count(*) from collection_tasks)::int as tasks,
          (select count(*) from audit_log where action = 'collections.assigned')::int as assigned`);
      return c as unknown as Counts;
    };
    const runs: DunningRun[] = [];
    const timed = async (label: string, measured: boolean, run: () => Promise<{ sent: number; tasks: number; held: number } | unknown>) => {
      const before = await counts();
      const started = performance.now();
      const done = await run();
      const seconds = (performance.now() - started) / 1000;
      const after = await counts();
      const added = Object.fromEntries(Object.keys(after).map((k) => [k, after[k as keyof Counts] - before[k as keyof Counts]]));
      runs.push({
        label,
        at: `${todayIST(clock)} 00:30`,
        seconds,
        open: after.open,
        added: added as unknown as Counts,
        returned: done && typeof done === "object" && "held" in done ? (done as DunningRun["returned"]) : undefined,
        measured,
      });
    };
    // Active loans past due against open cases (the cases as the figures say they should be).
    const pastDueLoans = () =>
      one(sql`select count(*)::int as n from loan_accounts c join loan_applications a on a.id = c.application_id and a.status = 'active'
              where c.dpd > 0`);

    await timed("syncCases (D), the whole book", true, () => syncCases(services, { today: day }));
    const pastDueD = await pastDueLoans();
    const openD = runs[0]?.open ?? -1;
    await timed("runDunning (D 00:30)", true, () => runDunning(services, { day }));
    // Every open case sent the step its days past due reached on D (nothing held: no pause, debit or promise in the book).
    const casesSentOnD = await one(sql`
      select count(*)::int as n from collection_cases k where k.closed_on is null
        and exists (select 1 from dunning_sends s where s.case_id = k.id and s.sent_on = ${day})`);
    await timed("runDunning (D) again", true, () => runDunning(services, { day }));
    clock = indiaTime(nextDay, "00:30");
    await timed("runServicingDay (D+1 00:30), before the pass", false, () => runServicingDay(services, nextDay));
    await timed("runDunning (D+1 00:30)", true, () => runDunning(services, { day: nextDay }));
    await timed("runDunning (D+1) again", true, () => runDunning(services, { day: nextDay }));
    const pastDueD1 = await pastDueLoans();
    const openD1 = runs.at(-1)?.open ?? -1;

    const [rules] = await rows<{ steps: DunningStep[] }>(sql`select steps from dunning_rules order by version desc limit 1`);
    const callSteps = (rules?.steps ?? []).filter((s) => s.callTask).map((s) => s.dpd);
    const twoOnADay = await one(sql`
      select count(*)::int as n from (select user_id, sent_on from dunning_sends where jsonb_array_length(channels) > 0
        group by user_id, sent_on having count(*) > 1) d`);
    const messagesWithoutNotice = await one(
      sql`select count(*)::int as n from dunning_sends where jsonb_array_length(channels) > 0 and notification_id is null`,
    );
    const totals = await counts();
    const tasksNotOperations = await one(sql`
      select count(*)::int as n from collection_tasks t left join users u on u.id = t.assignee_user_id
      where u.id is null or u.role <> 'operations' or u.disabled_at is not null`);
    const callSendsWithoutTask = await one(sql`
      select count(*)::int as n from dunning_sends s
      where s.step_dpd = any(${sql`array[${sql.join(
        callSteps.map((d) => sql`${d}::int`),
        sql`, `,
      )}]::int[]`})
        and not exists (select 1 from collection_tasks t where t.case_id = s.case_id and t.step_dpd = s.step_dpd)`);
    const callSends = await one(sql`
      select count(*)::int as n from dunning_sends s where s.step_dpd = any(${sql`array[${sql.join(
        callSteps.map((d) => sql`${d}::int`),
        sql`, `,
      )}]::int[]`})`);
    const otherDays = await one(sql`select count(*)::int as n from dunning_sends where sent_on not in (${day}, ${nextDay})`);
    const otherRuns = await one(
      sql`select count(*)::int as n from servicing_runs where business_date not in (${realToday}, ${day}, ${nextDay})`,
    );
    const [, firstD, againD, , firstD1, againD1] = runs;
    const nothing = (r: DunningRun | undefined) =>
      r !== undefined &&
      r.added.cases === 0 &&
      r.added.sends === 0 &&
      r.added.notifications === 0 &&
      r.added.notifyJobs === 0 &&
      r.added.tasks === 0 &&
      r.added.assigned === 0;
    const checks: [string, boolean][] = [
      [`open cases after syncCases (D) = active loans past due (${openD} = ${pastDueD})`, openD === pastDueD && pastDueD > 0],
      [`open cases after D+1 = active loans past due (${openD1} = ${pastDueD1})`, openD1 === pastDueD1],
      [
        `every open case sent its step on D, none held (${casesSentOnD} of ${openD}, held ${firstD?.returned?.held})`,
        casesSentOnD === openD && firstD?.added.sends === openD && firstD?.returned?.held === 0,
      ],
      [
        `each reminder with its notice (${totals.messages} reminders, ${totals.notifications} notices, ${messagesWithoutNotice} without)`,
        messagesWithoutNotice === 0 && totals.messages === totals.notifications && totals.messages > 0,
      ],
      [`no borrower sent two reminders on one day (${twoOnADay})`, twoOnADay === 0],
      [
        `every call task in an operations member's name, one per call step sent (${totals.tasks} tasks, ${callSends} call steps)`,
        tasksNotOperations === 0 && callSendsWithoutTask === 0 && totals.tasks === callSends && callSends > 0,
      ],
      ["runDunning (D) again inserted nothing", nothing(againD)],
      ["runDunning (D+1) again inserted nothing", nothing(againD1)],
      [
        `D+1 sent something, each new step once (${firstD1?.added.sends ?? 0} sends)`,
        (firstD1?.added.sends ?? 0) > 0 && firstD1?.returned?.sent === firstD1?.added.messages,
      ],
      [`nothing dated but D and D+1 (other sends ${otherDays}, other servicing runs ${otherRuns})`, otherDays === 0 && otherRuns === 0],
    ];
    return {
      loans: LOANS,
      day,
      seedSeconds,
      seedSteps,
      casesRemoved,
      operationsStaff: OPERATIONS_STAFF,
      arrearsOnD,
      runs,
      checks,
    };
  } finally {
    await app.stop();
  }
}

export function reportDunning(f: DunningFigures) {
  const n = (x: number) => x.toLocaleString("en-IN");
  console.log(
    `\nDunning: the daily pass over ${n(f.loans)} active EMI loans on PostgreSQL, D = ${f.day}; seeded in ${f.seedSeconds.toFixed(1)} s ` +
      `(${Object.entries(f.seedSteps)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(
          ", ",
        )}); ${f.operationsStaff} operations staff; the servicing run's ${n(f.casesRemoved)} cases removed before the measured runs`,
  );
  console.log(
    `past due on D, by days past due: ${Object.entries(f.arrearsOnD)
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(", ")} (total ${n(Object.values(f.arrearsOnD).reduce((s, v) => s + v, 0))})`,
  );
  console.table(
    Object.fromEntries(
      f.runs.map((r) => [
        r.label,
        {
          "India day, clock": r.at,
          "wall s": r.seconds.toFixed(2),
          "cases opened": r.added.cases,
          "open cases": r.open,
          sends: r.added.sends,
          "of them messages": r.added.messages,
          notifications: r.added.notifications,
          "notify jobs": r.added.notifyJobs,
          "call tasks": r.added.tasks,
          assigned: r.added.assigned,
          held: r.returned?.held ?? "",
          "open cases/s": r.measured && r.seconds > 0 ? (r.open / r.seconds).toFixed(0) : "",
          "rows/s":
            r.measured && r.seconds > 0 && r.added.cases + r.added.sends + r.added.tasks > 0
              ? ((r.added.cases + r.added.sends + r.added.tasks) / r.seconds).toFixed(0)
              : "",
        },
      ]),
    ),
  );
  console.log("rows/s: cases opened, sends and call tasks written per second; open cases/s: the cases the run walked per second.");
  const failed = f.checks.filter(([, ok]) => !ok);
  console.log(
    failed.length
      ? `DUNNING CHECK FAILED: ${failed.map(([c]) => c).join("; ")}`
      : `dunning checks passed: ${f.checks.map(([c]) => c).join("; ")}`,
  );
  if (failed.length) throw new Error(`dunning bench: ${failed.length} check(s) failed: ${failed.map(([c]) => c).join("; ")}`);
}

if (import.meta.url === `file://${process.argv[1]}`) reportDunning(await dunningBench());
