import { asc } from "drizzle-orm";
import type { HomeFacts } from "../components/home/facts.ts";
import type { Db } from "./db/client.ts";
import { products, riskBands } from "./db/schema.ts";

export type ProductRow = typeof products.$inferSelect;
export type RiskBandRow = typeof riskBands.$inferSelect;

export async function loadProducts(db: Db) {
  const [productRows, bandRows] = await Promise.all([
    db.select().from(products),
    db.select().from(riskBands).orderBy(asc(riskBands.sortOrder)),
  ]);
  const emi = productRows.find((p) => p.code === "emi");
  const salaryAdvance = productRows.find((p) => p.code === "salary_advance");
  if (!emi || !salaryAdvance) throw new Error("Product data is missing: run the migrations and reference seed");
  return { emi, salaryAdvance, riskBands: bandRows };
}

const pct = (bps: number) => bps / 100;

/** The product facts the home page quotes, from the live product data. */
export function homeFacts({ emi, salaryAdvance, riskBands: bands }: Awaited<ReturnType<typeof loadProducts>>): HomeFacts {
  const rates = bands.length ? bands.map((b) => b.rateBps) : [emi.rateBps];
  return {
    emi: {
      minAmountPaise: emi.minAmountPaise,
      maxAmountPaise: emi.maxAmountPaise,
      minTenureMonths: emi.minTenure,
      maxTenureMonths: emi.maxTenure,
      minRatePercent: pct(Math.min(...rates)),
      maxRatePercent: pct(Math.max(...rates)),
      feePercent: pct(emi.feeBps),
      minFeePaise: emi.minFeePaise,
    },
    salaryAdvance: {
      minAmountPaise: salaryAdvance.minAmountPaise,
      maxAmountPaise: salaryAdvance.maxAmountPaise,
      dailyRatePercent: pct(salaryAdvance.rateBps),
      feePercent: pct(salaryAdvance.feeBps),
      salaryCapPercent: pct(salaryAdvance.salaryCapBps ?? 5000),
    },
    gstPercent: pct(emi.gstBps),
    penalChargePaise: emi.penalChargePaise,
    coolingOffDays: emi.coolingOffDays,
  };
}
