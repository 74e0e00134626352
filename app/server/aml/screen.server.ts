// Screening a borrower (docs/product.md "Sanctions screening"): their KYC name and date of birth
// against the lists in force (docs/decisions/0007); each possible match kept once per listed entry
// (a match cleared before stays cleared), the screening recorded. At signing (a job), before any
// disbursal if the lists changed since, and for every borrower when a list is loaded.
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { screen } from "../../domain/aml/sanctions.ts";
import { amlMatches, amlScreenings, borrowerProfiles } from "../db/schema.ts";
import { indexInForce } from "./lists.server.ts";

type Services = Pick<AppServices, "db" | "now">;

/** Borrowers screened per part of a full screening. */
const PART = 1000;

/** Screens the borrowers `userIds` (those with a KYC profile); returns how many possible matches were new. */
export async function screenBorrowers(services: Services, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const { listIds, index, byRef } = await indexInForce(services);
  const people = await services.db
    .select({ userId: borrowerProfiles.userId, name: borrowerProfiles.fullName, dob: borrowerProfiles.dateOfBirth })
    .from(borrowerProfiles)
    .where(inArray(borrowerProfiles.userId, [...userIds]));
  const at = services.now();
  let found = 0;
  for (const p of people) {
    const matches = screen({ name: p.name, dob: p.dob }, index);
    if (matches.length) {
      const fresh = await services.db
        .insert(amlMatches)
        .values(
          matches.map((m) => ({
            userId: p.userId,
            listId: byRef.get(m.source) ?? 0,
            source: m.source,
            ref: m.ref,
            listedName: m.listedName,
            scoreMilli: Math.round(m.score * 1000),
            nameMilli: Math.round(m.nameScore * 1000),
            dob: m.dob,
            why: m.why,
            foundAt: at,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: amlMatches.id });
      found += fresh.length;
    }
    await services.db
      .insert(amlScreenings)
      .values({ userId: p.userId, listIds, screenedAt: at, matches: matches.length })
      .onConflictDoUpdate({ target: amlScreenings.userId, set: { listIds, screenedAt: at, matches: matches.length } });
  }
  return found;
}

/** The `aml-rescreen` job: every borrower with a profile, a part at a time from `after` (returns the last screened, or null at the end). */
export async function rescreenPart(services: Services, after: string | null): Promise<string | null> {
  const rows = await services.db
    .select({ userId: borrowerProfiles.userId })
    .from(borrowerProfiles)
    .where(after ? gt(borrowerProfiles.userId, after) : undefined)
    .orderBy(asc(borrowerProfiles.userId))
    .limit(PART);
  await screenBorrowers(
    services,
    rows.map((r) => r.userId),
  );
  return rows.length === PART ? (rows.at(-1)?.userId ?? null) : null;
}

/** Whether the borrower was screened against the lists in force now. */
async function screenedAgainstInForce(services: Pick<AppServices, "db">, userId: string) {
  const { listIds } = await indexInForce(services);
  const [row] = await services.db.select({ listIds: amlScreenings.listIds }).from(amlScreenings).where(eq(amlScreenings.userId, userId));
  return row !== undefined && row.listIds.join(",") === listIds.join(",");
}

/**
 * What compliance holds the borrower by (in the caller's transaction): "confirmed" (frozen: no
 * disbursal, no refund out), "possible" (no disbursal until decided), or null. Screens them first
 * when they were not screened against the lists in force.
 */
export async function amlHold(services: Services, userId: string): Promise<"confirmed" | "possible" | null> {
  if (!(await screenedAgainstInForce(services, userId))) await screenBorrowers(services, [userId]);
  const [row] = await services.db
    .select({
      confirmed: sql<number>`count(*) filter (where ${amlMatches.status} = 'confirmed')::int`,
      possible: sql<number>`count(*) filter (where ${amlMatches.status} = 'possible')::int`,
    })
    .from(amlMatches)
    .where(and(eq(amlMatches.userId, userId)));
  if ((row?.confirmed ?? 0) > 0) return "confirmed";
  if ((row?.possible ?? 0) > 0) return "possible";
  return null;
}

/** Queued in the signing's transaction: the borrower screened at onboarding. */
export const queueScreening = (services: Pick<AppServices, "db" | "jobs">, userId: string) =>
  services.jobs.send("aml-screen", { userId }, { db: services.db, singletonKey: userId });
