/**
 * The books' rules in force and their history (docs/product.md "The lender's books"): the
 * framework, the chart of accounts and the provisioning rates, each a kind of `books_rules` whose
 * latest version is in force. A new version is saved whole, checked by the same schema the page
 * uses, and audited; none is changed.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import {
  type BooksRuleKind,
  type ChartAccount,
  chartSchema,
  DEFAULT_CHART,
  DEFAULT_FRAMEWORK,
  DEFAULT_PROVISIONING,
  type FrameworkRule,
  frameworkSchema,
  type ProvisioningRule,
  provisioningSchema,
} from "../../domain/books/chart.ts";
import { audit } from "../audit.server.ts";
import { booksRules, users } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";

type Db = Pick<AppServices, "db">;

export const RULE_SCHEMAS = { framework: frameworkSchema, chart: chartSchema, provisioning: provisioningSchema } as const;

export interface RulesInForce {
  framework: FrameworkRule & { version: number };
  chart: { accounts: ChartAccount[]; version: number };
  provisioning: ProvisioningRule & { version: number };
}

async function latest({ db }: Db, kind: BooksRuleKind) {
  const [row] = await db.select().from(booksRules).where(eq(booksRules.kind, kind)).orderBy(desc(booksRules.version)).limit(1);
  return row ?? null;
}

/** The framework in force (the seeded default when the table has none). */
export async function frameworkInForce(services: Db): Promise<RulesInForce["framework"]> {
  const row = await latest(services, "framework");
  return row ? { ...frameworkSchema.parse(row.value), version: row.version } : { ...DEFAULT_FRAMEWORK, version: 0 };
}

export async function chartInForce(services: Db): Promise<RulesInForce["chart"]> {
  const row = await latest(services, "chart");
  return row ? { accounts: chartSchema.parse(row.value), version: row.version } : { accounts: [...DEFAULT_CHART], version: 0 };
}

export async function provisioningInForce(services: Db): Promise<RulesInForce["provisioning"]> {
  const row = await latest(services, "provisioning");
  return row ? { ...provisioningSchema.parse(row.value), version: row.version } : { ...DEFAULT_PROVISIONING, version: 0 };
}

export async function rulesInForce(services: Db): Promise<RulesInForce> {
  return {
    framework: await frameworkInForce(services),
    chart: await chartInForce(services),
    provisioning: await provisioningInForce(services),
  };
}

/** Every version of a kind, newest first, with the name of who saved it (null for the installation's first). */
export async function ruleHistory({ db }: Db, kind: BooksRuleKind) {
  return db
    .select({
      version: booksRules.version,
      kind: booksRules.kind,
      value: booksRules.value,
      reason: booksRules.reason,
      savedAt: booksRules.savedAt,
      by: sql<string | null>`coalesce(${users.name}, ${users.email})`,
    })
    .from(booksRules)
    .leftJoin(users, eq(users.id, booksRules.savedBy))
    .where(eq(booksRules.kind, kind))
    .orderBy(desc(booksRules.version));
}

/**
 * A new version of a kind, checked and audited. With `basedOn` (the version the person edited), a
 * version saved meanwhile refuses it (`stale`), inside the saving transaction: one save at a time.
 */
export async function saveRule<K extends BooksRuleKind>(
  services: Db & Pick<AppServices, "now">,
  {
    kind,
    value,
    reason,
    staff,
    client,
    basedOn,
  }: { kind: K; value: unknown; reason: string; staff: Staff; client: Client; basedOn?: number },
) {
  const parsed = RULE_SCHEMAS[kind].safeParse(value);
  if (!parsed.success) return { ok: false as const, issues: parsed.error.issues };
  const at = services.now();
  return services.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`books_rules:${kind}`}))`);
    if (basedOn !== undefined) {
      const current = (await latest({ db: tx }, kind))?.version ?? 0;
      if (current !== basedOn) return { ok: false as const, stale: current };
    }
    const [row] = await tx
      .insert(booksRules)
      .values({ kind, value: parsed.data, reason, savedBy: staff.id, savedAt: at })
      .returning({ version: booksRules.version });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: `books.${kind}_saved`,
        subject: { type: "books_rules", id: kind },
        details: { version: row?.version, reason },
      },
    );
    return { ok: true as const, version: row?.version ?? 0 };
  });
}
