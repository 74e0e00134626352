// `npm run bench:daily`, run by hand (not in CI): the night's whole run (the `servicing-daily` job: runDailyJob, its
// stages in order: provisioning of months ended, servicing, books, autopay, dunning, erasure; the bureau's files left
// out, made on reporting dates only) over BENCH_DAILY_LOANS (1,000,000) active EMI loans on one PostgreSQL, in a
// database of its own (bench_daily, dropped and made again each run, on BENCH_DAILY_ADMIN_URL's server).
// The book (scripts/bench-seed.ts, as the product writes it): loans disbursed over the last BENCH_DAILY_DAYS (90)
// days, ₹50,000–₹2,00,000 over 12 months, each with its schedule, account, disbursal and payment history in the
// ledger (85 in 100 paid every instalment due, 15 in 100 missed their latest one or two), an active autopay mandate
// of the local stand-in, the books up to date (accrual basis, positions, ledger booked; the journal's history is not
// written), three operations staff members. Then, with the bench's clock at 00:30 India time:
//  - day D−1: the first night after the seeding (every loan's figures written the first time, cases opened, the
//    first notices; the notices of D−2 written by the seeding): as an installation's first night on a book it took over;
//  - day D (a working day a week ahead): a steady night; the figures to judge by;
//  - day D again: the job retried, as after a failure: it must add nothing;
//  - the month end's provisioning (provisionMonth for D's month), which a month's first night adds.
// Per stage: wall seconds, rows inserted/updated/deleted (pg_stat_user_tables deltas), peak RSS of this Node
// process (the server runs in it) and PostgreSQL's memory (bench-measure.ts: the summed private RSS of the
// database's backends and the largest shared RSS of one). Disk: pg_database_size and the largest tables after
// seeding and after the runs, against a budget of 64 MiB (an empty database and the schema) and
// BENCH_DAILY_DISK_KIB_PER_LOAN (12) KiB a loan.
// BENCH_DAILY_KEEP=1 leaves the database and its schema behind (for measuring queries on it afterwards).
import os from "node:os";
import { type SQL, sql } from "drizzle-orm";
import pg from "pg";
import { addDays, type IsoDate, isWorkingDay } from "../app/domain/loan-math.ts";
import { indiaTime, todayIST } from "../app/domain/india-date.ts";
import { seedNightBook } from "./bench-seed.ts";
import { diskUse, freshDatabase, loadAverage, memorySampler, type Peaks, statDelta, type TableDelta, tableStats } from "./bench-measure.ts";

const LOANS = Number(process.env.BENCH_DAILY_LOANS ?? 1_000_000);
const DAYS = Number(process.env.BENCH_DAILY_DAYS ?? 90);
const KIB_PER_LOAN = Number(process.env.BENCH_DAILY_DISK_KIB_PER_LOAN ?? 12);
const KEEP = process.env.BENCH_DAILY_KEEP === "1";
const ADMIN_URL = process.env.BENCH_DAILY_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = process.env.BENCH_DAILY_DATABASE ?? "bench_daily";

const database = await freshDatabase(ADMIN_URL, DATABASE);
process.env.TEST_DATABASE_URL = database.url;
const { startTestServer } = await import("../tests/helpers/server.ts");
const { runDailyJob } = await import("../app/server/jobs/daily-run.server.ts");
const { provisionMonth } = await import("../app/server/books/provision.server.ts");
const { createLocalMandates, localMandateSecret } = await import("../app/server/mandates/local.server.ts");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const n = (x: number) => x.toLocaleString("en-IN");
const load = loadAverage;

interface StageFigures {
  day: string;
  stage: string;
  seconds: number;
  peaks: Peaks;
  rows: Record<string, TableDelta>;
  returned: string;
}

/** What a stage returned, short: arrays of results summed field by field, lists of ids counted. */
function brief(x: unknown): unknown {
  if (Array.isArray(x)) {
    if (x.every((e) => e && typeof e === "object" && !Array.isArray(e))) {
      const sum: Record<string, unknown> = {};
      for (const e of x as Record<string, unknown>[])
        for (const [k, v] of Object.entries(e)) sum[k] = typeof v === "number" ? Number(sum[k] ?? 0) + v : brief(v);
      return x.length ? sum : 0;
    }
    return x.length;
  }
  if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, brief(v)]));
  return x;
}

const app = await startTestServer({
  APP_ENV: "local",
  MANDATE_PROVIDER: "local",
  PAYMENT_PROVIDER: "local",
  // The bank's answers to the debits are not part of the night: they come an hour after presentation.
  LOCAL_DEBIT_ANSWER_SECONDS: "3600",
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
});
const sampler = await memorySampler(ADMIN_URL, DATABASE);
const stat = new pg.Client({ connectionString: database.url });
await stat.connect();
try {
  const db = app.services.db;
  const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const one = async (query: SQL) => Number((await rows<{ n: number | string }>(query))[0]?.n ?? 0);
  const [{ schema = "" } = {}] = await rows<{ schema: string }>(sql`select current_schema() as schema`);
  const schemas = [schema, `${schema}_jobs`];
  const realToday = todayIST(new Date());
  // The server's start-up daily job runs over an empty schema (on the real date): let it finish first.
  for (let waited = 0; ; waited += 200) {
    const running = await one(
      sql`select count(*)::int as n from ${sql.raw(`"${schema}_jobs".job`)} where name = 'servicing-daily' and state in ('created', 'retry', 'active')`,
    );
    const done = await one(sql`select count(*)::int as n from servicing_runs where finished_at is not null`);
    if (done && !running) break;
    if (waited > 60_000) throw new Error("the start-up daily job did not finish in 60 s");
    await sleep(200);
  }
  // D: a working day a week ahead (the server's own jobs, on the real clock, leave its notices and debits alone).
  let day = addDays(realToday, 7);
  while (!isWorkingDay(day, app.services.config.holidays)) day = addDays(day, 1);
  const first = addDays(day, -1);
  let clock = indiaTime(first, "00:30");
  const now = () => clock;
  const mandates = createLocalMandates(app.dataDir, now, {
    secret: localMandateSecret(app.services.config.sessionSecret),
    debitSeconds: app.services.config.mandates.localDebitSeconds,
  });
  const services = { ...app.services, now, mandates };

  console.log(`bench:daily: ${n(LOANS)} loans disbursed over ${DAYS} days before ${first}; load average at start ${load()}`);
  const seedStarted = performance.now();
  const seedSteps = await seedNightBook(services, {
    loans: LOANS,
    days: DAYS,
    day,
    dataDir: app.dataDir,
    url: app.url,
    setClock: (at) => {
      clock = at;
    },
  });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const seeded: Record<string, number> = {};
  for (const table of ["loan_applications", "loan_instalments", "loan_accounts", "payments", "loan_ledger", "mandates", "accrual_basis"])
    seeded[table] = await one(sql`select count(*)::bigint as n from ${sql.raw(table)}`);
  const diskSeeded = await diskUse(stat, DATABASE, schema);
  const budgetMiB = 64 + (LOANS * KIB_PER_LOAN) / 1024;

  const stages: StageFigures[] = [];
  let last = await tableStats(stat, schemas);
  const measured = async (label: string, stage: string, run: () => Promise<unknown>) => {
    sampler.reset();
    const t = performance.now();
    const out = await run();
    const seconds = (performance.now() - t) / 1000;
    const peaks = await sampler.peaks();
    const after = await tableStats(stat, schemas);
    const rowsMoved = statDelta(last, after);
    last = after;
    stages.push({ day: label, stage, seconds, peaks, rows: rowsMoved, returned: JSON.stringify(brief(out)) });
    console.log(`  ${label} ${stage}: ${seconds.toFixed(1)} s, load ${load()}`);
  };
  const night = async (label: string, on: IsoDate) => {
    clock = indiaTime(on, "00:30");
    await runDailyJob(services, { skip: ["bureau"], around: (stage, run) => measured(label, stage, run) });
  };
  await night(`D−1 ${first} (first night)`, first);
  await night(`D ${day}`, day);
  await night(`D ${day} again`, day);
  await measured(`month end`, `provisionMonth ${day.slice(0, 7)}`, () => provisionMonth(services, day.slice(0, 7)));
  const diskAfter = await diskUse(stat, DATABASE, schema);
  const unbalanced = await one(sql`
    select count(*)::int as n from (select entry_id from journal_lines group by entry_id having sum(debit_paise) <> sum(credit_paise)) u`);

  // The report.
  console.log(`\n## bench:daily: ${n(LOANS)} active EMI loans, ${DAYS} days of history, nights of ${first} and ${day}`);
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load average at the end ${load()}`);
  console.log(
    `seeded in ${seedSeconds.toFixed(0)} s (${Object.entries(seedSteps)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(", ")})`,
  );
  console.log(
    `rows: ${Object.entries(seeded)
      .map(([k, v]) => `${k} ${n(v)}`)
      .join(", ")}`,
  );
  const diskLine = (label: string, d: Awaited<ReturnType<typeof diskUse>>) =>
    console.log(
      `disk ${label}: database ${d.databaseMiB.toFixed(0)} MiB (budget ${budgetMiB.toFixed(0)} MiB = 64 MiB and ${KIB_PER_LOAN} KiB a loan: ${d.databaseMiB <= budgetMiB ? "within" : "OVER"}); ` +
        d.tables.map((t) => `${t.name} ${n(t.rows)} rows ${t.tableMiB.toFixed(0)}+${t.indexMiB.toFixed(0)} MiB`).join(", "),
    );
  diskLine("after seeding", diskSeeded);
  diskLine("after the nights", diskAfter);
  console.table(
    stages.map((s) => {
      const total = Object.values(s.rows).reduce((a, d) => ({ ins: a.ins + d.ins, upd: a.upd + d.upd, del: a.del + d.del }), {
        ins: 0,
        upd: 0,
        del: 0,
      });
      return {
        night: s.day,
        stage: s.stage,
        seconds: s.seconds.toFixed(1),
        "rows ins/upd/del": `${n(total.ins)}/${n(total.upd)}/${n(total.del)}`,
        "node peak MiB": s.peaks.nodeRssMiB.toFixed(0),
        "pg private MiB": s.peaks.pgPrivateMiB.toFixed(0),
        "pg shared MiB": s.peaks.pgSharedMiB.toFixed(0),
        backends: s.peaks.pgBackends,
      };
    }),
  );
  for (const label of [...new Set(stages.map((s) => s.day))]) {
    const of = stages.filter((s) => s.day === label);
    console.log(`${label}: ${of.reduce((a, s) => a + s.seconds, 0).toFixed(1)} s in all`);
  }
  console.log("rows per stage (table ins/upd/del) and what each returned:");
  for (const s of stages)
    console.log(
      `  ${s.day} ${s.stage}: ${Object.entries(s.rows)
        .map(([t, d]) => `${t.slice(t.indexOf(".") + 1)} ${d.ins}/${d.upd}/${d.del}`)
        .join(", ")}; returned ${s.returned.slice(0, 300)}`,
    );
  const again = stages.filter((s) => s.day.endsWith("again"));
  const insertedAgain = (table: string) => again.reduce((a, s) => a + (s.rows[`${schema}.${table}`]?.ins ?? 0), 0);
  const checks: [string, boolean][] = [
    ["every journal entry balances", unbalanced === 0],
    ...["loan_ledger", "journal_entries", "journal_lines", "mandate_debits", "dunning_sends", "notifications"].map(
      (t): [string, boolean] => [`the night run again inserted no ${t} row`, insertedAgain(t) === 0],
    ),
  ];
  for (const [what, ok] of checks) console.log(`  ${ok ? "✓" : "✗"} ${what}`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
  if (KEEP) console.log(`kept: database ${DATABASE}, schema ${schema}`);
} finally {
  await sampler.stop();
  await stat.end();
  if (KEEP) await app.close();
  else {
    await app.stop();
    await database.drop();
  }
  await database.end();
}
