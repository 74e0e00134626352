import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { TransactionSafePool } from "../../app/server/db/pool.ts";
import { TEST_DATABASE_URL } from "../helpers/server.ts";

/** The socket of a pooled client (pg keeps it on its connection). */
const socketOf = (client: pg.PoolClient) => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream;

describe.skipIf(!TEST_DATABASE_URL)("the connection pool when a transaction's BEGIN fails", () => {
  let pool: TransactionSafePool | undefined;
  afterEach(async () => {
    // A pool that lost a client would wait for it forever: the test has failed by then anyway.
    await Promise.race([pool?.end(), new Promise((r) => setTimeout(r, 1_000))]);
    pool = undefined;
  });

  it("gets its connection back: the next transaction runs, and the pool closes", async () => {
    pool = new TransactionSafePool({ connectionString: TEST_DATABASE_URL, max: 1, connectionTimeoutMillis: 2_000 });
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = drizzle(pool);
    await db.execute(sql`select 1`);
    // The one connection drops as a transaction takes it, before its BEGIN is sent.
    pool.once("acquire", (client: pg.PoolClient) => socketOf(client).destroy());
    await expect(db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
    expect(pool.totalCount).toBe(0);
    const result = await db.transaction(async (tx) => tx.execute(sql`select 2 as n`));
    expect(result.rows).toEqual([{ n: 2 }]);
    await pool.end();
    pool = undefined;
  });

  it("leaves a transaction that began to Drizzle: a failure inside it rolls back and releases once", async () => {
    pool = new TransactionSafePool({ connectionString: TEST_DATABASE_URL, max: 1 });
    const db = drizzle(pool);
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        throw new Error("changed our mind");
      }),
    ).rejects.toThrow("changed our mind");
    expect(pool.idleCount).toBe(1);
    expect((await db.execute(sql`select 3 as n`)).rows).toEqual([{ n: 3 }]);
  });
});
