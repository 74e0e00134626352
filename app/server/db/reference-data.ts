import type { Db } from "./client.ts";
import { ensureFirstPolicy } from "../credit/policy.server.ts";
import { products, riskBands } from "./schema.ts";

/** docs/product.md "Loan products" defaults. Staff may change the stored values later; this only fills an empty table. */
export const DEFAULT_PRODUCT_ROWS: (typeof products.$inferInsert)[] = [
  {
    code: "emi",
    name: "EMI loan",
    minAmountPaise: 1_000_000,
    maxAmountPaise: 50_000_000,
    amountStepPaise: 100_000,
    minTenure: 3,
    maxTenure: 36,
    rateBps: 1800,
    feeBps: 200,
    minFeePaise: 49_900,
    gstBps: 1800,
    penalChargePaise: 50_000,
    coolingOffDays: 3,
    salariedOnly: false,
    autopayBeforeDisbursal: true,
  },
  {
    code: "salary_advance",
    name: "Salary advance",
    minAmountPaise: 200_000,
    maxAmountPaise: 10_000_000,
    amountStepPaise: 50_000,
    minTenure: 7,
    maxTenure: 45,
    rateBps: 8,
    feeBps: 300,
    minFeePaise: 0,
    gstBps: 1800,
    penalChargePaise: 50_000,
    coolingOffDays: 3,
    salariedOnly: true,
    autopayBeforeDisbursal: false,
  },
];

export const DEFAULT_RISK_BAND_ROWS: (typeof riskBands.$inferInsert)[] = [
  { sortOrder: 1, minIncomePaise: 5_000_000, maxEmiToIncomeBps: 3000, rateBps: 1400 },
  { sortOrder: 2, minIncomePaise: 2_500_000, maxEmiToIncomeBps: null, rateBps: 1800 },
  { sortOrder: 3, minIncomePaise: 0, maxEmiToIncomeBps: null, rateBps: 2400 },
];

/** Reference data every installation needs (production too): products, risk bands, the first credit policy. Idempotent. */
export async function seedReferenceData(db: Db, at = new Date()) {
  const inserted = await db.insert(products).values(DEFAULT_PRODUCT_ROWS).onConflictDoNothing().returning();
  const existingBands = await db.select({ id: riskBands.id }).from(riskBands).limit(1);
  if (existingBands.length === 0) await db.insert(riskBands).values(DEFAULT_RISK_BAND_ROWS);
  const policy = await ensureFirstPolicy(db, at);
  return { products: inserted.length, riskBands: existingBands.length === 0 ? DEFAULT_RISK_BAND_ROWS.length : 0, policy };
}
