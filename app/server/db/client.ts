import { fork } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { TransactionSafePool } from "./pool.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/**
 * The Drizzle database, the same API on PGlite and on PostgreSQL, and the one
 * type for "the database or an open transaction": a transaction is a `Db` too.
 * Server code that queries takes a `Db`; called with a transaction, it runs inside it.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** How another library (the job queue) reaches the same database: the PGlite instance, or the server's URL. */
export type DatabaseConnection = { kind: "pglite"; client: PGlite } | { kind: "postgres"; url: string };

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  connection: DatabaseConnection;
  /** Runs `select 1`; rejects when the database does not answer within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * LISTEN on a channel (one dedicated connection on PostgreSQL, re-established
   * with backoff when it drops); resolves to an unsubscribe function. `onResume`
   * runs after a reconnection: notifications sent while it was down are lost.
   */
  listen(channel: string, onPayload: (payload: string) => void, onResume?: () => void): Promise<() => Promise<void>>;
  /** NOTIFY a channel; every process listening on the same database receives it. */
  notify(channel: string, payload: string): Promise<void>;
  /** False while the LISTEN connection is down and being re-established. */
  listening(): boolean;
  close(): Promise<void>;
}

/** Where the database layer reports what it survives (a dropped connection, a reconnection). */
export interface DatabaseLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface DatabaseOptions {
  /** postgres://… for a real server; undefined for the embedded PGlite. */
  url: string | undefined;
  /** Where PGlite keeps its files (ignored for PostgreSQL). */
  dataDir: string;
  /** PostgreSQL only: a schema to use as search_path (tests isolate themselves this way). */
  searchPath?: string;
  poolSize?: number;
  log?: DatabaseLog;
}

const silent: DatabaseLog = { warn() {}, info() {} };

/** Rejects when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const CONNECT_TIMEOUT_MS = 5_000;
const RECONNECT_MAX_MS = 5_000;

/**
 * One connection that LISTENs on every channel asked for and comes back after
 * it drops (a server restart, a failover, a proxy in between): each failure
 * is logged and retried with backoff from 250 ms to 5 s.
 */
function createListener(connection: pg.ClientConfig, log: DatabaseLog) {
  const channels = new Map<string, { onPayload: (payload: string) => void; onResume?: () => void }>();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let stopped = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const quote = (channel: string) => `"${channel.replace(/"/g, "")}"`;

  const scheduleReconnect = () => {
    if (stopped || retryTimer || connecting) return;
    const delay = Math.min(RECONNECT_MAX_MS, 250 * 2 ** Math.min(failures, 6));
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect(true).catch(() => {});
    }, delay);
    retryTimer.unref();
  };

  const drop = (c: pg.Client, error?: Error) => {
    if (client !== c) return;
    client = null;
    log.warn({ err: error }, "database listener connection lost; reconnecting");
    c.end().catch(() => {});
    scheduleReconnect();
  };

  function connect(resuming: boolean): Promise<void> {
    connecting ??= (async () => {
      const c = new pg.Client({ ...connection, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      c.on("error", (error) => drop(c, error));
      c.on("end", () => drop(c));
      c.on("notification", (msg) => {
        if (msg.payload !== undefined) channels.get(msg.channel)?.onPayload(msg.payload);
      });
      try {
        await c.connect();
        for (const channel of channels.keys()) await c.query(`listen ${quote(channel)}`);
      } catch (error) {
        c.removeAllListeners("end");
        c.on("error", () => {});
        await c.end().catch(() => {});
        failures++;
        throw error;
      }
      if (stopped) {
        await c.end().catch(() => {});
        return;
      }
      client = c;
      failures = 0;
      if (resuming) {
        log.info({}, "database listener reconnected");
        for (const { onResume } of channels.values()) onResume?.();
      }
    })().finally(() => {
      connecting = null;
    });
    return connecting.catch((error: unknown) => {
      if (resuming) {
        log.warn({ err: error }, "database listener could not reconnect yet");
        scheduleReconnect();
      }
      throw error;
    });
  }

  return {
    listening: () => client !== null || channels.size === 0,
    async listen(channel: string, onPayload: (payload: string) => void, onResume?: () => void) {
      channels.set(channel, { onPayload, onResume });
      if (!client) await connect(false);
      else await client.query(`listen ${quote(channel)}`);
      return async () => {
        channels.delete(channel);
        await client?.query(`unlisten ${quote(channel)}`).catch(() => {});
      };
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      await connecting?.catch(() => {});
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners("end");
        await c.end().catch(() => {});
      }
    },
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log = options.log ?? silent;
  if (options.url) {
    const connection: pg.ClientConfig = {
      connectionString: options.url,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    };
    const pool = new TransactionSafePool({
      ...connection,
      max: options.poolSize ?? 10,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // A connection that drops (a restart, a failover, a proxy in between) emits 'error' on its
    // client, and on the pool too while idle: unheard, either event would end the process. Each
    // client's own listener logs it; the pool discards a broken client (idle, or on release) and
    // opens a new one on next use, while the query that was running on it fails.
    pool.on("connect", (client) => {
      client.on("error", (error) => log.warn({ err: error }, "database connection lost; it is replaced on next use"));
    });
    pool.on("error", () => {});
    const db: Db = drizzlePg(pool, { schema });
    const listener = createListener(connection, log);
    return {
      db,
      kind: "postgres",
      connection: { kind: "postgres", url: options.url },
      async ping(timeoutMs = 2_000) {
        await within(pool.query("select 1"), timeoutMs, "the database");
      },
      listen: listener.listen,
      listening: listener.listening,
      async notify(channel, payload) {
        await pool.query("select pg_notify($1, $2)", [channel, payload]);
      },
      async close() {
        await listener.stop();
        // Bounded: a client still out (a query stuck on a dead connection) must not hold up a shutdown.
        await within(pool.end(), CONNECT_TIMEOUT_MS, "closing the connection pool").catch((error: unknown) =>
          log.warn({ err: error }, "connections still in use at shutdown; leaving them"),
        );
      },
    };
  }
  const directory = path.join(options.dataDir, "pglite");
  await createDataDirectory(directory);
  // pg_trgm: the name search's index (migration 0013), as on PostgreSQL.
  const client = await PGlite.create(directory, {
    extensions: { pg_trgm },
    // PostgreSQL's 128 MB of shared buffers live in the WebAssembly memory, which never shrinks:
    // 16 MB hold an embedded installation's hot pages (the files stay in the OS's page cache
    // anyway) and take about 170 MB off the process's memory.
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
  });
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: "pglite",
    connection: { kind: "pglite", client },
    async ping(timeoutMs = 2_000) {
      await within(client.query("select 1"), timeoutMs, "the database");
    },
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      return async () => unlisten();
    },
    async notify(channel, payload) {
      await client.query("select pg_notify($1, $2)", [channel, payload]);
    },
    listening: () => true,
    async close() {
      await client.close();
    },
  };
}

/**
 * A new embedded database's data directory, made by PGlite (initdb) in a child process: the memory
 * initdb leaves with the allocator (about 150 MB) goes back to the system when the child exits.
 */
async function createDataDirectory(directory: string) {
  if (existsSync(path.join(directory, "PG_VERSION"))) return;
  const script = fileURLToPath(new URL("./pglite-init.ts", import.meta.url));
  await new Promise<void>((resolve, reject) => {
    const child = fork(script, [directory], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`could not create the embedded database in ${directory} (exit ${code ?? signal})`)),
    );
  });
}

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../db/migrations");

/**
 * Runs `work` in one transaction holding the start lock (a transaction-scoped advisory lock): what
 * several processes or machines starting at once on one database do, migrating and seeding, they
 * do one at a time, each seeing what the one before committed.
 */
export function underStartLock<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7152026)`);
    return work(tx);
  });
}

/**
 * Applies the committed SQL migrations in name order, all in one transaction
 * (a failing one leaves none of them applied), recording them in
 * `_migrations`. The start lock makes concurrent starts of several processes
 * safe on PostgreSQL.
 */
export async function migrate(db: Db, dir = migrationsDir): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const applied: string[] = [];
  await underStartLock(db, async (tx) => {
    await tx.execute(sql`create table if not exists _migrations (name text primary key, applied_at timestamptz not null default now())`);
    const done = (await tx.execute(sql`select name from _migrations`)) as unknown as { rows: { name: string }[] };
    const doneNames = new Set(done.rows.map((r) => r.name));
    for (const file of files) {
      if (doneNames.has(file)) continue;
      // drizzle-kit qualifies foreign keys with "public".: unqualified names follow the search_path,
      // so one installation can live in its own schema.
      const text = readFileSync(path.join(dir, file), "utf8").replaceAll('"public".', "");
      for (const statement of text.split("--> statement-breakpoint")) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into _migrations (name) values (${file})`);
      applied.push(file);
    }
  });
  return applied;
}
