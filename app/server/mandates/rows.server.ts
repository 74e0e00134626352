// What the mandate operations share: the loan a borrower may set autopay up for, found by its
// number with the owner in the query, and a mandate's reference.
import { LIVE_MANDATE_STATUSES } from "../../domain/loans/mandate.ts";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { jsonColumns } from "../db/json-rows.ts";
import { loanApplications, mandates } from "../db/schema.ts";
import { newReference } from "../loans/reference.server.ts";

export type Mandate = typeof mandates.$inferSelect;

/** A new mandate reference: `md_` and 26 base-32 characters (128 random bits, as an application's reference). */
export const newMandateReference = () => `md_${newReference()}`;

/**
 * The borrower's own loan by its number, or application by its reference, locked for the caller's
 * transaction; null for anyone else's.
 */
export async function lockOwnLoan(
  { db }: Pick<AppServices, "db">,
  { userId, ...which }: { userId: string } & ({ loanNumber: string } | { reference: string }),
) {
  const [a] = await db
    .select()
    .from(loanApplications)
    .where(
      and(
        "loanNumber" in which ? eq(loanApplications.loanNumber, which.loanNumber) : eq(loanApplications.reference, which.reference),
        eq(loanApplications.userId, userId),
      ),
    )
    .for("update");
  return a ?? null;
}

/**
 * A mandate stored pending whose registration with the provider has not come back (no id yet):
 * registering takes seconds; one older than this was cut off (a process stopped mid-way) and is
 * given up.
 */
export const REGISTERING_SECONDS = 60;
export const registering = (m: Mandate, at: Date) =>
  m.status === "pending" && !m.providerMandateId && at.getTime() - m.createdAt.getTime() < REGISTERING_SECONDS * 1000;

/** The loan's mandate that is pending, active or paused (at most one), locked. */
export async function lockLiveMandate({ db }: Pick<AppServices, "db">, applicationId: string): Promise<Mandate | null> {
  const [m] = await db
    .select()
    .from(mandates)
    .where(and(eq(mandates.applicationId, applicationId), inArray(mandates.status, [...LIVE_MANDATE_STATUSES])))
    .for("update");
  return m ?? null;
}

/**
 * A loan's mandates by its number (or an application's by its id, before disbursal), newest first,
 * as pages show them (only the account's masked form is stored here); with `userId`, only the
 * borrower's own (another's finds none).
 */
export async function mandatesOf(
  { db }: Pick<AppServices, "db">,
  { userId, ...which }: { userId?: string } & ({ loanNumber: string } | { applicationId: string }),
) {
  const borrower = userId !== undefined;
  const rows = await db
    .select({ m: mandates })
    .from(mandates)
    .innerJoin(loanApplications, eq(loanApplications.id, mandates.applicationId))
    .where(
      and(
        "loanNumber" in which ? eq(loanApplications.loanNumber, which.loanNumber) : eq(loanApplications.id, which.applicationId),
        userId ? eq(loanApplications.userId, userId) : undefined,
      ),
    )
    .orderBy(desc(mandates.createdAt))
    .then((r) => r.map((x) => x.m));
  return rows.map((m) => mandateView(m, borrower));
}

/**
 * A loan's mandates, newest first, as JSON beside the loan's row (`applicationId` is its column):
 * the borrower's loan page reads them in its one statement. `borrowerMandatesFromJson` reads them.
 */
export const mandatesColumn = (applicationId: AnyPgColumn) =>
  sql`(select coalesce(json_agg(${mandateJson.sql} order by m.created_at desc), '[]') from mandates m where m.application_id = ${applicationId})`;
const mandateJson = jsonColumns(mandates, "m");

/** The mandates of `mandatesColumn` as `mandatesOf` gives them to the borrower. */
export const borrowerMandatesFromJson = (json: unknown) =>
  (json as Record<string, unknown>[]).map((m) => mandateView(mandateJson.decode(m), true));

/** A mandate as pages show it; `borrower`: as its borrower sees it. */
function mandateView(m: Mandate, borrower: boolean) {
  return {
    id: m.id,
    reference: m.reference,
    kind: m.kind,
    status: m.status,
    maxAmountPaise: m.maxAmountPaise,
    startDate: m.startDate,
    endDate: m.endDate,
    accountMasked: m.accountMasked,
    ifsc: m.ifsc,
    // Where the borrower approves it: theirs only.
    authUrl: borrower && m.status === "pending" ? m.authUrl : null,
    // Why it ended, in words written for staff (a staff member's note of how the borrower asked): staff only.
    reason: borrower ? null : m.reason,
    provider: m.provider,
    activatedAt: m.activatedAt?.toISOString() ?? null,
    endedAt: m.endedAt?.toISOString() ?? null,
    createdAt: m.createdAt.toISOString(),
  };
}
export type MandateView = Awaited<ReturnType<typeof mandatesOf>>[number];
