// The PAN verification and bureau report of an application under review (docs/product.md "Credit
// review and decision"): queued as a job when it is taken, run by the job, asked for again by its officer.
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { decrypt } from "../crypto.server.ts";
import type { Db } from "../db/client.ts";
import { borrowerProfiles, creditChecks, loanApplications, users } from "../db/schema.ts";
import { isMine, lockByReference, type Staff } from "./rows.server.ts";

type CheckServices = Pick<AppServices, "db" | "now" | "keyring" | "panVerifier" | "creditBureau" | "log">;

/** One credit-checks job per application at a time (an exclusive queue): a double click never pulls the bureau twice. */
export const queueCreditChecks = (services: Pick<AppServices, "jobs">, tx: Db, applicationId: string) =>
  services.jobs.send("credit-checks", { applicationId }, { db: tx, singletonKey: applicationId });

/** "Fetch the missing checks": only the officer reviewing the application may ask for them again. */
export async function refetchCreditChecks(
  services: Pick<AppServices, "db" | "jobs">,
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
 * The PAN verification and the bureau report still missing, through their providers, stored with the application.
 * A provider that fails is logged and leaves its check missing: the page offers to run it again.
 */
export async function runCreditChecks(services: CheckServices, { applicationId }: { applicationId: string }) {
  const { db } = services;
  const have = new Set(
    (await db.select({ kind: creditChecks.kind }).from(creditChecks).where(eq(creditChecks.applicationId, applicationId))).map(
      (r) => r.kind,
    ),
  );
  if (have.has("pan") && have.has("bureau")) return { pan: true, bureau: true };
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
