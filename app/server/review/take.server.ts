import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { decrypt } from "../crypto.server.ts";
import { auditLog, borrowerProfiles, creditChecks, loanApplications, users } from "../db/schema.ts";
import { changeStatus } from "../loans/lifecycle.server.ts";
import type { Db } from "../db/client.ts";
import { isMine, lockByReference, reviewAudit, type Staff, staffBy } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs">;
type CheckServices = Pick<AppServices, "db" | "now" | "keyring" | "panVerifier" | "creditBureau" | "log">;
export type TakeResult =
  { ok: true; tookOver: boolean } | { ok: false; reason: "not_found" | "not_open" | "taken_by_other" | "already_yours" };

/**
 * Take an application for review (docs/product.md "Credit review and decision"): a signed one
 * moves to `under_review` assigned to this officer; with `takeOver`, one under review by another
 * officer is reassigned (audited). Taking queues the PAN and bureau checks (a job, so a slow
 * provider never holds the officer's page).
 */
export async function takeApplication(
  services: Services,
  { staff, reference, takeOver, client }: { staff: Staff; reference: string; takeOver: boolean; client: Client },
): Promise<TakeResult> {
  const at = services.now();
  return services.db.transaction(async (tx): Promise<TakeResult> => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    if (a.status === "signed") {
      await changeStatus(
        { db: tx },
        { application: a, to: "under_review", by: staffBy(staff, client, "taken"), at, extra: { assignedTo: staff.id, assignedAt: at } },
      );
      await queueCreditChecks(services, tx, a.id);
      return { ok: true, tookOver: false };
    }
    if (a.status !== "under_review") return { ok: false, reason: "not_open" };
    if (a.assignedTo === staff.id) return { ok: false, reason: "already_yours" };
    // Taking over needs the officer to say so: a plain "Take" that lost a race must not reassign it.
    if (!takeOver) return { ok: false, reason: "taken_by_other" };
    await tx.update(loanApplications).set({ assignedTo: staff.id, assignedAt: at, updatedAt: at }).where(eq(loanApplications.id, a.id));
    await tx.insert(auditLog).values(reviewAudit(staff, client, at, a, "application.taken_over", { from: a.assignedTo, to: staff.id }));
    return { ok: true, tookOver: true };
  });
}

/** One credit-checks job per application at a time (an exclusive queue): a double click never pulls the bureau twice. */
const queueCreditChecks = (services: Pick<AppServices, "jobs">, tx: Db, applicationId: string) =>
  services.jobs.send("credit-checks", { applicationId }, { db: tx, singletonKey: applicationId });

/** "Fetch the missing checks": only the officer reviewing the application may ask for them again. */
export async function refetchCreditChecks(
  services: Services,
  { staff, reference }: { staff: Staff; reference: string },
): Promise<{ ok: true } | { ok: false; reason: "not_found" | "not_yours" }> {
  return services.db.transaction(async (tx) => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    if (!isMine(a, staff)) return { ok: false, reason: "not_yours" };
    await queueCreditChecks(services, tx, a.id);
    return { ok: true };
  });
}

/**
 * The PAN verification and the bureau report through their providers, stored with the application.
 * A provider that fails is logged and leaves its check missing: the page offers to run it again.
 */
export async function runCreditChecks(
  services: CheckServices,
  { applicationId, onlyMissing }: { applicationId: string; onlyMissing: boolean },
) {
  const { db } = services;
  const [person] = await db
    .select({
      panEnc: borrowerProfiles.panEnc,
      name: borrowerProfiles.fullName,
      dateOfBirth: borrowerProfiles.dateOfBirth,
      mobile: users.mobile,
    })
    .from(loanApplications)
    .innerJoin(users, eq(users.id, loanApplications.userId))
    .innerJoin(borrowerProfiles, eq(borrowerProfiles.userId, loanApplications.userId))
    .where(eq(loanApplications.id, applicationId));
  if (!person) return { pan: false, bureau: false };
  const have = onlyMissing
    ? new Set(
        (await db.select({ kind: creditChecks.kind }).from(creditChecks).where(eq(creditChecks.applicationId, applicationId))).map(
          (r) => r.kind,
        ),
      )
    : new Set<string>();
  const pan = decrypt(services.keyring, person.panEnc);
  const request = { pan, name: person.name, dateOfBirth: person.dateOfBirth, mobile: person.mobile ?? "" };
  const run = async (kind: "pan" | "bureau") => {
    if (have.has(kind)) return true;
    try {
      const provider = kind === "pan" ? services.panVerifier : services.creditBureau;
      const result = kind === "pan" ? await services.panVerifier.verify(request) : await services.creditBureau.report(request);
      await db.insert(creditChecks).values({ applicationId, kind, provider: provider.name, result, checkedAt: services.now() });
      return true;
    } catch (error) {
      services.log.warn({ err: error, kind }, "credit check failed");
      return false;
    }
  };
  return { pan: await run("pan"), bureau: await run("bureau") };
}
