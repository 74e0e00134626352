// `node scripts/bench-partitioning.ts`, by hand (docs/decisions/0011-ledger-partitioning.md): journal_lines as the
// product has it (its columns and indexes) beside the same table partitioned by month on entry_date, in a database
// of its own (bench_partitioning, dropped and made again; the partitioned one's primary key (id, entry_date): a
// partitioned table's unique keys hold its partition key), each filled with the lines the night's accrual writes:
// BENCH_PARTITION_LOANS (100,000) loans × BENCH_PARTITION_DAYS (180) days, one interest_receivable line a loan a
// day (the journal's bulk: a loan's ledger has a few rows a month, its journal a line a day). Then, on each:
//  - the night's accrual lines of one more day inserted (INSERT … SELECT, as accruePart writes them);
//  - a loan's lines (its page and statement read the journal by application_id), 200 loans;
//  - a month's movements by account (the reports' query on purpose and entry_date);
//  - VACUUM (after a month's lines deleted and written again: the dead rows a correction leaves), and the sizes.
// Each measurement on both tables one after the other; wall times, best of 3 where a query is repeated.
import pg from "pg";
import { freshDatabase, loadAverage } from "./bench-measure.ts";

const LOANS = Number(process.env.BENCH_PARTITION_LOANS ?? 100_000);
const DAYS = Number(process.env.BENCH_PARTITION_DAYS ?? 180);
const ADMIN_URL = process.env.BENCH_DAILY_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "bench_partitioning";
const START = "2026-01-01";

const database = await freshDatabase(ADMIN_URL, DATABASE);
const db = new pg.Client({ connectionString: database.url });
await db.connect();
const load = loadAverage;
const timed = async (query: string, params: unknown[] = []) => {
  const t = performance.now();
  await db.query(query, params);
  return (performance.now() - t) / 1000;
};
const columns = `id bigserial, entry_id uuid not null, entry_date text not null, purpose text not null,
  application_id uuid, debit_paise bigint not null default 0, credit_paise bigint not null default 0, provider_ref text,
  check (debit_paise >= 0 and credit_paise >= 0 and (debit_paise = 0) <> (credit_paise = 0))`;
const indexes = (t: string) => [
  `create index on ${t} (entry_id)`,
  `create index on ${t} (purpose, entry_date)`,
  `create index on ${t} (application_id)`,
  `create index on ${t} (provider_ref) where provider_ref is not null`,
];
const months = [
  ...new Set(Array.from({ length: DAYS + 40 }, (_, d) => new Date(Date.parse(START) + d * 86_400_000).toISOString().slice(0, 7))),
];

await db.query(`create table loans as select gen_random_uuid() as id from generate_series(1, ${LOANS})`);
await db.query(`create table plain (${columns}, primary key (id))`);
await db.query(`create table parted (${columns}, primary key (id, entry_date)) partition by range (entry_date)`);
for (const m of months) {
  const [y, mo] = m.split("-").map(Number) as [number, number];
  const next = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, "0")}`;
  await db.query(`create table parted_${m.replace("-", "_")} partition of parted for values from ('${m}-01') to ('${next}-01')`);
}
for (const t of ["plain", "parted"]) for (const q of indexes(t)) await db.query(q);

const day = (d: number) => new Date(Date.parse(START) + d * 86_400_000).toISOString().slice(0, 10);
const fill = (t: string, from: number, to: number) =>
  timed(`insert into ${t} (entry_id, entry_date, purpose, application_id, debit_paise)
    select md5(d::text)::uuid, to_char(date '${START}' + d, 'YYYY-MM-DD'), 'interest_receivable', l.id, 1000 + (hashtext(l.id::text) & 1023)
    from generate_series(${from}, ${to}) d cross join loans l`);
const figures: Record<string, Record<string, string>> = { plain: {}, parted: {} };
const tables = ["plain", "parted"] as const;
/** Each measurement taken on both tables one after the other (the machine's load alike for both). */
const both = async (what: string, measure: (t: (typeof tables)[number]) => Promise<string>) => {
  for (const t of tables) {
    const f = figures[t] ?? {};
    f[what] = await measure(t);
    figures[t] = f;
  }
};
await both(`filled (${(LOANS * DAYS).toLocaleString("en-IN")} lines), s`, async (t) => {
  let filled = 0;
  for (let d = 0; d < DAYS; d += 30) filled += await fill(t, d, Math.min(DAYS, d + 30) - 1);
  await db.query(`vacuum analyze ${t}`);
  return filled.toFixed(0);
});
await both("one night's accrual lines inserted, s", async (t) => (await fill(t, DAYS, DAYS)).toFixed(2));
const sample = (await db.query<{ id: string }>(`select id from loans order by md5(id::text) limit 200`)).rows.map((r) => r.id);
await both("a loan's lines (ms, best of 3 × 200 loans)", async (t) => {
  const loanReads: number[] = [];
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    for (const id of sample) await db.query(`select * from ${t} where application_id = $1 order by entry_date`, [id]);
    loanReads.push((performance.now() - t0) / sample.length);
  }
  return Math.min(...loanReads).toFixed(2);
});
const month = day(DAYS - 45).slice(0, 7);
await both(`a month's movements by account (s, best of 3)`, async (t) => {
  const monthly: number[] = [];
  for (let round = 0; round < 3; round++)
    monthly.push(
      await timed(`select purpose, sum(debit_paise), sum(credit_paise) from ${t} where entry_date between $1 and $2 group by purpose`, [
        `${month}-01`,
        `${month}-31`,
      ]),
    );
  return Math.min(...monthly).toFixed(2);
});
await both("a month's lines deleted and written again, s", async (t) =>
  (
    (await timed(`delete from ${t} where entry_date between $1 and $2`, [`${month}-01`, `${month}-31`])) +
    (await timed(`insert into ${t} (entry_id, entry_date, purpose, application_id, debit_paise)
      select md5(d::text)::uuid, to_char(date '${START}' + d, 'YYYY-MM-DD'), 'interest_receivable', l.id, 1
      from generate_series(${DAYS - 45 - 15}, ${DAYS - 45 + 15}) d cross join loans l where to_char(date '${START}' + d, 'YYYY-MM') = '${month}'`))
  ).toFixed(0),
);
await both("VACUUM afterwards, s", async (t) => (await timed(`vacuum ${t}`)).toFixed(1));
const mib = (x: string | undefined) => (Number(x ?? 0) / 2 ** 20).toFixed(0);
for (const t of tables) {
  const size = await db.query<{ table: string; indexes: string }>(
    t === "plain"
      ? `select pg_table_size('plain') as table, pg_indexes_size('plain') as indexes`
      : `select sum(pg_table_size(c.oid)) as table, sum(pg_indexes_size(c.oid)) as indexes from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'parted'::regclass`,
  );
  const f = figures[t] ?? {};
  f["table MiB"] = mib(size.rows[0]?.table);
  f["indexes MiB"] = mib(size.rows[0]?.indexes);
}
console.log(`load average at the end: ${load()}`);
console.log(`\n## journal_lines plain and partitioned by month: ${LOANS.toLocaleString("en-IN")} loans × ${DAYS} days`);
console.table(figures);
await db.end();
await database.drop();
await database.end();
