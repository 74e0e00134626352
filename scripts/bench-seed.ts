// The loan book the benches seed, by set-based SQL as the product writes it (one module: bench-servicing.ts,
// bench-autopay.ts, bench-dunning.ts, bench-books.ts, bench-bureau.ts and bench-daily.ts seed from here):
// the borrowers, their active EMI loans with schedules, accounts, disbursals and payment history in the ledger
// (seedLoanBook), their autopay mandates (seedMandates), and the books brought up to date (bringIntoBooks); the
// book of the night run (seedNightBook).
import { randomBytes } from "node:crypto";
import path from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { addDays, emiSchedule, type IsoDate, processingFee } from "../app/domain/loan-math.ts";
import type { AppServices } from "../app/context.ts";
import { indiaTime } from "../app/domain/india-date.ts";
import { KIND_NAME } from "../app/domain/loans/application.ts";
import { mandateTerms } from "../app/domain/loans/mandate.ts";
import type { Db } from "../app/server/db/client.ts";
import type { LocalMandate } from "../app/server/mandates/local.server.ts";

/** `db`'s rows of `query`. */
const rowsOf = async <T>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * `length` characters of [a-z2-7] (as references are: 26, or 24 after "pm_") from the SHA-256 of `seed`:
 * its hex digits with 0, 1, 8 and 9 spelled q, r, s and t.
 */
export const base32 = (seed: SQL, length: number) =>
  sql`substr(translate(encode(sha256(convert_to(${seed}, 'UTF8')), 'hex'), '0189', 'qrst'), 1, ${sql.raw(String(length))})`;

/** Loan n is one of the 15 in 100 that have missed instalments. */
const missed = (n: SQL) => sql`(${n} % 100 < 15)`;

export interface LoanBookOptions {
  loans: number;
  /** The India date the book is seeded as of: the instalments due before it have their payment history. */
  today: IsoDate;
  /**
   * Loan n's disbursal date, an SQL date (n is 1 to `loans`). By default the loans that missed instalments
   * were disbursed 35–184 days before today (so one at least is due), the others 1–183 days before.
   */
  disbursalDate?: (n: SQL) => SQL;
}

/**
 * `loans` active EMI loans seeded by set-based SQL as activation and payments write them (the borrower, the
 * application, its schedule, its loan account, the disbursal in the ledger and a payment history of captured
 * gateway payments: see the top of this file), then `analyze`. Returns the seconds of each statement.
 */
export async function seedLoanBook(
  db: Db,
  {
    loans,
    today,
    disbursalDate = (n) => sql`${today}::date - case when ${missed(n)} then 35 + (n * 37) % 150 else 1 + (n * 37) % 183 end`,
  }: LoanBookOptions,
): Promise<Record<string, number>> {
  /** Hex, so safe as a literal: the references of this run differ from any other run's. */
  const salt = sql.raw(`'${randomBytes(8).toString("hex")}'`);
  const seedSteps: Record<string, number> = {};
  const step = async (name: string, query: SQL) => {
    const t = performance.now();
    await db.execute(query);
    seedSteps[name] = (performance.now() - t) / 1000;
  };
  const [product] = await rowsOf<{ rate: number; penal: number; cooling: number; fee_bps: number; min_fee: number; gst_bps: number }>(
    db,
    sql`select rate_bps as rate, penal_charge_paise as penal, cooling_off_days as cooling, fee_bps, min_fee_paise as min_fee, gst_bps
        from products where code = 'emi'`,
  );
  if (!product) throw new Error("no EMI product");
  // ₹50,000 to ₹2,00,000 in steps of ₹5,000 over 12 months at the product's rate: each amount's schedule
  // (the same for every date) and upfront charges, from the app's own loan math.
  const amounts = Array.from({ length: 31 }, (_, i) => (50_000 + i * 5_000) * 100);
  const scheduleRows = amounts.flatMap((amount) =>
    emiSchedule({ principalPaise: amount, annualRateBps: product.rate, months: 12 }).schedule.map(
      (l) => `(${amount}, ${l.instalment}, ${l.principalPaise}, ${l.interestPaise})`,
    ),
  );
  const upfrontRows = amounts.map(
    (amount) =>
      `(${amount}, ${processingFee(amount, { feeBps: product.fee_bps, minFeePaise: product.min_fee, gstBps: product.gst_bps }).totalUpfrontPaise})`,
  );
  await step(
    "users",
    sql`
    insert into users (mobile, mobile_verified_at, role, created_at)
    select (6000000000 + n)::text, now() - interval '220 days', 'borrower', now() - interval '220 days'
    from generate_series(1, ${loans}::int) n`,
  );
  await step(
    "loan_applications",
    sql`
    insert into loan_applications (reference, user_id, product, status, amount_paise, tenure_months, created_at, signed_at, decided_at,
      loan_number, disbursed_at, disbursal_date, updated_at)
    select ${base32(sql`${salt} || n`, 26)}, u.id, 'emi', 'active', d.amount, 12,
      d.disbursed_at - interval '3 days', d.disbursed_at - interval '2 days', d.disbursed_at - interval '1 day',
      'SL' || lpad(n::text, 8, '0'), d.disbursed_at, d.disbursal_date, d.disbursed_at
    from generate_series(1, ${loans}::int) n
    join users u on u.mobile = (6000000000 + n)::text
    cross join lateral (select to_char(${disbursalDate(sql`n`)}, 'YYYY-MM-DD') as disbursal_date) dd
    cross join lateral (select (50000 + ((n * 7) % 31) * 5000) * 100 as amount,
      ((dd.disbursal_date::date + time '11:00') at time zone 'Asia/Kolkata') + (n % 360) * interval '1 minute' as disbursed_at,
      dd.disbursal_date) d`,
  );
  // The schedule as activation fixes it: instalment i due i calendar months after the disbursal date (clamped to a month's end).
  await step(
    "loan_instalments",
    sql`
    insert into loan_instalments (application_id, seq, due_date, principal_paise, interest_paise)
    select a.id, s.seq, to_char(a.disbursal_date::date + make_interval(months => s.seq), 'YYYY-MM-DD'), s.principal, s.interest
    from loan_applications a
    join (values ${sql.raw(scheduleRows.join(", "))}) as s(amount, seq, principal, interest) on s.amount = a.amount_paise
    where a.status = 'active'`,
  );
  // The account as openAccount writes it at activation: the terms (the net amount: the principal less the upfront
  // charges), and figures as of the disbursal date.
  await step(
    "loan_accounts",
    sql`
    insert into loan_accounts (application_id, kind, principal_paise, net_disbursed_paise, rate_bps, penal_paise, cooling_off_days,
      disbursal_date, as_of, outstanding_principal_paise, overdue_paise, penal_due_paise, dpd, next_due_date, next_due_paise, advance_paise,
      refund_due_paise, settled_on, updated_at)
    select a.id, 'emi', a.amount_paise, a.amount_paise - f.upfront, ${product.rate}::int, ${product.penal}::int, ${product.cooling}::int,
      a.disbursal_date, a.disbursal_date, a.amount_paise, 0, 0, 0, null, null, 0, 0, null, a.disbursed_at
    from loan_applications a join (values ${sql.raw(upfrontRows.join(", "))}) as f(amount, upfront) on f.amount = a.amount_paise
    where a.status = 'active'`,
  );
  await step(
    "ledger: disbursals",
    sql`
    insert into loan_ledger (application_id, kind, principal_paise, amount_paise, business_date, details, recorded_at)
    select a.id, 'disbursal', a.amount_paise, 0, a.disbursal_date,
      jsonb_build_object('utr', lpad((substr(a.loan_number, 3)::bigint * 7919 % 1000000000000)::text, 12, '0'),
        'paidOutPaise', a.amount_paise - f.upfront, 'upfrontChargesPaise', f.upfront),
      a.disbursed_at
    from loan_applications a join (values ${sql.raw(upfrontRows.join(", "))}) as f(amount, upfront) on f.amount = a.amount_paise
    where a.status = 'active'
    order by a.disbursed_at`,
  );
  // The payment history: captured Pay now orders of the stand-in, as applyPaymentEvent writes them. A loan
  // that is current paid every instalment due before today on its due date (1 in 5 two days early: an
  // advance); a loan with missed instalments skipped its latest one (1 in 3: two), and 1 in 3 of those paid
  // ₹1,000 of the first one it skipped, late.
  await step(
    "payments",
    sql`
    with due as (
      select a.id, a.user_id, substr(a.loan_number, 3)::int as n, i.seq, i.due_date::date as due, i.principal_paise + i.interest_paise as emi,
        count(*) over (partition by a.id) as k, case when substr(a.loan_number, 3)::int % 3 = 0 then 2 else 1 end as skip
      from loan_applications a join loan_instalments i on i.application_id = a.id
      where a.status = 'active' and i.due_date < ${today}
    ), paid as (
      select d.id, d.user_id, d.n, d.seq, d.emi as amount, 'due' as purpose,
        to_char(case when not ${missed(sql`d.n`)} and (d.n + d.seq) % 5 = 0 then d.due - 2 else d.due end, 'YYYY-MM-DD') as pay_date
      from due d where not ${missed(sql`d.n`)} or d.seq <= d.k - d.skip
      union all
      select d.id, d.user_id, d.n, d.seq, 100000, 'amount', to_char(least(d.due + 5, ${today}::date - 1), 'YYYY-MM-DD')
      from due d where ${missed(sql`d.n`)} and d.n % 3 = 1 and d.seq = d.k - d.skip + 1
    ), p as (
      select paid.*, ((pay_date::date + time '10:00') at time zone 'Asia/Kolkata') + ((n * 13 + seq * 7) % 540) * interval '1 minute' as paid_at from paid
    )
    insert into payments (reference, application_id, user_id, provider, purpose, prepay, amount_paise, status, provider_order_id,
      checkout_url, provider_payment_id, received_paise, paid_at, business_date, created_at, updated_at)
    select 'pm_' || ${base32(sql`${salt} || p.id || '-' || p.seq || p.purpose`, 24)}, p.id, p.user_id, 'local', p.purpose, false, p.amount,
      'captured', 'lco_seed' || substr(md5(${salt} || p.id || p.seq || p.purpose), 1, 24),
      '/local-checkout/lco_seed' || substr(md5(${salt} || p.id || p.seq || p.purpose), 1, 24),
      'lpay_seed' || substr(md5(p.id || ${salt} || p.seq || p.purpose), 1, 16), p.amount, p.paid_at, p.pay_date,
      p.paid_at - interval '2 minutes', p.paid_at
    from p`,
  );
  await step(
    "ledger: payments",
    sql`
    insert into loan_ledger (application_id, kind, principal_paise, amount_paise, business_date, payment_id, details, recorded_at)
    select p.application_id, 'payment', 0, p.amount_paise, p.business_date, p.id,
      jsonb_build_object('reference', p.reference, 'provider', p.provider, 'providerPaymentId', p.provider_payment_id,
        'purpose', p.purpose, 'prepay', p.prepay),
      p.paid_at
    from payments p where p.provider_payment_id like 'lpay_seed%'
    order by p.paid_at`,
  );
  await step("analyze", sql`analyze`);
  return seedSteps;
}

/** The schedules seeded must be the ones activation writes (loanSchedule → emiSchedule from the disbursal date): 300 loans checked. */
export async function checkSeededSchedules(db: Db) {
  const [product] = await rowsOf<{ rate: number }>(db, sql`select rate_bps as rate from products where code = 'emi'`);
  if (!product) throw new Error("no EMI product");
  const sample = await rowsOf<{
    amount_paise: number;
    disbursal_date: string;
    dues: string[];
    principals: number[];
    interests: number[];
  }>(
    db,
    sql`
    select a.amount_paise, a.disbursal_date, array_agg(i.due_date order by i.seq) as dues,
      array_agg(i.principal_paise order by i.seq) as principals, array_agg(i.interest_paise order by i.seq) as interests
    from loan_applications a join loan_instalments i on i.application_id = a.id
    where a.id in (select id from loan_applications where status = 'active' order by md5(id::text) limit 300)
    group by a.id`,
  );
  for (const s of sample) {
    const expected = emiSchedule({
      principalPaise: s.amount_paise,
      annualRateBps: product.rate,
      months: 12,
      disbursalDate: s.disbursal_date,
    });
    const same = expected.schedule.every(
      (l, i) => l.dueDate === s.dues[i] && l.principalPaise === Number(s.principals[i]) && l.interestPaise === Number(s.interests[i]),
    );
    if (!same) throw new Error(`the seeded schedule of a loan disbursed on ${s.disbursal_date} is not emiSchedule's`);
  }
}

/**
 * Each active loan's mandate as a borrower's approval leaves it (the `mandates` row): the kind and maximum
 * startMandate gives it (mandateTerms on the largest instalment: UPI AutoPay up to ₹15,000 a debit, e-NACH
 * above; the end date 3 months after the last due date), active at the local stand-in since an hour before
 * the disbursal. `day` is the date the terms are worked out as of.
 */
export async function seedMandates(db: Db, { day }: { day: IsoDate }) {
  const [product] = await rowsOf<{ rate: number }>(db, sql`select rate_bps as rate from products where code = 'emi'`);
  if (!product) throw new Error("no EMI product");
  const terms = Array.from({ length: 31 }, (_, i) => (50_000 + i * 5_000) * 100).map((amount) => {
    const { schedule } = emiSchedule({ principalPaise: amount, annualRateBps: product.rate, months: 12 });
    const t = mandateTerms({
      instalmentPaise: Math.max(...schedule.map((l) => l.principalPaise + l.interestPaise)),
      lastDueDate: day,
      today: day,
    });
    return `(${amount}, '${t.kind}', ${t.maxAmountPaise})`;
  });
  await db.execute(sql`
    insert into mandates (reference, application_id, user_id, provider, kind, status, max_amount_paise, start_date, end_date,
      holder_name, account_masked, ifsc, provider_mandate_id, auth_url, activated_at, created_at, updated_at)
    select 'md_' || ${base32(sql`'md' || a.id`, 26)}, a.id, a.user_id, 'local', t.kind, 'active', t.max,
      to_char(a.disbursed_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD'),
      to_char(a.disbursal_date::date + make_interval(months => 12 + 3), 'YYYY-MM-DD'),
      'Bench Borrower', 'XXXX' || (2000 + substr(a.loan_number, 3)::int % 8000), 'HDFC0000240',
      'lmd_' || substr(md5('lmd' || a.id), 1, 24), '/local-mandate/lmd_' || substr(md5('lmd' || a.id), 1, 24),
      a.disbursed_at - interval '1 hour', a.disbursed_at - interval '2 hours', a.disbursed_at - interval '1 hour'
    from loan_applications a join (values ${sql.raw(terms.join(", "))}) as t(amount, kind, max) on t.amount = a.amount_paise
    where a.status = 'active'`);
}

/**
 * The seeded loans brought into the books as an installation whose books are up to date would have them:
 * each loan's accrual basis (its periods, from the schedule), accrued to the day before `day`, its
 * principal outstanding in loans receivable (the book's other positions left at nothing), its ledger booked
 * (booked_through its last entry). The journal's history itself is not written.
 */
export async function bringIntoBooks(db: Db, { day }: { day: IsoDate }) {
  await db.execute(sql`
    insert into accrual_basis (application_id, seq, from_date, due_date, interest_paise)
    select i.application_id, i.seq, coalesce(lag(i.due_date) over (partition by i.application_id order by i.seq), c.disbursal_date),
      i.due_date, i.interest_paise
    from loan_instalments i join loan_accounts c on c.application_id = i.application_id
    on conflict do nothing`);
  await db.execute(sql`update loan_accounts set accrued_through = ${addDays(day, -1)}, framework = 'indian_gaap', gst_split = 'intra',
    fee_paise = round((principal_paise - net_disbursed_paise) * 100 / 118.0), fee_gst_paise = (principal_paise - net_disbursed_paise) - round((principal_paise - net_disbursed_paise) * 100 / 118.0),
    booked_through = (select coalesce(max(entry_no), 0) from loan_ledger l where l.application_id = loan_accounts.application_id)`);
  await db.execute(sql`
    insert into book_positions (application_id, purpose, balance_paise)
    select application_id, 'loans_receivable', outstanding_principal_paise from loan_accounts where outstanding_principal_paise <> 0
    on conflict do nothing`);
}

/**
 * The local stand-in's own record of each seeded mandate (what its `present` reads), as its authorisation page
 * leaves it: a file per mandate under `dataDir`, for the loans `where` names (a condition on `a`, the
 * application; all by default).
 */
export async function standInMandates(db: Db, { dataDir, url, where = sql`true` }: { dataDir: string; url: string; where?: SQL }) {
  const { jsonRecords } = await import("../app/server/stand-in.server.ts");
  const records = jsonRecords<LocalMandate>(path.join(dataDir, "mandates"), /^lmd_[A-Za-z0-9_-]{16,40}$/);
  const list = await rowsOf<{
    id: string;
    reference: string;
    kind: string;
    max: number;
    end_date: string;
    account_masked: string;
    loan_number: string;
    activated_at: string;
  }>(
    db,
    sql`select m.provider_mandate_id as id, m.reference, m.kind, m.max_amount_paise as max, m.end_date, m.account_masked,
          a.loan_number, m.activated_at from mandates m join loan_applications a on a.id = m.application_id where ${where}`,
  );
  for (let i = 0; i < list.length; i += 100)
    await Promise.all(
      list.slice(i, i + 100).map((m) =>
        records.create({
          id: m.id,
          reference: m.reference,
          kind: m.kind,
          maxAmountPaise: m.max,
          endDate: m.end_date,
          description: `Autopay for ${KIND_NAME.emi} ${m.loan_number}`,
          accountMasked: m.account_masked,
          callbackUrl: `${url}/api/mandates/local/return`,
          state: "active",
          reason: null,
          changedAt: new Date(m.activated_at).toISOString(),
        }),
      ),
    );
  return list.length;
}

/** `count` operations staff members (the call tasks of collections go to the one with the fewest open cases). */
export async function seedOperationsStaff(db: Db, count: number) {
  await db.execute(sql`
    insert into users (role, email, name, created_at)
    select 'operations', 'bench-operations-' || n || '@lender.example', 'Bench Operations ' || n, now() - n * interval '1 day'
    from generate_series(1, ${count}::int) n`);
}

/**
 * The book of bench-daily.ts (and of the night run's restart test), as of the night of `day` − 1: `loans` loans
 * disbursed over the `days` days before it (seedLoanBook: 85 in 100 current, 1 to `days` days ago; 15 in 100 in
 * arrears, 35 days ago or more), each with an active mandate of the local stand-in (its record file for the loans
 * with an instalment due from `day` − 2 to `day`: the debits presented on `day`), the books up to date (every month
 * ended provisioned), three
 * operations staff members, the last night run the one of `day` − 2 (servicing_runs), the notices of `day` − 2
 * written by that night's noticeDebits (the clock set to it, then to `day` − 1 00:30). Returns each step's seconds.
 */
export async function seedNightBook(
  services: Pick<AppServices, "db" | "config" | "now" | "jobs">,
  {
    loans,
    days,
    day,
    dataDir,
    url,
    setClock,
  }: { loans: number; days: number; day: IsoDate; dataDir: string; url: string; setClock: (at: Date) => void },
) {
  if (days < 40) throw new Error("the history must be 40 days or more: a loan in arrears was disbursed 35 days ago at least");
  const { db } = services;
  const first = addDays(day, -1);
  setClock(indiaTime(first, "00:30"));
  const steps = await seedLoanBook(db, {
    loans,
    today: first,
    disbursalDate: (k) =>
      sql`${first}::date - case when ${k} % 100 < 15 then 35 + (${k} * 37) % ${days - 34}::int else 1 + (${k} * 37) % ${days}::int end`,
  });
  await checkSeededSchedules(db);
  const step = async (name: string, work: () => Promise<unknown>) => {
    const t = performance.now();
    await work();
    steps[name] = (performance.now() - t) / 1000;
  };
  await step("mandates", () => seedMandates(db, { day: first }));
  await step("stand-in mandate files", () =>
    standInMandates(db, {
      dataDir,
      url,
      where: sql`exists (select 1 from loan_instalments i where i.application_id = a.id and i.due_date between ${addDays(day, -2)} and ${day})`,
    }),
  );
  await step("books brought up to date", () => bringIntoBooks(db, { day: first }));
  // Every month ended since the first disbursal provisioned, as the night after its end did (on the seeded positions):
  // else the first night would provision them all, on that night's figures.
  await step("month ends provisioned", async () => {
    const { provisionMonth } = await import("../app/server/books/provision.server.ts");
    for (let month = addDays(first, -days).slice(0, 7); month < first.slice(0, 7); month = addDays(`${month}-28`, 7).slice(0, 7))
      await provisionMonth(services, month);
  });
  await step("operations staff", () => seedOperationsStaff(db, 3));
  await step("servicing runs", async () => {
    await db.execute(sql`delete from servicing_runs`);
    const at = indiaTime(addDays(first, -1), "00:31");
    await db.execute(sql`insert into servicing_runs (business_date, started_at, finished_at) values (${addDays(first, -1)}, ${at}, ${at})`);
  });
  // The statistics before the notices (the mandates were inserted after seedLoanBook analyzed).
  await step("vacuum analyze", () => db.execute(sql`vacuum analyze`));
  await step("notices of D−2", async () => {
    const { noticeDebits } = await import("../app/server/mandates/notice.server.ts");
    setClock(indiaTime(addDays(day, -2), "00:30"));
    await noticeDebits(services, { day: addDays(day, -2) });
    setClock(indiaTime(first, "00:30"));
  });
  return steps;
}
