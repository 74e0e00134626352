// The PAN verification and bureau report of an application under review (docs/product.md "Credit
// review and decision", "Credit policy"): queued as a job when it is taken, run by the job, asked
// for again by its officer.
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { stepPath } from "../../domain/loans/application.ts";
import { loanApplications } from "../db/schema.ts";
import { checksNeeded, pullCreditReport } from "../credit/pull.server.ts";
import { reviewAgainstPolicy } from "./policy.server.ts";
import { isMine, lockByReference, type Staff } from "./rows.server.ts";

type CheckServices = Pick<AppServices, "db" | "now" | "keyring" | "panVerifier" | "creditBureau" | "log" | "jobs" | "config">;
/** How long the review's job waits for the PAN check and the bureau (a page does not wait for it). */
const REVIEW_TIMEOUT_MS = 30_000;

/** One credit-checks job per application at a time (an exclusive queue): a double click never pulls the bureau twice. */
export const queueCreditChecks = (services: Pick<AppServices, "db" | "jobs">, applicationId: string) =>
  services.jobs.send("credit-checks", { applicationId }, { db: services.db, singletonKey: applicationId });

/** "Fetch the missing checks": only the officer reviewing the application may ask for them again. */
export async function refetchCreditChecks(
  services: Pick<AppServices, "db" | "jobs">,
  { staff, reference }: { staff: Staff; reference: string },
): Promise<{ ok: true } | { ok: false; reason: "not_found" | "not_yours" }> {
  return services.db.transaction(async (tx) => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    if (!isMine(a, staff)) return { ok: false, reason: "not_yours" };
    await queueCreditChecks({ ...services, db: tx }, a.id);
    return { ok: true };
  });
}

/**
 * The PAN verification and a bureau report fresh enough for the credit policy (pulled again when
 * older than it allows, docs/product.md "Credit policy"), then the application judged again: sent
 * back to the borrower when the policy now allows less than was signed. A provider that does not
 * answer leaves its check missing (the job is tried again; the page offers to run it again).
 */
export async function runCreditChecks(services: CheckServices, { applicationId }: { applicationId: string }) {
  const [a] = await services.db
    .select({ userId: loanApplications.userId, reference: loanApplications.reference, product: loanApplications.product })
    .from(loanApplications)
    .where(eq(loanApplications.id, applicationId));
  if (!a) return { pan: true, bureau: true };
  const needed = await checksNeeded(services, a.userId);
  // A job asking for the offer's report is still waiting: this one is tried again later.
  if (needed === "waiting") return { pan: true, bureau: false };
  if (needed === "pull") {
    const pulled = await pullCreditReport(services, {
      userId: a.userId,
      purpose: "review",
      applicationId,
      then: stepPath(a.product, a.reference, "Step7"),
      timeoutMs: REVIEW_TIMEOUT_MS,
    });
    if (pulled.state === "waiting") return { pan: true, bureau: false };
  }
  await reviewAgainstPolicy(services, { applicationId });
  return { pan: true, bureau: true };
}
