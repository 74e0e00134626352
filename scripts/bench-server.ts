// What the bench scripts share: a free port, the production server of this
// build started in a data directory of its own (ready when /readyz answers),
// the cookies of a response, and a borrower's sign-in with the code from the
// SMS outbox.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, waitUntilUp } from "../tests/helpers/process.ts";

export { freePort, setCookieValue, signInByCode, waitUntilUp } from "../tests/helpers/process.ts";

/** Sign-in limits out of the way: a load of sign-ins from one address is the point of these runs. */
export const UNLIMITED_SIGN_IN = { OTP_PER_IP_PER_HOUR: "1000000", OTP_PER_NUMBER_PER_HOUR: "1000000", OTP_RESEND_SECONDS: "0" };

export function spawnNode(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

/** Resident memory of one process, in bytes (0 when it is gone). */
function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** A process and its descendants (Linux /proc). */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    /* gone */
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU time (user and system) one process has used, in milliseconds (0 when it is gone). */
function cpuMsOf(pid: number): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second), after the command's ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time a process and its descendants have used so far, in ms. */
export const treeCpuMs = (pid: number) => processTree(pid).reduce((sum, p) => sum + cpuMsOf(p), 0);

export interface BenchServer {
  base: string;
  dataDir: string;
  /** CPU time the server and its worker processes have used so far, in ms (a load's cost, whatever else the machine does). */
  cpuMs(): number;
  /** The server's resident memory now, in bytes: its process and its worker processes. */
  rssBytes(): number;
  /**
   * The same once it has settled: read each second, from 10 s on, until three readings in a row are
   * within 2% (a process just started or just loaded still holds what its collector frees when
   * idle), at most `maxMs`.
   */
  settledRssBytes(maxMs?: number): Promise<number>;
  /**
   * A full garbage collection in each of the server's processes (scripts/bench-memory-probe.ts),
   * then their memory summed: what they keep alive, apart from what V8 holds until it is idle.
   */
  afterFullGc(): Promise<MemoryAfterGc>;
  /** SIGTERM, wait for the exit, remove the data directory. */
  stop(): Promise<void>;
}

export interface MemoryAfterGc {
  /** V8's young generation just before the collection (it shrinks only once V8 finds the process idle). */
  youngGenerationBytes: number;
  /** After the collection. */
  rssBytes: number;
  heapUsedBytes: number;
}

/**
 * `server.ts` in production mode on 127.0.0.1 with `env` on top of this
 * process's environment; BENCH_SERVER_ARGS (e.g. `--cpu-prof`) go to its Node.
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-"));
  const port = await freePort();
  const args = [
    ...(process.env.BENCH_SERVER_ARGS?.split(" ").filter(Boolean) ?? []),
    "--expose-gc",
    "--import",
    "./scripts/bench-memory-probe.ts",
    "server.ts",
  ];
  const child = spawnNode(args, { NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ...env });
  const exited = new Promise((r) => child.once("exit", r));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(`${base}/readyz`);
  } catch (error) {
    await stop();
    throw error;
  }
  const rssBytes = () => processTree(child.pid ?? 0).reduce((sum, pid) => sum + rssOf(pid), 0);
  const cpuMs = () => treeCpuMs(child.pid ?? 0);
  const settledRssBytes = async (maxMs = 40_000) => {
    // Node hands freed memory back only after some seconds of idleness (a load's peak fell from
    // 766 to 459 MB in 10 s on PGlite), so no reading counts before 10 s; then three alike.
    const started = Date.now();
    const readings: number[] = [];
    while (Date.now() - started < maxMs) {
      await new Promise((r) => setTimeout(r, 1_000));
      readings.push(rssBytes());
      if (Date.now() - started < 10_000 || readings.length < 3) continue;
      const [a, b, c] = readings.slice(-3) as [number, number, number];
      if (Math.max(a, b, c) - Math.min(a, b, c) < c * 0.02) return c;
    }
    return readings.at(-1) ?? rssBytes();
  };
  const afterFullGc = async (): Promise<MemoryAfterGc> => {
    // Only the processes that loaded the probe (a process without its handler would die of SIGUSR2).
    const probed = processTree(child.pid ?? 0).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("bench-memory-probe");
      } catch {
        return false;
      }
    });
    const fileOf = (pid: number) => path.join(dataDir, `memory-${pid}.json`);
    const signalled = probed.filter((pid) => {
      rmSync(fileOf(pid), { force: true });
      try {
        process.kill(pid, "SIGUSR2");
        return true;
      } catch {
        return false; // gone since the scan
      }
    });
    const sum: MemoryAfterGc = { rssBytes: 0, heapUsedBytes: 0, youngGenerationBytes: 0 };
    for (const file of signalled.map(fileOf)) {
      const deadline = Date.now() + 10_000;
      while (!existsSync(file)) {
        if (Date.now() > deadline) throw new Error(`no memory figures from the server (${file})`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const figures = JSON.parse(readFileSync(file, "utf8")) as Omit<MemoryAfterGc, "rssBytes">;
      sum.heapUsedBytes += figures.heapUsedBytes;
      sum.youngGenerationBytes += figures.youngGenerationBytes;
    }
    // The pages the collection freed are unmapped by V8's sweeper threads, just after.
    await new Promise((r) => setTimeout(r, 1_000));
    sum.rssBytes = rssBytes();
    return sum;
  };
  return { base, dataDir, cpuMs, rssBytes, settledRssBytes, afterFullGc, stop };
}
