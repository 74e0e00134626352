// What bench-daily.ts measures around each stage, beside its wall time: the rows it wrote (pg_stat_user_tables
// deltas of the schema), the peak resident memory of this Node process (the server runs in it) and PostgreSQL's
// memory, sampled from /proc: the private memory (RssAnon) of every backend connected to the bench's database,
// summed, and the shared memory the busiest of them had touched (RssShmem: shared_buffers, counted once).
import { readFileSync } from "node:fs";
import os from "node:os";
import pg from "pg";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Peaks {
  nodeRssMiB: number;
  pgPrivateMiB: number;
  pgSharedMiB: number;
  pgBackends: number;
}

/** kB fields of /proc/<pid>/status, or null when the process is gone. */
function procStatus(pid: number): Record<string, number> | null {
  try {
    const out: Record<string, number> = {};
    for (const line of readFileSync(`/proc/${pid}/status`, "utf8").split("\n")) {
      const m = /^(\w+):\s+(\d+) kB$/.exec(line);
      if (m?.[1] && m[2]) out[m[1]] = Number(m[2]);
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * Samples every `everyMs` until stopped; `peaks()` gives the highest figures since the last `reset()`.
 * The PostgreSQL server must run on this machine (its processes' /proc entries readable).
 */
export async function memorySampler(connectionString: string, database: string, everyMs = 250) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  let peaks: Peaks = { nodeRssMiB: 0, pgPrivateMiB: 0, pgSharedMiB: 0, pgBackends: 0 };
  const state = { running: true };
  const sample = async () => {
    const node = process.memoryUsage.rss() / 2 ** 20;
    const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1", [database]);
    let priv = 0;
    let shared = 0;
    for (const { pid } of rows) {
      const s = procStatus(pid);
      if (!s) continue;
      priv += s.RssAnon ?? 0;
      shared = Math.max(shared, s.RssShmem ?? 0);
    }
    peaks = {
      nodeRssMiB: Math.max(peaks.nodeRssMiB, node),
      pgPrivateMiB: Math.max(peaks.pgPrivateMiB, priv / 1024),
      pgSharedMiB: Math.max(peaks.pgSharedMiB, shared / 1024),
      pgBackends: Math.max(peaks.pgBackends, rows.length),
    };
  };
  // One sample at a time: the loop's, or a stage's last (`peaks`).
  let busy = Promise.resolve();
  const once = () => (busy = busy.then(sample));
  const loop = (async () => {
    while (state.running) {
      await once();
      await sleep(everyMs);
    }
  })();
  return {
    reset() {
      peaks = { nodeRssMiB: 0, pgPrivateMiB: 0, pgSharedMiB: 0, pgBackends: 0 };
    },
    /** The peaks since `reset`, a last sample taken now (a stage shorter than the interval has one at least). */
    async peaks() {
      await once();
      return { ...peaks };
    },
    async stop() {
      state.running = false;
      await loop;
      await client.end();
    },
  };
}

export interface TableDelta {
  ins: number;
  upd: number;
  del: number;
}

/**
 * pg_stat_user_tables of `schemas`, read after PostgreSQL's 10 s idle flush of table statistics (a backend
 * flushes what it counted when it has been idle, at most PGSTAT_IDLE_INTERVAL late).
 */
export async function tableStats(client: pg.Client, schemas: string[], waitMs = 11_000) {
  await sleep(waitMs);
  const { rows } = await client.query<{ name: string; ins: string; upd: string; del: string }>(
    `select schemaname || '.' || relname as name, n_tup_ins as ins, n_tup_upd as upd, n_tup_del as del
     from pg_stat_user_tables where schemaname = any($1)`,
    [schemas],
  );
  return new Map(rows.map((r) => [r.name, { ins: Number(r.ins), upd: Number(r.upd), del: Number(r.del) }]));
}

/** The tables whose counts moved between two readings, by name; `prefix` stripped. */
export function statDelta(before: Map<string, TableDelta>, after: Map<string, TableDelta>) {
  const out: Record<string, TableDelta> = {};
  for (const [name, a] of after) {
    const b = before.get(name) ?? { ins: 0, upd: 0, del: 0 };
    const d = { ins: a.ins - b.ins, upd: a.upd - b.upd, del: a.del - b.del };
    if (d.ins || d.upd || d.del) out[name] = d;
  }
  return out;
}

/** The database's size and its largest tables (with their indexes and TOAST), in MiB. */
export async function diskUse(client: pg.Client, database: string, schema: string) {
  const {
    rows: [db],
  } = await client.query<{ bytes: string }>("select pg_database_size($1) as bytes", [database]);
  const { rows } = await client.query<{ name: string; table: string; indexes: string; rows: string }>(
    `select c.relname as name, pg_table_size(c.oid) as table, pg_indexes_size(c.oid) as indexes, c.reltuples::bigint as rows
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind in ('r', 'p') order by pg_total_relation_size(c.oid) desc limit 14`,
    [schema],
  );
  const mib = (x: string | number) => Number(x) / 2 ** 20;
  return {
    databaseMiB: mib(db?.bytes ?? 0),
    tables: rows.map((r) => ({ name: r.name, rows: Number(r.rows), tableMiB: mib(r.table), indexMiB: mib(r.indexes) })),
  };
}

/**
 * The database `name` dropped (with its connections) and made again on the server of `adminUrl` (a connection
 * to another database there, kept open for `drop`); returns its URL.
 */
export async function freshDatabase(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
    },
    end: () => admin.end(),
  };
}

/** The machine's load averages (1, 5, 15 minutes). */
export const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
