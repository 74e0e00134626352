// The signed-in pages' part of `npm run bench`: their cost against React Router's stock server on
// a hello page (the target, docs/ARCHITECTURE.md "Speed": on PostgreSQL with one worker, a signed-in
// page's server CPU per request and its p99 at `costConnections` at most 3 × the hello page's,
// measured in the same run). The full run also loads each page with `connections` for its requests a
// second, with 2 workers and on PGlite.
import { startHello } from "./bench-hello.ts";
import { medianLoad, type PageLoad, type SignedInFigures, signedInBench } from "./bench-pages.ts";

/**
 * Each page's cost is taken in ROUNDS rounds, each just after a load of the hello page (both servers
 * running), and set against the hello loads of its own rounds: the machine's speed drifts too much
 * between a hello page measured once at the start and a page measured a minute later.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const HELLO_ROW = "React Router's stock server, hello page";

/** Prints the report; returns each run's memory figures by the run's name. */
export async function signedInReport({
  ciProfile,
  seconds,
  warmUp,
  connections: wide,
  costConnections,
  pgUrl,
}: {
  ciProfile: boolean;
  seconds: number;
  warmUp: number;
  connections: number;
  costConnections: number;
  pgUrl: string;
}): Promise<Record<string, Pick<SignedInFigures, "rssAfterStartBytes" | "rssAtLoadEndBytes" | "afterGc">>> {
  const connections = ciProfile ? [costConnections] : [costConnections, wide];
  // A page's code is optimised by V8 only after some thousands of requests: the dashboard's first 5 s
  // after a 3 s warm-up cost 2.74 ms of CPU a request, the next rounds 1.9. A server runs for days.
  const pageWarmUp = ciProfile ? 6 : 10;
  // CI's small report: the run the target is set on (PostgreSQL, 1 worker); the full run adds 2 workers and PGlite.
  const runsOf = [
    { name: "PostgreSQL, 1 worker", databaseUrl: pgUrl, workers: 1 },
    ...(ciProfile
      ? []
      : [
          { name: "PostgreSQL, 2 workers", databaseUrl: pgUrl, workers: 2 },
          { name: "PGlite", databaseUrl: undefined, workers: 1 },
        ]),
  ];
  console.log(
    `\nSigned-in pages (the demo borrower), ${seconds} s each, at ${connections.join(" and ")} connections; at ${costConnections} on PostgreSQL with 1 worker, ${ROUNDS} rounds each after a round of the hello page, medians`,
  );
  const row = (loads: Record<number, PageLoad>, base?: Record<number, PageLoad>) => {
    const cost = loads[costConnections];
    const helloCost = base?.[costConnections];
    const times = (a?: number, b?: number) => (a !== undefined && b ? `${(a / b).toFixed(2)}×` : "");
    const at = loads[wide];
    return {
      "CPU ms/req": cost?.cpuMsPerRequest?.toFixed(2) ?? "",
      "CPU of hello": times(cost?.cpuMsPerRequest, helloCost?.cpuMsPerRequest),
      [`p99 ms, ${costConnections} conn.`]: cost?.p99 ?? "",
      "p99 of hello": times(cost?.p99, helloCost?.p99),
      ...(at && wide !== costConnections ? { [`req/s, ${wide} conn.`]: Math.round(at.rps), [`p99 ms, ${wide} conn.`]: at.p99 } : {}),
      errors: Object.values(loads).reduce((sum, l) => sum + l.errors, 0),
    };
  };

  const hello = await startHello();
  const helloLoads: Record<number, PageLoad[]> = {};
  const loadHello = async (count: number) => {
    const loaded = await hello.load(count, seconds);
    (helloLoads[count] ??= []).push(loaded);
    return loaded;
  };
  const medianOfHello = (): Record<number, PageLoad> =>
    Object.fromEntries(Object.entries(helloLoads).map(([count, loads]) => [count, medianLoad(loads)]));
  const pageRows: Record<string, ReturnType<typeof row>> = {};
  const costRatios: string[] = [];
  const memory: Awaited<ReturnType<typeof signedInReport>> = {};
  try {
    for (const count of connections) {
      await hello.load(count, warmUp);
      if (count !== costConnections) await loadHello(count);
    }
    for (const run of runsOf) {
      const paired = run.databaseUrl !== undefined && run.workers === 1;
      const figures = await signedInBench({
        ...run,
        connections,
        seconds,
        warmUp: pageWarmUp,
        ...(paired ? { beside: loadHello, besideAt: costConnections, rounds: ROUNDS } : {}),
      });
      for (const [page, loads] of Object.entries(figures.pages)) {
        // A page of the paired run against its own rounds' hello loads; any other against all of them.
        const base = figures.besides[page] ?? medianOfHello();
        pageRows[`${run.name}: ${page}`] = row(loads, base);
        if (paired) {
          const cost = loads[costConnections];
          const cpu = (cost?.cpuMsPerRequest ?? 0) / (base[costConnections]?.cpuMsPerRequest ?? 1);
          const p99 = (cost?.p99 ?? 0) / (base[costConnections]?.p99 || 1);
          costRatios.push(
            `${page}: CPU ${cpu.toFixed(2)}× ${cpu <= 3 ? "(within 3×)" : "(OVER 3×)"}, p99 ${p99.toFixed(2)}× ${p99 <= 3 ? "(within 3×)" : "(OVER 3×)"}`,
          );
        }
      }
      memory[run.name] = figures;
    }
  } finally {
    hello.stop();
  }
  console.table({ [HELLO_ROW]: row(medianOfHello()), ...pageRows });
  console.log(`Cost against the hello page, PostgreSQL with 1 worker, ${costConnections} connections (target: at most 3×):`);
  for (const line of costRatios) console.log(`  ${line}`);
  console.log(
    "CPU ms/req: the server's CPU time (its worker processes' included) per request answered; steadier than req/s on a machine whose speed varies, and the load generator's share is not in it.",
  );
  console.log(
    `PGlite answers one request at a time (its queries run in the server's own thread), so connections queue; its p99 comes from serial service under this load generator, not from the application: at 50 connections, a stand-in Node server spending 11 ms per request shows the same p99 (5.4 s) under autocannon, and 1.1 s under a plain Node client with 50 keep-alive connections.`,
  );
  return memory;
}
