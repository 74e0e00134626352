import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIST } from "../../app/domain/india-date.ts";
import { journalEntries } from "../../app/server/db/schema.ts";
import { expectBooksMatchLedger, trialTotals, unbalancedEntries } from "../helpers/books.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ SEED_DEMO_LOANS: "true" });
});
afterAll(async () => {
  await app?.stop();
});

describe("the books", () => {
  it("journal the demo loans, balanced, and agree with their ledgers", async () => {
    const entries = await app.services.db.select().from(journalEntries);
    expect(new Set(entries.map((e) => e.kind))).toEqual(new Set(["disbursal", "payment", "foreclosure", "penal", "accrual", "provision"]));
    expect(await unbalancedEntries(app.services)).toEqual([]);
    const today = todayIST(app.services.now());
    const tb = await trialTotals(app.services, today);
    expect(tb.debits).toBe(tb.credits);
    expect(await expectBooksMatchLedger(app.services, today)).toBeGreaterThan(0);
  });
});
