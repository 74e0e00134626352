import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort, waitUntilUp } from "../helpers/process.ts";
import { TEST_DATABASE_URL } from "../helpers/server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const schema = `cl_${randomBytes(5).toString("hex")}`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!TEST_DATABASE_URL)("WEB_CONCURRENCY worker processes on PostgreSQL", () => {
  let proc: ChildProcess;
  let url: string;
  let dataDir: string;
  /** The process id in each request's log line, in order. */
  const requestPids: number[] = [];
  /** The primary's line once every worker listens (the first listens, and /readyz answers, before the second starts). */
  let allStarted = false;

  beforeAll(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    dataDir = mkdtempSync(path.join(tmpdir(), "cluster-"));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    proc = spawn(process.execPath, ["server.ts"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        WEB_CONCURRENCY: "2",
        LOG_LEVEL: "info",
        SEED_DEMO_LOANS: "false",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buffered = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as { msg?: string; pid?: number };
          if (entry.msg === "request" && entry.pid) requestPids.push(entry.pid);
          if (entry.msg?.endsWith("worker processes started")) allStarted = true;
        } catch {
          /* not a log line */
        }
      }
    });
    await waitUntilUp(`${url}/readyz`);
    await vi.waitFor(() => expect(allStarted).toBe(true), { timeout: 60_000, interval: 100 });
  }, 120_000);

  afterAll(async () => {
    if (proc && proc.exitCode === null) {
      proc.kill("SIGKILL");
      await new Promise((r) => proc.once("exit", r));
    }
    rmSync(dataDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`drop schema ${schema} cascade`);
    await client.query(`drop schema if exists ${schema}_jobs cascade`); // the job queue's beside it
    await client.end();
  });

  it("answers from two worker processes, replaces one that dies, and stops cleanly on SIGTERM", async () => {
    // The workers' log lines share one pipe, so some may arrive late: only the process ids seen count.
    const seen = new Set<number>();
    const requestsSeenFrom = async (pids: Set<number>) => {
      requestPids.length = 0;
      // A new connection each (the primary hands out connections, not requests, in turn).
      await Promise.all(
        Array.from({ length: 40 }, async () =>
          expect((await fetch(`${url}/Contact-us`, { headers: { connection: "close" }, signal: AbortSignal.timeout(5_000) })).status).toBe(
            200,
          ),
        ),
      );
      await new Promise((r) => setTimeout(r, 200));
      for (const pid of requestPids) pids.add(pid);
      return pids;
    };
    await vi.waitFor(async () => expect((await requestsSeenFrom(seen)).size).toBe(2), { timeout: 30_000, interval: 500 });
    expect(seen.has(proc.pid ?? 0)).toBe(false);

    // A worker killed outright: the other answers meanwhile, and a new one takes its place.
    const [victim, survivor] = [...seen] as [number, number];
    process.kill(victim, "SIGKILL");
    // A connection the primary handed to the killed worker just before it died is lost (reset, or
    // never answered): a browser sees that once and tries again, as this does after a second.
    await vi.waitFor(async () => expect((await fetch(`${url}/Contact-us`, { signal: AbortSignal.timeout(1_000) })).status).toBe(200), {
      timeout: 10_000,
      interval: 100,
    });
    const after = new Set<number>();
    await vi.waitFor(
      async () => {
        const pids = await requestsSeenFrom(after);
        expect([...pids].filter((pid) => pid !== victim && pid !== survivor).length).toBe(1);
      },
      { timeout: 30_000, interval: 500 },
    );
    expect(alive(victim)).toBe(false);
    expect(alive(survivor)).toBe(true);
    const replaced = new Set([...after].filter((pid) => pid !== victim));

    const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of replaced) expect(alive(pid)).toBe(false);
  }, 120_000);
});
