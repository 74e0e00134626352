// What the compliance page shows of screening (docs/product.md "Sanctions screening"): the lists in
// force, the possible matches waiting (oldest first), and the confirmed ones with their report's due time.
import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { amlMatches, amlScreenings, borrowerProfiles, users } from "../db/schema.ts";
import { listsInForce } from "./lists.server.ts";

const decider = alias(users, "decider");

export async function amlOverview(services: Pick<AppServices, "db">) {
  const lists = await listsInForce(services);
  const matches = await services.db
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
    })
    .from(amlMatches)
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, amlMatches.userId))
    .leftJoin(decider, eq(decider.id, amlMatches.decidedBy))
    .where(inArray(amlMatches.status, ["possible", "confirmed"]))
    .orderBy(desc(amlMatches.status), asc(amlMatches.foundAt))
    .limit(200);
  const [screened] = await services.db.select({ n: sql<number>`count(*)::int` }).from(amlScreenings);
  return {
    lists,
    possible: matches.filter((m) => m.status === "possible"),
    confirmed: matches.filter((m) => m.status === "confirmed"),
    screened: screened?.n ?? 0,
  };
}
