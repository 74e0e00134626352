// The credit bureau files for `npm run bench` (BENCH_ONLY=bureau for this part alone), on PostgreSQL in a schema of
// its own: a reporting date's four files (one per credit information company) over BENCH_BUREAU_LOANS (100,000;
// 2,000 with BENCH_PROFILE=ci) active EMI loans seeded as bench-servicing.ts seeds its book (seedLoanBook, as of a
// reporting date D), each borrower given a profile, an address and employment set-based (one PAN's ciphertext for all:
// the decryption per record is what is timed, not the PAN). The figures of D are written by the daily servicing run
// first (runServicingDay for D, not timed). Then, each timed on its own (wall seconds, the process's peak RSS while it
// ran, rows written):
//  - makeDateFiles (D): the loans chosen per company, the records read once (the ledger replayed to D), four files
//    written, read back, checked and sealed in storage, their runs, records and the borrowers' alerts;
//  - makeDateFiles (D) again: nothing.
// Checked (the part throws if one fails): four files, each with every active loan and none held back; each file
// read back with no problem; the alerts = the loans reported past due; the second run made nothing.
import { type SQL, sql } from "drizzle-orm";
import { BUREAUS, fileProblems, parseFile } from "../app/domain/bureau/format.ts";
import { isReportingDate } from "../app/domain/bureau/reporting.ts";
import { indiaTime, todayIST } from "../app/domain/india-date.ts";
import { addDays, type IsoDate } from "../app/domain/loan-math.ts";
import { encrypt } from "../app/server/crypto.server.ts";
import { checkSeededSchedules, seedLoanBook } from "./bench-seed.ts";

const CI_PROFILE = process.env.BENCH_PROFILE === "ci";
const LOANS = Number(process.env.BENCH_BUREAU_LOANS ?? (CI_PROFILE ? 2_000 : 100_000));
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { runServicingDay } = await import("../app/server/servicing/daily.server.ts");
const { makeDateFiles } = await import("../app/server/bureau/daily.server.ts");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BureauRun {
  label: string;
  seconds: number;
  peakRssMb: number;
  /** The RSS as the run started (the seeding's garbage included). */
  startRssMb: number;
  files: number;
  records: number;
  alerts: number;
}

export interface BureauFigures {
  loans: number;
  asOf: IsoDate;
  seedSeconds: number;
  runs: BureauRun[];
  fileMb: number;
  checks: [string, boolean][];
}

/** The process's RSS, sampled every 50 ms while `run` runs: its peak in MB. */
async function peakRss(run: () => Promise<unknown>) {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().rss) / 1024 / 1024;
}

export async function bureauBench(): Promise<BureauFigures> {
  const app = await startTestServer({ APP_ENV: "local", LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent" });
  try {
    const db = app.services.db;
    const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const one = async (query: SQL) => Number((await rows<{ n: number | string }>(query))[0]?.n ?? 0);
    const [{ schema = "" } = {}] = await rows<{ schema: string }>(sql`select current_schema() as schema`);
    const jobs = sql.raw(`"${schema}_jobs".job`);
    // The server's start-up daily job runs over an empty schema: let it finish first.
    for (let waited = 0; ; waited += 200) {
      const running = await one(
        sql`select count(*)::int as n from ${jobs} where name = 'servicing-daily' and state in ('created', 'retry', 'active')`,
      );
      const done = await one(sql`select count(*)::int as n from servicing_runs where finished_at is not null`);
      if (done && !running) break;
      if (waited > 60_000) throw new Error("the start-up daily job did not finish in 60 s");
      await sleep(200);
    }
    // A reporting date a week or more ahead, so the start-up job's own dates are all behind it.
    let asOf = addDays(todayIST(new Date()), 7);
    while (!isReportingDate(asOf)) asOf = addDays(asOf, 1);
    const servicingClock = indiaTime(asOf, "00:30");
    const fileClock = indiaTime(addDays(asOf, 1), "01:00");

    const seeded = performance.now();
    await seedLoanBook(db, { loans: LOANS, today: asOf });
    await checkSeededSchedules(db);
    const panEnc = encrypt(app.services.keyring, "ABCPE1234F");
    await db.execute(sql`
      insert into borrower_profiles (user_id, full_name, date_of_birth, gender, email, pan_enc, pan_hmac, pan_masked, updated_at)
      select u.id, 'Bench Borrower ' || translate(substr(md5(u.id::text), 1, 6), '0123456789', 'ghijklmnop'), '1990-01-01', 'female', 'b' || u.mobile || '@example.in',
        ${panEnc}, md5(u.id::text), 'XXXXX1234X', now()
      from users u where u.role = 'borrower' on conflict do nothing`);
    await db.execute(sql`
      insert into borrower_addresses (user_id, current_line1, current_pincode, current_city, current_district, current_state, permanent_same, updated_at)
      select u.id, 'Flat ' || (u.mobile::bigint % 900 + 1) || ', Shivaji Road', '400001', 'Mumbai', 'Mumbai', 'MAHARASHTRA', true, now()
      from users u where u.role = 'borrower' on conflict do nothing`);
    await db.execute(sql`
      insert into borrower_employment (user_id, employment_type, net_monthly_income_paise, updated_at)
      select u.id, 'salaried', 5000000, now() from users u where u.role = 'borrower' on conflict do nothing`);
    await runServicingDay({ ...app.services, now: () => servicingClock }, asOf);
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seeded) / 1000;
    const active = await one(sql`select count(*)::int as n from loan_applications where status = 'active'`);
    const pastDue = await one(sql`select count(*)::int as n from loan_accounts where dpd > 0`);

    const services = { ...app.services, now: () => fileClock };
    const runs: BureauRun[] = [];
    const timed = async (label: string) => {
      const before = {
        files: await one(sql`select count(*)::int as n from bureau_runs`),
        records: await one(sql`select count(*)::int as n from bureau_records`),
        alerts: await one(sql`select count(*)::int as n from bureau_alerts`),
      };
      const startRssMb = process.memoryUsage().rss / 1024 / 1024;
      const started = performance.now();
      const peakRssMb = await peakRss(() => makeDateFiles(services, asOf));
      const seconds = (performance.now() - started) / 1000;
      runs.push({
        label,
        seconds,
        peakRssMb,
        startRssMb,
        files: (await one(sql`select count(*)::int as n from bureau_runs`)) - before.files,
        records: (await one(sql`select count(*)::int as n from bureau_records`)) - before.records,
        alerts: (await one(sql`select count(*)::int as n from bureau_alerts`)) - before.alerts,
      });
    };
    await timed(`makeDateFiles (${asOf})`);
    await timed(`makeDateFiles (${asOf}) again`);
    const made = await rows<{ id: string; accounts: number; held_back: number; file_key: string; file_bytes: number }>(
      sql`select id, accounts, held_back, file_key, file_bytes from bureau_runs where as_of = ${asOf} and kind = 'regular'`,
    );
    let clean = true;
    for (const run of made) {
      const chunks: Buffer[] = [];
      for await (const chunk of app.services.storage.read(run.file_key)) chunks.push(chunk as Buffer);
      const parsed = parseFile(Buffer.concat(chunks).toString("utf8"));
      clean &&= fileProblems(parsed).length === 0 && parsed.records.length === active;
    }
    const checks: [string, boolean][] = [
      [`a file for each of the ${BUREAUS.length} bureaus`, made.length === BUREAUS.length],
      [`each file holds every active loan (${active}), none held back`, made.every((r) => r.accounts === active && r.held_back === 0)],
      ["each file reads back whole with no problem", clean],
      [`an alert for each loan reported past due (${pastDue})`, runs[0]?.alerts === pastDue],
      ["the second run made nothing", runs[1]?.files === 0 && runs[1]?.records === 0],
    ];
    const failed = checks.filter(([, ok]) => !ok);
    if (failed.length) {
      const held = await rows<{ problems: unknown; n: number }>(
        sql`select problems, count(*)::int as n from bureau_records where held_back group by problems order by n desc limit 3`,
      );
      throw new Error(
        `bureau bench checks failed: ${failed.map(([what]) => what).join("; ")} (held back: ${JSON.stringify(held)}; made: ${JSON.stringify(made.map((m) => [m.accounts, m.held_back]))})`,
      );
    }
    return { loans: LOANS, asOf, seedSeconds, runs, fileMb: (made[0]?.file_bytes ?? 0) / 1024 / 1024, checks };
  } finally {
    await app.stop();
  }
}

export function reportBureau(f: BureauFigures) {
  console.log(
    `\n## Credit bureau files on PostgreSQL: ${f.loans.toLocaleString("en-IN")} active EMI loans as at ${f.asOf} (seeded in ${f.seedSeconds.toFixed(1)} s; each file ${f.fileMb.toFixed(1)} MB)`,
  );
  for (const r of f.runs)
    console.log(
      `  ${r.label.padEnd(34)} ${r.seconds.toFixed(2).padStart(7)} s  RSS ${r.startRssMb.toFixed(0).padStart(5)} → peak ${r.peakRssMb.toFixed(0).padStart(5)} MB  ${r.files} files ${String(r.records).padStart(8)} records ${String(r.alerts).padStart(7)} alerts`,
    );
  for (const [what, ok] of f.checks) console.log(`  ${ok ? "✓" : "✗"} ${what}`);
}
