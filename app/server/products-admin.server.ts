// Editing the loan products (docs/product.md "Products"): each change in one transaction with its
// version (before, after, who, when, why) and audit row; then every process is told to read the
// products again, so Rate-terms, the calculator and new offers show it within a second.
import { desc, eq, sql } from "drizzle-orm";
import type { AppServices, Client } from "../context.ts";
import type { StaffRole } from "../domain/roles.ts";
import type { Db } from "./db/client.ts";
import { audit } from "./audit.server.ts";
import { productVersions, products, riskBands, users } from "./db/schema.ts";
import { clearProductCache } from "./products.server.ts";

type Services = Pick<AppServices, "db" | "now" | "realtime">;
export type ProductCode = "emi" | "salary_advance";
type Terms = Partial<typeof products.$inferInsert>;
type BandTerms = { minIncomePaise: number; maxEmiToIncomeBps: number | null; rateBps: number };

async function nextVersion(tx: Db, code: string) {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(max(${productVersions.version}), 0)`.mapWith(Number) })
    .from(productVersions)
    .where(eq(productVersions.code, code));
  return (row?.n ?? 0) + 1;
}

/** Only the fields that changed, as { field: [before, after] }. */
function changes(before: Record<string, unknown>, after: Record<string, unknown>) {
  return Object.fromEntries(
    Object.keys(after)
      .filter((k) => before[k] !== after[k])
      .map((k) => [k, [before[k], after[k]]]),
  );
}

async function record(
  services: Services,
  entry: {
    code: string;
    part: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    note: string;
    staff: { id: string; role: StaffRole };
    client: Client;
  },
) {
  const { db: tx } = services;
  const at = services.now();
  // One edit at a time per product: the version number is taken under this lock.
  await tx.select({ code: products.code }).from(products).where(eq(products.code, entry.code)).for("update");
  const version = await nextVersion(tx, entry.code);
  await tx.insert(productVersions).values({
    code: entry.code,
    version,
    part: entry.part,
    before: entry.before,
    after: entry.after,
    note: entry.note,
    changedBy: entry.staff.id,
    changedAt: at,
  });
  await audit(
    { db: tx },
    {
      by: entry.staff,
      client: entry.client,
      at,
      action: "product.changed",
      subject: { type: "product", id: entry.code },
      details: { version, part: entry.part, changes: changes(entry.before, entry.after), note: entry.note },
    },
  );
  return version;
}

async function announce(services: Services) {
  clearProductCache(services.db);
  await services.realtime.publish({ type: "products_changed" }).catch(() => {
    // The other processes read them again within PRODUCT_CACHE_MS anyway.
  });
}

/** Saves a product's own terms; returns the new version, or null when nothing changed. */
export async function saveProductTerms(
  services: Services,
  {
    staff,
    client,
    code,
    terms,
    note,
  }: { staff: { id: string; role: StaffRole }; client: Client; code: ProductCode; terms: Terms; note: string },
): Promise<{ version: number | null }> {
  const version = await services.db.transaction(async (tx) => {
    const [current] = await tx.select().from(products).where(eq(products.code, code)).for("update");
    if (!current) throw new Error(`no product ${code}`);
    const before = Object.fromEntries(Object.keys(terms).map((k) => [k, current[k as keyof typeof current]]));
    if (Object.keys(changes(before, terms)).length === 0) return null;
    await tx
      .update(products)
      .set({ ...terms, updatedAt: services.now() })
      .where(eq(products.code, code));
    return record({ ...services, db: tx }, { code, part: "terms", before, after: terms, note, staff, client });
  });
  if (version !== null) await announce(services);
  return { version };
}

/** Saves one risk band of the EMI loan; null version when nothing changed, not_found for no such band. */
export async function saveRiskBand(
  services: Services,
  {
    staff,
    client,
    band,
    terms,
    note,
  }: { staff: { id: string; role: StaffRole }; client: Client; band: number; terms: BandTerms; note: string },
): Promise<{ ok: true; version: number | null } | { ok: false }> {
  const outcome = await services.db.transaction(async (tx) => {
    const [current] = await tx.select().from(riskBands).where(eq(riskBands.id, band)).for("update");
    if (!current) return { ok: false } as const;
    const before = { minIncomePaise: current.minIncomePaise, maxEmiToIncomeBps: current.maxEmiToIncomeBps, rateBps: current.rateBps };
    if (Object.keys(changes(before, terms)).length === 0) return { ok: true, version: null } as const;
    await tx.update(riskBands).set(terms).where(eq(riskBands.id, band));
    const version = await record(
      { ...services, db: tx },
      {
        code: "emi",
        part: `risk band ${current.sortOrder}`,
        before,
        after: terms,
        note,
        staff,
        client,
      },
    );
    return { ok: true, version } as const;
  });
  if (outcome.ok && outcome.version !== null) await announce(services);
  return outcome;
}

/** The latest versions of every product, newest first, with who made them. */
export async function productHistory({ db }: Pick<AppServices, "db">, limit = 30) {
  return db
    .select({
      code: productVersions.code,
      version: productVersions.version,
      part: productVersions.part,
      before: productVersions.before,
      after: productVersions.after,
      note: productVersions.note,
      changedAt: productVersions.changedAt,
      changedBy: users.name,
    })
    .from(productVersions)
    .innerJoin(users, eq(users.id, productVersions.changedBy))
    .orderBy(desc(productVersions.changedAt), desc(productVersions.id))
    .limit(limit);
}
