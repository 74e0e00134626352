import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** The Drizzle database, the same API on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs `select 1`; rejects when the database is unreachable. */
  ping(): Promise<void>;
  /** LISTEN on a channel (a dedicated connection on PostgreSQL); resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** NOTIFY a channel; every process listening on the same database receives it. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… for a real server; undefined for the embedded PGlite. */
  url: string | undefined;
  /** Where PGlite keeps its files (ignored for PostgreSQL). */
  dataDir: string;
  /** PostgreSQL only: a schema to use as search_path (tests isolate themselves this way). */
  searchPath?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const listeners = new Set<pg.Client>();
    return {
      db,
      kind: "postgres",
      async ping() {
        await pool.query("select 1");
      },
      async listen(channel, onPayload) {
        const client = new pg.Client({ connectionString: options.url });
        await client.connect();
        client.on("notification", (msg) => {
          if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
        });
        await client.query(`listen "${channel.replace(/"/g, "")}"`);
        listeners.add(client);
        return async () => {
          listeners.delete(client);
          await client.end();
        };
      },
      async notify(channel, payload) {
        await pool.query("select pg_notify($1, $2)", [channel, payload]);
      },
      async close() {
        await Promise.all([...listeners].map((c) => c.end()));
        await pool.end();
      },
    };
  }
  const client = await PGlite.create(path.join(options.dataDir, "pglite"));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    async ping() {
      await client.query("select 1");
    },
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      return async () => unlisten();
    },
    async notify(channel, payload) {
      await client.query("select pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      await client.close();
    },
  };
}

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../db/migrations");

/**
 * Applies the committed SQL migrations in name order, each in its own
 * transaction, recording them in `_migrations`. An advisory lock makes
 * concurrent starts of several processes safe on PostgreSQL.
 */
export async function migrate(db: Db, dir = migrationsDir): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7152026)`);
    await tx.execute(
      sql`create table if not exists _migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
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
