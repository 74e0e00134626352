import { asc } from "drizzle-orm";
import type { PolicyRules } from "../domain/credit-policy/rules.ts";
import type { HomeFacts } from "../domain/home.ts";
import type { Db } from "./db/client.ts";
import { products, riskBands } from "./db/schema.ts";

export type ProductRow = typeof products.$inferSelect;
export type RiskBandRow = typeof riskBands.$inferSelect;

type Products = Awaited<ReturnType<typeof queryProducts>>;

/**
 * Product terms change rarely (an administrator's edit) and are read by nearly
 * every page: each process keeps them for PRODUCT_CACHE_MS. An edit clears this
 * cache on every process at once (the realtime hub's `products_changed`, see
 * server/main.ts); the time limit is only the fallback when that is lost.
 */
export const PRODUCT_CACHE_MS = 30_000;

/** Forgets the cached products (after an edit, here or on another process). */
export const clearProductCache = (db: Db) => cache.delete(db);
/**
 * Kept on a global symbol: the built request handler carries its own copy of this module beside
 * the one server/main.ts imports, and the edit heard by main.ts must clear the handler's cache.
 */
const CACHE_KEY = Symbol.for("sugam-loans.product-cache");
const holder = globalThis as typeof globalThis & { [CACHE_KEY]?: WeakMap<Db, { at: number; value: Promise<Products> }> };
const cache = (holder[CACHE_KEY] ??= new WeakMap());

export function loadProducts({ db }: { db: Db }): Promise<Products> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < PRODUCT_CACHE_MS) return hit.value;
  const value = queryProducts(db);
  cache.set(db, { at: Date.now(), value });
  value.catch(() => cache.delete(db));
  return value;
}

async function queryProducts(db: Db) {
  // One after the other: `db` may be a transaction's single connection.
  const productRows = await db.select().from(products);
  const bandRows = await db.select().from(riskBands).orderBy(asc(riskBands.sortOrder));
  const emi = productRows.find((p) => p.code === "emi");
  const salaryAdvance = productRows.find((p) => p.code === "salary_advance");
  if (!emi || !salaryAdvance) throw new Error("Product data is missing: run the migrations and reference seed");
  return { emi, salaryAdvance, riskBands: bandRows };
}

const pct = (bps: number) => bps / 100;

/** The product facts the home page quotes, from the live product data. */
export function homeFacts(
  { emi, salaryAdvance, riskBands: bands }: Products,
  policy: Pick<PolicyRules, "salaryAdvanceMaxSalaryBps">,
): HomeFacts {
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
      salaryCapPercent: pct(policy.salaryAdvanceMaxSalaryBps),
    },
    gstPercent: pct(emi.gstBps),
    penalChargePaise: emi.penalChargePaise,
    coolingOffDays: emi.coolingOffDays,
  };
}
