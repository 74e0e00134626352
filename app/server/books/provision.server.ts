/**
 * Month-end provisioning (docs/product.md "The lender's books"): each active loan classified by
 * RBI's asset classes (standard; sub-standard while NPA up to 12 months; doubtful beyond), its
 * provision the rate in force on its book value (principal and interest receivable, less interest
 * in suspense); under Ind AS the expected credit loss by stage beside it, the higher booked. One
 * entry per month moves each loan's provision to what is required (a loan no longer on the books
 * releases what it held); the month's classification is kept and never rerun.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { dayAfterMonth, monthEnd } from "../../domain/books/positions.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { journalEntries, monthEndClasses } from "../db/schema.ts";
import { entryDateOf, lastClosedMonth, rowsOf } from "./journal.server.ts";
import { provisioningInForce } from "./rules.server.ts";

type Services = Pick<AppServices, "db" | "now">;

/**
 * RBI's asset class of the loan account `c` (loan_accounts) on `day`, in SQL: standard, sub-standard
 * while NPA up to 12 months, doubtful beyond (a loss asset is one the lender writes off).
 */
export function assetClassOf(day: IsoDate): SQL {
  const yearBefore = `${Number(day.slice(0, 4)) - 1}${day.slice(4)}`;
  return sql`case when c.npa_since is null or c.npa_since > ${day} then 'standard'
    when c.npa_since >= ${yearBefore} then 'sub_standard' else 'doubtful' end`;
}

/** Provisions month `month` (YYYY-MM) as at its last day; nothing when it was provisioned already or is closed. */
export async function provisionMonth(services: Services, month: string) {
  const end = monthEnd(`${month}-01`);
  const closed = await lastClosedMonth(services);
  if (closed && closed >= month) return null;
  const rates = await provisioningInForce(services);
  return services.db.transaction(async (tx) => {
    const [done] = await tx.select({ m: monthEndClasses.month }).from(monthEndClasses).where(eq(monthEndClasses.month, month)).limit(1);
    if (done) return null;
    const [entryDone] = await tx
      .select({ id: journalEntries.id })
      .from(journalEntries)
      .where(and(eq(journalEntries.sourceKey, `provision:${month}`)))
      .limit(1);
    if (entryDone) return null;
    const rate = (bps: number) => sql`${bps}::bigint`;
    await tx.execute(sql`create temp table provision_month on commit drop as
      with pos as (
        select application_id,
          sum(balance_paise) filter (where purpose in ('loans_receivable', 'interest_receivable', 'interest_suspense')) as book,
          sum(balance_paise) filter (where purpose = 'loan_loss_provision') as held
        from book_positions group by application_id),
      loans as (
        select c.application_id, c.dpd, a.status = 'active' as on_book, c.framework,
          ${assetClassOf(end)} as asset_class,
          case when (c.npa_since is not null and c.npa_since <= ${end}) or c.dpd > 90 then 'stage3' when c.dpd > 30 then 'stage2' else 'stage1' end as ecl_stage,
          greatest(0, coalesce(p.book, 0))::bigint as book,
          coalesce(p.held, 0)::bigint as held
        from loan_accounts c
        join loan_applications a on a.id = c.application_id
        left join pos p on p.application_id = c.application_id
        where (a.status = 'active' and c.disbursal_date <= ${end}) or coalesce(p.held, 0) <> 0)
      select *,
        case when not on_book then 0 else greatest(
          (book * case asset_class when 'standard' then ${rate(rates.standardBps)} when 'sub_standard' then ${rate(rates.subStandardBps)} else ${rate(rates.doubtfulBps)} end + 5000) / 10000,
          case when framework = 'ind_as' then
            (book * case ecl_stage when 'stage1' then ${rate(rates.eclStage1Bps)} when 'stage2' then ${rate(rates.eclStage2Bps)} else ${rate(rates.eclStage3Bps)} end + 5000) / 10000
          else 0 end) end::bigint as required
      from loans`);
    const [sums] = await rowsOf<{ loans: number; change: string | null; lines: number; required: string | null }>(
      tx,
      sql`select count(*) filter (where on_book)::int as loans, sum(-required - held) as change,
        count(*) filter (where -required - held <> 0)::int as lines, sum(required) filter (where on_book) as required
        from provision_month`,
    );
    const change = Number(sums?.change ?? 0);
    let entryId: string | null = null;
    if (change !== 0 || (sums?.lines ?? 0) > 0) {
      const entryDate = await entryDateOf({ db: tx }, end);
      const [entry] = await tx
        .insert(journalEntries)
        .values({
          entryDate,
          businessDate: end,
          kind: "provision",
          narration: `Provisioning for ${month}: each loan's provision for loan losses to the rate of its asset class (rules version ${rates.version})`,
          sourceKey: `provision:${month}`,
          createdAt: services.now(),
        })
        .onConflictDoNothing()
        .returning({ id: journalEntries.id });
      // Provisioned meanwhile by another run (two processes at the month end): nothing more to do.
      if (!entry) return null;
      entryId = entry.id;
      await tx.execute(sql`
        insert into journal_lines (entry_id, entry_date, purpose, application_id, debit_paise, credit_paise)
        select ${entry.id}::uuid, ${entryDate}, purpose, application_id, greatest(paise, 0), greatest(-paise, 0) from (
          select 'loan_loss_provision' as purpose, application_id, -required - held as paise from provision_month where -required - held <> 0
          union all select 'provision_expense', null, ${-change}::bigint where ${change}::bigint <> 0
        ) x where paise <> 0`);
      await tx.execute(sql`
        insert into book_positions (application_id, purpose, balance_paise)
        select application_id, 'loan_loss_provision', -required - held from provision_month where -required - held <> 0
        on conflict (application_id, purpose) do update set balance_paise = book_positions.balance_paise + excluded.balance_paise`);
    }
    await tx.execute(sql`
      insert into month_end_classes (month, application_id, asset_class, ecl_stage, dpd, book_value_paise, provision_paise)
      select ${month}, application_id, asset_class, ecl_stage, dpd, book, required from provision_month where on_book
      on conflict do nothing`);
    return { month, loans: sums?.loans ?? 0, requiredPaise: Number(sums?.required ?? 0), changePaise: -change, entryId };
  });
}

/**
 * Every month that has ended since the books began (the month of their first entry) and was not
 * provisioned, in order; a closed month is never provisioned again.
 */
export async function provisionMonthsEnded(services: Services, today: IsoDate) {
  const [first] = await rowsOf<{ day: string | null }>(services.db, sql`select min(entry_date) as day from journal_entries`);
  if (!first?.day) return [];
  const done = [];
  for (let month = first.day.slice(0, 7); monthEnd(`${month}-01`) < today; month = dayAfterMonth(month).slice(0, 7)) {
    const result = await provisionMonth(services, month);
    if (result) done.push(result);
  }
  return done;
}
