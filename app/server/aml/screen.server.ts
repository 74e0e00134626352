// Screening a borrower (docs/product.md "Sanctions screening"): their KYC name and date of birth
// against the lists in force (docs/decisions/0007); each possible match kept once per listed entry
// (a match cleared before stays cleared), the screening recorded. At signing (a job), before any
// disbursal when the lists or the borrower's profile changed since, and for every borrower when a
// list is loaded.
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { LIST_SOURCES, screen } from "../../domain/aml/sanctions.ts";
import { amlMatches, amlScreenings, borrowerProfiles } from "../db/schema.ts";
import { indexInForce, LISTS_LOCK, listIdsInForce } from "./lists.server.ts";

type Services = Pick<AppServices, "db" | "now">;

/** Borrowers screened per part of a full screening. */
const PART = 1000;

/** Screens the borrowers `userIds` (those with a KYC profile), a part's writes in one transaction; returns how many possible matches were new. */
export async function screenBorrowers(services: Services, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const { listIds, index, listIdOf } = await indexInForce(services);
  const people = await services.db
    .select({ userId: borrowerProfiles.userId, name: borrowerProfiles.fullName, dob: borrowerProfiles.dateOfBirth })
    .from(borrowerProfiles)
    .where(inArray(borrowerProfiles.userId, [...userIds]));
  const at = services.now();
  const found = people.flatMap((p) =>
    screen({ name: p.name, dob: p.dob }, index).map((m) => ({
      userId: p.userId,
      listId: listIdOf.get(m.source) ?? 0,
      source: m.source,
      ref: m.ref,
      listedName: m.listedName,
      scoreMilli: Math.round(m.score * 1000),
      nameMilli: Math.round(m.nameScore * 1000),
      dob: m.dob,
      why: m.why,
      foundAt: at,
    })),
  );
  const matchesOf = Map.groupBy(found, (f) => f.userId);
  return services.db.transaction(async (tx) => {
    const fresh = found.length ? await tx.insert(amlMatches).values(found).onConflictDoNothing().returning({ id: amlMatches.id }) : [];
    if (people.length)
      await tx
        .insert(amlScreenings)
        .values(people.map((p) => ({ userId: p.userId, listIds, screenedAt: at, matches: matchesOf.get(p.userId)?.length ?? 0 })))
        .onConflictDoUpdate({
          target: amlScreenings.userId,
          set: { listIds: sql`excluded.list_ids`, screenedAt: sql`excluded.screened_at`, matches: sql`excluded.matches` },
        });
    return fresh.length;
  });
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

/** Whether the borrower's last screening was against the lists in force, and after their profile last changed. */
async function screenedUpToDate(services: Pick<AppServices, "db">, userId: string) {
  const listIds = await listIdsInForce(services);
  const [row] = await services.db
    .select({ listIds: amlScreenings.listIds, screenedAt: amlScreenings.screenedAt, profileAt: borrowerProfiles.updatedAt })
    .from(amlScreenings)
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, amlScreenings.userId))
    .where(eq(amlScreenings.userId, userId));
  return row !== undefined && row.listIds.join(",") === listIds.join(",") && (!row.profileAt || row.profileAt <= row.screenedAt);
}

/** The borrower's standing with compliance as screened so far: "confirmed", "possible" or null (screens nothing). */
export async function holdOf({ db }: Pick<AppServices, "db">, userId: string): Promise<"confirmed" | "possible" | null> {
  const [row] = await db
    .select({
      confirmed: sql<number>`count(*) filter (where ${amlMatches.status} = 'confirmed')::int`,
      possible: sql<number>`count(*) filter (where ${amlMatches.status} = 'possible')::int`,
    })
    .from(amlMatches)
    .where(eq(amlMatches.userId, userId));
  if ((row?.confirmed ?? 0) > 0) return "confirmed";
  if ((row?.possible ?? 0) > 0) return "possible";
  return null;
}

/** Frozen by a confirmed match: no disbursal, no refund out. */
export const isFrozen = async (services: Pick<AppServices, "db">, userId: string) => (await holdOf(services, userId)) === "confirmed";

/**
 * What holds the borrower's disbursal (in the caller's transaction): a confirmed or possible match,
 * "unscreened" when production has not every list loaded, or null. Screens them first when their last
 * screening is older than the lists in force or their profile; a list load waits for it (a lock), so
 * none commits between the screening and the disbursal.
 */
export async function amlHold(
  services: Services & Pick<AppServices, "config">,
  userId: string,
): Promise<"confirmed" | "possible" | "unscreened" | null> {
  await services.db.execute(sql`select pg_advisory_xact_lock_shared(${LISTS_LOCK})`);
  if (services.config.isProduction && (await listIdsInForce(services)).length < LIST_SOURCES.length) return "unscreened";
  if (!(await screenedUpToDate(services, userId))) await screenBorrowers(services, [userId]);
  return holdOf(services, userId);
}

/** Queued in the signing's transaction: the borrower screened at onboarding. */
export const queueScreening = (services: Pick<AppServices, "db" | "jobs">, userId: string) =>
  services.jobs.send("aml-screen", { userId }, { db: services.db, singletonKey: userId });

/** Whether the borrower has a screening on record (the signing's job has run). */
export async function screenedAt({ db }: Pick<AppServices, "db">, userId: string) {
  const [row] = await db
    .select({ at: amlScreenings.screenedAt })
    .from(amlScreenings)
    .where(and(eq(amlScreenings.userId, userId)));
  return row?.at ?? null;
}
