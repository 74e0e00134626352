// The books for `npm run bench` (BENCH_ONLY=books for this part alone), on PostgreSQL in a schema of its own:
// the daily accrual, NPA flagging and month-end provisioning over BENCH_BOOKS_LOANS (100,000; 2,000 with
// BENCH_PROFILE=ci) active EMI loans, seeded as bench-servicing.ts seeds its book (seedLoanBook, as of a day D),
// then brought into the books set-based as an installation whose books are up to date would have them: each
// loan's accrual basis (its periods, from the schedule), accrued to D − 1, its principal outstanding in loans
// receivable (the book's other positions left at nothing: they do not change what is timed), its ledger booked. The figures of D
// are written by the daily servicing run itself first (runServicingDay for D, not timed). Then, each timed on
// its own (wall seconds, journal lines and entries written):
//  - accrueThrough (D): one entry per product for D, a line per loan (and, for the NPA loans, its suspense line);
//  - accrueThrough (D) again: nothing;
//  - flagNpa (D): the borrowers over 90 days past due classified (the seeded book has none that late: a pass over
//    every active loan that changes nothing, the daily cost);
//  - provisionMonth (the month ending D, or the one before): every loan's provision to its class's rate, its
//    classification kept (month_end_classes);
//  - provisionMonth again: nothing;
//  - bookLoan for BENCH_BOOKS_BACKFILL (1,000) loans whose ledgers were not booked: the per-loan cost of booking an
//    installation's history (and of the booking each payment now does).
// Checked in SQL (the part throws if one fails): every entry balanced; the accrual's lines = active loans with
// interest accruing on D; its interest = the sum over the loans of what their periods accrue on D (worked out here
// on its own); the second runs wrote nothing; the provision lines' total = the entry's expense line.
import { type SQL, sql } from "drizzle-orm";
import { addDays, type IsoDate } from "../app/domain/loan-math.ts";
import { indiaTime, todayIST } from "../app/domain/india-date.ts";
import { bringIntoBooks, checkSeededSchedules, seedLoanBook } from "./bench-seed.ts";

const CI_PROFILE = process.env.BENCH_PROFILE === "ci";
const LOANS = Number(process.env.BENCH_BOOKS_LOANS ?? (CI_PROFILE ? 2_000 : 100_000));
const BACKFILL = Number(process.env.BENCH_BOOKS_BACKFILL ?? (CI_PROFILE ? 200 : 1_000));
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { runServicingDay } = await import("../app/server/servicing/daily.server.ts");
const { accrueThrough, flagNpa } = await import("../app/server/books/daily.server.ts");
const { provisionMonth } = await import("../app/server/books/provision.server.ts");
const { bookLoan } = await import("../app/server/books/book-loan.server.ts");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface BooksRun {
  label: string;
  seconds: number;
  entries: number;
  lines: number;
  /** Other rows the run wrote (classifications, positions changed). */
  other: string;
}

export interface BooksFigures {
  loans: number;
  day: IsoDate;
  seedSeconds: number;
  runs: BooksRun[];
  backfill: { loans: number; seconds: number; msPerLoan: number; entries: number; lines: number };
  checks: [string, boolean][];
}

export async function booksBench(): Promise<BooksFigures> {
  const app = await startTestServer({ APP_ENV: "local", LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent" });
  try {
    const db = app.services.db;
    const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const one = async (query: SQL) => Number((await rows<{ n: number | string }>(query))[0]?.n ?? 0);
    const [{ schema = "" } = {}] = await rows<{ schema: string }>(sql`select current_schema() as schema`);
    const jobs = sql.raw(`"${schema}_jobs".job`);
    const realToday = todayIST(new Date());
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
    const day = addDays(realToday, 7);
    const clock = indiaTime(day, "00:30");
    const services = { ...app.services, now: () => clock };

    const seeded = performance.now();
    await seedLoanBook(db, { loans: LOANS, today: day });
    await checkSeededSchedules(db);
    await runServicingDay(services, day);
    // The servicing run booked the loans it levied a charge on (bookLoan, from their disbursal). The rest into the books, set-based: the accrual basis from the schedule, accrued to D − 1, the positions it implies,
    // every ledger entry booked but BACKFILL loans' (booked by bookLoan below, timed).
    await bringIntoBooks(db, { day });
    const backfillIds = (
      await rows<{ id: string }>(
        sql`select application_id as id from loan_accounts c where not exists (select 1 from journal_entries j where j.application_id = c.application_id) order by application_id limit ${BACKFILL}`,
      )
    ).map((r) => r.id);
    await db.execute(
      sql`update loan_accounts set booked_through = 0 where application_id in (select application_id from loan_accounts c where not exists (select 1 from journal_entries j where j.application_id = c.application_id) order by application_id limit ${BACKFILL})`,
    );
    await db.execute(
      sql`delete from book_positions where application_id in (select application_id from loan_accounts c where not exists (select 1 from journal_entries j where j.application_id = c.application_id) order by application_id limit ${BACKFILL})`,
    );
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seeded) / 1000;

    const counts = async () => ({
      entries: await one(sql`select count(*)::int as n from journal_entries`),
      lines: await one(sql`select count(*)::int as n from journal_lines`),
      classes: await one(sql`select count(*)::int as n from month_end_classes`),
      npa: await one(sql`select count(*)::int as n from loan_accounts where npa_since is not null`),
    });
    const runs: BooksRun[] = [];
    const timed = async (label: string, run: () => Promise<unknown>) => {
      const before = await counts();
      const started = performance.now();
      await run();
      const seconds = (performance.now() - started) / 1000;
      const after = await counts();
      runs.push({
        label,
        seconds,
        entries: after.entries - before.entries,
        lines: after.lines - before.lines,
        other: `${after.classes - before.classes} classifications, ${after.npa - before.npa} loans newly NPA`,
      });
    };
    const expectedInterest = await one(sql`
      select coalesce(sum(case when ${day} >= b.due_date then b.interest_paise
          - floor(b.interest_paise::numeric / (b.due_date::date - b.from_date::date)) * (b.due_date::date - b.from_date::date - 1)
        else floor(b.interest_paise::numeric / (b.due_date::date - b.from_date::date)) end), 0)::bigint as n
      from accrual_basis b join loan_applications a on a.id = b.application_id and a.status = 'active'
      join loan_accounts c on c.application_id = b.application_id
      where b.from_date < ${day} and b.due_date >= ${day}`);
    const accruing = await one(sql`
      select count(distinct b.application_id)::int as n from accrual_basis b
      join loan_applications a on a.id = b.application_id and a.status = 'active'
      where b.from_date < ${day} and b.due_date >= ${day}`);
    await timed("accrueThrough (D)", () => accrueThrough(services, day));
    const accrualLines = runs[0]?.lines ?? 0;
    const accrued = await one(
      sql`select coalesce(sum(l.debit_paise), 0)::bigint as n from journal_lines l join journal_entries e on e.id = l.entry_id
          where e.kind = 'accrual' and e.business_date = ${day} and l.purpose = 'interest_receivable'`,
    );
    await timed("accrueThrough (D) again", () => accrueThrough(services, day));
    await timed("flagNpa (D)", () => flagNpa(services, day));
    const month = (day.slice(8) >= "28" ? day : addDays(`${day.slice(0, 8)}01`, -1)).slice(0, 7);
    await timed(`provisionMonth (${month})`, () => provisionMonth(services, month));
    const provisionLines = runs.at(-1)?.lines ?? 0;
    await timed(`provisionMonth (${month}) again`, () => provisionMonth(services, month));
    const before = await counts();
    const started = performance.now();
    for (const id of backfillIds)
      await db.transaction(async (tx) => {
        await tx.execute(sql`select id from loan_applications where id = ${id} for update`);
        await bookLoan({ ...services, db: tx }, { applicationId: id });
      });
    const backfillSeconds = (performance.now() - started) / 1000;
    const after = await counts();
    const unbalanced = await one(sql`
      select count(*)::int as n from (select entry_id from journal_lines group by entry_id having sum(debit_paise) <> sum(credit_paise)) u`);
    const provisionBalanced = await one(sql`
      select count(*)::int as n from journal_entries e where e.kind = 'provision'
        and (select sum(debit_paise - credit_paise) from journal_lines l where l.entry_id = e.id) = 0`);
    const checks: [string, boolean][] = [
      ["every journal entry balances", unbalanced === 0],
      [
        `the accrual wrote a line per loan accruing on D (${accrualLines} lines, ${accruing} loans)`,
        accrualLines === accruing + (runs[0]?.entries ?? 0),
      ],
      [`the accrual's interest is what the periods accrue on D (${accrued} paise)`, accrued === expectedInterest],
      ["the accrual again wrote nothing", (runs[1]?.lines ?? -1) === 0],
      [`provisioning wrote a line per loan and its expense (${provisionLines} lines)`, provisionLines > 0 && provisionBalanced === 1],
      ["provisioning again wrote nothing", (runs.at(-1)?.lines ?? -1) === 0],
      [`the backfill booked every one of its ${BACKFILL} loans`, after.entries - before.entries >= BACKFILL],
    ];
    const failed = checks.filter(([, ok]) => !ok);
    if (failed.length) throw new Error(`books bench checks failed: ${failed.map(([what]) => what).join("; ")}`);
    return {
      loans: LOANS,
      day,
      seedSeconds,
      runs,
      backfill: {
        loans: BACKFILL,
        seconds: backfillSeconds,
        msPerLoan: (backfillSeconds * 1000) / BACKFILL,
        entries: after.entries - before.entries,
        lines: after.lines - before.lines,
      },
      checks,
    };
  } finally {
    await app.stop();
  }
}

export function reportBooks(f: BooksFigures) {
  console.log(
    `\n## Books on PostgreSQL: ${f.loans.toLocaleString("en-IN")} active EMI loans, day ${f.day} (seeded in ${f.seedSeconds.toFixed(1)} s)`,
  );
  for (const r of f.runs)
    console.log(
      `  ${r.label.padEnd(34)} ${r.seconds.toFixed(2).padStart(7)} s  ${String(r.entries).padStart(3)} entries ${String(r.lines).padStart(8)} lines  ${r.other}`,
    );
  console.log(
    `  bookLoan over ${f.backfill.loans} unbooked ledgers: ${f.backfill.seconds.toFixed(2)} s (${f.backfill.msPerLoan.toFixed(1)} ms a loan), ${f.backfill.entries} entries, ${f.backfill.lines} lines`,
  );
  for (const [what, ok] of f.checks) console.log(`  ${ok ? "✓" : "✗"} ${what}`);
}
