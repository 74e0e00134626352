// The credit policy's versions (docs/product.md "Credit policy"): the one in force, the history,
// the first version of a fresh installation. Proposals and confirmations are in policy-admin.server.ts.
import { asc, desc, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { completeRules, DEFAULT_POLICY_RULES, type PolicyRules, policyDiff } from "../../domain/credit-policy/rules.ts";
import type { Db } from "../db/client.ts";
import { creditPolicies, users } from "../db/schema.ts";
import { alias } from "drizzle-orm/pg-core";

export interface PolicyInForce {
  id: number;
  version: number;
  rules: PolicyRules;
  confirmedAt: Date;
}

/**
 * The version in force changes rarely (two administrators) and is read by every judgement: each
 * process keeps it for POLICY_CACHE_MS. A confirmation clears it on its own process at once and on
 * the others when they hear of it (the table's trigger sends `public_content_changed`, see
 * server/main.ts); the time limit is only the fallback when that is lost.
 */
export const POLICY_CACHE_MS = 30_000;
const CACHE_KEY = Symbol.for("sugam-loans.policy-cache");
const holder = globalThis as typeof globalThis & { [CACHE_KEY]?: WeakMap<Db, { at: number; value: Promise<PolicyInForce> }> };
const cache = (holder[CACHE_KEY] ??= new WeakMap());

/** Forgets the cached version in force (after a confirmation, here or on another process). */
export const clearPolicyCache = (db: Db) => cache.delete(db);

/** The version in force: the latest confirmed. */
export function policyInForce({ db }: Pick<AppServices, "db">): Promise<PolicyInForce> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < POLICY_CACHE_MS) return hit.value;
  const value = queryPolicyInForce(db);
  cache.set(db, { at: Date.now(), value });
  value.catch(() => cache.delete(db));
  return value;
}

async function queryPolicyInForce(db: Db): Promise<PolicyInForce> {
  const [row] = await db
    .select({
      id: creditPolicies.id,
      version: creditPolicies.version,
      rules: creditPolicies.rules,
      confirmedAt: creditPolicies.confirmedAt,
    })
    .from(creditPolicies)
    .where(eq(creditPolicies.status, "confirmed"))
    .orderBy(desc(creditPolicies.version))
    .limit(1);
  if (!row?.version || !row.confirmedAt) throw new Error("No credit policy is in force: run the migrations and the reference seed");
  return { id: row.id, version: row.version, rules: completeRules(row.rules), confirmedAt: row.confirmedAt };
}

/** A fresh installation's first version (an existing one got it from migration 0020). Idempotent. */
export async function ensureFirstPolicy(db: Db, at: Date): Promise<boolean> {
  const [any] = await db.select({ id: creditPolicies.id }).from(creditPolicies).where(eq(creditPolicies.status, "confirmed")).limit(1);
  if (any) return false;
  const inserted = await db
    .insert(creditPolicies)
    .values({
      version: 1,
      status: "confirmed",
      rules: DEFAULT_POLICY_RULES,
      reason: "The first policy: the defaults of a new installation.",
      proposedAt: at,
      confirmedAt: at,
    })
    .onConflictDoNothing()
    .returning({ id: creditPolicies.id });
  return inserted.length > 0;
}

/**
 * The administrators' page: the version in force, the open proposal with what it changes, and every
 * version and proposal, newest first, each with what it changed from the version it was based on,
 * who proposed, confirmed or withdrew it, and why.
 */
export async function policyPage({ db }: Pick<AppServices, "db">) {
  const proposer = alias(users, "proposer");
  const confirmer = alias(users, "confirmer");
  const withdrawer = alias(users, "withdrawer");
  const rows = await db
    .select({ policy: creditPolicies, proposer: proposer.name, confirmer: confirmer.name, withdrawer: withdrawer.name })
    .from(creditPolicies)
    .leftJoin(proposer, eq(proposer.id, creditPolicies.proposedBy))
    .leftJoin(confirmer, eq(confirmer.id, creditPolicies.confirmedBy))
    .leftJoin(withdrawer, eq(withdrawer.id, creditPolicies.withdrawnBy))
    .orderBy(desc(creditPolicies.proposedAt), desc(creditPolicies.id));
  const byVersion = new Map(
    rows.filter((r) => r.policy.version !== null).map((r) => [r.policy.version as number, completeRules(r.policy.rules)]),
  );
  const entries = rows.map(({ policy: p, ...names }) => {
    const rules = completeRules(p.rules);
    const before =
      p.status === "confirmed" ? byVersion.get((p.version ?? 1) - 1) : p.basedOn !== null ? byVersion.get(p.basedOn) : undefined;
    return {
      id: p.id,
      version: p.version,
      status: p.status,
      rules,
      reason: p.reason,
      basedOn: p.basedOn,
      changes: before ? policyDiff(before, rules) : [],
      proposedBy: p.proposedBy,
      proposedAt: p.proposedAt,
      confirmedAt: p.confirmedAt,
      withdrawnAt: p.withdrawnAt,
      ...names,
    };
  });
  const inForce = entries.filter((e) => e.status === "confirmed").sort((a, b) => (b.version ?? 0) - (a.version ?? 0))[0];
  if (!inForce) throw new Error("No credit policy is in force: run the migrations and the reference seed");
  return { inForce, proposal: entries.find((e) => e.status === "proposed") ?? null, history: entries };
}

/** The open proposal, if any. */
export async function openProposal({ db }: Pick<AppServices, "db">) {
  const [row] = await db
    .select()
    .from(creditPolicies)
    .where(eq(creditPolicies.status, "proposed"))
    .orderBy(asc(creditPolicies.id))
    .limit(1);
  return row ?? null;
}
