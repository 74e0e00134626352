import { randomBytes } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
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

/** Settings that change what a new database holds when the server first starts: such a server makes its own. */
const SHAPES_THE_DATABASE = ["DATA_DIR", "DATABASE_URL", "APP_ENV", "ENCRYPTION_KEY", "SESSION_SECRET", "SEED_DEMO_DATA", "HOLIDAYS"];

/**
 * A PGlite data directory as a server leaves it after its first start (initdb, every migration,
 * the reference and demo data, the job queue's tables; no job queued), made once per run of the
 * suite by whichever test server asks first; the others wait for it. Copying it takes a fraction of
 * a second where making one takes about ten. Null when the run provides no place for it.
 */
async function pgliteTemplate(): Promise<string | null> {
  const root = inject("pgliteTemplateRoot");
  if (!root) return null;
  const data = path.join(root, "data");
  const ready = path.join(root, "ready");
  if (existsSync(ready)) return data;
  try {
    mkdirSync(path.join(root, "making"));
  } catch {
    // Another test file is making it.
    for (let waited = 0; !existsSync(ready); waited += 100) {
      if (waited > 120_000) throw new Error("the PGlite template was not made within two minutes");
      await new Promise((r) => setTimeout(r, 100));
    }
    return data;
  }
  const first = await startServer({
    env: { PORT: "0", HOST: "127.0.0.1", DATA_DIR: data, LOG_LEVEL: "silent", SEED_DEMO_LOANS: "false" },
  });
  await first.close();
  // A copy starts with no job of the template's own start queued (each server queues its own).
  const client = await PGlite.create(path.join(data, "pglite"));
  await client.exec("delete from pgboss.job");
  await client.close();
  writeFileSync(ready, "");
  return data;
}

/**
 * Starts the built application on a free port with a database of its own:
 * a fresh PGlite directory (a copy of the run's template, unless `env` shapes the database), or a
 * fresh schema on TEST_DATABASE_URL.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { now?: () => Date; logDestination?: DestinationStream } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sugam-test-"));
  if (!TEST_DATABASE_URL && !SHAPES_THE_DATABASE.some((name) => name in env)) {
    const template = await pgliteTemplate();
    if (template) {
      cpSync(path.join(template, "pglite"), path.join(dataDir, "pglite"), { recursive: true });
      // The template's local secrets: what it stored encrypted or signed reads back the same.
      copyFileSync(path.join(template, "secrets.json"), path.join(dataDir, "secrets.json"));
    }
  }
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
