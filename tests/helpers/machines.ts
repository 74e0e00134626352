// Several app machines as an operator runs them behind a load balancer (PRODUCT.md §21): each the
// built app in a process of its own with a data directory of its own, all sharing one PostgreSQL
// schema and the secrets every machine of an installation must have alike. The test keeps a handle
// of its own on that schema (`services`: the database, the configuration, the clock, the keyring,
// and `realtime.publish` through NOTIFY), which is what the helpers written for one test server use.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import webpush from "web-push";
import { keyringFromHex } from "../../app/server/crypto.server.ts";
import { openDatabase } from "../../app/server/db/client.ts";
import { loadConfig } from "../../server/config.ts";
import { freePort, waitUntilUp } from "./process.ts";
import { TEST_DATABASE_URL, type TestServer } from "./server.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** One machine: a TestServer whose `services` are the test's own handle on the shared schema. */
export interface Machine extends TestServer {
  name: string;
  pid: number;
}

export interface Fleet {
  machines: Machine[];
  schema: string;
  /** Stops every machine (SIGTERM, SIGKILL after 10 s), removes their data directories and the schema. */
  stop(): Promise<void>;
}

async function query(text: string) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function stopProcess(proc: ChildProcess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once("exit", r));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts one machine per name, all at once (as a deployment does: they migrate and seed a new
 * schema together), on TEST_DATABASE_URL in a new schema, with `env` added to each machine's.
 */
export async function startMachines(names: string[], env: Record<string, string> = {}): Promise<Fleet> {
  if (!TEST_DATABASE_URL) throw new Error("machines share a PostgreSQL database: set TEST_DATABASE_URL");
  const schema = `tm_${randomBytes(5).toString("hex")}`;
  await query(`create schema ${schema}`);
  const vapid = webpush.generateVAPIDKeys();
  // What every machine of one installation shares: the database and the secrets.
  const shared = {
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    SEED_DEMO_LOANS: "false",
    ...env,
  };
  const handleDir = mkdtempSync(path.join(tmpdir(), "machines-"));
  const config = loadConfig({ ...shared, DATA_DIR: handleDir });
  const database = await openDatabase({ url: TEST_DATABASE_URL, dataDir: handleDir, searchPath: schema, poolSize: 3 });
  const services = {
    config,
    db: database.db,
    now: () => new Date(),
    keyring: keyringFromHex(config.encryptionKey),
    realtime: { publish: (event: unknown) => database.notify(`app_events_${schema}`, JSON.stringify(event)) },
  };
  const procs: ChildProcess[] = [];
  const dataDirs: string[] = [handleDir];

  const start = async (name: string): Promise<Machine> => {
    const dataDir = mkdtempSync(path.join(tmpdir(), `machine-${name}-`));
    dataDirs.push(dataDir);
    const port = await freePort();
    const proc = spawn(process.execPath, ["server.ts"], {
      cwd: root,
      env: {
        ...process.env,
        ...shared,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        WEB_CONCURRENCY: "1",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    procs.push(proc);
    const exited = new Promise<never>((_, reject) =>
      proc.once("exit", (code) => reject(new Error(`machine ${name} exited (${code}) while starting`))),
    );
    const url = `http://127.0.0.1:${port}`;
    await Promise.race([waitUntilUp(`${url}/readyz`), exited]);
    exited.catch(() => {});
    const machine = {
      name,
      pid: proc.pid ?? 0,
      url,
      dataDir,
      config,
      database,
      services,
      get: (pathname: string, init?: RequestInit) => fetch(new URL(pathname, url), { redirect: "manual", ...init }),
      stop: () => stopProcess(proc),
      close: () => stopProcess(proc),
    };
    // The helpers read `services` only for what it holds (above); `server` is the machine's own.
    return machine as unknown as Machine;
  };

  const stop = async () => {
    await Promise.all(procs.map(stopProcess));
    await database.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await query(`drop schema if exists ${schema} cascade; drop schema if exists ${schema}_jobs cascade`);
  };
  try {
    return { machines: await Promise.all(names.map(start)), schema, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A Server-Sent Events stream read as it arrives: the names of the events so far, in order. */
export interface EventStream {
  status: number;
  events: string[];
  /** Resolves once `count` events of this name have arrived in all (rejects after `timeout` ms). */
  heard(name: string, count?: number, timeout?: number): Promise<void>;
  close(): void;
}

export async function openEventStream(url: string, cookie: string): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { Cookie: cookie }, signal: abort.signal });
  const events: string[] = [];
  let arrived = () => {};
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = "";
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffered += decoder.decode(chunk, { stream: true });
          const blocks = buffered.split("\n\n");
          buffered = blocks.pop() ?? "";
          for (const block of blocks) {
            const name = /^event: (.+)$/m.exec(block)?.[1];
            if (name) events.push(name);
          }
          arrived();
        }
      } catch {
        /* closed */
      }
    })();
  }
  const countOf = (name: string) => events.filter((e) => e === name).length;
  return {
    status: res.status,
    events,
    async heard(name, count = 1, timeout = 5_000) {
      const end = Date.now() + timeout;
      while (countOf(name) < count) {
        if (Date.now() > end) throw new Error(`${count} "${name}" event(s) not heard within ${timeout} ms (heard: ${events.join(", ")})`);
        await new Promise<void>((resolve) => {
          arrived = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
    close: () => abort.abort(),
  };
}
