// Servicing for `npm run bench`, on PostgreSQL:
// 1. The daily run over BENCH_SERVICING_LOANS (100,000) active EMI loans, seeded by SQL as activation
//    and payments write them (schedule, account, disbursal, payments and their ledger entries; about
//    85% paid on time, 15% with missed instalments): the first run (every loan's figures computed),
//    the next day's run (only the loans a date can change), and that day again (idempotent: nothing
//    new). Time, loans touched, penal charges levied and rows written.
// 2. BENCH_SERVICING_PAYERS (50) loans each paid through Pay now and the local checkout stand-in by two
//    clicks at once (100 round trips): p50/p95 of the whole round trip; every payment applied once,
//    and each order's webhook delivered again adds nothing.
import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { addDays, emiSchedule } from "../app/domain/loan-math.ts";
import { todayIST } from "../app/lib/format.ts";

const LOANS = Number(process.env.BENCH_SERVICING_LOANS ?? 100_000);
const PAYERS = Number(process.env.BENCH_SERVICING_PAYERS ?? 50);
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { postForm } = await import("../tests/helpers/http.ts");
const { UNLIMITED_SIGN_IN } = await import("./bench-server.ts");
const { runServicingDay } = await import("../app/server/servicing/daily.server.ts");
const { localCheckoutSecret } = await import("../app/server/payments/local.server.ts");

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export interface DailyRunFigures {
  label: string;
  day: string;
  seconds: number;
  loansTouched: number;
  levied: number;
  reversed: number;
  ledgerRowsWritten: number;
  accountRowsWritten: number;
}
export interface ServicingFigures {
  loans: number;
  seedSeconds: number;
  runs: DailyRunFigures[];
  pay: {
    roundTrips: number;
    p50Ms: number;
    p95Ms: number;
    totalSeconds: number;
    captured: number;
    ledgerPayments: number;
    appliedTwice: number;
    redeliveredAdded: number;
    failures: number;
  };
}

export async function servicingBench(): Promise<ServicingFigures> {
  const app = await startTestServer({ ...UNLIMITED_SIGN_IN, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent" });
  try {
    const db = app.services.db;
    const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const today = todayIST(app.services.now());
    const seeded = performance.now();
    // ₹1,00,000 over 12 months at 18%, disbursed 1–180 days ago: the same schedule amounts, each loan's own dates.
    const schedule = emiSchedule({ principalPaise: 1_00_000_00, annualRateBps: 1800, months: 12 }).schedule;
    const principals = `array[${schedule.map((l) => l.principalPaise).join(",")}]`;
    const interests = `array[${schedule.map((l) => l.interestPaise).join(",")}]`;
    await db.execute(sql`
      insert into users (mobile, mobile_verified_at, role, created_at)
      select (6000000000 + n)::text, now(), 'borrower', now() from generate_series(1, ${LOANS}) n`);
    await db.execute(sql`
      insert into loan_applications (reference, user_id, product, status, amount_paise, tenure_months, created_at, signed_at, loan_number, disbursed_at, disbursal_date)
      select substr(md5(n::text || random()::text), 1, 26), u.id, 'emi', 'active', 10000000, 12, now(), now(),
        'SL' || lpad(n::text, 8, '0'), now(), to_char(${today}::date - (1 + n % 180), 'YYYY-MM-DD')
      from generate_series(1, ${LOANS}) n join users u on u.mobile = (6000000000 + n)::text`);
    await db.execute(sql`
      insert into loan_instalments (application_id, seq, due_date, principal_paise, interest_paise)
      select a.id, s, to_char(a.disbursal_date::date + make_interval(months => s), 'YYYY-MM-DD'),
        (${sql.raw(principals)})[s], (${sql.raw(interests)})[s]
      from loan_applications a cross join generate_series(1, 12) s where a.loan_number like 'SL%'`);
    await db.execute(sql`
      insert into loan_accounts (application_id, kind, principal_paise, rate_bps, penal_paise, cooling_off_days, disbursal_date, as_of,
        outstanding_principal_paise, overdue_paise, penal_due_paise, dpd, next_due_date, next_due_paise, advance_paise, refund_due_paise, updated_at)
      select id, 'emi', 10000000, 1800, 50000, 3, disbursal_date, disbursal_date, 10000000, 0, 0, 0, null, null, 0, 0, now()
      from loan_applications where loan_number like 'SL%'`);
    await db.execute(sql`
      insert into loan_ledger (application_id, kind, principal_paise, business_date, details, recorded_at)
      select id, 'disbursal', 10000000, disbursal_date, '{}'::jsonb, now() from loan_applications where loan_number like 'SL%'`);
    // 85 loans in 100 pay each instalment on its due date; the others have paid none.
    await db.execute(sql`
      insert into payments (reference, application_id, user_id, provider, purpose, amount_paise, status, provider_payment_id, received_paise, paid_at, business_date, created_at, updated_at)
      select 'pm_' || substr(md5(a.id::text || i.seq), 1, 24), a.id, a.user_id, 'offline', 'offline', i.principal_paise + i.interest_paise, 'captured',
        'bench-' || a.id || '-' || i.seq, i.principal_paise + i.interest_paise, i.due_date::date, i.due_date, now(), now()
      from loan_applications a join loan_instalments i on i.application_id = a.id
      where a.loan_number like 'SL%' and i.due_date < ${today} and substr(a.loan_number, 3)::int % 100 < 85`);
    await db.execute(sql`
      insert into loan_ledger (application_id, kind, principal_paise, amount_paise, business_date, payment_id, details, recorded_at)
      select p.application_id, 'payment', 0, p.amount_paise, p.business_date, p.id, '{}'::jsonb, now() from payments p where p.provider = 'offline'`);
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seeded) / 1000;

    const count = async (table: string) =>
      Number((await rows<{ n: number }>(sql`select count(*)::int as n from ${sql.raw(table)}`))[0]?.n ?? 0);
    const timed = async (label: string, day: string): Promise<DailyRunFigures> => {
      const ledgerBefore = await count("loan_ledger");
      const started = performance.now();
      const done = await runServicingDay(app.services, day);
      const seconds = (performance.now() - started) / 1000;
      return {
        label,
        day,
        seconds,
        loansTouched: done.loans,
        levied: done.levied,
        reversed: done.reversed,
        ledgerRowsWritten: (await count("loan_ledger")) - ledgerBefore,
        // Each loan touched has its cached figures rewritten once (one row of loan_accounts).
        accountRowsWritten: done.loans,
      };
    };
    const runs = [await timed("first run (every loan's figures computed)", today)];
    // The next business day, as the 00:30 job would run it, then that day again.
    const tomorrow = addDays(today, 1);
    const clock = app.services.now;
    app.services.now = () => new Date(clock().getTime() + 86_400_000);
    runs.push(await timed("next day", tomorrow));
    runs.push(await timed("next day again", tomorrow));
    app.services.now = clock;

    // Pay now: PAYERS borrowers with a loan each (the first seeded loans), two clicks each at the same moment.
    const payers = await rows<{ user_id: string; loan_number: string; mobile: string }>(
      sql`select a.user_id, a.loan_number, u.mobile from loan_applications a join users u on u.id = a.user_id
          where a.loan_number like 'SL%' and a.status = 'active' order by a.loan_number limit ${PAYERS}`,
    );
    const cookies = new Map<string, string>();
    const { createUserSession } = await import("../app/server/auth/session.server.ts");
    for (const p of payers) {
      const { setCookie } = await createUserSession(app.services, {
        userId: p.user_id,
        deviceId: `bench-${p.mobile}`,
        ip: "127.0.0.1",
        userAgent: "bench",
      });
      cookies.set(p.loan_number, setCookie.split(";")[0] ?? "");
    }
    const latencies: number[] = [];
    let failures = 0;
    const roundTrip = async (loanNumber: string) => {
      const cookie = cookies.get(loanNumber) ?? "";
      const t = performance.now();
      const started = await postForm(app, `/User/Loans/Emi/${loanNumber}`, { intent: "pay", choice: "amount", amount: "500" }, { cookie });
      const checkout = started.headers.get("location") ?? "";
      if (started.status !== 302 || !checkout.startsWith("/local-checkout/")) {
        failures++;
        return;
      }
      const paid = await postForm(app, checkout, { outcome: "pay" }, { cookie });
      const back = new URL(paid.headers.get("location") ?? "http://x/");
      const landed = await app.get(`${back.pathname}${back.search}`, { headers: { Cookie: cookie } });
      const outcome = await app.get(landed.headers.get("location") ?? "/", { headers: { Cookie: cookie } });
      if (!(landed.headers.get("location") ?? "").startsWith("/success/") || outcome.status !== 200) failures++;
      latencies.push(performance.now() - t);
    };
    const started = performance.now();
    await Promise.all(payers.flatMap((p) => [roundTrip(p.loan_number), roundTrip(p.loan_number)]));
    const totalSeconds = (performance.now() - started) / 1000;
    const [captured = { n: 0 }] = await rows<{ n: number }>(
      sql`select count(*)::int as n from payments where provider = 'local' and status = 'captured'`,
    );
    const ledgerPayments = async () =>
      Number(
        (
          await rows<{ n: number }>(
            sql`select count(*)::int as n from loan_ledger l join payments p on p.id = l.payment_id where p.provider = 'local' and l.kind = 'payment'`,
          )
        )[0]?.n ?? 0,
      );
    const [twice = { n: 0 }] = await rows<{ n: number }>(
      sql`select count(*)::int as n from (select payment_id from loan_ledger where kind = 'payment' and payment_id is not null group by payment_id having count(*) > 1) d`,
    );
    const before = await ledgerPayments();
    // Every captured order's webhook delivered again, as a gateway retrying would.
    const secret = localCheckoutSecret(app.services.config.sessionSecret);
    const orders = await rows<{
      provider_order_id: string;
      reference: string;
      amount_paise: number;
      provider_payment_id: string;
      paid_at: string;
    }>(
      sql`select provider_order_id, reference, amount_paise, provider_payment_id, paid_at from payments where provider = 'local' and status = 'captured'`,
    );
    for (const o of orders) {
      const body = JSON.stringify({
        event: "payment.captured",
        payload: {
          id: o.provider_order_id,
          reference: o.reference,
          amountPaise: Number(o.amount_paise),
          state: "paid",
          paymentId: o.provider_payment_id,
          paidPaise: Number(o.amount_paise),
          paidAt: new Date(o.paid_at).toISOString(),
          failureReason: null,
        },
      });
      await fetch(new URL("/api/webhooks/local", app.url), {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-local-signature": createHmac("sha256", secret).update(body).digest("hex") },
      });
    }
    const after = await ledgerPayments();
    latencies.sort((a, b) => a - b);
    return {
      loans: LOANS,
      seedSeconds,
      runs,
      pay: {
        roundTrips: latencies.length,
        p50Ms: percentile(latencies, 50),
        p95Ms: percentile(latencies, 95),
        totalSeconds,
        captured: Number(captured.n),
        ledgerPayments: before,
        appliedTwice: Number(twice.n),
        redeliveredAdded: after - before,
        failures,
      },
    };
  } finally {
    await app.stop();
  }
}

export function reportServicing(f: ServicingFigures) {
  console.log(
    `\nServicing: the daily run over ${f.loans.toLocaleString("en-IN")} active EMI loans on PostgreSQL (seeded in ${f.seedSeconds.toFixed(1)} s)`,
  );
  console.table(
    Object.fromEntries(
      f.runs.map((r) => [
        r.label,
        {
          day: r.day,
          seconds: r.seconds.toFixed(1),
          "loans touched": r.loansTouched,
          "penal levied": r.levied,
          reversed: r.reversed,
          "ledger rows written": r.ledgerRowsWritten,
          "account rows written": r.accountRowsWritten,
        },
      ]),
    ),
  );
  const p = f.pay;
  console.log(
    `Pay now through the local checkout: ${p.roundTrips} round trips at once (two clicks on each of ${p.roundTrips / 2} loans): p50 ${p.p50Ms.toFixed(0)} ms, p95 ${p.p95Ms.toFixed(0)} ms, all in ${p.totalSeconds.toFixed(1)} s; ` +
      `captured ${p.captured}, applied in the ledger ${p.ledgerPayments}, applied twice ${p.appliedTwice}, added by redelivered webhooks ${p.redeliveredAdded}, failed round trips ${p.failures}`,
  );
  const again = f.runs[2];
  const ok =
    p.appliedTwice === 0 &&
    p.redeliveredAdded === 0 &&
    p.captured === p.ledgerPayments &&
    p.failures === 0 &&
    again?.levied === 0 &&
    again.ledgerRowsWritten === 0;
  console.log(
    ok
      ? "servicing checks passed (no payment applied twice; the second run of a day wrote nothing to the ledger)"
      : "SERVICING CHECK FAILED",
  );
  if (!ok) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) reportServicing(await servicingBench());
