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
    const request = async (pathname: string, init: { cookie: string; form?: Record<string, string> }, expect: { status: number; location?: RegExp }) => {
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
      const pan = `ABCP${String.fromCharCode(65 + (i % 26))}${String(1000 + i).padStart(4, "0")}K`;
      const started = performance.now();
      // The mobile code (the SMS outbox stands in for the phone).
      const { token: cookie } = await signInByCode(
        running,
        (pathname, form, pending) =>
          request(pathname, { cookie: pending, form }, { status: 302, location: form.intent === "verify" ? /^\/quickStart\/components$/ : undefined }),
        { mobile, deviceId: `bench-${i}`, redirectTo: "/quickStart/components" },
      );
      await request("/quickStart/components", { cookie }, { status: 302, location: /^\/quickStart\/Step0$/ });
      const salaried = i % 2 === 0;
      const steps: Record<string, string>[] = [
        { product: salaried && i % 4 === 0 ? "salary_advance" : "emi", amount: salaried && i % 4 === 0 ? "20000" : "150000" },
        { fullName: "Bench Borrower", dateOfBirth: "1990-04-12", pan },
        { pincode: "560001" },
        salaried ? { employmentType: "salaried", netMonthlyIncome: "65000", salaryDay: "1" } : { employmentType: "self_employed", netMonthlyIncome: "80000" },
        { existingEmis: String((i % 5) * 1000) },
        { product: salaried && i % 4 === 0 ? "salary_advance" : "emi", tenure: "24" },
        { consentKyc: "on", consentCommunications: i % 3 === 0 ? "on" : "" },
      ];
      for (const [step, fields] of steps.entries()) {
        await request(`/quickStart/Step${step}`, { cookie }, { status: 200 });
        const next = step === steps.length - 1 ? /^\/User\/newLoan\/(Emi|salaryAdvance)\/[a-z2-7]{26}\/Step0$/ : new RegExp(`^/quickStart/Step${step + 1}$`);
        const res = await request(`/quickStart/Step${step}`, { cookie, form: { intent: "next", ...fields } }, { status: 302, location: next });
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
      applications: await count(`select count(*) as n from ${q("loan_applications")} where status = 'draft' and amount_paise is not null and offer is not null`),
      profiles: await count(
        `select count(*) as n from ${q("borrower_profiles")} p join ${q("borrower_addresses")} a using (user_id) join ${q("borrower_employment")} e using (user_id) where e.existing_emi_paise is not null`,
      ),
      stepCompletedEvents: await count(`select count(*) as n from ${q("funnel_events")} where event = 'step_completed'`),
      continuedEvents: await count(`select count(*) as n from ${q("funnel_events")} where event = 'continued'`),
    };
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
  console.log(`\nQuick start: ${r.journeys} journeys at once against PostgreSQL (mobile code, 7 steps viewed and saved, application opened)`);
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
  for (const e of r.errors.slice(0, 5)) console.log(`  error: ${e}`);
  const lost =
    r.stored.completed !== r.journeys ||
    r.stored.applications !== r.journeys ||
    r.stored.profiles !== r.journeys ||
    r.stored.stepCompletedEvents !== r.journeys * 7 ||
    r.stored.continuedEvents !== r.journeys;
  if (r.errors.length || lost) {
    console.log("QUICK START LOAD FAILED: an error or a lost step (see above)");
    process.exitCode = 1;
  }
}

if (import.meta.main) reportQuickStart(await quickStartBench());
