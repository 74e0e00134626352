// Signed-in pages for `npm run bench`: the demo borrower (an overdue EMI loan, a closed salary
// advance) signs in with a mobile code; then the dashboard, the loan's page and a profile section
// are loaded at once by many connections, with that borrower's cookie. On PGlite or on PostgreSQL
// (a schema of its own, dropped afterwards), with WEB_CONCURRENCY worker processes.
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { type BenchServer, type MemoryAfterGc, signInByCode, startBenchServer, UNLIMITED_SIGN_IN } from "./bench-server.ts";

export interface PageLoad {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time the server spent per request answered, in ms (when the server's CPU time is known). */
  cpuMsPerRequest?: number;
}

/**
 * `url` loaded by `connections` at once for `seconds`. With `cpuMs` (the server's CPU time so far),
 * also the server's CPU per request: steadier than requests a second on a machine whose speed
 * varies from minute to minute, and not shared with the load generator.
 */
export async function loadPage(
  url: string,
  { connections, seconds, cookie, cpuMs }: { connections: number; seconds: number; cookie?: string; cpuMs?: () => number },
): Promise<PageLoad> {
  const cpuBefore = cpuMs?.();
  const result = await autocannon({ url, connections, duration: seconds, headers: cookie ? { cookie } : {} });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    ...(cpuMs && cpuBefore !== undefined ? { cpuMsPerRequest: (cpuMs() - cpuBefore) / Math.max(1, result.requests.total) } : {}),
  };
}

export interface SignedInFigures {
  database: "pglite" | "postgres";
  workers: number;
  /** Page → connections → its load (with `beside`, the median of its rounds). */
  pages: Record<string, Record<number, PageLoad>>;
  /** With `beside`: page → connections → the other server's load, the median of the rounds taken between the page's. */
  besides: Record<string, Record<number, PageLoad>>;
  rssAfterStartBytes: number;
  /** As the last load ends. */
  rssAtLoadEndBytes: number;
  /** Then after a full garbage collection in each process. */
  afterGc: MemoryAfterGc;
}

/** The signed-in pages under load, at each number of `connections` in turn. `databaseUrl` unset: PGlite. */
/** Several loads as one: the median of each figure (errors added up). */
export function medianLoad(loads: readonly PageLoad[]): PageLoad {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  };
  const cpu = loads.map((l) => l.cpuMsPerRequest).filter((c): c is number => c !== undefined);
  return {
    rps: median(loads.map((l) => l.rps)),
    p50: median(loads.map((l) => l.p50)),
    p99: median(loads.map((l) => l.p99)),
    errors: loads.reduce((sum, l) => sum + l.errors, 0),
    ...(cpu.length ? { cpuMsPerRequest: median(cpu) } : {}),
  };
}

/**
 * The signed-in pages under load, at each number of `connections` in turn. `databaseUrl` unset: PGlite.
 * With `beside` (another server's load at as many connections, e.g. the hello page's), each page is
 * loaded `rounds` times at `besideAt` connections, each round just after a load of the other
 * server, so that the two are measured seconds apart, not minutes (this machine's speed drifts by a
 * third from one minute to the next): their ratio is the ratio of the medians.
 */
export async function signedInBench({
  databaseUrl,
  workers = 1,
  connections,
  seconds,
  warmUp,
  beside,
  besideAt,
  rounds = 1,
}: {
  databaseUrl?: string;
  workers?: number;
  connections: readonly number[];
  seconds: number;
  warmUp: number;
  beside?: (connections: number) => Promise<PageLoad>;
  besideAt?: number;
  rounds?: number;
}): Promise<SignedInFigures> {
  const schema = `bench_pages_${randomBytes(4).toString("hex")}`;
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  let server: BenchServer | undefined;
  try {
    server = await startBenchServer({
      ...UNLIMITED_SIGN_IN,
      LOG_LEVEL: "warn",
      WEB_CONCURRENCY: String(workers),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    });
    const base = server.base;
    const rssAfterStartBytes = await server.settledRssBytes();
    const post = (pathname: string, form: Record<string, string>, cookie: string) =>
      fetch(base + pathname, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: base, cookie },
        body: new URLSearchParams(form),
      });
    const { token } = await signInByCode(server, post, { mobile: "9000000001", deviceId: "bench-device" });
    const cookie = token;
    const loans = await (await fetch(`${base}/User/Loans`, { headers: { cookie } })).text();
    const loanPath = /href="(\/User\/Loans\/Emi\/[^"]+)"/.exec(loans)?.[1];
    if (!loanPath) throw new Error("the demo borrower's EMI loan was not listed");
    const paths = {
      "/User/Dashboard": "/User/Dashboard",
      "EMI loan page": loanPath,
      "/User/Profile/components/Address": "/User/Profile/components/Address",
    };
    const pages: Record<string, Record<number, PageLoad>> = {};
    const besides: Record<string, Record<number, PageLoad>> = {};
    for (const [name, path] of Object.entries(paths)) {
      const check = await fetch(base + path, { headers: { cookie }, redirect: "manual" });
      if (check.status !== 200) throw new Error(`${path} answered ${check.status}`);
      const loads: Record<number, PageLoad> = {};
      for (const count of connections) {
        await loadPage(base + path, { connections: count, seconds: warmUp, cookie });
        if (beside && count === besideAt) {
          const own: PageLoad[] = [];
          const other: PageLoad[] = [];
          for (let round = 0; round < rounds; round++) {
            other.push(await beside(count));
            own.push(await loadPage(base + path, { connections: count, seconds, cookie, cpuMs: server.cpuMs }));
          }
          loads[count] = medianLoad(own);
          (besides[name] ??= {})[count] = medianLoad(other);
        } else {
          loads[count] = await loadPage(base + path, { connections: count, seconds, cookie, cpuMs: server.cpuMs });
        }
      }
      pages[name] = loads;
    }
    const rssAtLoadEndBytes = server.rssBytes();
    return {
      database: databaseUrl ? "postgres" : "pglite",
      workers,
      pages,
      besides,
      rssAfterStartBytes,
      rssAtLoadEndBytes,
      afterGc: await server.afterFullGc(),
    };
  } finally {
    await server?.stop();
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      // The job queue's own schema beside it (server/main.ts: "<schema>_jobs").
      await client.query(`drop schema if exists ${schema}_jobs cascade`);
      await client.end();
    }
  }
}
