/**
 * The finance reports (docs/product.md "The lender's books"): the trial balance for a date, an
 * account's general ledger, the journal searched, the portfolio by asset class and the income of a
 * period, each read from the journal lines and summed in SQL (the indexes on journal_lines
 * (purpose, entry_date), (application_id) and journal_entries (entry_date, entry_no) serve them); a
 * page or an export never holds more than one batch of lines. Read only.
 */
import { type SQL, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { ACCOUNT_TYPE, type AccountPurpose, type AssetClass, type ChartAccount } from "../../domain/books/chart.ts";
import {
  BOOKS_EXPORT_LIMIT,
  type DateRange,
  ENTRY_LINES_SHOWN,
  EXPENSE_PURPOSES,
  INCOME_PURPOSES,
  JOURNAL_PAGE_SIZE,
  type JournalFilter,
  journalFilterQuery,
  sideOf,
} from "../../domain/books/reports.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { audit, type AuditActor } from "../audit.server.ts";
import { rowsOf } from "./journal.server.ts";
import { assetClassOf } from "./provision.server.ts";
import { chartInForce } from "./rules.server.ts";

type Services = Pick<AppServices, "db">;
/** A sum or count as the database returns it (bigint and numeric arrive as text). */
type Num = string | number | null;
const num = (v: Num | undefined) => Number(v ?? 0);

/** Lines an export reads at a time. */
const EXPORT_BATCH = 2_000;
/** Entries a Tally export reads at a time (their lines summed by account in SQL). */
const VOUCHER_BATCH = 500;

/** The chart in force, in the order of its codes, and each purpose's account. */
export async function chartAccounts(services: Services) {
  const chart = await chartInForce(services);
  const accounts = [...chart.accounts].sort((a, b) => a.code.localeCompare(b.code, "en", { numeric: true }));
  const by = new Map(accounts.map((a) => [a.purpose, a]));
  return {
    version: chart.version,
    accounts,
    account: (purpose: AccountPurpose): ChartAccount => by.get(purpose) ?? { purpose, code: "", name: purpose },
  };
}

// ─── Trial balance ──────────────────────────────────────────────────────────

/**
 * Every account of the chart in force with its balance at the end of `on` (journal lines dated up
 * to it), on the debit or the credit side; the two sides' totals agree when every entry balanced.
 */
export async function trialBalance(services: Services, on: IsoDate) {
  const [chart, sums] = await Promise.all([
    chartAccounts(services),
    rowsOf<{ purpose: AccountPurpose; debit: Num; credit: Num }>(
      services.db,
      sql`select purpose, sum(debit_paise) as debit, sum(credit_paise) as credit
        from journal_lines where entry_date <= ${on} group by purpose`,
    ),
  ]);
  const balances = new Map(sums.map((r) => [r.purpose, num(r.debit) - num(r.credit)]));
  const accounts = chart.accounts.map((a) => {
    const balance = balances.get(a.purpose) ?? 0;
    return { ...a, type: ACCOUNT_TYPE[a.purpose].type, balance, ...sideOf(balance) };
  });
  // Every purpose's balance counts, should a line stand on one the chart does not name.
  const totals = [...balances.values()].reduce((t, b) => ({ debit: t.debit + sideOf(b).debit, credit: t.credit + sideOf(b).credit }), {
    debit: 0,
    credit: 0,
  });
  return { on, chartVersion: chart.version, accounts, totals, agree: totals.debit === totals.credit };
}

// ─── General ledger ─────────────────────────────────────────────────────────

/** An account's balance before the period, what the period moved, and its balance at the end. */
export async function ledgerSummary(services: Services, purpose: AccountPurpose, range: DateRange) {
  const [row] = await rowsOf<{ opening: Num; debits: Num; credits: Num; lines: Num }>(
    services.db,
    sql`select
      sum(debit_paise - credit_paise) filter (where entry_date < ${range.from}) as opening,
      sum(debit_paise) filter (where entry_date >= ${range.from}) as debits,
      sum(credit_paise) filter (where entry_date >= ${range.from}) as credits,
      count(*) filter (where entry_date >= ${range.from}) as lines
    from journal_lines where purpose = ${purpose} and entry_date <= ${range.to}`,
  );
  const opening = num(row?.opening);
  const debits = num(row?.debits);
  const credits = num(row?.credits);
  return { opening, debits, credits, closing: opening + debits - credits, lines: num(row?.lines) };
}

export interface LedgerLine {
  id: number;
  entryDate: IsoDate;
  entryNo: number;
  kind: string;
  narration: string;
  loanNumber: string | null;
  debit: number;
  credit: number;
  providerRef: string | null;
  /** The account's balance after this line (debit positive). */
  balance: number;
}

interface LedgerRow {
  id: Num;
  entry_date: string;
  entry_no: Num;
  kind: string;
  narration: string;
  loan_number: string | null;
  debit_paise: Num;
  credit_paise: Num;
  provider_ref: string | null;
  run: Num;
}

const ledgerLine = (r: LedgerRow, before: number): LedgerLine => ({
  id: num(r.id),
  entryDate: r.entry_date,
  entryNo: num(r.entry_no),
  kind: r.kind,
  narration: r.narration,
  loanNumber: r.loan_number,
  debit: num(r.debit_paise),
  credit: num(r.credit_paise),
  providerRef: r.provider_ref,
  balance: before + num(r.run),
});

/** The lines of an account in the period, in the order they were journalled (date, entry number, line). */
const ledgerRows = (purpose: AccountPurpose, range: DateRange, after: SQL | undefined, limit: number) => sql`
  select l.id, l.entry_date, e.entry_no, e.kind, e.narration, a.loan_number, l.debit_paise, l.credit_paise, l.provider_ref
  from journal_lines l
  join journal_entries e on e.id = l.entry_id
  left join loan_applications a on a.id = l.application_id
  where l.purpose = ${purpose} and l.entry_date >= ${range.from} and l.entry_date <= ${range.to}${after ? sql` and ${after}` : sql``}
  order by l.entry_date, e.entry_no, l.id
  limit ${limit}`;

/**
 * One page of an account's ledger with the running balance: the lines before the page are summed
 * in SQL (never sent), so page 2 starts where page 1 ended.
 */
export async function ledgerPage(
  services: Services,
  { purpose, range, opening, page, size }: { purpose: AccountPurpose; range: DateRange; opening: number; page: number; size: number },
): Promise<LedgerLine[]> {
  const offset = (page - 1) * size;
  const rows = await rowsOf<LedgerRow>(
    services.db,
    sql`with r as (${ledgerRows(purpose, range, undefined, offset + size)})
      select *, sum(debit_paise - credit_paise) over (order by entry_date, entry_no, id) as run
      from r order by entry_date, entry_no, id offset ${offset}`,
  );
  return rows.map((r) => ledgerLine(r, opening));
}

/** An account's lines in the period for an export, in batches, the running balance carried on (at most `limit`). */
export async function* ledgerExportBatches(
  services: Services,
  { purpose, range, opening, limit }: { purpose: AccountPurpose; range: DateRange; opening: number; limit: number },
): AsyncGenerator<LedgerLine[]> {
  let balance = opening;
  let last: LedgerLine | null = null;
  for (let sent = 0; sent < limit;) {
    const size = Math.min(EXPORT_BATCH, limit - sent);
    const after: SQL | undefined = last
      ? sql`(l.entry_date, e.entry_no, l.id) > (${last.entryDate}, ${last.entryNo}, ${last.id})`
      : undefined;
    const rows: LedgerRow[] = await rowsOf<LedgerRow>(
      services.db,
      sql`with r as (${ledgerRows(purpose, range, after, size)})
        select *, sum(debit_paise - credit_paise) over (order by entry_date, entry_no, id) as run from r order by entry_date, entry_no, id`,
    );
    if (rows.length === 0) return;
    const lines: LedgerLine[] = rows.map((r) => ledgerLine(r, balance));
    yield lines;
    last = lines.at(-1) ?? null;
    balance = last?.balance ?? balance;
    sent += rows.length;
    if (rows.length < size) return;
  }
}

// ─── Journal ────────────────────────────────────────────────────────────────

/** The loan with this number (its application's id), or null. */
async function loanIdOf(services: Services, loanNumber: string) {
  const [row] = await rowsOf<{ id: string }>(services.db, sql`select id from loan_applications where loan_number = ${loanNumber}`);
  return row?.id ?? null;
}

/** `text` for a LIKE pattern: its wildcards taken literally. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The filter's conditions on journal entries `e` (a loan's entries: about it, or with a line of its subledger). */
function journalWhere(f: JournalFilter, loanId: string | null): SQL {
  const conditions: SQL[] = [sql`true`];
  if (f.from) conditions.push(sql`e.entry_date >= ${f.from}`);
  if (f.to) conditions.push(sql`e.entry_date <= ${f.to}`);
  if (f.kind) conditions.push(sql`e.kind = ${f.kind}`);
  if (f.loan)
    conditions.push(
      loanId
        ? sql`e.id in (select x.id from journal_entries x where x.application_id = ${loanId}
            union select x.entry_id from journal_lines x where x.application_id = ${loanId})`
        : sql`false`,
    );
  if (f.amountPaise)
    conditions.push(
      sql`exists (select 1 from journal_lines x where x.entry_id = e.id and (x.debit_paise = ${f.amountPaise} or x.credit_paise = ${f.amountPaise}))`,
    );
  if (f.text) conditions.push(sql`e.narration ilike ${likeText(f.text)}`);
  return sql.join(conditions, sql` and `);
}

/** The kinds of entry there are (a skip scan of the kind index: one step a kind). */
export async function journalKinds(services: Services): Promise<string[]> {
  const rows = await rowsOf<{ kind: string }>(
    services.db,
    sql`with recursive k(kind) as (
      select min(kind) from journal_entries
      union all select (select min(kind) from journal_entries where kind > k.kind) from k where k.kind is not null)
    select kind from k where kind is not null limit 200`,
  );
  return rows.map((r) => r.kind);
}

export interface JournalLineShown {
  purpose: AccountPurpose;
  loanNumber: string | null;
  debit: number;
  credit: number;
  /** Lines summed into this one (an entry shown by account), 1 otherwise. */
  lines: number;
}

export interface JournalEntryShown {
  id: string;
  entryNo: number;
  entryDate: IsoDate;
  businessDate: IsoDate;
  kind: string;
  narration: string;
  loanNumber: string | null;
  reversesNo: number | null;
  lineCount: number;
  /** Its lines, or (an entry of more than ENTRY_LINES_SHOWN lines) its lines summed by account. */
  lines: JournalLineShown[];
  byAccount: boolean;
  /** With a loan filter, an entry shown by account also lists that loan's own lines. */
  loanLines: JournalLineShown[];
}

/** One page of the journal, newest first, each entry with its lines; and how many entries match. */
export async function journalPage(services: Services, f: JournalFilter) {
  const loanId = f.loan ? await loanIdOf(services, f.loan) : null;
  const where = journalWhere(f, loanId);
  const [[count], entries] = await Promise.all([
    rowsOf<{ n: Num }>(services.db, sql`select count(*) as n from journal_entries e where ${where}`),
    rowsOf<{
      id: string;
      entry_no: Num;
      entry_date: string;
      business_date: string;
      kind: string;
      narration: string;
      loan_number: string | null;
      reverses_no: Num;
      line_count: Num;
    }>(
      services.db,
      sql`select e.id, e.entry_no, e.entry_date, e.business_date, e.kind, e.narration, a.loan_number, r.entry_no as reverses_no,
          (select count(*) from journal_lines c where c.entry_id = e.id) as line_count
        from journal_entries e
        left join loan_applications a on a.id = e.application_id
        left join journal_entries r on r.id = e.reverses_id
        where ${where}
        order by e.entry_date desc, e.entry_no desc
        limit ${JOURNAL_PAGE_SIZE} offset ${(f.page - 1) * JOURNAL_PAGE_SIZE}`,
    ),
  ]);
  const small = entries.filter((e) => num(e.line_count) <= ENTRY_LINES_SHOWN).map((e) => e.id);
  const large = entries.filter((e) => num(e.line_count) > ENTRY_LINES_SHOWN).map((e) => e.id);
  const ids = (list: string[]) =>
    sql.join(
      list.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
  type LineRow = { entry_id: string; purpose: AccountPurpose; loan_number: string | null; debit: Num; credit: Num; lines: Num };
  const [lines, summed, ofLoan] = await Promise.all([
    small.length
      ? rowsOf<LineRow>(
          services.db,
          sql`select l.entry_id, l.purpose, a.loan_number, l.debit_paise as debit, l.credit_paise as credit, 1 as lines
            from journal_lines l left join loan_applications a on a.id = l.application_id
            where l.entry_id in (${ids(small)}) order by l.id`,
        )
      : [],
    large.length
      ? rowsOf<LineRow>(
          services.db,
          sql`select entry_id, purpose, null as loan_number, sum(debit_paise) as debit, sum(credit_paise) as credit, count(*) as lines
            from journal_lines where entry_id in (${ids(large)}) group by entry_id, purpose order by entry_id, purpose`,
        )
      : [],
    large.length && loanId
      ? rowsOf<LineRow>(
          services.db,
          sql`select l.entry_id, l.purpose, ${f.loan}::text as loan_number, l.debit_paise as debit, l.credit_paise as credit, 1 as lines
            from journal_lines l where l.application_id = ${loanId} and l.entry_id in (${ids(large)}) order by l.id`,
        )
      : [],
  ]);
  const shown = (r: LineRow): JournalLineShown => ({
    purpose: r.purpose,
    loanNumber: r.loan_number,
    debit: num(r.debit),
    credit: num(r.credit),
    lines: num(r.lines),
  });
  const of = (rows: LineRow[], id: string) => rows.filter((r) => r.entry_id === id).map(shown);
  return {
    total: num(count?.n),
    loanKnown: !f.loan || loanId !== null,
    entries: entries.map((e): JournalEntryShown => ({
      id: e.id,
      entryNo: num(e.entry_no),
      entryDate: e.entry_date,
      businessDate: e.business_date,
      kind: e.kind,
      narration: e.narration,
      loanNumber: e.loan_number,
      reversesNo: e.reverses_no === null ? null : num(e.reverses_no),
      lineCount: num(e.line_count),
      byAccount: large.includes(e.id),
      lines: large.includes(e.id) ? of(summed, e.id) : of(lines, e.id),
      loanLines: of(ofLoan, e.id),
    })),
  };
}

/**
 * The start of a journal export, audited: the newest entry it may hold (entries journalled later
 * stay out), the loan filtered on, the chart that names the accounts, and how many rows match,
 * counted up to one past the cap (lines for CSV, entries for Tally).
 */
export async function startJournalExport(
  services: Services,
  { filter, format, by, client }: { filter: JournalFilter; format: "csv" | "tally"; by: AuditActor; client: Client },
) {
  const loanId = filter.loan ? await loanIdOf(services, filter.loan) : null;
  const where = journalWhere(filter, loanId);
  const from = format === "csv" ? sql`journal_entries e join journal_lines l on l.entry_id = e.id` : sql`journal_entries e`;
  const [[last], [count], chart] = await Promise.all([
    rowsOf<{ n: Num }>(services.db, sql`select max(entry_no) as n from journal_entries`),
    rowsOf<{ n: Num }>(
      services.db,
      sql`select count(*) as n from (select 1 from ${from} where ${where} limit ${BOOKS_EXPORT_LIMIT + 1}) x`,
    ),
    chartAccounts(services),
  ]);
  const matching = num(count?.n);
  await recordExport(services, {
    by,
    client,
    report: format === "csv" ? "journal_csv" : "journal_tally",
    filters: Object.fromEntries(new URLSearchParams(journalFilterQuery(filter))),
    rows: Math.min(matching, BOOKS_EXPORT_LIMIT),
    matching,
  });
  return { chart, batch: { filter, loanId, upToNo: num(last?.n), limit: BOOKS_EXPORT_LIMIT } };
}

export interface JournalExportLine {
  entryNo: number;
  entryDate: IsoDate;
  businessDate: IsoDate;
  kind: string;
  narration: string;
  lineId: number;
  purpose: AccountPurpose;
  loanNumber: string | null;
  debit: number;
  credit: number;
  providerRef: string | null;
}

interface ExportLineRow {
  entry_no: Num;
  entry_date: string;
  business_date: string;
  kind: string;
  narration: string;
  line_id: Num;
  purpose: AccountPurpose;
  loan_number: string | null;
  debit_paise: Num;
  credit_paise: Num;
  provider_ref: string | null;
}

/** The matching entries' lines, newest entry first, in batches (at most `limit` lines, none journalled after `upToNo`). */
export async function* journalLineBatches(
  services: Services,
  { filter, loanId, upToNo, limit }: { filter: JournalFilter; loanId: string | null; upToNo: number; limit: number },
): AsyncGenerator<JournalExportLine[]> {
  const where = journalWhere(filter, loanId);
  let last: JournalExportLine | null = null;
  for (let sent = 0; sent < limit;) {
    const size = Math.min(EXPORT_BATCH, limit - sent);
    const after: SQL = last
      ? sql`and (e.entry_date < ${last.entryDate} or (e.entry_date = ${last.entryDate} and e.entry_no < ${last.entryNo})
          or (e.entry_no = ${last.entryNo} and l.id > ${last.lineId}))`
      : sql``;
    const rows: ExportLineRow[] = await rowsOf<ExportLineRow>(
      services.db,
      sql`select e.entry_no, e.entry_date, e.business_date, e.kind, e.narration, l.id as line_id, l.purpose, a.loan_number,
          l.debit_paise, l.credit_paise, l.provider_ref
        from journal_entries e
        join journal_lines l on l.entry_id = e.id
        left join loan_applications a on a.id = l.application_id
        where ${where} and e.entry_no <= ${upToNo} ${after}
        order by e.entry_date desc, e.entry_no desc, l.id
        limit ${size}`,
    );
    if (rows.length === 0) return;
    const lines: JournalExportLine[] = rows.map((r): JournalExportLine => ({
      entryNo: num(r.entry_no),
      entryDate: r.entry_date,
      businessDate: r.business_date,
      kind: r.kind,
      narration: r.narration,
      lineId: num(r.line_id),
      purpose: r.purpose,
      loanNumber: r.loan_number,
      debit: num(r.debit_paise),
      credit: num(r.credit_paise),
      providerRef: r.provider_ref,
    }));
    yield lines;
    last = lines.at(-1) ?? null;
    sent += rows.length;
    if (rows.length < size) return;
  }
}

export interface JournalVoucher {
  entryNo: number;
  entryDate: IsoDate;
  narration: string;
  /** The entry's net on each account it moves (debit positive; none zero). */
  lines: { purpose: AccountPurpose; paise: number }[];
}

type VoucherEntryRow = { id: string; entry_no: Num; entry_date: string; narration: string };

/** The matching entries, newest first, each with its lines summed by account in SQL (Tally has no per-loan subledger). */
export async function* journalVoucherBatches(
  services: Services,
  { filter, loanId, upToNo, limit }: { filter: JournalFilter; loanId: string | null; upToNo: number; limit: number },
): AsyncGenerator<JournalVoucher[]> {
  const where = journalWhere(filter, loanId);
  let last: { entryDate: string; entryNo: number } | null = null;
  for (let sent = 0; sent < limit;) {
    const size = Math.min(VOUCHER_BATCH, limit - sent);
    const after: SQL = last ? sql`and (e.entry_date, e.entry_no) < (${last.entryDate}, ${last.entryNo})` : sql``;
    const entries: VoucherEntryRow[] = await rowsOf<VoucherEntryRow>(
      services.db,
      sql`select e.id, e.entry_no, e.entry_date, e.narration from journal_entries e
        where ${where} and e.entry_no <= ${upToNo} ${after}
        order by e.entry_date desc, e.entry_no desc limit ${size}`,
    );
    if (entries.length === 0) return;
    const nets = await rowsOf<{ entry_id: string; purpose: AccountPurpose; net: Num }>(
      services.db,
      sql`select entry_id, purpose, sum(debit_paise - credit_paise) as net from journal_lines
        where entry_id in (${sql.join(
          entries.map((e) => sql`${e.id}::uuid`),
          sql`, `,
        )})
        group by entry_id, purpose having sum(debit_paise - credit_paise) <> 0 order by entry_id, purpose`,
    );
    const byEntry = Map.groupBy(nets, (n) => n.entry_id);
    yield entries.map((e) => ({
      entryNo: num(e.entry_no),
      entryDate: e.entry_date,
      narration: e.narration,
      lines: (byEntry.get(e.id) ?? []).map((n) => ({ purpose: n.purpose, paise: num(n.net) })),
    }));
    const tail: VoucherEntryRow | undefined = entries.at(-1);
    last = tail ? { entryDate: tail.entry_date, entryNo: num(tail.entry_no) } : null;
    sent += entries.length;
    if (entries.length < size) return;
  }
}

// ─── Portfolio ──────────────────────────────────────────────────────────────

export interface PortfolioRow {
  assetClass: AssetClass;
  loans: number;
  principal: number;
  interestReceivable: number;
  /** Held in interest in suspense (a credit balance, shown positive). */
  interestSuspense: number;
  /** Principal and interest receivable less interest in suspense (what provisioning reads), no loan below 0. */
  bookValue: number;
  /** Held in the provision for loan losses (a credit balance, shown positive). */
  provision: number;
}

const byClass = <R extends { assetClass: AssetClass; loans: number }>(rows: R[], zero: (c: AssetClass) => R, classes: AssetClass[]) =>
  classes.map((c) => rows.find((r) => r.assetClass === c) ?? zero(c));

/** The active loans now, by RBI's asset class as at `today`: their balances in the books (the positions kept with every line). */
export async function portfolioNow(services: Services, today: IsoDate): Promise<PortfolioRow[]> {
  const rows = await rowsOf<{
    asset_class: AssetClass;
    loans: Num;
    principal: Num;
    interest: Num;
    suspense: Num;
    book: Num;
    provision: Num;
  }>(
    services.db,
    sql`with loans as (
        select c.application_id, ${assetClassOf(today)} as asset_class
        from loan_accounts c join loan_applications a on a.id = c.application_id
        where a.status = 'active'),
      pos as (
        select b.application_id,
          sum(b.balance_paise) filter (where b.purpose = 'loans_receivable') as principal,
          sum(b.balance_paise) filter (where b.purpose = 'interest_receivable') as interest,
          sum(-b.balance_paise) filter (where b.purpose = 'interest_suspense') as suspense,
          sum(-b.balance_paise) filter (where b.purpose = 'loan_loss_provision') as provision
        from book_positions b join loans using (application_id)
        where b.purpose in ('loans_receivable', 'interest_receivable', 'interest_suspense', 'loan_loss_provision')
        group by b.application_id)
      select asset_class, count(*) as loans, sum(principal) as principal, sum(interest) as interest, sum(suspense) as suspense,
        sum(greatest(0, coalesce(principal, 0) + coalesce(interest, 0) - coalesce(suspense, 0))) as book, sum(provision) as provision
      from loans left join pos using (application_id)
      group by asset_class`,
  );
  const found = rows.map((r): PortfolioRow => ({
    assetClass: r.asset_class,
    loans: num(r.loans),
    principal: num(r.principal),
    interestReceivable: num(r.interest),
    interestSuspense: num(r.suspense),
    bookValue: num(r.book),
    provision: num(r.provision),
  }));
  return byClass(
    found,
    (assetClass) => ({ assetClass, loans: 0, principal: 0, interestReceivable: 0, interestSuspense: 0, bookValue: 0, provision: 0 }),
    ["standard", "sub_standard", "doubtful"],
  );
}

/** The months whose month-end classification is kept, newest first (a skip scan of its key). */
export async function monthEndMonths(services: Services): Promise<string[]> {
  const rows = await rowsOf<{ month: string }>(
    services.db,
    sql`with recursive m(month) as (
      select max(month) from month_end_classes
      union all select (select max(month) from month_end_classes where month < m.month) from m where m.month is not null)
    select month from m where month is not null limit 240`,
  );
  return rows.map((r) => r.month);
}

export interface MonthEndRow {
  assetClass: AssetClass;
  loans: number;
  bookValue: number;
  provision: number;
}

/** A month end's kept classification, by asset class: loans, book value and the provision required. */
export async function portfolioAtMonthEnd(services: Services, month: string): Promise<MonthEndRow[]> {
  const rows = await rowsOf<{ asset_class: AssetClass; loans: Num; book: Num; provision: Num }>(
    services.db,
    sql`select asset_class, count(*) as loans, sum(book_value_paise) as book, sum(provision_paise) as provision
      from month_end_classes where month = ${month} group by asset_class`,
  );
  const found = rows.map((r): MonthEndRow => ({
    assetClass: r.asset_class,
    loans: num(r.loans),
    bookValue: num(r.book),
    provision: num(r.provision),
  }));
  const classes: AssetClass[] = ["standard", "sub_standard", "doubtful"];
  if (found.some((r) => r.assetClass === "loss")) classes.push("loss");
  return byClass(found, (assetClass) => ({ assetClass, loans: 0, bookValue: 0, provision: 0 }), classes);
}

/** The active loans now and a month end's classification: the one asked for when it was kept, else the latest kept. */
export async function portfolioReport(services: Services, { asked, today }: { asked: string | null; today: IsoDate }) {
  const [now, months] = await Promise.all([portfolioNow(services, today), monthEndMonths(services)]);
  const month = asked && months.includes(asked) ? asked : (months[0] ?? null);
  const monthEnd = month ? await portfolioAtMonthEnd(services, month) : [];
  return { now, months, month, monthEnd };
}

// ─── Income ─────────────────────────────────────────────────────────────────

/**
 * Each income and expense account's movement in the period (income: credits less debits; expense:
 * debits less credits), their totals and the net.
 */
export async function incomeStatement(services: Services, range: DateRange) {
  const purposes = [...INCOME_PURPOSES, ...EXPENSE_PURPOSES];
  const [chart, sums] = await Promise.all([
    chartAccounts(services),
    rowsOf<{ purpose: AccountPurpose; debit: Num; credit: Num }>(
      services.db,
      sql`select purpose, sum(debit_paise) as debit, sum(credit_paise) as credit from journal_lines
        where purpose in (${sql.join(
          purposes.map((p) => sql`${p}`),
          sql`, `,
        )}) and entry_date >= ${range.from} and entry_date <= ${range.to}
        group by purpose`,
    ),
  ]);
  const by = new Map(sums.map((r) => [r.purpose, { debits: num(r.debit), credits: num(r.credit) }]));
  const line = (purpose: AccountPurpose) => {
    const { debits, credits } = by.get(purpose) ?? { debits: 0, credits: 0 };
    const income = ACCOUNT_TYPE[purpose].type === "income";
    return { ...chart.account(purpose), debits, credits, movement: income ? credits - debits : debits - credits };
  };
  const order = (a: ChartAccount, b: ChartAccount) => a.code.localeCompare(b.code, "en", { numeric: true });
  const income = INCOME_PURPOSES.map(line).sort(order);
  const expenses = EXPENSE_PURPOSES.map(line).sort(order);
  const totalIncome = income.reduce((s, l) => s + l.movement, 0);
  const totalExpenses = expenses.reduce((s, l) => s + l.movement, 0);
  return { range, income, expenses, totalIncome, totalExpenses, net: totalIncome - totalExpenses };
}

// ─── Exports ────────────────────────────────────────────────────────────────

/** An export of the books, audited before it is sent: which report, with what filters, how many rows (and how many matched, when capped). */
export async function recordExport(
  services: Services,
  {
    by,
    client,
    report,
    filters,
    rows,
    matching,
  }: { by: AuditActor; client: Client; report: string; filters: Record<string, unknown>; rows: number; matching?: number },
) {
  await audit(services, {
    by,
    client,
    at: "database",
    action: "books.exported",
    subject: { type: "books_report", id: report },
    details: { report, filters, rows, ...(matching !== undefined && matching > rows ? { matching } : {}) },
  });
}
