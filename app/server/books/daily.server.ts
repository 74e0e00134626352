/**
 * The books' part of the daily run (docs/product.md "The lender's books"), after servicing: any
 * ledger entry not yet journalled is booked; borrowers are classified NPA or upgraded; interest
 * accrues for each business date (one entry per product per day, a line per loan), idempotently
 * and catching up missed days; each month that has ended is provisioned once.
 */
import { and, eq, isNotNull, isNull, lt, min, type SQL, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { todayIST } from "../../domain/india-date.ts";
import { journalEntries, loanAccounts, loanApplications } from "../db/schema.ts";
import { bookLoan, loansToBook, reconcileLoans } from "./book-loan.server.ts";
import { entryDateOf, rowsOf } from "./journal.server.ts";
import { provisionMonthsEnded } from "./provision.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "log">;

const LOAN_KINDS = ["emi", "salary_advance"] as const;
const KIND_LABEL = { emi: "EMI loans", salary_advance: "salary advances" } as const;

/** One loan in its own transaction, locked as every writer of its ledger locks it. */
async function withLoanLocked<S extends Pick<AppServices, "db">, T>(
  services: S,
  applicationId: string,
  work: (s: S) => Promise<T>,
): Promise<T> {
  return services.db.transaction(async (tx) => {
    await tx.select({ id: loanApplications.id }).from(loanApplications).where(eq(loanApplications.id, applicationId)).for("update");
    return work({ ...services, db: tx });
  });
}

/** Ledger entries not journalled yet (an installation that had no books, or a booking that failed), booked: in pages by id, each loan once a run. */
export async function bookPending(services: Services): Promise<number> {
  let booked = 0;
  let after: string | undefined;
  for (;;) {
    const ids = await loansToBook(services, { after });
    if (ids.length === 0) return booked;
    for (const id of ids) {
      try {
        await withLoanLocked(services, id, (s) => bookLoan(s, { applicationId: id }));
        booked++;
      } catch (error) {
        services.log.error({ err: error, applicationId: id }, "a loan's ledger could not be journalled");
      }
    }
    after = ids[ids.length - 1];
  }
}

/** Loans of borrowers in arrears: their active and written-off loans (a write-off pays no arrears). */
const BORROWER_LOANS = sql.raw(
  `loan_accounts c2 join loan_applications a2 on a2.id = c2.application_id and a2.status in ('active', 'written_off')`,
);

/**
 * NPA per borrower, flagged daily: when any loan of a borrower (active, or written off) is over 90
 * days past due, all their active loans are NPA from today; a borrower is upgraded only when none
 * of their loans has anything overdue or a penal charge unpaid. Each loan's flag moves in one
 * transaction with its suspense (`reconcileLoans`), the loan locked as every writer locks it, so a
 * failure leaves it to be flagged again the next day. Returns the loans whose flag changed.
 */
export async function flagNpa(
  services: Pick<AppServices, "db" | "config" | "now">,
  today: IsoDate,
): Promise<{ down: string[]; up: string[] }> {
  const candidates = async (query: SQL) => (await rowsOf<{ id: string }>(services.db, query)).map((r) => r.id);
  const down = await candidates(sql`
    select c.application_id as id from loan_accounts c join loan_applications a on a.id = c.application_id
    where a.status = 'active' and c.npa_since is null
      and a.user_id in (select a2.user_id from ${BORROWER_LOANS} where c2.dpd > 90)
    order by c.application_id`);
  const up = await candidates(sql`
    select c.application_id as id from loan_accounts c join loan_applications a on a.id = c.application_id
    where a.status = 'active' and c.npa_since is not null
      and not exists (select 1 from ${BORROWER_LOANS}
        where a2.user_id = a.user_id and (c2.overdue_paise > 0 or c2.penal_due_paise > 0 or c2.dpd > 90))
    order by c.application_id`);
  const changed = { down: [] as string[], up: [] as string[] };
  for (const [ids, to, list, narration] of [
    [down, today, changed.down, (n: string) => `${n} classified NPA: interest accrued and unpaid moved to interest in suspense`],
    [up, null, changed.up, (n: string) => `${n} upgraded to standard: all arrears paid; interest in suspense recognised`],
  ] as const)
    for (const id of ids)
      await withLoanLocked(services, id, async (s) => {
        const moved = await s.db
          .update(loanAccounts)
          .set({ npaSince: to })
          .where(and(eq(loanAccounts.applicationId, id), to ? isNull(loanAccounts.npaSince) : isNotNull(loanAccounts.npaSince)))
          .returning({ id: loanAccounts.applicationId });
        if (moved.length === 0) return;
        await reconcileLoans(s, { applicationIds: [id], kind: "npa", businessDate: today, narration });
        list.push(id);
      });
  return changed;
}

/** The accrual of a day is done in 16 parts by the first hex digit of the loan's id: short transactions, each once. */
const ACCRUAL_PARTS = [..."0123456789abcdef"];

/**
 * The interest (and, under Ind AS, the fee amortised) that accrued on `day` for one kind of loan:
 * for each active loan accrued to before `day`, what its basis accrues from the day after its last
 * accrual to `day` (each period's interest the same whole paise a day, the remainder on its due
 * date: `accruedBy` in domain/books/positions.ts). One entry per part of the book (by the loan's
 * id), each in its own transaction with the loans' accrual date moved on: idempotent per part, and
 * the loans' rows locked in the order every other writer locks them (the account, then its
 * positions) and only for one part at a time.
 */
export async function accrueDay(
  services: Pick<AppServices, "db" | "now">,
  { day, kind }: { day: IsoDate; kind: "emi" | "salary_advance" },
) {
  const out = { loans: 0, lines: 0, entries: 0, interestPaise: 0, settled: [] as string[] };
  // Only the parts holding a loan to accrue.
  const parts = await rowsOf<{ part: string }>(
    services.db,
    sql`select left(c.application_id::text, 1) as part from loan_accounts c
      join loan_applications a on a.id = c.application_id and a.status = 'active'
      where c.kind = ${kind} and c.accrued_through < ${day} group by 1`,
  );
  const due = new Set(parts.map((p) => p.part));
  for (const part of ACCRUAL_PARTS.filter((p) => due.has(p))) {
    const done = await accruePart(services, { day, kind, part });
    out.loans += done.loans;
    out.lines += done.lines;
    out.entries += done.lines ? 1 : 0;
    out.interestPaise += done.interestPaise;
    out.settled.push(...done.settled);
  }
  return out;
}

async function accruePart(
  services: Pick<AppServices, "db" | "now">,
  { day, kind, part }: { day: IsoDate; kind: "emi" | "salary_advance"; part: string },
) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a business date: ${day}`);
  const none = { loans: 0, lines: 0, interestPaise: 0, settled: [] as string[] };
  return services.db.transaction(async (tx) => {
    const acc = (amount: string, through: string) =>
      sql.raw(`case when ${through} <= b.from_date then 0
      when ${through} >= b.due_date then b.${amount}
      else floor(b.${amount}::numeric / (b.due_date::date - b.from_date::date))::bigint * (${through}::date - b.from_date::date) end`);
    await tx.execute(sql`create temp table accrual_today on commit drop as
      select c.application_id, (c.npa_since is not null) as npa,
        coalesce(sum(${acc("interest_paise", `'${day}'`)} - ${acc("interest_paise", "c.accrued_through")}), 0)::bigint as interest,
        coalesce(sum(${acc("fee_paise", `'${day}'`)} - ${acc("fee_paise", "c.accrued_through")}), 0)::bigint as fee
      from loan_accounts c
      join loan_applications a on a.id = c.application_id and a.status = 'active'
      left join accrual_basis b on b.application_id = c.application_id and b.due_date > c.accrued_through and b.from_date < ${day}
      where c.kind = ${kind} and c.accrued_through < ${day} and left(c.application_id::text, 1) = ${part}
      group by c.application_id, c.npa_since`);
    const [sums] = await rowsOf<{ loans: number; lines: number; interest: string | null; income: string | null; fee: string | null }>(
      tx,
      sql`select count(*)::int as loans,
        (count(*) filter (where interest <> 0) + count(*) filter (where npa and interest <> 0) + count(*) filter (where fee <> 0))::int as lines,
        sum(interest) as interest, sum(interest) filter (where not npa) as income, sum(fee) as fee
        from accrual_today`,
    );
    const loans = sums?.loans ?? 0;
    const interest = Number(sums?.interest ?? 0);
    const income = Number(sums?.income ?? 0);
    const fee = Number(sums?.fee ?? 0);
    if (loans === 0) return none;
    let entry: { id: string; entryDate: IsoDate } | null = null;
    if (interest !== 0 || fee !== 0) {
      const entryDate = await entryDateOf({ db: tx }, day);
      const [made] = await tx
        .insert(journalEntries)
        .values({
          entryDate,
          businessDate: day,
          kind: "accrual",
          narration: `Interest accrued on ${KIND_LABEL[kind]} for ${day}${fee ? ", and processing fees amortised (Ind AS)" : ""} (loans ${part}…)`,
          sourceKey: `accrual:${kind}:${day}:${part}`,
          createdAt: services.now(),
        })
        .onConflictDoNothing()
        .returning({ id: journalEntries.id });
      // Already accrued for this day: the loans left (a disbursal dated earlier, found late) accrue with the next day's.
      if (!made) return none;
      entry = { id: made.id, entryDate };
    }
    // The accounts first (locked as a payment locks them: the account, then its positions).
    await tx.execute(
      sql`update loan_accounts c set accrued_through = ${day} from accrual_today t where t.application_id = c.application_id`,
    );
    if (entry) {
      await tx.execute(sql`
        insert into journal_lines (entry_id, entry_date, purpose, application_id, debit_paise, credit_paise)
        select ${entry.id}::uuid, ${entry.entryDate}, purpose, application_id, greatest(paise, 0), greatest(-paise, 0) from (
          select 'interest_receivable' as purpose, application_id, interest as paise from accrual_today where interest <> 0
          union all select 'interest_suspense', application_id, -interest from accrual_today where npa and interest <> 0
          union all select 'deferred_fee_income', application_id, fee from accrual_today where fee <> 0
          union all select 'interest_income', null, -${income + fee}::bigint where ${income + fee}::bigint <> 0
        ) x`);
      await tx.execute(sql`
        insert into book_positions (application_id, purpose, balance_paise)
        select application_id, purpose, paise from (
          select application_id, 'interest_receivable' as purpose, interest as paise from accrual_today where interest <> 0
          union all select application_id, 'interest_suspense', -interest from accrual_today where npa and interest <> 0
          union all select application_id, 'deferred_fee_income', fee from accrual_today where fee <> 0
        ) x
        order by application_id, purpose
        on conflict (application_id, purpose) do update set balance_paise = book_positions.balance_paise + excluded.balance_paise`);
    }
    // A loan settled by a payment while this ran (its status read before) accrued a day it no longer earns: put right.
    const settled = await rowsOf<{ id: string }>(
      tx,
      sql`select t.application_id as id from accrual_today t join loan_applications a on a.id = t.application_id where a.status <> 'active'`,
    );
    const lines = entry ? (sums?.lines ?? 0) + (income + fee !== 0 ? 1 : 0) : 0;
    return { loans, lines, interestPaise: interest, settled: settled.map((r) => r.id) };
  });
}

/** Accrual for every business date from the earliest day not yet accrued to `today`, in order. */
export async function accrueThrough(services: Pick<AppServices, "db" | "config" | "now">, today: IsoDate) {
  const [first] = await services.db
    .select({ day: min(loanAccounts.accruedThrough) })
    .from(loanAccounts)
    .innerJoin(loanApplications, and(eq(loanApplications.id, loanAccounts.applicationId), eq(loanApplications.status, "active")))
    .where(and(isNotNull(loanAccounts.accruedThrough), lt(loanAccounts.accruedThrough, today)));
  const out = { days: 0, loans: 0, lines: 0, interestPaise: 0 };
  if (!first?.day) return out;
  for (let day = addDays(first.day, 1); day <= today; day = addDays(day, 1)) {
    out.days++;
    for (const kind of LOAN_KINDS) {
      const done = await accrueDay(services, { day, kind });
      for (const id of done.settled)
        await withLoanLocked(services, id, (s) =>
          reconcileLoans(s, {
            applicationIds: [id],
            kind: "reallocation",
            businessDate: day,
            narration: (n) => `${n}: accrual after its settlement undone`,
          }),
        );
      out.loans += done.loans;
      out.lines += done.lines;
      out.interestPaise += done.interestPaise;
    }
  }
  return out;
}

/** The books' daily run for `today` (after servicing has cached the day's figures). Safe to run again. */
export async function runBooksDay(services: Services, today: IsoDate = todayIST(services.now())) {
  const started = services.now().getTime();
  const booked = await bookPending(services);
  const npa = await flagNpa(services, today);
  const accrual = await accrueThrough(services, today);
  const provisioned = await provisionMonthsEnded(services, today);
  services.log.info(
    { today, booked, npa: npa.down.length, upgraded: npa.up.length, ...accrual, provisioned, ms: services.now().getTime() - started },
    "the books' daily run finished",
  );
  return { booked, npa, accrual, provisioned };
}
