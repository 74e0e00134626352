import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { DestinationStream } from "pino";
import { type RunningServer, startServer } from "../../server/main.ts";

export interface TestServer extends RunningServer {
  /** fetch relative to the server, without following redirects. */
  get(pathname: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
  dataDir: string;
}

/** The PostgreSQL server to test against, or undefined for PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/**
 * Starts the built application on a free port with a database of its own:
 * a fresh PGlite directory, or a fresh schema on TEST_DATABASE_URL.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { now?: () => Date; logDestination?: DestinationStream } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sugam-test-"));
  let schema: string | undefined;
  if (TEST_DATABASE_URL) {
    schema = `t_${randomBytes(6).toString("hex")}`;
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  const running = await startServer({
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      // Tests make their own loans; the demo borrower's is tested on its own (SEED_DEMO_LOANS=true).
      SEED_DEMO_LOANS: "false",
      ...(TEST_DATABASE_URL ? { DATABASE_URL: TEST_DATABASE_URL } : {}),
      ...env,
    },
    searchPath: schema,
    now: options.now,
    logDestination: options.logDestination,
  });
  return {
    ...running,
    dataDir,
    get(pathname, init) {
      return fetch(new URL(pathname, running.url), { redirect: "manual", ...init });
    },
    async stop() {
      await running.close();
      if (schema && TEST_DATABASE_URL) {
        const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.query(`drop schema if exists ${schema}_jobs cascade`);
        await client.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
