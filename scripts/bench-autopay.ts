// Autopay for `npm run bench` (BENCH_ONLY=autopay for this part alone), on PostgreSQL in a schema of its own:
// BENCH_AUTOPAY_LOANS (100,000; 2,000 with BENCH_PROFILE=ci) active EMI loans whose instalment falls due on one
// working day D, seeded as bench-servicing.ts seeds its loans (seedLoanBook: disbursed 1 to 6 months before D,
// the instalments due before D−2 with their payment history, 15 in 100 having missed some), each with an
// active mandate of the local stand-in as a borrower's approval leaves it (the `mandates` row, and the
// stand-in's own record file, which `present` reads). Then, as the 00:30 job does it:
//  - at D−2 00:30 India time, noticeDebits: the pre-debit notices (one debit row and one notice per loan);
//  - at D 00:30, presentDebits: every debit presented to the stand-in (one file per debit under the data
//    directory); and each again (nothing more).
// Timed: wall seconds, rows, rate. Checked in SQL and in the stand-in's records: one debit per loan for the
// instalment due on D, every one presented once (provider calls by key, and the stand-in's records, against
// the debits in progress), amounts never above the notice or the mandate's maximum.
// The measured calls run with a clock of their own (D−2, then D) and a stand-in reading it; the server's own
// jobs keep the real clock, so its 10-minute autopay sweep finds nothing of D to present beside them, and
// the notices' messages (due at 08:00 on D−2, days ahead) are not sent while the part runs. The stand-in
// answers a debit after LOCAL_DEBIT_ANSWER_SECONDS, set to an hour here: the bank's answers are not measured.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { addDays, type IsoDate, isWorkingDay } from "../app/domain/loan-math.ts";
import { indiaTime, todayIST } from "../app/domain/india-date.ts";
import { checkSeededSchedules, seedLoanBook, seedMandates, standInMandates } from "./bench-seed.ts";

const CI_PROFILE = process.env.BENCH_PROFILE === "ci";
const LOANS = Number(process.env.BENCH_AUTOPAY_LOANS ?? (CI_PROFILE ? 2_000 : 100_000));
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { noticeDebits } = await import("../app/server/mandates/notice.server.ts");
const { presentDebits } = await import("../app/server/mandates/present.server.ts");
const { createLocalMandates, localMandateSecret } = await import("../app/server/mandates/local.server.ts");
type MandateProvider = import("../app/server/mandates/provider.server.ts").MandateProvider;
type Presented = import("../app/server/mandates/present.server.ts").Presented;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface AutopayRun {
  label: string;
  /** The bench clock's India time. */
  at: string;
  seconds: number;
  /** Debits announced (notice) or presented (in progress) by this run. */
  rows: number;
  /** What presentDebits returned, by outcome. */
  counts?: Record<Presented, number>;
  /** Calls to the provider's `present` during the run, and their summed time. */
  providerCalls?: number;
  providerSeconds?: number;
}

export interface AutopayFigures {
  loans: number;
  day: IsoDate;
  seedSeconds: number;
  seedSteps: Record<string, number>;
  mandates: Record<string, number>;
  runs: AutopayRun[];
  /** After the notices. */
  notices: number;
  notifyJobs: number;
  /** After the presentations. */
  debits: number;
  loansWithOneDebit: number;
  debitsNotForD: number;
  byStatus: Record<string, number>;
  /** Debits whose amount is above their notice or the mandate's maximum, or whose notice is above the maximum. */
  aboveNoticeOrMax: number;
  /** Debits presented for exactly the instalment (its EMI). */
  presentedTheEmi: number;
  accountsRewritten: number;
  debitCheckJobs: number;
  providerCalls: number;
  providerKeys: number;
  /** Keys presented more than once, and stand-in records that are not one debit in progress with its amount. */
  keysTwice: number;
  standInRecords: number;
  standInMatching: number;
}

export async function autopayBench(): Promise<AutopayFigures> {
  const app = await startTestServer({
    APP_ENV: "local",
    MANDATE_PROVIDER: "local",
    LOCAL_DEBIT_ANSWER_SECONDS: "3600",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
  });
  try {
    const db = app.services.db;
    const config = app.services.config;
    const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const one = async (query: SQL) => Number((await rows<{ n: number | string }>(query))[0]?.n ?? 0);
    const [{ schema = "" } = {}] = await rows<{ schema: string }>(sql`select current_schema() as schema`);
    const jobs = sql.raw(`"${schema}_jobs".job`);
    const realToday = todayIST(new Date());

    // The server's start-up daily job (servicing, then autopay, on the real date) runs over an empty schema: let it finish first.
    for (let waited = 0; ; waited += 200) {
      const done = await one(
        sql`select count(*)::int as n from servicing_runs where business_date = ${realToday} and finished_at is not null`,
      );
      if (done) break;
      if (waited > 60_000) throw new Error("the start-up servicing job did not finish in 60 s");
      await sleep(200);
    }
    // D: a working day at least a week ahead (so the notices' messages, due at 08:00 on D−2, wait), on the
    // 28th or before (every month has that day: the loans disbursed on it months before fall due on D).
    let day = addDays(realToday, 7);
    while (!isWorkingDay(day, config.holidays) || Number(day.slice(8)) > 28) day = addDays(day, 1);
    const noticeDay = addDays(day, -2);

    const seeded = performance.now();
    const seedSteps = await seedLoanBook(db, {
      loans: LOANS,
      today: noticeDay,
      // 1 to 6 months before D: instalment 1 to 6 of the 12 falls due on D.
      disbursalDate: (n) => sql`${day}::date - make_interval(months => 1 + ${n} % 6)`,
    });
    await checkSeededSchedules(db);
    let t = performance.now();
    await seedMandates(db, { day });
    seedSteps.mandates = (performance.now() - t) / 1000;
    // The stand-in's own record of each mandate (what `present` reads), as its authorisation page leaves it.
    t = performance.now();
    await standInMandates(db, { dataDir: app.dataDir, url: app.url });
    seedSteps["stand-in mandate files"] = (performance.now() - t) / 1000;
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seeded) / 1000;
    const mandates = Object.fromEntries(
      (await rows<{ kind: string; n: number }>(sql`select kind, count(*)::int as n from mandates group by kind order by kind`)).map((r) => [
        r.kind,
        r.n,
      ]),
    );

    // The bench's clock and a stand-in that reads it (the same records under the data directory); every
    // presentation counted by its idempotency key.
    let clock = indiaTime(noticeDay, "00:30");
    const now = () => clock;
    const standIn = createLocalMandates(app.dataDir, now, {
      secret: localMandateSecret(config.sessionSecret),
      debitSeconds: config.mandates.localDebitSeconds,
    });
    const calls = new Map<string, number>();
    let providerMs = 0;
    const provider: MandateProvider = {
      ...standIn,
      async present(order) {
        calls.set(order.key, (calls.get(order.key) ?? 0) + 1);
        const started = performance.now();
        try {
          return await standIn.present(order);
        } finally {
          providerMs += performance.now() - started;
        }
      },
    };
    const services = { ...app.services, now, mandates: provider };

    const runs: AutopayRun[] = [];
    const noticed = async (label: string) => {
      const started = performance.now();
      const announced = await noticeDebits(services, { day: noticeDay });
      runs.push({ label, at: `${noticeDay} 00:30`, seconds: (performance.now() - started) / 1000, rows: announced });
    };
    await noticed("noticeDebits (D−2 00:30)");
    const notices = await one(sql`select count(*)::int as n from notifications where event = 'autopay_notice'`);
    const notifyJobs = await one(sql`select count(*)::int as n from ${jobs} where name = 'notify'`);
    await noticed("noticeDebits again");

    clock = indiaTime(day, "00:30");
    const presented = async (label: string) => {
      const callsBefore = [...calls.values()].reduce((s, n) => s + n, 0);
      const providerBefore = providerMs;
      const started = performance.now();
      const counts = await presentDebits(services, day);
      runs.push({
        label,
        at: `${day} 00:30`,
        seconds: (performance.now() - started) / 1000,
        rows: counts.in_progress,
        counts,
        providerCalls: [...calls.values()].reduce((s, n) => s + n, 0) - callsBefore,
        providerSeconds: (providerMs - providerBefore) / 1000,
      });
    };
    await presented("presentDebits (D 00:30)");
    await presented("presentDebits again");

    // The stand-in's records: each one debit in progress, with its amount.
    const debitsDir = path.join(app.dataDir, "mandate-debits");
    const files = (await readdir(debitsDir).catch(() => [] as string[])).filter((f) => f.endsWith(".json"));
    const inProgress = new Map(
      (
        await rows<{ id: string; amount_paise: number; provider_payment_id: string | null }>(
          sql`select id, amount_paise, provider_payment_id from mandate_debits where status in ('in_progress', 'succeeded')`,
        )
      ).map((d) => [d.id, d]),
    );
    let standInMatching = 0;
    for (let i = 0; i < files.length; i += 200)
      await Promise.all(
        files.slice(i, i + 200).map(async (f) => {
          const r = JSON.parse(await readFile(path.join(debitsDir, f), "utf8")) as { id: string; key: string; amountPaise: number };
          const d = inProgress.get(r.key);
          if (d && d.amount_paise === r.amountPaise && d.provider_payment_id === r.id) standInMatching++;
        }),
      );
    const debits = await one(sql`select count(*)::int as n from mandate_debits`);
    return {
      loans: LOANS,
      day,
      seedSeconds,
      seedSteps,
      mandates,
      runs,
      notices,
      notifyJobs,
      debits,
      loansWithOneDebit: await one(sql`
        select count(*)::int as n from loan_applications a
        where a.status = 'active' and (select count(*) from mandate_debits d where d.application_id = a.id and d.due_date = ${day}) = 1`),
      debitsNotForD: await one(sql`select count(*)::int as n from mandate_debits where due_date <> ${day} or present_on <> ${day}`),
      byStatus: Object.fromEntries(
        (await rows<{ status: string; n: number }>(sql`select status, count(*)::int as n from mandate_debits group by status`)).map((r) => [
          r.status,
          r.n,
        ]),
      ),
      aboveNoticeOrMax: await one(sql`
        select count(*)::int as n from mandate_debits d join mandates m on m.id = d.mandate_id
        where d.amount_paise > d.notice_paise or d.amount_paise > m.max_amount_paise or d.notice_paise > m.max_amount_paise`),
      presentedTheEmi: await one(sql`
        select count(*)::int as n from mandate_debits d
        join loan_instalments i on i.application_id = d.application_id and i.seq = d.seq
        where d.amount_paise = i.principal_paise + i.interest_paise`),
      accountsRewritten: await one(
        sql`select count(*)::int as n from loan_accounts where updated_at = ${clock.toISOString()}::timestamptz`,
      ),
      debitCheckJobs: await one(sql`select count(*)::int as n from ${jobs} where name = 'debit-check'`),
      providerCalls: [...calls.values()].reduce((s, n) => s + n, 0),
      providerKeys: calls.size,
      keysTwice: [...calls.values()].filter((n) => n > 1).length,
      standInRecords: files.length,
      standInMatching,
    };
  } finally {
    await app.stop();
  }
}

export function reportAutopay(f: AutopayFigures) {
  const n = (x: number) => x.toLocaleString("en-IN");
  console.log(
    `\nAutopay: ${n(f.loans)} active EMI loans due on ${f.day} (D), each with an active mandate of the local stand-in ` +
      `(${Object.entries(f.mandates)
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(", ")}), PostgreSQL; seeded in ${f.seedSeconds.toFixed(1)} s (${Object.entries(f.seedSteps)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`)
        .join(", ")})`,
  );
  const twice = f.keysTwice + (f.standInRecords - f.standInMatching);
  console.table(
    Object.fromEntries(
      f.runs.map((r) => [
        r.label,
        {
          "India time": r.at,
          "wall s": r.seconds.toFixed(1),
          rows: r.rows,
          "rows/s": r.seconds > 0 && r.rows > 0 ? (r.rows / r.seconds).toFixed(0) : "",
          "provider calls": r.providerCalls ?? "",
          "provider s": r.providerSeconds?.toFixed(1) ?? "",
          outcomes: r.counts
            ? Object.entries(r.counts)
                .filter(([, v]) => v)
                .map(([k, v]) => `${k} ${v}`)
                .join(", ") || "none"
            : "",
          twice: r.counts ? twice : "",
        },
      ]),
    ),
  );
  console.log(
    `notices ${n(f.notices)} (notify jobs queued ${n(f.notifyJobs)}); debits ${n(f.debits)}, by status ${JSON.stringify(f.byStatus)}; ` +
      `loans with exactly one debit for D ${n(f.loansWithOneDebit)}, debits not for D ${f.debitsNotForD}; presented for the EMI ${n(f.presentedTheEmi)}, ` +
      `above the notice or the mandate's maximum ${f.aboveNoticeOrMax}; loan accounts rewritten at presentation ${n(f.accountsRewritten)}; ` +
      `debit-check jobs ${n(f.debitCheckJobs)}; provider calls ${n(f.providerCalls)} on ${n(f.providerKeys)} keys (${f.keysTwice} keys twice); ` +
      `stand-in debit records ${n(f.standInRecords)}, each one debit in progress with its amount ${n(f.standInMatching)}`,
  );
  const [notice, noticeAgain, present, presentAgain] = f.runs;
  const inProgress = f.byStatus.in_progress ?? 0;
  const checks: [string, boolean][] = [
    ["one notice and one debit per loan", notice?.rows === f.loans && f.notices === f.loans && f.debits === f.loans],
    ["noticing again added none", noticeAgain?.rows === 0],
    ["every loan has exactly one debit, for its instalment due on D", f.loansWithOneDebit === f.loans && f.debitsNotForD === 0],
    ["every debit presented and in progress", present?.rows === f.loans && inProgress === f.loans],
    [
      "presenting again presented nothing",
      presentAgain !== undefined && presentAgain.providerCalls === 0 && Object.values(presentAgain.counts ?? {}).every((v) => v === 0),
    ],
    [
      "none presented twice (provider calls by key, stand-in records = debits in progress)",
      twice === 0 && f.providerCalls === inProgress && f.providerKeys === inProgress && f.standInRecords === inProgress,
    ],
    ["no amount above its notice or the mandate's maximum", f.aboveNoticeOrMax === 0],
  ];
  const failed = checks.filter(([, ok]) => !ok);
  console.log(
    failed.length
      ? `AUTOPAY CHECK FAILED: ${failed.map(([c]) => c).join("; ")}`
      : `autopay checks passed: ${checks.map(([c]) => c).join("; ")}`,
  );
  if (failed.length) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) reportAutopay(await autopayBench());
