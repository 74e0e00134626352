// Servicing for `npm run bench` (BENCH_ONLY=servicing for this part alone), on PostgreSQL in a schema of its own:
// 1. The daily run over BENCH_SERVICING_LOANS (100,000) active EMI loans, seeded by SQL as activation and
//    payments write them: the borrower, the application (status active, loan number, disbursal date over the
//    last ~6 months, ₹50,000–₹2,00,000 over 12 months at 18%), its schedule (emiSchedule), its loan account
//    (as openAccount writes it), the disbursal in the ledger, and a payment history of captured gateway
//    payments, each a `payments` row and its ledger entry as applyPaymentEvent writes them: 85 loans in 100
//    pay every instalment on time (some a couple of days early), 15 have missed their latest one or two
//    (some with a part paid late). Then the day's run as the 00:30 job does it (catchUpServicing, today in
//    India), the same day again (idempotent: nothing levied, no ledger row), and with BENCH_SERVICING_NEXT_DAY=1
//    the next day (only the loans a date can change) and it again. Each: wall time, loans touched, penal charges levied,
//    ledger rows by kind, loan_accounts rows rewritten, servicing_runs, and pg_stat_user_tables
//    n_tup_ins/n_tup_upd deltas of the schema (read after PostgreSQL's 10 s idle flush of table statistics).
// 2. BENCH_SERVICING_PAYERS (50) of those loans, each borrower signed in, paid through Pay now and the local
//    checkout stand-in by two clicks at once (100 round trips): loan page → checkout → return → /success;
//    p50/p95 of the round trip and of each step. Checked: every payment captured once in the ledger, and every
//    captured order's webhook delivered again (signed as the stand-in signs it) adds nothing.
import { createHmac } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { addDays } from "../app/domain/loan-math.ts";
import { todayIST } from "../app/domain/india-date.ts";
import { checkSeededSchedules, seedLoanBook } from "./bench-seed.ts";

const LOANS = Number(process.env.BENCH_SERVICING_LOANS ?? 100_000);
const PAYERS = Number(process.env.BENCH_SERVICING_PAYERS ?? 50);
/** BENCH_SERVICING_NEXT_DAY=1: also the next business day (and it again), the steady daily cost after the first run. */
const NEXT_DAY = process.env.BENCH_SERVICING_NEXT_DAY === "1";
/** PostgreSQL flushes a backend's table statistics when it has been idle, at most 10 s late (PGSTAT_IDLE_INTERVAL). */
const PGSTAT_WAIT_MS = Number(process.env.BENCH_PGSTAT_WAIT_MS ?? 11_000);
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { postForm } = await import("../tests/helpers/http.ts");
const { UNLIMITED_SIGN_IN } = await import("./bench-server.ts");
const { catchUpServicing, runServicingDay } = await import("../app/server/servicing/daily.server.ts");
const { localCheckoutSecret } = await import("../app/server/payments/local.server.ts");
const { createUserSession } = await import("../app/server/auth/session.server.ts");
type LocalCheckout = import("../app/server/payments/local.server.ts").LocalCheckout;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface TableDelta {
  ins: number;
  upd: number;
  del: number;
}
export interface DailyRunFigures {
  label: string;
  day: string;
  seconds: number;
  /** What the run returned (catchUpServicing: summed over the days it ran). */
  loansTouched: number;
  levied: number;
  reversed: number;
  /** Loans that got a new penal charge (the run serves these one by one, each in a transaction of its own). */
  loansLevied: number;
  /** New loan_ledger rows, by kind. */
  ledgerRows: Record<string, number>;
  /** loan_accounts rows whose updated_at is the run's (rewritten by it). */
  accountRowsRewritten: number;
  servicingRunsBefore: number;
  servicingRunsAfter: number;
  /** The day's servicing_runs row after the run. */
  runRow: { loans: number; levied: number; reversed: number; finished: boolean } | null;
  /** pg_stat_user_tables deltas of the application's schema, tables that changed. */
  pgStat: Record<string, TableDelta>;
  /** The same for the job queue's schema (pg-boss: the penal SMS are jobs), summed. */
  jobsPgStat: TableDelta;
}
export interface ServicingFigures {
  loans: number;
  seedSeconds: number;
  seeded: Record<string, number>;
  /** Seconds of each seeding statement. */
  seedSteps: Record<string, number>;
  /** After the first run, from loan_accounts: days past due 0, and above 0. */
  current: number;
  pastDue: number;
  runs: DailyRunFigures[];
  pay: {
    loans: number;
    roundTrips: number;
    p50Ms: number;
    p95Ms: number;
    maxMs: number;
    steps: Record<string, { p50: number; p95: number }>;
    totalSeconds: number;
    created: number;
    captured: number;
    ledgerPayments: number;
    /** Every captured payment of the schema (the seeded history too) against its ledger 'payment' rows. */
    allCaptured: number;
    allLedgerPayments: number;
    appliedTwice: number;
    outcomePagesOk: number;
    redelivered: number;
    redeliveredAnswers: Record<string, number>;
    redeliveredAdded: number;
    failures: string[];
  };
}

export async function servicingBench(): Promise<ServicingFigures> {
  const app = await startTestServer({
    ...UNLIMITED_SIGN_IN,
    APP_ENV: "local",
    PAYMENT_PROVIDER: "local",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
  });
  try {
    const db = app.services.db;
    const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const one = async (query: SQL) => Number((await rows<{ n: number | string }>(query))[0]?.n ?? 0);
    const [{ schema = "" } = {}] = await rows<{ schema: string }>(sql`select current_schema() as schema`);
    const jobsSchema = `${schema}_jobs`;
    const today = todayIST(app.services.now());

    // The server's own start-up catch-up (a job) runs today over an empty schema: let it finish first,
    // so that nothing but the measured runs services the loans seeded below.
    for (let waited = 0; ; waited += 200) {
      const done = await one(sql`select count(*)::int as n from servicing_runs where business_date = ${today} and finished_at is not null`);
      if (done) break;
      if (waited > 60_000) throw new Error("the start-up servicing job did not finish in 60 s");
      await sleep(200);
    }

    const seeded = performance.now();
    const seedSteps = await seedLoanBook(db, { loans: LOANS, today });
    const seedSeconds = (performance.now() - seeded) / 1000;
    const seededCounts: Record<string, number> = {};
    for (const table of ["users", "loan_applications", "loan_instalments", "loan_accounts", "payments", "loan_ledger"])
      seededCounts[table] = await one(sql`select count(*)::int as n from ${sql.raw(table)}`);

    await checkSeededSchedules(db);

    type Stat = { schemaname: string; relname: string; ins: string; upd: string; del: string };
    const pgStat = async () => {
      // Let every backend that wrote go idle long enough to flush its pending table statistics.
      await sleep(PGSTAT_WAIT_MS);
      const list = await rows<Stat>(
        sql`select schemaname, relname, n_tup_ins as ins, n_tup_upd as upd, n_tup_del as del from pg_stat_user_tables
            where schemaname in (${schema}, ${jobsSchema})`,
      );
      return new Map(list.map((r) => [`${r.schemaname}.${r.relname}`, { ins: Number(r.ins), upd: Number(r.upd), del: Number(r.del) }]));
    };
    const ledgerByKind = async () =>
      new Map(
        (await rows<{ kind: string; n: number }>(sql`select kind, count(*)::int as n from loan_ledger group by kind`)).map((r) => [
          r.kind,
          r.n,
        ]),
      );
    let stats = await pgStat();
    const timed = async (label: string, day: string, run: () => Promise<{ loans: number; levied: number; reversed: number }>) => {
      const ledgerBefore = await ledgerByKind();
      const lastEntry = await one(sql`select coalesce(max(entry_no), 0)::bigint as n from loan_ledger`);
      const runsBefore = await one(sql`select count(*)::int as n from servicing_runs`);
      const at = app.services.now();
      const started = performance.now();
      const done = await run();
      const seconds = (performance.now() - started) / 1000;
      const ledgerAfter = await ledgerByKind();
      const ledgerRows: Record<string, number> = {};
      for (const [kind, n] of ledgerAfter) if (n !== (ledgerBefore.get(kind) ?? 0)) ledgerRows[kind] = n - (ledgerBefore.get(kind) ?? 0);
      const [runRow] = await rows<{ loans: number; levied: number; reversed: number; finished: boolean }>(
        sql`select loans, levied, reversed, finished_at is not null as finished from servicing_runs where business_date = ${day}`,
      );
      const after = await pgStat();
      const delta: Record<string, TableDelta> = {};
      const jobs: TableDelta = { ins: 0, upd: 0, del: 0 };
      for (const [table, v] of after) {
        const b = stats.get(table) ?? { ins: 0, upd: 0, del: 0 };
        const d = { ins: v.ins - b.ins, upd: v.upd - b.upd, del: v.del - b.del };
        if (table.startsWith(`${jobsSchema}.`)) {
          jobs.ins += d.ins;
          jobs.upd += d.upd;
          jobs.del += d.del;
        } else if (d.ins || d.upd || d.del) delta[table.slice(schema.length + 1)] = d;
      }
      stats = after;
      return {
        label,
        day,
        seconds,
        loansTouched: done.loans,
        levied: done.levied,
        reversed: done.reversed,
        loansLevied: await one(
          sql`select count(distinct application_id)::int as n from loan_ledger where kind = 'penal' and entry_no > ${lastEntry}::bigint`,
        ),
        ledgerRows,
        accountRowsRewritten: await one(
          sql`select count(*)::int as n from loan_accounts where updated_at >= ${at.toISOString()}::timestamptz`,
        ),
        servicingRunsBefore: runsBefore,
        servicingRunsAfter: await one(sql`select count(*)::int as n from servicing_runs`),
        runRow: runRow ?? null,
        pgStat: delta,
        jobsPgStat: jobs,
      } satisfies DailyRunFigures;
    };
    const sum = (list: { loans: number; levied: number; reversed: number }[]) => ({
      loans: list.reduce((s, d) => s + d.loans, 0),
      levied: list.reduce((s, d) => s + d.levied, 0),
      reversed: list.reduce((s, d) => s + d.reversed, 0),
    });
    const runs: DailyRunFigures[] = [];
    // As the 00:30 job does it: every day not yet run up to today (here: today).
    runs.push(await timed("first run: catchUpServicing (today)", today, async () => sum(await catchUpServicing(app.services))));
    runs.push(await timed("same day again: runServicingDay", today, () => runServicingDay(app.services, today)));
    const [spread = { current: 0, past_due: 0 }] = await rows<{ current: number; past_due: number }>(
      sql`select count(*) filter (where dpd = 0)::int as current, count(*) filter (where dpd > 0)::int as past_due from loan_accounts`,
    );
    if (NEXT_DAY) {
      // The next business day, its clock moved on as the 00:30 job would see it, then that day again.
      const tomorrow = addDays(today, 1);
      const clock = app.services.now;
      app.services.now = () => new Date(clock().getTime() + 86_400_000);
      try {
        runs.push(await timed("next day: catchUpServicing", tomorrow, async () => sum(await catchUpServicing(app.services))));
        runs.push(await timed("next day again: runServicingDay", tomorrow, () => runServicingDay(app.services, tomorrow)));
      } finally {
        app.services.now = clock;
      }
    }

    // Pay now: PAYERS current loans spread over the book, each borrower signed in, two clicks each at once.
    const payers = await rows<{ user_id: string; loan_number: string; mobile: string }>(
      sql`select a.user_id, a.loan_number, u.mobile from loan_applications a join users u on u.id = a.user_id
          join loan_accounts c on c.application_id = a.id
          where a.status = 'active' and c.dpd = 0 order by md5(a.id::text) limit ${PAYERS}::int`,
    );
    const cookies = new Map<string, string>();
    for (const p of payers) {
      const { setCookie } = await createUserSession(app.services, {
        userId: p.user_id,
        deviceId: `bench-${p.mobile}`,
        ip: "127.0.0.1",
        userAgent: "bench",
      });
      cookies.set(p.loan_number, setCookie.split(";")[0] ?? "");
    }
    const payStart = app.services.now();
    const latencies: number[] = [];
    const steps: Record<string, number[]> = { "Pay now (loan page)": [], "checkout: Pay": [], "return from checkout": [] };
    const landings: { landing: string; cookie: string }[] = [];
    const failures: string[] = [];
    const roundTrip = async (loanNumber: string) => {
      const cookie = cookies.get(loanNumber) ?? "";
      const t0 = performance.now();
      const started = await postForm(app, `/User/Loans/Emi/${loanNumber}`, { intent: "pay", choice: "amount", amount: "500" }, { cookie });
      await started.arrayBuffer();
      const checkout = started.headers.get("location") ?? "";
      const t1 = performance.now();
      if (started.status !== 302 || !/^\/local-checkout\/lco_/.test(checkout)) {
        failures.push(`${loanNumber}: Pay now answered ${started.status} ${checkout}`);
        return;
      }
      const paid = await postForm(app, checkout, { outcome: "pay" }, { cookie });
      await paid.arrayBuffer();
      const back = new URL(paid.headers.get("location") ?? "/", app.url);
      const t2 = performance.now();
      if (paid.status !== 302 || back.pathname !== "/api/payments/local/return") {
        failures.push(`${loanNumber}: checkout answered ${paid.status} ${back.pathname}`);
        return;
      }
      const returned = await app.get(`${back.pathname}${back.search}`, { headers: { Cookie: cookie } });
      await returned.arrayBuffer();
      const landing = returned.headers.get("location") ?? "";
      const t3 = performance.now();
      if (returned.status !== 302 || !/^\/success\/pm_[a-z2-7]{24}$/.test(landing)) {
        failures.push(`${loanNumber}: return answered ${returned.status} ${landing}`);
        return;
      }
      latencies.push(t3 - t0);
      steps["Pay now (loan page)"]?.push(t1 - t0);
      steps["checkout: Pay"]?.push(t2 - t1);
      steps["return from checkout"]?.push(t3 - t2);
      landings.push({ landing, cookie });
    };
    const t = performance.now();
    await Promise.all(payers.flatMap((p) => [roundTrip(p.loan_number), roundTrip(p.loan_number)]));
    const totalSeconds = (performance.now() - t) / 1000;
    // The outcome page each borrower lands on (not timed): the server's word that the payment was received.
    let outcomePagesOk = 0;
    for (const { landing, cookie } of landings) {
      const res = await app.get(landing, { headers: { Cookie: cookie } });
      if (res.status === 200 && (await res.text()).includes("Payment received")) outcomePagesOk++;
    }

    const since = payStart.toISOString();
    const created = await one(sql`select count(*)::int as n from payments where created_at >= ${since}::timestamptz`);
    const captured = await one(
      sql`select count(*)::int as n from payments where created_at >= ${since}::timestamptz and status = 'captured'`,
    );
    const benchLedger = () =>
      one(sql`select count(*)::int as n from loan_ledger l join payments p on p.id = l.payment_id
              where l.kind = 'payment' and p.created_at >= ${since}::timestamptz`);
    const ledgerPayments = await benchLedger();
    const allCaptured = await one(sql`select count(*)::int as n from payments where status = 'captured'`);
    const allLedgerPayments = await one(sql`select count(*)::int as n from loan_ledger where kind = 'payment'`);
    const appliedTwice = await one(
      sql`select count(*)::int as n from (select payment_id from loan_ledger where kind = 'payment' group by payment_id having count(*) > 1) d`,
    );

    // Every captured order's webhook delivered again, all at once, as a gateway retrying would: the body is the
    // stand-in's own record of the order, signed with its secret.
    const secret = localCheckoutSecret(app.services.config.sessionSecret);
    const gateway = app.services.payments as LocalCheckout;
    const orders = await rows<{ provider_order_id: string }>(
      sql`select provider_order_id from payments where created_at >= ${since}::timestamptz and status = 'captured'`,
    );
    const redeliveredAnswers: Record<string, number> = {};
    await Promise.all(
      orders.map(async ({ provider_order_id: id }) => {
        const order = await gateway.order(id);
        if (!order) {
          failures.push(`the stand-in has no order ${id}`);
          return;
        }
        const body = JSON.stringify({ event: "payment.captured", payload: { ...order } });
        const res = await fetch(new URL("/api/webhooks/local", app.url), {
          method: "POST",
          body,
          headers: { "content-type": "application/json", "x-local-signature": createHmac("sha256", secret).update(body).digest("hex") },
        });
        const answer = res.ok ? String(((await res.json()) as { status?: string }).status) : `HTTP ${res.status}`;
        redeliveredAnswers[answer] = (redeliveredAnswers[answer] ?? 0) + 1;
      }),
    );
    const ledgerAfterRedelivery = await one(sql`select count(*)::int as n from loan_ledger where kind = 'payment'`);
    latencies.sort((a, b) => a - b);
    const stepFigures: ServicingFigures["pay"]["steps"] = {};
    for (const [name, list] of Object.entries(steps)) {
      list.sort((a, b) => a - b);
      stepFigures[name] = { p50: percentile(list, 50), p95: percentile(list, 95) };
    }
    return {
      loans: LOANS,
      seedSeconds,
      seeded: seededCounts,
      seedSteps,
      current: Number(spread.current),
      pastDue: Number(spread.past_due),
      runs,
      pay: {
        loans: payers.length,
        roundTrips: latencies.length,
        p50Ms: percentile(latencies, 50),
        p95Ms: percentile(latencies, 95),
        maxMs: latencies.at(-1) ?? 0,
        steps: stepFigures,
        totalSeconds,
        created,
        captured,
        ledgerPayments,
        allCaptured,
        allLedgerPayments,
        appliedTwice,
        outcomePagesOk,
        redelivered: orders.length,
        redeliveredAnswers,
        redeliveredAdded: ledgerAfterRedelivery - allLedgerPayments,
        failures,
      },
    };
  } finally {
    await app.stop();
  }
}

export function reportServicing(f: ServicingFigures) {
  const n = (x: number) => x.toLocaleString("en-IN");
  console.log(
    `\nServicing: the daily run over ${n(f.loans)} active EMI loans on PostgreSQL (seeded by SQL in ${f.seedSeconds.toFixed(1)} s: ` +
      `${Object.entries(f.seeded)
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(", ")}); after the first run ${n(f.current)} current (0 days past due), ${n(f.pastDue)} past due`,
  );
  console.log(
    `seeding, seconds per statement: ${Object.entries(f.seedSteps)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(", ")}`,
  );
  console.table(
    Object.fromEntries(
      f.runs.map((r) => [
        r.label,
        {
          day: r.day,
          seconds: r.seconds.toFixed(1),
          "loans touched": r.loansTouched,
          "penal levied": r.levied,
          "on loans": r.loansLevied,
          reversed: r.reversed,
          "new ledger rows": Object.values(r.ledgerRows).reduce((s, x) => s + x, 0),
          "accounts rewritten": r.accountRowsRewritten,
          "servicing_runs before→after": `${r.servicingRunsBefore}→${r.servicingRunsAfter}`,
          "its row (loans/levied)": r.runRow ? `${r.runRow.loans}/${r.runRow.levied}${r.runRow.finished ? "" : " unfinished"}` : "none",
        },
      ]),
    ),
  );
  console.log("Rows written per run (pg_stat_user_tables deltas of the schema: inserted / updated / deleted; job queue schema summed)");
  const tables = [...new Set(f.runs.flatMap((r) => Object.keys(r.pgStat)))].sort();
  console.table(
    Object.fromEntries(
      f.runs.map((r) => [
        r.label,
        {
          ...Object.fromEntries(
            tables.map((t) => {
              const d = r.pgStat[t];
              return [t, d ? `${d.ins}/${d.upd}/${d.del}` : "0/0/0"];
            }),
          ),
          "jobs schema": `${r.jobsPgStat.ins}/${r.jobsPgStat.upd}/${r.jobsPgStat.del}`,
          "ledger by kind": Object.entries(r.ledgerRows)
            .map(([k, v]) => `${k} ${v}`)
            .join(", "),
        },
      ]),
    ),
  );
  const p = f.pay;
  console.log(
    `\nPay now through the local checkout: ${p.roundTrips} round trips at once (two clicks on each of ${p.loans} loans; loan page → checkout → return → /success): ` +
      `p50 ${p.p50Ms.toFixed(0)} ms, p95 ${p.p95Ms.toFixed(0)} ms, max ${p.maxMs.toFixed(0)} ms, all in ${p.totalSeconds.toFixed(1)} s`,
  );
  console.table(
    Object.fromEntries(Object.entries(p.steps).map(([k, v]) => [k, { "p50 ms": v.p50.toFixed(0), "p95 ms": v.p95.toFixed(0) }])),
  );
  console.log(
    `payments started ${p.created}, captured ${p.captured}, their ledger 'payment' rows ${p.ledgerPayments}, outcome pages "Payment received" ${p.outcomePagesOk}; ` +
      `whole schema: captured ${n(p.allCaptured)}, ledger 'payment' rows ${n(p.allLedgerPayments)}, payments applied twice ${p.appliedTwice}; ` +
      `${p.redelivered} webhooks delivered again (answers ${JSON.stringify(p.redeliveredAnswers)}) added ${p.redeliveredAdded} ledger rows`,
  );
  if (p.failures.length) console.log(`failures:\n  ${p.failures.slice(0, 10).join("\n  ")}`);
  const first = f.runs[0];
  const again = f.runs[1];
  const checks: [string, boolean][] = [
    ["the first run touched every loan", first?.loansTouched === f.loans],
    ["the same day again levied 0", again?.levied === 0],
    ["the same day again wrote no ledger row", again !== undefined && Object.keys(again.ledgerRows).length === 0],
    ...f.runs
      .slice(2)
      .filter((r) => r.label.includes("again"))
      .map((r): [string, boolean] => [`${r.label}: levied 0, no ledger row`, r.levied === 0 && Object.keys(r.ledgerRows).length === 0]),
    ["every round trip reached /success", p.roundTrips === 2 * p.loans && p.failures.length === 0],
    ["every payment started was captured", p.captured === p.created && p.created === 2 * p.loans],
    [
      "one ledger 'payment' row per captured payment",
      p.ledgerPayments === p.captured && p.allLedgerPayments === p.allCaptured && p.appliedTwice === 0,
    ],
    ["outcome pages say received", p.outcomePagesOk === p.roundTrips],
    ["redelivered webhooks added nothing", p.redeliveredAdded === 0 && p.redelivered === p.captured],
  ];
  const failed = checks.filter(([, ok]) => !ok);
  console.log(
    failed.length
      ? `SERVICING CHECK FAILED: ${failed.map(([c]) => c).join("; ")}`
      : `servicing checks passed: ${checks.map(([c]) => c).join("; ")}`,
  );
  if (failed.length) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) reportServicing(await servicingBench());
