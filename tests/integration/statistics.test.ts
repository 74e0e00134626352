import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshStatistics } from "../../app/server/db/statistics.server.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// A long run keeps the planner's statistics up to date itself (app/server/db/statistics.server.ts): a
// table changed by more than 50 rows and a tenth of itself since its last analyze is analyzed, once.
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

const lastAnalyzed = async () => {
  const r = (await app.services.db.execute(sql`
    select last_analyze as at, n_mod_since_analyze::int as changed from pg_stat_user_tables
    where schemaname = current_schema() and relname = 'statistics_probe'`)) as unknown as { rows: { at: Date | null; changed: number }[] };
  return r.rows[0];
};

/** Until the server's statistics show `changed` rows changed (a backend reports them when idle, within about a second). */
async function untilChanged(changed: number) {
  for (let waited = 0; ((await lastAnalyzed())?.changed ?? 0) < changed; waited += 100) {
    if (waited > 10_000) throw new Error(`the statistics did not show ${changed} rows changed in 10 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the planner's statistics", () => {
  it("are refreshed for a table changed past the threshold, and only then", async () => {
    const { db } = app.services;
    await db.execute(sql`create table statistics_probe (n int)`);
    await db.execute(sql`analyze statistics_probe`);
    // 40 rows: under the threshold of 50.
    await db.execute(sql`insert into statistics_probe select generate_series(1, 40)`);
    await untilChanged(40);
    expect(await refreshStatistics({ db }, ["statistics_probe"])).toEqual([]);
    // 1,000 more: analyzed, its statistics now count them.
    await db.execute(sql`insert into statistics_probe select generate_series(1, 1000)`);
    await untilChanged(1040);
    expect(await refreshStatistics({ db }, ["statistics_probe", "loan_accounts"])).toEqual(["statistics_probe"]);
    expect(await lastAnalyzed()).toMatchObject({ changed: 0 });
    const [stats] = (
      (await db.execute(sql`select reltuples::int as rows from pg_class where oid = 'statistics_probe'::regclass`)) as unknown as {
        rows: { rows: number }[];
      }
    ).rows;
    expect(stats?.rows).toBe(1040);
    expect(await refreshStatistics({ db }, ["statistics_probe"])).toEqual([]);
  });
});
