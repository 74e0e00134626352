import { type SQL, sql } from "drizzle-orm";
import type { TestServer } from "./server.ts";

const rows = async <T>(app: TestServer, query: SQL) => ((await app.services.db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * The server's pg-boss job table: `pgboss.job` beside the "public" schema, else `<schema>_jobs.job`
 * (the queue's schema as server/main.ts names it).
 */
export async function jobTable(app: TestServer): Promise<SQL> {
  const [{ schema } = { schema: "public" }] = await rows<{ schema: string }>(app, sql`select current_schema() as schema`);
  return sql.raw(schema === "public" ? "pgboss.job" : `${schema}_jobs.job`);
}

export interface JobRow {
  id: string;
  name: string;
  state: "created" | "retry" | "active" | "completed" | "cancelled" | "failed";
  data: Record<string, unknown> | null;
  start_after: Date | string;
}

/** The jobs of one queue (every state), oldest first. */
export async function jobsOf(app: TestServer, name: string): Promise<JobRow[]> {
  const table = await jobTable(app);
  return rows<JobRow>(app, sql`select id, name, state, data, start_after from ${table} where name = ${name} order by created_on`);
}

/**
 * Waits until no job of the queue(s) `names` is running or due: every job sent so far whose time
 * has come has been worked to its end (completed, or failed and waiting for a later retry). A job
 * kept for a later time (`startAfter`, a retry's back-off) is not waited for. Throws after
 * `timeout` ms, naming the jobs still due or running.
 *
 * Call it after the request or call that sent the jobs has answered: a job is only there once the
 * transaction that sent it has committed.
 */
export async function waitForJobs(app: TestServer, names: string | readonly string[], { timeout = 15_000 } = {}): Promise<void> {
  const table = await jobTable(app);
  const list = sql.join(
    (typeof names === "string" ? [names] : names).map((name) => sql`${name}`),
    sql`, `,
  );
  const end = Date.now() + timeout;
  for (;;) {
    const pending = await rows<Pick<JobRow, "id" | "name" | "state">>(
      app,
      sql`select id, name, state from ${table}
           where name in (${list}) and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
    );
    if (!pending.length) return;
    if (Date.now() > end) throw new Error(`jobs still due or running after ${timeout} ms: ${JSON.stringify(pending)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
