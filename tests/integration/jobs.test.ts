import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../../app/server/db/client.ts";
import { presenceConnections, users, verificationSends, verifications } from "../../app/server/db/schema.ts";
import { housekeeping } from "../../app/server/jobs/housekeeping.server.ts";
import type { JobName } from "../../app/server/jobs/queue.server.ts";
import { jobsOf, waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, TEST_DATABASE_URL, type TestServer } from "../helpers/server.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

/** A job name of the tests' own; the queue's handlers are typed for the application's jobs. */
const testJob = (name: string) => name as JobName;

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`the job queue (pg-boss on ${TEST_DATABASE_URL ? "PostgreSQL" : "the embedded PGlite"})`, () => {
  it("runs a job sent inside a transaction only if that transaction commits, and once", async () => {
    const { jobs, db } = app.services;
    const seen: number[] = [];
    const name = testJob("test.record");
    await jobs.work(name, async (data) => {
      seen.push((data as unknown as { n: number }).n);
    });
    // Rolled back: the job goes with the transaction's other rows.
    await db
      .transaction(async (tx) => {
        await tx.insert(users).values({ email: "rolled.back@lender.example", role: "support" });
        await jobs.send(name, { n: 1 } as never, { db: tx });
        throw new Error("roll back");
      })
      .catch(() => {});
    // Committed: the job is there once the transaction is.
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ email: "committed@lender.example", role: "support" });
      await jobs.send(name, { n: 2 } as never, { db: tx });
    });
    await jobs.send(name, { n: 3 } as never);
    // Every job of the queue worked to its end: had the rolled-back one been stored anyway, it would
    // have run by now (it was sent first) and be in `seen` and in the table.
    await waitForJobs(app, name);
    expect(seen.sort()).toEqual([2, 3]);
    expect((await jobsOf(app, name)).map((j) => [(j.data as { n: number }).n, j.state])).toEqual([
      [2, "completed"],
      [3, "completed"],
    ]);
    expect(await db.select({ email: users.email }).from(users).where(eq(users.email, "rolled.back@lender.example"))).toEqual([]);
  });

  it("retries a job whose handler failed, until it succeeds", async () => {
    const { jobs } = app.services;
    const name = testJob("test.flaky");
    let attempts = 0;
    await jobs.work(name, async () => {
      attempts++;
      if (attempts === 1) throw new Error("the gateway timed out");
    });
    await jobs.send(name, {} as never);
    expect(
      await until(
        () => attempts,
        (n) => n >= 2,
        30_000,
      ),
    ).toBe(2);
  }, 40_000);

  it("keeps a job for a later time until that time", async () => {
    const { jobs } = app.services;
    const name = testJob("test.later");
    const ran: number[] = [];
    await jobs.work(name, async () => {
      ran.push(Date.now());
    });
    const sent = Date.now();
    await jobs.send(name, {} as never, { startAfter: new Date(sent + 3_000) });
    await until(
      () => ran.length,
      (n) => n > 0,
      20_000,
    );
    expect(ran[0]! - sent).toBeGreaterThanOrEqual(2_900);
  }, 30_000);

  it("installs its tables in a schema of their own, beside the application's", async () => {
    const { rows } = (await app.services.db.execute(
      sql`select count(*)::int as n from information_schema.tables where table_schema like '%jobs' or table_schema = 'pgboss'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows[0]?.n).toBeGreaterThan(0);
  });
});

describe("housekeeping", () => {
  it("removes dead one-time codes, old send records and rows of pages left by a dead process, and keeps the rest", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "housekeeping-"));
    const database = await openDatabase({ url: undefined, dataDir: dir });
    try {
      await migrate(database.db);
      const db = database.db;
      const now = new Date("2026-11-23T10:00:00Z");
      const ago = (ms: number) => new Date(now.getTime() - ms);
      const DAY = 86_400_000;
      const code = (target: string, expiresAt: Date) => ({
        target,
        purpose: "sign_in",
        codeHash: "x",
        attempts: 0,
        sentAt: ago(DAY * 3),
        expiresAt,
      });
      await db.insert(verifications).values([code("9800000001", ago(2 * DAY)), code("9800000002", ago(60_000)), code("9800000003", now)]);
      await db.insert(verificationSends).values([
        { target: "9800000001", purpose: "sign_in", ip: "10.0.0.1", sentAt: ago(31 * DAY) },
        { target: "9800000002", purpose: "sign_in", ip: "10.0.0.1", sentAt: ago(2 * DAY) },
      ]);
      const [borrower] = await db.insert(users).values({ mobile: "9800000009" }).returning({ id: users.id });
      const page = (id: string, heartbeatAt: Date) => ({
        id,
        userId: borrower!.id,
        sessionId: "00000000-0000-4000-8000-000000000001",
        deviceId: "d",
        processId: "p",
        connectedAt: ago(DAY),
        heartbeatAt,
      });
      await db
        .insert(presenceConnections)
        .values([page("00000000-0000-4000-8000-00000000000a", ago(DAY)), page("00000000-0000-4000-8000-00000000000b", ago(5_000))]);

      expect(await housekeeping({ db, now: () => now })).toEqual({ codes: 1, sends: 1, pages: 1 });
      expect((await db.select({ t: verifications.target }).from(verifications)).map((r) => r.t).sort()).toEqual([
        "9800000002",
        "9800000003",
      ]);
      expect((await db.select({ t: verificationSends.target }).from(verificationSends)).map((r) => r.t)).toEqual(["9800000002"]);
      expect((await db.select({ id: presenceConnections.id }).from(presenceConnections)).map((r) => r.id)).toEqual([
        "00000000-0000-4000-8000-00000000000b",
      ]);
      // Twice is the same as once.
      expect(await housekeeping({ db, now: () => now })).toEqual({ codes: 0, sends: 0, pages: 0 });
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
