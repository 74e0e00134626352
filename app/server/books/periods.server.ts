/**
 * Closing a month (docs/product.md "The lender's books"): months close in order, each once it has
 * ended, provisioned (the month-end run, or here as part of closing) and with nothing left in the
 * suspense account; a closed month takes no new entries (the database refuses them), and an event
 * dated in it is journalled on the first open day (`entryDateFor`). Audited.
 */
import { sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { lastDayOf, monthLabel, nextMonth, previousMonth } from "../../domain/books/reports.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { formatRupees } from "../../domain/money.ts";
import { audit } from "../audit.server.ts";
import { accountingPeriods } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { rowsOf } from "./journal.server.ts";
import { provisionMonth } from "./provision.server.ts";

type Services = Pick<AppServices, "db" | "now">;

export interface ClosedMonth {
  month: string;
  closedAt: Date;
  by: string | null;
  note: string;
}

async function closedMonths({ db }: Pick<AppServices, "db">): Promise<ClosedMonth[]> {
  const rows = await rowsOf<{ month: string; closed_at: string | Date; by: string | null; note: string }>(
    db,
    sql`select p.month, p.closed_at, coalesce(u.name, u.email) as by, p.note
      from accounting_periods p left join users u on u.id = p.closed_by order by p.month desc`,
  );
  return rows.map((r) => ({ month: r.month, closedAt: new Date(r.closed_at), by: r.by, note: r.note }));
}

/** The months provisioned: a `provision:{month}` entry, or the month's classification kept (no change to book). */
async function provisionedMonths({ db }: Pick<AppServices, "db">): Promise<Set<string>> {
  const rows = await rowsOf<{ month: string }>(
    db,
    sql`select substr(source_key, 11) as month from journal_entries where kind = 'provision' and source_key like 'provision:%'
      union
      select month from (with recursive m(month) as (
        select max(month) from month_end_classes
        union all select (select max(month) from month_end_classes where month < m.month) from m where m.month is not null)
      select month from m where month is not null) kept`,
  );
  return new Set(rows.map((r) => r.month));
}

async function isProvisioned({ db }: Pick<AppServices, "db">, month: string) {
  const [row] = await rowsOf<{ done: boolean }>(
    db,
    sql`select exists (select 1 from journal_entries where source_key = ${`provision:${month}`})
      or exists (select 1 from month_end_classes where month = ${month}) as done`,
  );
  return Boolean(row?.done);
}

/** The suspense account's balance at the end of `day` (debit positive): differences nobody has explained yet. */
async function suspenseThrough({ db }: Pick<AppServices, "db">, day: IsoDate) {
  const [row] = await rowsOf<{ balance: string | number | null }>(
    db,
    sql`select sum(debit_paise - credit_paise) as balance from journal_lines where purpose = 'books_suspense' and entry_date <= ${day}`,
  );
  return Number(row?.balance ?? 0);
}

async function firstEntryMonth({ db }: Pick<AppServices, "db">): Promise<string | null> {
  const [row] = await rowsOf<{ day: string | null }>(db, sql`select min(entry_date) as day from journal_entries`);
  return row?.day ? row.day.slice(0, 7) : null;
}

/**
 * The month to close next: the one after the last closed; with none closed, the books' first month
 * (of their first entry), or last month when nothing is journalled. Closed months are a prefix.
 */
const nextToClose = (closed: readonly ClosedMonth[], firstMonth: string | null, today: IsoDate) =>
  closed[0] ? nextMonth(closed[0].month) : (firstMonth ?? previousMonth(today.slice(0, 7)));

/**
 * The months of the books (from the month of the first entry, or last month when there is none, to
 * this month), newest first, each open or closed and whether it was provisioned; and the next
 * month to close with what closing it checks.
 */
export async function periodsOverview(services: Services, today: IsoDate) {
  const [firstMonth, closed, provisioned] = await Promise.all([
    firstEntryMonth(services),
    closedMonths(services),
    provisionedMonths(services),
  ]);
  const thisMonth = today.slice(0, 7);
  const candidate = nextToClose(closed, firstMonth, today);
  const earliestClosed = closed.at(-1)?.month;
  const start = [firstMonth ?? candidate, earliestClosed ?? candidate, candidate].sort()[0] ?? candidate;
  const byMonth = new Map(closed.map((c) => [c.month, c]));
  const months = [];
  for (let m = start; m <= thisMonth; m = nextMonth(m)) {
    months.push({
      month: m,
      end: lastDayOf(m),
      ended: lastDayOf(m) < today,
      closed: byMonth.get(m) ?? null,
      provisioned: provisioned.has(m),
    });
  }
  months.reverse();
  const next = {
    month: candidate,
    end: lastDayOf(candidate),
    ended: lastDayOf(candidate) < today,
    provisioned: provisioned.has(candidate),
    suspensePaise: await suspenseThrough(services, lastDayOf(candidate)),
  };
  return { months, lastClosed: closed[0]?.month ?? null, next };
}

export type CloseRefusal = "closed" | "not_ended" | "out_of_order" | "not_provisioned" | "suspense";

/**
 * Closes `month`: refused unless it is the next to close (the month after the last closed, or the
 * books' first), it has ended (its last day is before `today`), it was provisioned (provisioning
 * runs first when it was not) and the suspense account holds nothing at its end. In one transaction with its
 * audit row, the checks made again under a lock that waits for entries being written; a month
 * closed already (the same form sent twice) is refused as `closed`.
 */
export async function closeMonth(
  services: Services,
  { month, note, staff, client, today }: { month: string; note: string; staff: Staff; client: Client; today: IsoDate },
): Promise<{ ok: true; provisionedNow: boolean } | { ok: false; refusal: CloseRefusal; message: string }> {
  const label = monthLabel(month);
  const end = lastDayOf(month);
  const refused = (refusal: CloseRefusal, message: string) => ({ ok: false as const, refusal, message });
  /** Closed already, or out of order: what closing refuses before anything else, and again under the lock. */
  const inTurn = async (db: Pick<AppServices, "db">) => {
    const closed = await closedMonths(db);
    const done = closed.find((c) => c.month === month);
    if (done)
      return refused("closed", `${label} is closed already${done.by ? `, by ${done.by}` : ""}, on ${formatDateTimeIST(done.closedAt)}.`);
    if (closed[0] && closed[0].month > month)
      return refused("closed", `${label} is closed already: ${monthLabel(closed[0].month)}, after it, is closed.`);
    if (end >= today) return refused("not_ended", `${label} has not ended: it can be closed from ${longDate(`${nextMonth(month)}-01`)}.`);
    const next = nextToClose(closed, await firstEntryMonth(db), today);
    if (month > next) return refused("out_of_order", `Close ${monthLabel(next)} first: months close in order, each after the one before.`);
    if (month < next)
      return refused("out_of_order", `Nothing is journalled before ${monthLabel(next)}: it is the books' first month to close.`);
    return null;
  };
  const suspenseRefusal = async (db: Pick<AppServices, "db">) => {
    const balance = await suspenseThrough(db, end);
    if (balance === 0) return null;
    return refused(
      "suspense",
      `The suspense account holds ${formatRupees(Math.abs(balance))} (${balance > 0 ? "debit" : "credit"}) at the end of ${label}: clear it with a correcting entry first.`,
    );
  };
  const first = await inTurn(services);
  if (first) return first;
  let provisionedNow = false;
  if (!(await isProvisioned(services, month))) {
    provisionedNow = (await provisionMonth(services, month)) !== null;
    if (!provisionedNow && !(await isProvisioned(services, month)))
      return refused("not_provisioned", `${label} could not be provisioned. Try again; if it fails again, tell the developers.`);
  }
  const suspense = await suspenseRefusal(services);
  if (suspense) return suspense;
  return services.db.transaction(async (tx) => {
    const db = { db: tx };
    // One close at a time; entries being written finish first (and the checks below see them), new ones wait.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('books_close'))`);
    await tx.execute(sql`lock table journal_entries in share mode`);
    const refusal = (await inTurn(db)) ?? (await suspenseRefusal(db));
    if (refusal) return refusal;
    const at = services.now();
    const inserted = await tx
      .insert(accountingPeriods)
      .values({ month, closedBy: staff.id, closedAt: at, note })
      .onConflictDoNothing()
      .returning({ month: accountingPeriods.month });
    if (inserted.length === 0) return refused("closed", `${label} is closed already.`);
    await audit(db, {
      by: staff,
      client,
      at,
      action: "books.month_closed",
      subject: { type: "accounting_period", id: month },
      details: { month, note, provisionedNow },
    });
    return { ok: true as const, provisionedNow };
  });
}
