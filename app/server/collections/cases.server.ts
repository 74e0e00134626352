/**
 * Collections cases kept in step with the loans (docs/product.md "Collections"), set-based, in the
 * caller's transaction, after the loans' figures are written: a case opens dated from a loan's first
 * day past due (its days past due counted back, so a case found late is as old as its arrears) and closes when it is back to 0 days past due, closed or written off; each open promise
 * is judged from the ledger (kept when the payments dated from the day it was made to its date add
 * up to it, broken once its date has passed), and a case with a broken promise is high priority.
 * A debit in progress is not arrears: the loan's days past due already leave it out.
 */
import { sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";

type Db = Pick<AppServices, "db">;

/** Cases and promises of `applicationIds` (every loan with an open case or past due when omitted) as of `today`. */
export async function syncCases({ db }: Db, { today, applicationIds }: { today: IsoDate; applicationIds?: readonly string[] }) {
  if (applicationIds && applicationIds.length === 0) return;
  const ids = applicationIds
    ? sql`array[${sql.join(
        applicationIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}]`
    : null;
  const only = (column: ReturnType<typeof sql.raw>) => (ids ? sql`and ${column} = any(${ids})` : sql``);
  const at = sql`now()`;
  // A page's loans and cases are read by the loan's key first (a materialized CTE the planner cannot look
  // into). Left to choose on statistics from before a night that puts loans past due and opens their cases,
  // it scanned every loan past due (the days-past-due index) and every open case (its partial indexes) for
  // each page: 200 ms a page and more of the first night at 1,000,000 loans.
  const accounts = ids
    ? sql`(with named as materialized (select * from loan_accounts where application_id = any(${ids})) select * from named)`
    : sql`loan_accounts`;
  // (The row itself still open when written: said in a form no partial index of open cases answers.)
  const openCase = ids
    ? sql`k.id in (with named as materialized (select id, closed_on from collection_cases where application_id = any(${ids})) select id from named where closed_on is null)
        and coalesce(k.closed_on, '') = ''`
    : sql`k.closed_on is null`;
  // Open: a loan past due with no open case: the partial unique index of open cases skips the others (and
  // makes a race one case).
  await db.execute(sql`
    insert into collection_cases (application_id, user_id, opened_on, created_at, updated_at)
    select a.id, a.user_id, to_char(c.as_of::date - c.dpd + 1, 'YYYY-MM-DD'), ${at}, ${at}
    from ${accounts} c join loan_applications a on a.id = c.application_id and a.status = 'active'
    where c.dpd > 0
    on conflict do nothing`);
  // Promises: judged from the ledger's payments (a payment reversed counts for nothing), dated the day their verdict changed.
  await db.execute(sql`
    with judged as (
      select p.id,
        coalesce((select sum(l.amount_paise) from loan_ledger l
          where l.application_id = p.application_id and l.kind = 'payment'
            and l.business_date between p.made_on and p.due_on
            and not exists (select 1 from loan_ledger r where r.kind = 'payment_reversal' and r.ref_id = l.id)), 0) as paid,
        p.amount_paise, p.due_on, p.status
      from promises_to_pay p
      -- Kept ones too (a payment reversed since can break one), on open cases only.
      where p.status in ('open', 'kept', 'broken') ${only(sql.raw("p.application_id"))}
        and exists (select 1 from collection_cases k where k.id = p.case_id and k.closed_on is null)
    )
    update promises_to_pay p set
      status = case when j.paid >= j.amount_paise then 'kept' when ${today} > j.due_on then 'broken' else 'open' end,
      resolved_on = case when j.paid >= j.amount_paise or ${today} > j.due_on then ${today} else null end
    from judged j
    where p.id = j.id
      and p.status <> case when j.paid >= j.amount_paise then 'kept' when ${today} > j.due_on then 'broken' else 'open' end`);
  // Close: back to 0 days past due, or the loan no longer active; open promises end with it (kept if the ledger says so above).
  await db.execute(sql`
    with closing as (
      update collection_cases k set closed_on = ${today}, updated_at = ${at},
        closed_reason = case when a.status = 'active' then 'cured' when a.status = 'written_off' then 'written_off' else 'closed' end
      from loan_applications a left join loan_accounts c on c.application_id = a.id
      where ${openCase} and a.id = k.application_id
        and (a.status <> 'active' or coalesce(c.dpd, 0) <= 0)
      returning k.id
    ), tasks as (
      update collection_tasks t set status = 'cancelled' from closing where t.case_id = closing.id and t.status = 'open' returning t.id
    )
    update promises_to_pay p set status = 'cancelled', resolved_on = ${today}
    from closing where p.case_id = closing.id and p.status = 'open'`);
  // Priority: high while the open case has a broken promise. One pass over the open cases, no join of the
  // table to itself (planned as a nested loop on stale statistics, that join was quadratic in the open cases).
  const priority = sql`case when exists (select 1 from promises_to_pay p where p.case_id = k.id and p.status = 'broken') then 'high' else 'normal' end`;
  await db.execute(sql`
    update collection_cases k set priority = ${priority}, updated_at = ${at}
    where ${openCase} and k.priority <> ${priority}`);
}
