// Screening a borrower (docs/product.md "Sanctions screening"): their KYC name and date of birth
// against the lists in force (docs/decisions/0007); each possible match kept once per listed entry
// (a match cleared before stays cleared while its entry stays the same; cleared against an entry a
// later list changes, it is asked about again), the screening recorded. At signing (a job), before
// any disbursal when the lists or the borrower's profile changed since, and for every borrower when a
// list is loaded.
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { entryFacts, LIST_SOURCES, type ListedPerson, screen } from "../../domain/aml/sanctions.ts";
import { audit } from "../audit.server.ts";
import { sha256 } from "../crypto.server.ts";
import { amlMatches, amlScreenings, borrowerProfiles } from "../db/schema.ts";
import { indexInForce, LISTS_LOCK, listIdsInForce } from "./lists.server.ts";

type Services = Pick<AppServices, "db" | "now">;

/** Borrowers screened per part of a full screening. */
const PART = 1000;

const entryKey = (m: { userId?: string; source: string; ref: string }) => `${m.userId ?? ""}\u0000${m.source}\u0000${m.ref}`;

/** A cleared match whose listed entry was known and is now another: asked about again (in SQL, on the row as it was). */
const REOPENS = "aml_matches.status = 'cleared' and aml_matches.entry_hash is not null and aml_matches.entry_hash <> excluded.entry_hash";
/** A column's value on conflict: `then` when the match reopens, else the row's own. */
const onReopen = (column: string, then = `excluded.${column}`) =>
  sql.raw(`case when ${REOPENS} then ${then} else aml_matches.${column} end`);

/**
 * Screens the borrowers `userIds` (those with a KYC profile), a part's writes in one transaction;
 * returns how many possible matches were new (found for the first time, or asked about again).
 * Each match keeps its listed entry's fingerprint (`entryHash`): a match cleared against an entry a
 * later list version changes (its names, aliases or dates of birth) becomes possible again, its
 * decision kept in an `aml.reopen` audit row. A match found before fingerprints were kept has none:
 * it is given one, and compared from then on.
 */
export async function screenBorrowers(services: Services, userIds: readonly string[]): Promise<number> {
  if (userIds.length === 0) return 0;
  const { listIds, index, listIdOf } = await indexInForce(services);
  const people = await services.db
    .select({ userId: borrowerProfiles.userId, name: borrowerProfiles.fullName, dob: borrowerProfiles.dateOfBirth })
    .from(borrowerProfiles)
    .where(inArray(borrowerProfiles.userId, [...userIds]));
  const at = services.now();
  const matched = people.map((p) => ({ p, matches: screen({ name: p.name, dob: p.dob }, index) }));
  const persons = matched.some((m) => m.matches.length)
    ? new Map(index.persons.map((l) => [entryKey(l), l]))
    : new Map<string, ListedPerson>();
  const found = matched.flatMap(({ p, matches }) =>
    matches.map((m) => {
      const listed = persons.get(entryKey(m));
      return {
        userId: p.userId,
        listId: listIdOf.get(m.source) ?? 0,
        source: m.source,
        ref: m.ref,
        listedName: m.listedName,
        scoreMilli: Math.round(m.score * 1000),
        nameMilli: Math.round(m.nameScore * 1000),
        dob: m.dob,
        why: m.why,
        entryHash: listed ? sha256(entryFacts(listed)) : null,
        foundAt: at,
      };
    }),
  );
  const matchesOf = Map.groupBy(found, (f) => f.userId);
  return services.db.transaction(async (tx) => {
    let fresh = 0;
    if (found.length) {
      const before = new Map(
        (
          await tx
            .select()
            .from(amlMatches)
            .where(inArray(amlMatches.userId, [...matchesOf.keys()]))
            .for("update")
        ).map((m) => [entryKey(m), m]),
      );
      await tx
        .insert(amlMatches)
        .values(found)
        .onConflictDoUpdate({
          target: [amlMatches.userId, amlMatches.source, amlMatches.ref],
          set: {
            status: onReopen("status", "'possible'"),
            decidedBy: onReopen("decided_by", "null"),
            decidedAt: onReopen("decided_at", "null"),
            note: onReopen("note", "null"),
            listId: onReopen("list_id"),
            listedName: onReopen("listed_name"),
            scoreMilli: onReopen("score_milli"),
            nameMilli: onReopen("name_milli"),
            dob: onReopen("dob"),
            why: onReopen("why"),
            foundAt: onReopen("found_at"),
            entryHash: sql.raw("coalesce(excluded.entry_hash, aml_matches.entry_hash)"),
          },
        });
      for (const f of found) {
        const was = before.get(entryKey(f));
        if (!was) fresh++;
        else if (was.status === "cleared" && was.entryHash !== null && f.entryHash !== null && was.entryHash !== f.entryHash) {
          fresh++;
          await audit(
            { db: tx },
            {
              by: "system",
              at,
              action: "aml.reopen",
              subject: { type: "aml_match", id: was.id },
              details: {
                userId: f.userId,
                source: f.source,
                ref: f.ref,
                listId: f.listId,
                previous: { status: was.status, decidedBy: was.decidedBy, decidedAt: was.decidedAt, note: was.note },
                entryHashBefore: was.entryHash,
                entryHashNow: f.entryHash,
              },
            },
          );
        }
      }
    }
    if (people.length)
      await tx
        .insert(amlScreenings)
        .values(people.map((p) => ({ userId: p.userId, listIds, screenedAt: at, matches: matchesOf.get(p.userId)?.length ?? 0 })))
        .onConflictDoUpdate({
          target: amlScreenings.userId,
          set: { listIds: sql`excluded.list_ids`, screenedAt: sql`excluded.screened_at`, matches: sql`excluded.matches` },
        });
    return fresh;
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
