import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { processingFee } from "../../app/domain/loan-math.ts";
import { migrate, migrationsDir, openDatabase } from "../../app/server/db/client.ts";
import { loanAccounts } from "../../app/server/db/schema.ts";

/** An installation migrated up to (not including) `before`, for a test of what the next migrations do to its rows. */
async function installedBefore(before: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "migration-"));
  const older = path.join(dir, "before");
  mkdirSync(older);
  for (const file of readdirSync(migrationsDir).filter((f) => f.endsWith(".sql") && f < before))
    copyFileSync(path.join(migrationsDir, file), path.join(older, file));
  const database = await openDatabase({ url: undefined, dataDir: dir });
  await migrate(database.db, older);
  return {
    database,
    done: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe("migration 0021 (the net amount received)", () => {
  it("gives each existing loan the amount its payout paid, or its principal less the product's fee and GST", async () => {
    const { database, done } = await installedBefore("0021");
    try {
      const { db } = database;
      await db.execute(sql`insert into products (code, name, min_amount_paise, max_amount_paise, amount_step_paise, min_tenure, max_tenure,
        rate_bps, fee_bps, min_fee_paise, gst_bps, penal_charge_paise, cooling_off_days, salaried_only)
        values ('emi', 'EMI loan', 1000000, 50000000, 100000, 3, 36, 1800, 200, 49900, 1800, 50000, 3, false)`);
      await db.execute(sql`insert into users (id, mobile) values ('11111111-1111-4111-8111-111111111111', '9000011111')`);
      for (const [id, ref] of [
        ["22222222-2222-4222-8222-222222222222", "paidoutapplicationaaaaaaaa"],
        ["33333333-3333-4333-8333-333333333333", "demoapplicationaaaaaaaaaaa"],
      ] as const) {
        await db.execute(sql`insert into loan_applications (id, reference, user_id, product, status, amount_paise, disbursal_date)
          values (${id}, ${ref}, '11111111-1111-4111-8111-111111111111', 'emi', 'active', 15000000, '2026-01-10')`);
        await db.execute(sql`insert into loan_accounts (application_id, kind, principal_paise, rate_bps, penal_paise, cooling_off_days,
          disbursal_date, as_of, outstanding_principal_paise, overdue_paise, penal_due_paise, dpd, advance_paise, refund_due_paise, updated_at)
          values (${id}, 'emi', 15000000, 1800, 50000, 3, '2026-01-10', '2026-01-10', 15000000, 0, 0, 0, 0, 0, now())`);
      }
      // The first was paid out (a failed attempt, then ₹1,46,460 processed).
      for (const [attempt, status, amount] of [
        [1, "failed", 14_646_000],
        [2, "processed", 14_646_000],
      ] as const)
        await db.execute(sql`insert into payouts (application_id, attempt, provider, status, amount_paise, holder_name, account_number_enc,
          account_masked, ifsc, requested_at, updated_at)
          values ('22222222-2222-4222-8222-222222222222', ${attempt}, 'local', ${status}, ${amount}, 'A', 'x', 'XX5678', 'HDFC0000001', now(), now())`);
      expect(await migrate(db)).toContain("0021_net_disbursed.sql");
      const rows = await db.select({ id: loanAccounts.applicationId, net: loanAccounts.netDisbursedPaise }).from(loanAccounts);
      const net = Object.fromEntries(rows.map((r) => [r.id, r.net]));
      expect(net["22222222-2222-4222-8222-222222222222"]).toBe(14_646_000);
      expect(net["33333333-3333-4333-8333-333333333333"]).toBe(
        15_000_000 - processingFee(15_000_000, { feeBps: 200, minFeePaise: 49_900, gstBps: 1800 }).totalUpfrontPaise,
      );
    } finally {
      await done();
    }
    // Migrating a new data directory from scratch is slow on a busy machine.
  }, 120_000);
});
