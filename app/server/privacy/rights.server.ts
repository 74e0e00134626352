// A borrower's data rights from their profile (docs/product.md "Data rights"): their consents, each
// given or withdrawn in one step and logged; a nominee; requests for a correction or an erasure,
// acknowledged, answered within 30 days from the compliance queue. Everything is scoped to the
// signed-in borrower in the query.
import { and, desc, eq, inArray, isNull, max, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { todayIST } from "../../domain/india-date.ts";
import { CONSENT_PURPOSES, type ConsentPurpose } from "../../domain/privacy/consents.ts";
import {
  answerDueOn,
  type CorrectionArea,
  type DataRequestKind,
  type ErasureFacts,
  erasurePlan,
  type nomineeSchema,
} from "../../domain/privacy/requests.ts";
import type { z } from "zod";
import {
  amlMatches,
  consents,
  dataNominees,
  dataRequests,
  loanAccounts,
  loanApplications,
  suspiciousReports,
  users,
  writeOffSettlements,
} from "../db/schema.ts";
import { latestConsent } from "../kyc/profile.server.ts";
import { notify } from "../notifications/notify.server.ts";
import { randomReference } from "../reference.server.ts";

type Services = Pick<AppServices, "db" | "now" | "config" | "jobs">;

/** The borrower's privacy page. */
export const PRIVACY_PATH = "/User/Profile/privacy";

/** Requests a borrower may have open at once (a correction each, one erasure). */
const OPEN_CORRECTIONS = 5;

/** The latest answer per purpose, with when it was given (null: never asked). */
export async function consentStates({ db }: Pick<AppServices, "db">, userId: string) {
  const rows = await db
    .selectDistinctOn([consents.purpose], { purpose: consents.purpose, granted: consents.granted, at: consents.createdAt })
    .from(consents)
    .where(and(eq(consents.userId, userId), inArray(consents.purpose, [...CONSENT_PURPOSES])))
    .orderBy(consents.purpose, desc(consents.createdAt), desc(consents.id));
  const byPurpose = new Map(rows.map((r) => [r.purpose, r]));
  return CONSENT_PURPOSES.map((purpose) => {
    const row = byPurpose.get(purpose);
    return { purpose, granted: row?.granted ?? null, at: row?.at ?? null };
  });
}

/** Gives or withdraws one consent: logged (time, address, browser) when it changes the latest answer; returns whether it did. */
export async function changeConsent(
  services: Pick<AppServices, "db" | "now">,
  { userId, purpose, granted, client }: { userId: string; purpose: ConsentPurpose; granted: boolean; client: Client },
): Promise<boolean> {
  return services.db.transaction(async (tx) => {
    // One change at a time per borrower: two taps of the same button log one change.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`consent:${userId}`}))`);
    if ((await latestConsent({ db: tx }, userId, purpose)) === granted) return false;
    await tx.insert(consents).values({ userId, purpose, granted, ip: client.ip, userAgent: client.userAgent, createdAt: services.now() });
    return true;
  });
}

/** The nominee in force, if any. */
export async function currentNominee({ db }: Pick<AppServices, "db">, userId: string) {
  const [row] = await db
    .select()
    .from(dataNominees)
    .where(and(eq(dataNominees.userId, userId), isNull(dataNominees.removedAt)))
    .orderBy(desc(dataNominees.createdAt), desc(dataNominees.id))
    .limit(1);
  return row ?? null;
}

/** Names a nominee (the one before is kept as removed), or removes the one in force (`nominee` null). */
export async function setNominee(
  services: Pick<AppServices, "db" | "now">,
  { userId, nominee }: { userId: string; nominee: z.output<typeof nomineeSchema> | null },
) {
  const at = services.now();
  await services.db.transaction(async (tx) => {
    // One change at a time per borrower: two saves at once leave one nominee in force.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`nominee:${userId}`}))`);
    await tx
      .update(dataNominees)
      .set({ removedAt: at })
      .where(and(eq(dataNominees.userId, userId), isNull(dataNominees.removedAt)));
    if (nominee)
      await tx.insert(dataNominees).values({
        userId,
        name: nominee.name,
        relationship: nominee.relationship,
        mobile: nominee.mobile,
        email: nominee.email ?? null,
        createdAt: at,
      });
  });
}

/** What an erasure would erase and keep for this borrower today. */
export async function erasureFacts({ db }: Pick<AppServices, "db">, userId: string): Promise<ErasureFacts> {
  const [row] = await db
    .select({
      everDisbursed: sql<boolean>`count(${loanAccounts.applicationId}) > 0`,
      ongoing: sql<boolean>`coalesce(bool_or(${loanApplications.status} in ('signed', 'under_review', 'approved', 'active')
        or (${loanApplications.status} = 'written_off' and ${writeOffSettlements.applicationId} is null)), false)`,
      // A loan paid out that ended: the day it was settled, else (a payout returned, then cancelled) the day its status last changed.
      lastEndedOn: max(
        sql<string>`case when ${loanApplications.status} in ('closed', 'cancelled', 'rejected') and ${loanAccounts.applicationId} is not null
            then coalesce(${loanAccounts.settledOn}, to_char(${loanApplications.updatedAt} at time zone 'Asia/Kolkata', 'YYYY-MM-DD'))
          when ${loanApplications.status} = 'written_off' then ${writeOffSettlements.settledOn} end`,
      ),
    })
    .from(loanApplications)
    .leftJoin(loanAccounts, eq(loanAccounts.applicationId, loanApplications.id))
    .leftJoin(writeOffSettlements, eq(writeOffSettlements.applicationId, loanApplications.id))
    .where(eq(loanApplications.userId, userId));
  // Never shown as such: the plan keeps the record with the general KYC reason.
  const [held] = await db
    .select({
      held: sql<boolean>`exists (select 1 from ${amlMatches} where ${amlMatches.userId} = ${userId} and ${amlMatches.status} in ('possible', 'confirmed'))
      or exists (select 1 from ${suspiciousReports} where ${suspiciousReports.userId} = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return {
    everDisbursed: row?.everDisbursed === true,
    ongoing: row?.ongoing === true,
    lastEndedOn: row?.lastEndedOn ?? null,
    legalHold: held?.held === true,
  };
}

/** The borrower's requests, newest first. */
export const requestsOf = ({ db }: Pick<AppServices, "db">, userId: string) =>
  db
    .select({
      reference: dataRequests.reference,
      kind: dataRequests.kind,
      status: dataRequests.status,
      receivedAt: dataRequests.receivedAt,
      dueOn: dataRequests.dueOn,
      answeredAt: dataRequests.answeredAt,
      answer: dataRequests.answer,
      details: dataRequests.details,
    })
    .from(dataRequests)
    .where(eq(dataRequests.userId, userId))
    .orderBy(desc(dataRequests.receivedAt))
    .limit(50);

export type Requested = { ok: true; reference: string } | { ok: false; reason: "erasure_open" | "too_many_open" };

/**
 * A correction or an erasure asked for: kept with its 30-day answer date, acknowledged by SMS and in
 * the app. An erasure keeps the plan the borrower read; one is open at a time.
 */
export async function raiseRequest(
  services: Services,
  { userId, kind, details }: { userId: string; kind: Exclude<DataRequestKind, "access">; details: Record<string, unknown> },
): Promise<Requested> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`data-request:${userId}`}))`);
    const open = await tx
      .select({ kind: dataRequests.kind })
      .from(dataRequests)
      .where(and(eq(dataRequests.userId, userId), eq(dataRequests.status, "open")));
    if (kind === "erasure" && open.some((r) => r.kind === "erasure")) return { ok: false, reason: "erasure_open" };
    if (open.filter((r) => r.kind === kind).length >= OPEN_CORRECTIONS) return { ok: false, reason: "too_many_open" };
    const reference = randomReference("DR");
    const dueOn = answerDueOn(todayIST(at));
    await tx.insert(dataRequests).values({ reference, userId, kind, details, status: "open", receivedAt: at, dueOn });
    await notify(
      { ...services, db: tx },
      { userId, event: "data_request_received", key: reference, data: { reference, kind, dueOn, path: PRIVACY_PATH } },
    );
    return { ok: true, reference };
  });
}

/** The correction's details as kept. */
export const correctionDetails = (input: { area: CorrectionArea; wrong: string; correct: string }) => ({ ...input });

/** What an erasure of `userId` would erase and keep today. */
export const erasurePlanNow = async (services: Pick<AppServices, "db" | "now">, userId: string) =>
  erasurePlan(await erasureFacts(services, userId), todayIST(services.now()));

/** An erasure's details as kept: the plan the borrower read when asking. */
export async function erasureDetails(services: Pick<AppServices, "db" | "now">, userId: string) {
  return { plan: await erasurePlanNow(services, userId) };
}
