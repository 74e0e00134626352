// What the compliance page shows of screening (docs/product.md "Sanctions screening"): the lists in
// force, the possible matches waiting (oldest first), and the confirmed ones with their report's due time.
import { asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { amlMatches, amlScreenings, borrowerProfiles, suspiciousReports, users } from "../db/schema.ts";
import { listsInForce } from "./lists.server.ts";

const decider = alias(users, "decider");

/** What each list of the page shows at most (the counts are whole). */
const SHOWN = 200;

export async function amlOverview(services: Pick<AppServices, "db">) {
  const lists = await listsInForce(services);
  const matchesOf = (status: "possible" | "confirmed") =>
    services.db
      .select({
        id: amlMatches.id,
        userId: amlMatches.userId,
        borrower: borrowerProfiles.fullName,
        dateOfBirth: borrowerProfiles.dateOfBirth,
        source: amlMatches.source,
        ref: amlMatches.ref,
        listedName: amlMatches.listedName,
        scoreMilli: amlMatches.scoreMilli,
        dob: amlMatches.dob,
        why: amlMatches.why,
        status: amlMatches.status,
        foundAt: amlMatches.foundAt,
        decidedAt: amlMatches.decidedAt,
        decidedBy: decider.name,
        note: amlMatches.note,
        reportedAt: amlMatches.reportedAt,
        reportReference: amlMatches.reportReference,
        /** A confirmed match's suspicious-transaction report, drafted with the confirmation. */
        strReference: suspiciousReports.reference,
      })
      .from(amlMatches)
      .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, amlMatches.userId))
      .leftJoin(decider, eq(decider.id, amlMatches.decidedBy))
      .leftJoin(suspiciousReports, eq(suspiciousReports.matchId, amlMatches.id))
      .where(eq(amlMatches.status, status))
      // Confirmed ones not reported yet first (their 24 hours run), then the oldest.
      .orderBy(sql`${amlMatches.reportedAt} is not null`, asc(amlMatches.decidedAt), asc(amlMatches.foundAt))
      .limit(SHOWN);
  const [possible, confirmed] = await Promise.all([matchesOf("possible"), matchesOf("confirmed")]);
  const [counts] = await services.db
    .select({
      possible: sql<number>`count(*) filter (where ${amlMatches.status} = 'possible')::int`,
      confirmed: sql<number>`count(*) filter (where ${amlMatches.status} = 'confirmed')::int`,
    })
    .from(amlMatches);
  const [screened] = await services.db.select({ n: sql<number>`count(*)::int` }).from(amlScreenings);
  return {
    lists,
    possible,
    confirmed,
    counts: { possible: counts?.possible ?? 0, confirmed: counts?.confirmed ?? 0 },
    screened: screened?.n ?? 0,
  };
}
