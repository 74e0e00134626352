/**
 * What the reconciliation page shows (docs/product.md "The lender's books"): the statements'
 * lines matched and unmatched, the exceptions queue with each item's age, what the books hold that
 * no statement lists yet, the resolved exceptions with who, when and why, and the imports.
 */
import { sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import {
  AGE_BUCKETS,
  ageBucket,
  type AgeBucket,
  type ExceptionReason,
  type LineFilter,
  RECONCILIATION_ENTRY_KINDS,
  type StatementKind,
} from "../../domain/books/reconciliation.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { rowsOf } from "../books/journal.server.ts";

const recon = sql.join(
  RECONCILIATION_ENTRY_KINDS.map((k) => sql`${k}`),
  sql`, `,
);

export interface OpenException {
  id: string;
  kind: StatementKind;
  side: "statement" | "books";
  reason: ExceptionReason;
  providerRef: string;
  lineType: string | null;
  amountPaise: number;
  expectedPaise: number | null;
  eventDate: IsoDate;
  bookedOn: IsoDate | null;
  loanNumber: string | null;
  fileName: string | null;
  rowNo: number | null;
  raisedAt: string;
  bucket: AgeBucket;
}

type Bucketed = Record<AgeBucket, { count: number; paise: number }>;
const emptyBuckets = (): Bucketed => Object.fromEntries(AGE_BUCKETS.map((b) => [b.key, { count: 0, paise: 0 }])) as Bucketed;

export async function reconciliationView(services: Pick<AppServices, "db">, { today, lines }: { today: IsoDate; lines: LineFilter }) {
  const { db } = services;
  const [states, open, openAgeing, awaiting, resolved, imports, lineRows] = await Promise.all([
    rowsOf<{ kind: StatementKind; state: string; n: string; paise: string }>(
      db,
      sql`select kind, state, count(*) as n, coalesce(sum(gross_paise), 0) as paise from statement_lines group by kind, state`,
    ),
    rowsOf<{
      id: string;
      kind: StatementKind;
      side: "statement" | "books";
      reason: ExceptionReason;
      provider_ref: string;
      line_type: string | null;
      amount_paise: string;
      expected_paise: string | null;
      event_date: string;
      booked_on: string | null;
      loan_number: string | null;
      file_name: string | null;
      row_no: number | null;
      raised_at: Date | string;
    }>(
      db,
      sql`
      select e.id, e.kind, e.side, e.reason, e.provider_ref, e.line_type, e.amount_paise, e.expected_paise, e.event_date, e.booked_on,
        a.loan_number, i.file_name, s.row_no, e.raised_at
      from recon_exceptions e
      left join loan_applications a on a.id = e.application_id
      left join statement_lines s on s.id = e.statement_line_id
      left join statement_imports i on i.id = s.import_id
      where e.resolved_at is null
      order by e.event_date, e.raised_at, e.id
      limit 200`,
    ),
    rowsOf<{ event_date: string; n: string; paise: string }>(
      db,
      sql`select event_date, count(*) as n, coalesce(sum(amount_paise), 0) as paise from recon_exceptions where resolved_at is null group by event_date`,
    ),
    // In the books on the clearing or payout account, on no statement yet, and no exception yet (not old enough).
    rowsOf<{ business_date: string; purpose: string; n: string; paise: string }>(
      db,
      sql`
      select je.business_date, jl.purpose, count(*) as n, coalesce(sum(jl.debit_paise + jl.credit_paise), 0) as paise
      from journal_lines jl
      join journal_entries je on je.id = jl.entry_id
      where jl.purpose in ('gateway_clearing', 'payout_account') and jl.provider_ref is not null and je.kind not in (${recon})
        and not exists (select 1 from statement_lines s where s.duplicate_of is null and s.match_purpose = jl.purpose
          and s.match_ref = jl.provider_ref and s.match_side = case when jl.debit_paise > 0 then 'debit' else 'credit' end)
        and not exists (select 1 from recon_exceptions e where e.journal_line_id = jl.id)
      group by je.business_date, jl.purpose`,
    ),
    rowsOf<{
      id: string;
      kind: StatementKind;
      reason: ExceptionReason;
      provider_ref: string;
      amount_paise: string;
      event_date: string;
      resolved_at: Date | string;
      resolution: string;
      resolver: string | null;
      loan_number: string | null;
    }>(
      db,
      sql`
      select e.id, e.kind, e.reason, e.provider_ref, e.amount_paise, e.event_date, e.resolved_at, e.resolution,
        coalesce(u.name, u.email) as resolver, a.loan_number
      from recon_exceptions e
      left join users u on u.id = e.resolved_by
      left join loan_applications a on a.id = e.application_id
      where e.resolved_at is not null
      order by e.resolved_at desc, e.id
      limit 30`,
    ),
    rowsOf<{
      id: string;
      kind: StatementKind;
      provider: string;
      source: string;
      file_name: string;
      line_count: number;
      first_date: string | null;
      last_date: string | null;
      imported_at: Date | string;
      importer: string | null;
      matched: string;
      unmatched: string;
      duplicate: string;
    }>(
      db,
      sql`
      select i.id, i.kind, i.provider, i.source, i.file_name, i.line_count, i.first_date, i.last_date, i.imported_at,
        coalesce(u.name, u.email) as importer,
        count(*) filter (where s.state = 'matched') as matched,
        count(*) filter (where s.state = 'unmatched') as unmatched,
        count(*) filter (where s.state in ('duplicate', 'not_settled')) as duplicate
      from statement_imports i
      left join users u on u.id = i.imported_by
      left join statement_lines s on s.import_id = i.id
      group by i.id, u.name, u.email
      order by i.imported_at desc, i.id
      limit 20`,
    ),
    rowsOf<{
      id: string;
      kind: StatementKind;
      file_name: string;
      row_no: number;
      line_type: string;
      provider_ref: string;
      gross_paise: string;
      fee_paise: string;
      tax_paise: string;
      net_paise: string;
      value_date: string | null;
      settlement_id: string | null;
      utr: string | null;
      state: string;
      loan_number: string | null;
    }>(
      db,
      sql`
      select s.id, s.kind, i.file_name, s.row_no, s.line_type, s.provider_ref, s.gross_paise, s.fee_paise, s.tax_paise, s.net_paise,
        s.value_date, s.settlement_id, s.utr, s.state, a.loan_number
      from statement_lines s
      join statement_imports i on i.id = s.import_id
      left join journal_lines jl on jl.id = s.matched_line_id
      left join loan_applications a on a.id = jl.application_id
      where ${lines === "matched" ? sql`s.state = 'matched'` : lines === "unmatched" ? sql`s.state = 'unmatched'` : sql`true`}
      order by i.imported_at desc, s.id
      limit 50`,
    ),
  ]);

  const totals = { matched: 0, unmatched: 0, duplicate: 0, notSettled: 0 };
  const byKind: Record<StatementKind, typeof totals> = {
    gateway_settlement: { ...totals },
    payout_statement: { ...totals },
  };
  for (const r of states) {
    const k = byKind[r.kind];
    if (r.state === "matched") k.matched += Number(r.n);
    else if (r.state === "unmatched") k.unmatched += Number(r.n);
    else if (r.state === "duplicate") k.duplicate += Number(r.n);
    else if (r.state === "not_settled") k.notSettled += Number(r.n);
  }

  const exceptionsAgeing = emptyBuckets();
  let openCount = 0;
  for (const r of openAgeing) {
    const b = exceptionsAgeing[ageBucket(r.event_date, today)];
    b.count += Number(r.n);
    b.paise += Number(r.paise);
    openCount += Number(r.n);
  }
  const awaitingAgeing = emptyBuckets();
  for (const r of awaiting) {
    const b = awaitingAgeing[ageBucket(r.business_date, today)];
    b.count += Number(r.n);
    b.paise += Number(r.paise);
  }
  const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

  return {
    byKind,
    openCount,
    ageing: AGE_BUCKETS.map((b) => ({ key: b.key, label: b.label, exceptions: exceptionsAgeing[b.key], awaiting: awaitingAgeing[b.key] })),
    open: open.map((r): OpenException => ({
      id: r.id,
      kind: r.kind,
      side: r.side,
      reason: r.reason,
      providerRef: r.provider_ref,
      lineType: r.line_type,
      amountPaise: Number(r.amount_paise),
      expectedPaise: r.expected_paise === null ? null : Number(r.expected_paise),
      eventDate: r.event_date,
      bookedOn: r.booked_on,
      loanNumber: r.loan_number,
      fileName: r.file_name,
      rowNo: r.row_no,
      raisedAt: iso(r.raised_at),
      bucket: ageBucket(r.event_date, today),
    })),
    resolved: resolved.map((r) => ({
      id: r.id,
      kind: r.kind,
      reason: r.reason,
      providerRef: r.provider_ref,
      amountPaise: Number(r.amount_paise),
      eventDate: r.event_date,
      resolvedAt: iso(r.resolved_at),
      resolution: r.resolution,
      resolver: r.resolver,
      loanNumber: r.loan_number,
    })),
    imports: imports.map((r) => ({
      id: r.id,
      kind: r.kind,
      provider: r.provider,
      source: r.source,
      fileName: r.file_name,
      lineCount: r.line_count,
      firstDate: r.first_date,
      lastDate: r.last_date,
      importedAt: iso(r.imported_at),
      importer: r.importer,
      matched: Number(r.matched),
      unmatched: Number(r.unmatched),
      duplicate: Number(r.duplicate),
    })),
    lines: lineRows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      fileName: r.file_name,
      rowNo: r.row_no,
      lineType: r.line_type,
      providerRef: r.provider_ref,
      grossPaise: Number(r.gross_paise),
      feesPaise: Number(r.fee_paise) + Number(r.tax_paise),
      netPaise: Number(r.net_paise),
      valueDate: r.value_date,
      settlement: r.settlement_id ?? r.utr,
      state: r.state,
      loanNumber: r.loan_number,
    })),
  };
}

/** How many exceptions are open (the staff home's count). */
export async function openExceptionCount({ db }: Pick<AppServices, "db">): Promise<number> {
  const [row] = await rowsOf<{ n: string }>(db, sql`select count(*) as n from recon_exceptions where resolved_at is null`);
  return Number(row?.n ?? 0);
}
