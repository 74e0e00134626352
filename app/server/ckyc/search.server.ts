// The search before onboarding (docs/product.md "CKYC"): when a borrower signs an application, a job
// asks the registry for a record by PAN and date of birth. A record found is kept (`found`, with its
// number) and nothing is uploaded later; none found is remembered (`searched_at`). A registry that
// does not answer throws, and the job is tried again.
import type { AppServices } from "../../context.ts";
import { CKYC_NUMBER } from "../../domain/ckyc.ts";
import { audit } from "../audit.server.ts";
import { ckycSearchOf } from "./record.server.ts";
import { lockCkycRow, numberHeldByAnother, userSubject } from "./rows.server.ts";
import { ckycRecords } from "../db/schema.ts";
import { eq } from "drizzle-orm";

type Services = Pick<AppServices, "db" | "now" | "keyring" | "ckyc">;

/** Queued in the signing's transaction: one search per borrower at a time (an exclusive queue). */
export const queueCkycSearch = (services: Pick<AppServices, "db" | "jobs">, userId: string) =>
  services.jobs.send("ckyc-search", { userId }, { db: services.db, singletonKey: userId });

/** The `ckyc-search` job: what it found ("found", "none"), or "skipped" (no provider, no profile, a record already kept). */
export async function searchCkyc(services: Services, { userId }: { userId: string }): Promise<"found" | "none" | "skipped"> {
  const provider = services.ckyc;
  if (!provider) return "skipped";
  const [kept] = await services.db.select({ status: ckycRecords.status }).from(ckycRecords).where(eq(ckycRecords.userId, userId));
  if (kept?.status === "found" || kept?.status === "uploaded") return "skipped";
  const query = await ckycSearchOf(services, userId);
  if (!query) return "skipped";
  const answer = await provider.search(query);
  if (answer && !CKYC_NUMBER.test(answer.ckycNumber)) throw new Error("the registry answered a search with a number that is not 14 digits");
  return services.db.transaction(async (tx) => {
    const at = services.now();
    const row = await lockCkycRow(tx, userId, at);
    // An upload (or another search) got there first.
    if (row.status === "found" || row.status === "uploaded") return "skipped";
    if (!answer || (await numberHeldByAnother(tx, userId, answer.ckycNumber))) {
      await tx.update(ckycRecords).set({ searchedAt: at, updatedAt: at }).where(eq(ckycRecords.userId, userId));
      return "none";
    }
    await tx
      .update(ckycRecords)
      .set({ status: "found", ckycNumber: answer.ckycNumber, searchedAt: at, lastError: null, nextAttemptAt: null, updatedAt: at })
      .where(eq(ckycRecords.userId, userId));
    await audit(
      { db: tx },
      { by: "system", at, action: "ckyc.found", subject: userSubject(userId), details: { ckycNumber: answer.ckycNumber } },
    );
    return "found";
  });
}
