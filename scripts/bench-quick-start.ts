// Quick-start load for `npm run bench`: N borrowers at once, each signing in
// with a mobile code and going through every step (each page viewed, each form
// posted) into a loan application, against PostgreSQL. Then the database is
// checked: every journey finished, no step lost. Runs in its own schema of the
// database, dropped afterwards.
import pg from "pg";
import { type BenchServer, signInByCode, startBenchServer, UNLIMITED_SIGN_IN } from "./bench-server.ts";

const JOURNEYS = Number(process.env.BENCH_QUICK_START_JOURNEYS ?? 200);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export interface QuickStartFigures {
  journeys: number;
  finished: number;
  seconds: number;
  requests: number;
  errors: string[];
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  journeyP50Ms: number;
  journeyP95Ms: number;
  stored: { completed: number; applications: number; profiles: number; stepCompletedEvents: number; continuedEvents: number };
  /** Journeys whose stored rows (quick start, application, profile, funnel, consents) differ from what that journey sent. */
  mismatches: string[];
}

/** What one journey sent, to compare with what its borrower's rows hold afterwards. */
interface Sent {
  product: "emi" | "salary_advance";
  amountPaise: number;
  tenureMonths: number | null;
  panLast4: string;
  employmentType: "salaried" | "self_employed";
  incomePaise: number;
  salaryDay: number | null;
  existingEmiPaise: number;
  communications: boolean;
}

/** One borrower's rows, read back after the run (null where a row is missing). */
interface Stored {
  mobile: string;
  completed_steps: number | null;
  qs_product: string | null;
  offer_amount_paise: number | null;
  app_product: string | null;
  app_status: string | null;
  app_amount_paise: number | null;
  app_tenure_months: number | null;
  pan_masked: string | null;
  current_pincode: string | null;
  employment_type: string | null;
  net_monthly_income_paise: number | null;
  salary_day: number | null;
  existing_emi_paise: number | null;
  steps_completed: string;
  continued: string;
  kyc: boolean | null;
  communications: boolean | null;
}

function differences(sent: Sent, row: Stored | undefined): string[] {
  if (!row) return ["no account"];
  const expect: [string, unknown, unknown][] = [
    ["steps done", row.completed_steps, 7],
    ["quick-start product", row.qs_product, sent.product],
    ["offer amount", row.offer_amount_paise, sent.amountPaise],
    ["application product", row.app_product, sent.product],
    ["application status", row.app_status, "draft"],
    ["application amount", row.app_amount_paise, sent.amountPaise],
    ["application tenure", row.app_tenure_months, sent.tenureMonths],
    ["PAN", row.pan_masked, `XXXXXX${sent.panLast4}`],
    ["PIN code", row.current_pincode, "560001"],
    ["employment", row.employment_type, sent.employmentType],
    ["income", row.net_monthly_income_paise, sent.incomePaise],
    ["salary day", row.salary_day, sent.salaryDay],
    ["existing EMIs", row.existing_emi_paise, sent.existingEmiPaise],
    ["step-completed events (one per step)", row.steps_completed, "0,1,2,3,4,5,6"],
    ["continued events", Number(row.continued), 1],
    ["KYC consent", row.kyc, true],
    ["communications consent", Boolean(row.communications), sent.communications],
  ];
  return expect.filter(([, got, want]) => got !== want).map(([what, got, want]) => `${what}: ${String(got)} instead of ${String(want)}`);
}

export async function quickStartBench(): Promise<QuickStartFigures | { skipped: string }> {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await admin.connect();
  } catch (error) {
    return { skipped: `no PostgreSQL at ${DATABASE_URL} (${(error as Error).message})` };
  }
  const schema = `bench_qs_${process.pid}_${Date.now()}`;
  await admin.query(`create schema "${schema}"`);
  let server: BenchServer | undefined;
  try {
    const running = await startBenchServer({ DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: "warn", ...UNLIMITED_SIGN_IN });
    server = running;
    const { base } = running;
    const latencies: number[] = [];
    const journeyTimes: number[] = [];
    const errors: string[] = [];
    const sent = new Map<string, Sent>();
    const request = async (
      pathname: string,
      init: { cookie: string; form?: Record<string, string> },
      expect: { status: number; location?: RegExp },
    ) => {
      const started = performance.now();
      const res = await fetch(base + pathname, {
        method: init.form ? "POST" : "GET",
        redirect: "manual",
        body: init.form ? new URLSearchParams(init.form) : undefined,
        headers: { ...(init.form ? { "Content-Type": "application/x-www-form-urlencoded", Origin: base } : {}), Cookie: init.cookie },
      });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      const location = res.headers.get("location") ?? "";
      if (res.status !== expect.status || (expect.location && !expect.location.test(location))) {
        throw new Error(`${init.form ? "POST" : "GET"} ${pathname}: ${res.status} ${location}`);
      }
      return res;
    };

    const journey = async (i: number) => {
      const mobile = `98${String(10_000_000 + i).padStart(8, "0")}`;
      // A PAN the local bureau stand-in scores 750+ with no EMIs (its digits 7500–9990 ending in 0).
      const pan = `ABCP${String.fromCharCode(65 + (i % 26))}${7500 + (i % 250) * 10}K`;
      const started = performance.now();
      // The mobile code (the SMS outbox stands in for the phone).
      const { token: cookie } = await signInByCode(
        running,
        (pathname, form, pending) =>
          request(
            pathname,
            { cookie: pending, form },
            { status: 302, location: form.intent === "verify" ? /^\/quickStart\/components$/ : undefined },
          ),
        { mobile, deviceId: `bench-${i}`, redirectTo: "/quickStart/components" },
      );
      await request("/quickStart/components", { cookie }, { status: 302, location: /^\/quickStart\/Step0$/ });
      const salaried = i % 2 === 0;
      const steps: Record<string, string>[] = [
        { product: salaried && i % 4 === 0 ? "salary_advance" : "emi", amount: salaried && i % 4 === 0 ? "20000" : "150000" },
        { fullName: "Bench Borrower", dateOfBirth: "1990-04-12", pan },
        { pincode: "560001" },
        salaried
          ? { employmentType: "salaried", netMonthlyIncome: "65000", salaryDay: "1" }
          : { employmentType: "self_employed", netMonthlyIncome: "80000" },
        { existingEmis: String((i % 5) * 1000), consentBureau: "on" },
        { product: salaried && i % 4 === 0 ? "salary_advance" : "emi", tenure: "24" },
        { consentKyc: "on", consentCommunications: i % 3 === 0 ? "on" : "" },
      ];
      const advance = salaried && i % 4 === 0;
      sent.set(mobile, {
        product: advance ? "salary_advance" : "emi",
        amountPaise: (advance ? 20_000 : 150_000) * 100,
        tenureMonths: advance ? null : 24,
        panLast4: pan.slice(-4),
        employmentType: salaried ? "salaried" : "self_employed",
        incomePaise: (salaried ? 65_000 : 80_000) * 100,
        salaryDay: salaried ? 1 : null,
        existingEmiPaise: (i % 5) * 1000 * 100,
        communications: i % 3 === 0,
      });
      for (const [step, fields] of steps.entries()) {
        await request(`/quickStart/Step${step}`, { cookie }, { status: 200 });
        const next =
          step === steps.length - 1
            ? /^\/User\/newLoan\/(Emi|salaryAdvance)\/[a-z2-7]{26}\/Step0$/
            : new RegExp(`^/quickStart/Step${step + 1}$`);
        const res = await request(
          `/quickStart/Step${step}`,
          { cookie, form: { intent: "next", ...fields } },
          { status: 302, location: next },
        );
        if (step === steps.length - 1) await request(res.headers.get("location") ?? "", { cookie }, { status: 200 });
      }
      journeyTimes.push(performance.now() - started);
    };

    const started = performance.now();
    const results = await Promise.allSettled(Array.from({ length: JOURNEYS }, (_, i) => journey(i)));
    const seconds = (performance.now() - started) / 1000;
    for (const r of results) if (r.status === "rejected") errors.push(String((r.reason as Error).message ?? r.reason));

    const count = async (sql: string) => Number((await admin.query(sql)).rows[0]?.n ?? 0);
    const q = (table: string) => `"${schema}"."${table}"`;
    const stored = {
      completed: await count(`select count(*) as n from ${q("quick_starts")} where completed_steps = 7 and application_id is not null`),
      applications: await count(
        `select count(*) as n from ${q("loan_applications")} where status = 'draft' and amount_paise is not null and offer is not null`,
      ),
      profiles: await count(
        `select count(*) as n from ${q("borrower_profiles")} p join ${q("borrower_addresses")} a using (user_id) join ${q("borrower_employment")} e using (user_id) where e.existing_emi_paise is not null`,
      ),
      stepCompletedEvents: await count(`select count(*) as n from ${q("funnel_events")} where event = 'step_completed'`),
      continuedEvents: await count(`select count(*) as n from ${q("funnel_events")} where event = 'continued'`),
    };
    // Each journey's own rows hold what that journey sent: nothing lost, nothing crossed between borrowers.
    const rows = (
      await admin.query<Stored>(`
        select right(u.mobile, 10) as mobile, qs.completed_steps, qs.product as qs_product, qs.offer_amount_paise,
          la.product as app_product, la.status as app_status, la.amount_paise as app_amount_paise, la.tenure_months as app_tenure_months,
          p.pan_masked, ad.current_pincode, e.employment_type, e.net_monthly_income_paise, e.salary_day, e.existing_emi_paise,
          (select string_agg(f.step::text, ',' order by f.step) from ${q("funnel_events")} f where f.user_id = u.id and f.event = 'step_completed') as steps_completed,
          (select count(*) from ${q("funnel_events")} f where f.user_id = u.id and f.event = 'continued') as continued,
          (select bool_or(c.granted) from ${q("consents")} c where c.user_id = u.id and c.purpose = 'kyc') as kyc,
          (select c.granted from ${q("consents")} c where c.user_id = u.id and c.purpose = 'communications' order by c.created_at desc limit 1) as communications
        from ${q("users")} u
        left join ${q("quick_starts")} qs on qs.user_id = u.id
        left join ${q("loan_applications")} la on la.id = qs.application_id and la.user_id = u.id
        left join ${q("borrower_profiles")} p on p.user_id = u.id
        left join ${q("borrower_addresses")} ad on ad.user_id = u.id
        left join ${q("borrower_employment")} e on e.user_id = u.id
        where u.role = 'borrower'`)
    ).rows;
    const byMobile = new Map(rows.map((r) => [r.mobile, r]));
    const mismatches: string[] = [];
    for (const [mobile, journeySent] of sent) {
      const diff = differences(journeySent, byMobile.get(mobile));
      if (diff.length) mismatches.push(`${mobile}: ${diff.join("; ")}`);
    }
    latencies.sort((a, b) => a - b);
    journeyTimes.sort((a, b) => a - b);
    return {
      journeys: JOURNEYS,
      finished: journeyTimes.length,
      seconds,
      requests: latencies.length,
      errors,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      p99Ms: percentile(latencies, 99),
      journeyP50Ms: percentile(journeyTimes, 50),
      journeyP95Ms: percentile(journeyTimes, 95),
      stored,
      mismatches,
    };
  } finally {
    await server?.stop();
    await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
    await admin.end();
  }
}

/** Prints the figures (and fails the run when a journey failed or a step was lost). */
export function reportQuickStart(r: QuickStartFigures | { skipped: string }) {
  if ("skipped" in r) {
    console.log(`\nQuick start under load: skipped, ${r.skipped}`);
    return;
  }
  console.log(
    `\nQuick start: ${r.journeys} journeys at once against PostgreSQL (mobile code, 7 steps viewed and saved, application opened)`,
  );
  console.table({
    "each request": { "p50 ms": r.p50Ms.toFixed(0), "p95 ms": r.p95Ms.toFixed(0), "p99 ms": r.p99Ms.toFixed(0) },
    "whole journey": { "p50 ms": r.journeyP50Ms.toFixed(0), "p95 ms": r.journeyP95Ms.toFixed(0), "p99 ms": "" },
  });
  console.log(
    `${r.finished}/${r.journeys} finished in ${r.seconds.toFixed(1)} s (${r.requests} requests, ${(r.requests / r.seconds).toFixed(0)} req/s), errors: ${r.errors.length}`,
  );
  console.log(
    `stored: ${r.stored.completed} quick starts complete, ${r.stored.applications} applications with terms and offer, ${r.stored.profiles} profiles with every quick-start answer, ${r.stored.stepCompletedEvents} step-completed events (expected ${r.journeys * 7}), ${r.stored.continuedEvents} continued`,
  );
  console.log(`checked one by one: ${r.journeys - r.mismatches.length}/${r.journeys} borrowers' rows hold exactly what their journey sent`);
  for (const e of r.errors.slice(0, 5)) console.log(`  error: ${e}`);
  for (const m of r.mismatches.slice(0, 5)) console.log(`  mismatch: ${m}`);
  const lost =
    r.stored.completed !== r.journeys ||
    r.stored.applications !== r.journeys ||
    r.stored.profiles !== r.journeys ||
    r.stored.stepCompletedEvents !== r.journeys * 7 ||
    r.stored.continuedEvents !== r.journeys ||
    r.mismatches.length > 0;
  if (r.errors.length || lost) {
    console.log("QUICK START LOAD FAILED: an error or a lost step (see above)");
    process.exitCode = 1;
  }
}

if (import.meta.main) reportQuickStart(await quickStartBench());
