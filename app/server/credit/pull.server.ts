// The PAN verification and the bureau report before an offer and at review (docs/product.md
// "Credit policy"): the PAN first, so that a typed stranger's PAN reveals nothing; then the report,
// waited for as long as a page can wait. A bureau that does not answer in time leaves a `waiting`
// row and a job that asks again and tells the borrower by SMS when it has the answer.
import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { bureauFactsOf, panStatusOf } from "../../domain/credit-policy/facts.ts";
import { daysBetween } from "../../domain/loan-math.ts";
import { todayIST } from "../../domain/india-date.ts";
import { decrypt } from "../crypto.server.ts";
import { borrowerProfiles, consents, creditChecks, users } from "../db/schema.ts";
import { notify } from "../notifications/notify.server.ts";
import type { JobPayloads } from "../jobs/queue.server.ts";
import { checkSubject, latestChecks, subjectOf } from "./judge.server.ts";
import { latestConsent } from "../kyc/profile.server.ts";
import { policyInForce } from "./policy.server.ts";

type Services = Pick<AppServices, "db" | "now" | "keyring" | "panVerifier" | "creditBureau" | "log" | "jobs" | "config">;

export interface PullRequest {
  userId: string;
  purpose: "offer" | "review";
  /** The application under review it is pulled for (review only). */
  applicationId?: string | null;
  /** The page that shows the result: the SMS sent when a late answer arrives links to it. */
  then: string;
}

/**
 * done: the report is in; pan_refused: the PAN is not the borrower's own on record (no report pulled);
 * waiting: a job asks again; no_consent: the borrower withdrew the enquiry's consent (nothing asked).
 */
export type PullResult =
  { state: "done" } | { state: "pan_refused" } | { state: "waiting" } | { state: "no_profile" } | { state: "no_consent" };

/** Whether the borrower's latest word on bureau enquiries is yes (docs/product.md "Data rights": a withdrawal stops new enquiries). */
export const bureauConsentGiven = async (services: Pick<AppServices, "db">, userId: string) =>
  (await latestConsent(services, userId, BUREAU_CONSENT_PURPOSE)) === true;

/** The consents log's purpose for a credit bureau enquiry. */
export const BUREAU_CONSENT_PURPOSE = "bureau_enquiry";

/** How many times the job asks again, a minute, then 2, 4, 8, 16 apart, before the report is marked failed. */
export const CREDIT_REPORT_ROUNDS = 5;
/** How long the job waits for an answer (a page waits BUREAU_TIMEOUT_SECONDS). */
const JOB_TIMEOUT_MS = 60_000;

/**
 * Verifies the borrower's PAN (once per PAN) and pulls their bureau report, each waited for at most
 * `timeoutMs`. The caller has the borrower's consent for the enquiry (logged) and decides that a
 * report is needed (none for this PAN, or one older than the policy allows).
 */
export async function pullCreditReport(services: Services, request: PullRequest & { timeoutMs: number }): Promise<PullResult> {
  const { db } = services;
  // Every enquiry, at an offer, at review or by the job, asks only while the borrower consents.
  if (!(await bureauConsentGiven(services, request.userId))) return { state: "no_consent" };
  const [person] = await db
    .select({
      panEnc: borrowerProfiles.panEnc,
      panHmac: borrowerProfiles.panHmac,
      name: borrowerProfiles.fullName,
      dateOfBirth: borrowerProfiles.dateOfBirth,
      mobile: users.mobile,
    })
    .from(borrowerProfiles)
    .innerJoin(users, eq(users.id, borrowerProfiles.userId))
    .where(eq(borrowerProfiles.userId, request.userId));
  if (!person) return { state: "no_profile" };
  const asked = {
    pan: decrypt(services.keyring, person.panEnc),
    name: person.name,
    dateOfBirth: person.dateOfBirth,
    mobile: person.mobile ?? "",
  };
  const subjectKey = checkSubject({ panHmac: person.panHmac, fullName: person.name, dateOfBirth: person.dateOfBirth });
  const row = { userId: request.userId, subjectKey, applicationId: request.applicationId ?? null, purpose: request.purpose };
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    let pan = (await latestChecks(db, request.userId, subjectKey, services.now())).pan?.result ?? null;
    if (!pan) {
      pan = await services.panVerifier.verify(asked, { signal });
      await db
        .insert(creditChecks)
        .values({ ...row, kind: "pan", provider: services.panVerifier.name, result: pan, checkedAt: services.now() });
    }
    if (panStatusOf(pan) !== "valid") return { state: "pan_refused" };
    const report = await services.creditBureau.report(asked, { signal });
    await db
      .insert(creditChecks)
      .values({ ...row, kind: "bureau", provider: services.creditBureau.name, result: report, checkedAt: services.now() });
    return { state: "done" };
  } catch (error) {
    services.log.warn({ err: error, purpose: request.purpose }, "the credit checks did not answer in time");
    return { state: "waiting" };
  }
}

/**
 * Before an offer: pulls, and when the bureau does not answer in time, marks the report as waited
 * for and queues the job that asks again (one per borrower at a time).
 */
export async function pullOrQueue(services: Services, request: PullRequest): Promise<PullResult> {
  const result = await pullCreditReport(services, { ...request, timeoutMs: services.config.creditChecks.timeoutMs });
  if (result.state !== "waiting") return result;
  await services.db.transaction(async (tx) => {
    const subjectKey = await subjectOf(tx, request.userId);
    if (!subjectKey) return;
    await tx.insert(creditChecks).values({
      userId: request.userId,
      subjectKey,
      applicationId: request.applicationId ?? null,
      purpose: request.purpose,
      kind: "bureau",
      provider: services.creditBureau.name,
      status: "waiting",
      checkedAt: services.now(),
    });
    await services.jobs.send(
      "credit-report",
      { ...request, applicationId: request.applicationId ?? null, round: 1 },
      { db: tx, singletonKey: request.userId },
    );
  });
  return result;
}

/**
 * The job: asks again (waiting up to a minute); with the answer, tells the borrower by SMS and in
 * the app, linking to the page that shows the offer. Without one, asks again later; after
 * CREDIT_REPORT_ROUNDS the report is marked failed (the page offers to try again).
 */
export async function finishCreditReport(services: Services, job: JobPayloads["credit-report"]) {
  const { db } = services;
  const subjectKey = await subjectOf(db, job.userId);
  if (!subjectKey) return;
  const latest = await latestChecks(db, job.userId, subjectKey, services.now());
  // Answered meanwhile (another pull), or the PAN, name or date of birth changed since (asked about afresh).
  if (latest.bureauState !== "waiting") return;
  const result = await pullCreditReport(services, { ...job, timeoutMs: JOB_TIMEOUT_MS });
  if (result.state === "no_profile") return;
  const failed = {
    userId: job.userId,
    subjectKey,
    applicationId: job.applicationId ?? null,
    purpose: job.purpose,
    kind: "bureau" as const,
    provider: services.creditBureau.name,
    status: "failed" as const,
    checkedAt: services.now(),
  };
  if (result.state === "waiting") {
    await db.transaction(async (tx) => {
      if (job.round < CREDIT_REPORT_ROUNDS) {
        await services.jobs.send(
          "credit-report",
          { ...job, round: job.round + 1 },
          { db: tx, singletonKey: job.userId, startAfter: new Date(services.now().getTime() + 2 ** (job.round - 1) * 60_000) },
        );
        return;
      }
      await tx.insert(creditChecks).values(failed);
    });
    return;
  }
  await db.transaction(async (tx) => {
    // A PAN the verification refused, or a consent withdrawn meanwhile, gets no report: nothing is waited for any more.
    if (result.state === "pan_refused" || result.state === "no_consent") await tx.insert(creditChecks).values(failed);
    if (result.state === "no_consent") return;
    if (job.purpose !== "offer") return;
    await notify(
      { ...services, db: tx },
      {
        userId: job.userId,
        event: "credit_report_ready",
        key: `${job.userId}:${services.now().toISOString()}`,
        data: { path: job.then },
      },
    );
  });
}

/**
 * The checks an offer still needs: none (a report of this subject no older than the policy allows),
 * a job already asking, or a pull.
 */
export async function checksNeeded(services: Pick<AppServices, "db" | "now">, userId: string): Promise<"none" | "waiting" | "pull"> {
  const subjectKey = await subjectOf(services.db, userId);
  if (!subjectKey) return "pull";
  const latest = await latestChecks(services.db, userId, subjectKey, services.now());
  if (latest.bureauState === "waiting") return "waiting";
  if (latest.pan && panStatusOf(latest.pan.result) !== "valid") return "none";
  if (!latest.pan || !latest.bureau) return "pull";
  const { rules } = await policyInForce(services);
  const facts = bureauFactsOf(latest.bureau.result, todayIST(latest.bureau.checkedAt));
  return facts && daysBetween(facts.pulledOn, todayIST(services.now())) <= rules.bureauMaxAgeDays ? "none" : "pull";
}

/**
 * The borrower agrees to a bureau enquiry for an offer (logged, with time and address, each time
 * it is given), and the checks run at once, waited for as long as a page waits; not again while a
 * report fresh enough for the policy is on file (or a job is asking).
 */
export async function consentAndPull(
  services: Services,
  { userId, client, then }: { userId: string; client: Client; then: string },
): Promise<PullResult> {
  await services.db.insert(consents).values({
    userId,
    purpose: BUREAU_CONSENT_PURPOSE,
    granted: true,
    ip: client.ip,
    userAgent: client.userAgent,
    createdAt: services.now(),
  });
  const needed = await checksNeeded(services, userId);
  if (needed === "waiting") return { state: "waiting" };
  if (needed === "none") return { state: "done" };
  return pullOrQueue(services, { userId, purpose: "offer", applicationId: null, then });
}
