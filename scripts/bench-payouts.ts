// Payouts for `npm run bench`: N approved loans disbursed at once through the local payout
// stand-in, each by two operations staff clicking at the same moment (2N requests), against
// PostgreSQL (or PGlite when BENCH_PAYOUTS_DB=pglite). Then the database and the stand-in's own
// records are checked: one payout per loan, every loan active, one disbursal in each ledger.
import { readdirSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";

const LOANS = Number(process.env.BENCH_PAYOUTS ?? 50);
if (process.env.BENCH_PAYOUTS_DB !== "pglite")
  process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { startTestServer } = await import("../tests/helpers/server.ts");
const { approvedApplication, signedInStaff } = await import("../tests/helpers/applications.ts");
const { postForm } = await import("../tests/helpers/http.ts");
const { UNLIMITED_SIGN_IN } = await import("./bench-server.ts");
const { loanApplications, loanLedger, payouts } = await import("../app/server/db/schema.ts");

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export interface PayoutFigures {
  loans: number;
  requests: number;
  requestP50Ms: number;
  requestP95Ms: number;
  allProcessedSeconds: number;
  payoutRows: number;
  loansWithMoreThanOnePayout: number;
  active: number;
  ledgerDisbursals: number;
  standInPayouts: number;
  database: string;
}

export async function payoutBench(): Promise<PayoutFigures> {
  const app = await startTestServer({
    ...UNLIMITED_SIGN_IN,
    LOCAL_PAYOUT_SETTLE_SECONDS: "1",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
  });
  try {
    const credit = await signedInStaff(app, "credit", "Bench Credit");
    const opsA = await signedInStaff(app, "operations", "Bench Ops A");
    const opsB = await signedInStaff(app, "operations", "Bench Ops B");
    const refs: string[] = [];
    // Preparation (not measured): N borrowers sign and a credit officer approves, 5 at a time.
    for (let i = 0; i < LOANS; i += 5) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(5, LOANS - i) }, (_, j) => approvedApplication(app, `93${String(i + j).padStart(8, "0")}`, credit)),
      );
      refs.push(...batch.map((b) => b.ref));
    }
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      refs.flatMap((ref) =>
        [opsA, opsB].map(async (ops) => {
          const t = performance.now();
          const res = await postForm(app, `/admin/applications/${ref}`, { intent: "disburse" }, { cookie: ops.cookie });
          latencies.push(performance.now() - t);
          if (res.status !== 302) throw new Error(`disburse answered ${res.status}`);
        }),
      ),
    );
    const db = app.services.db;
    for (;;) {
      const [waiting] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(payouts)
        .where(eq(payouts.status, "requested"));
      if (Number(waiting?.n) === 0) break;
      if (performance.now() - started > 60_000)
        throw new Error(
          `payouts still requested after 3 minutes: ${JSON.stringify(await db.select({ s: payouts.status, c: payouts.checkedAt }).from(payouts))}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
    const allProcessedSeconds = (performance.now() - started) / 1000;
    const [counts] = await db
      .select({
        rows: sql<number>`(select count(*)::int from ${payouts})`,
        doubled: sql<number>`(select count(*)::int from (select application_id from ${payouts} group by application_id having count(*) > 1) d)`,
        active: sql<number>`(select count(*)::int from ${loanApplications} where status = 'active')`,
        ledger: sql<number>`(select count(*)::int from ${loanLedger} where kind = 'disbursal')`,
      })
      .from(sql`(select 1) one`);
    latencies.sort((a, b) => a - b);
    return {
      loans: refs.length,
      requests: latencies.length,
      requestP50Ms: percentile(latencies, 50),
      requestP95Ms: percentile(latencies, 95),
      allProcessedSeconds,
      payoutRows: Number(counts?.rows),
      loansWithMoreThanOnePayout: Number(counts?.doubled),
      active: Number(counts?.active),
      ledgerDisbursals: Number(counts?.ledger),
      standInPayouts: readdirSync(path.join(app.dataDir, "payouts")).length,
      database: process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite",
    };
  } finally {
    await app.stop();
  }
}

export function reportPayouts(f: PayoutFigures) {
  console.log(
    `\nPayouts: ${f.loans} approved loans disbursed at once by two operations staff each (${f.requests} requests), ${f.database}`,
  );
  console.table({
    "disburse request (ms)": { p50: f.requestP50Ms.toFixed(1), p95: f.requestP95Ms.toFixed(1) },
  });
  console.log(
    `all processed by the stand-in in ${f.allProcessedSeconds.toFixed(1)} s (settles 1 s after each request); payout rows ${f.payoutRows}, ` +
      `stand-in payouts ${f.standInPayouts}, loans paid more than once ${f.loansWithMoreThanOnePayout}, active ${f.active}, ledger disbursals ${f.ledgerDisbursals}`,
  );
  const ok = f.payoutRows === f.loans && f.standInPayouts === f.loans && f.loansWithMoreThanOnePayout === 0 && f.active === f.loans;
  console.log(ok ? "no double payout" : "PAYOUT CHECK FAILED");
  if (!ok) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) reportPayouts(await payoutBench());
