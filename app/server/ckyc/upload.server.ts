// The upload within 10 days of a loan's disbursal (docs/product.md "CKYC"): the disbursal's
// transaction starts the 10 days and queues the job; the job uploads with the borrower's row locked,
// so the same job twice uploads once; a failure is kept with a short reason and a time to try again,
// and the hourly sweep tries the due ones again.
import { and, eq, inArray, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { CKYC_NUMBER, ckycDueBy, ckycRetryMinutes } from "../../domain/ckyc.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { audit } from "../audit.server.ts";
import type { Db } from "../db/client.ts";
import { ckycRecords } from "../db/schema.ts";
import { CkycRefusal } from "./provider.server.ts";
import { ckycSearchOf, ckycUploadOf } from "./record.server.ts";
import { type CkycRow, lockCkycRow, numberHeldByAnother, userSubject } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "keyring" | "storage" | "ckyc" | "log">;

/** One upload job per borrower at a time (an exclusive queue keyed by the borrower). */
export const queueCkycUpload = (services: Pick<AppServices, "jobs">, userId: string, options: { db?: Db } = {}) =>
  services.jobs.send("ckyc-upload", { userId }, { singletonKey: userId, ...(options.db ? { db: options.db } : {}) });

/**
 * A loan disbursed, in the disbursal's transaction: the borrower's first loan starts the 10 days
 * (a second loan keeps the first one's), and the upload is queued unless the registry holds the
 * record already (found by the search, or uploaded for an earlier loan).
 */
export async function ckycOnDisbursal(
  services: Pick<AppServices, "db" | "jobs">,
  { userId, applicationId, disbursalDate, at }: { userId: string; applicationId: string; disbursalDate: IsoDate; at: Date },
) {
  const tx = services.db;
  const row = await lockCkycRow(tx, userId, at);
  if (!row.dueBy)
    await tx
      .update(ckycRecords)
      .set({ applicationId, dueBy: ckycDueBy(disbursalDate), updatedAt: at })
      .where(eq(ckycRecords.userId, userId));
  if (row.status === "pending" || row.status === "failed") await queueCkycUpload(services, userId, { db: tx });
}

/** A failure's words for the row and the list: the registry's reason, else a plain one; never personal data. */
function reasonOf(error: unknown): string {
  const message = error instanceof CkycRefusal ? error.message : "The registry gave no usable answer";
  // Whatever a provider put in its reason, no PAN or long number stays in it.
  return message
    .replace(/[A-Z]{5}\d{4}[A-Z]/gi, "[PAN]")
    .replace(/\d{6,}/g, "[number]")
    .slice(0, 200);
}

type Outcome = "uploaded" | "found" | "failed" | "skipped";

/** The registry asked, with the row locked: a search first when none was made, then the upload. */
async function askRegistry(services: Services, row: CkycRow, at: Date): Promise<{ outcome: Outcome; ckycNumber?: string }> {
  const { db: tx, ckyc: provider } = services;
  if (!provider) return { outcome: "skipped" };
  if (!row.searchedAt) {
    const query = await ckycSearchOf(services, row.userId);
    const found = query ? await provider.search(query) : null;
    await tx.update(ckycRecords).set({ searchedAt: at }).where(eq(ckycRecords.userId, row.userId));
    if (found && CKYC_NUMBER.test(found.ckycNumber) && !(await numberHeldByAnother(tx, row.userId, found.ckycNumber)))
      return { outcome: "found", ckycNumber: found.ckycNumber };
  }
  const record = await ckycUploadOf(services, row.userId);
  if (!record) throw new CkycRefusal("The borrower's KYC profile or address is missing");
  const { ckycNumber } = await provider.upload(record);
  if (!CKYC_NUMBER.test(ckycNumber)) throw new CkycRefusal("The registry answered with a number that is not 14 digits");
  if (await numberHeldByAnother(tx, row.userId, ckycNumber)) throw new CkycRefusal("The registry's number is held by another borrower");
  return { outcome: "uploaded", ckycNumber };
}

/**
 * The `ckyc-upload` job: uploads the borrower's record when it is still to be uploaded and its time
 * has come, stores the number, or keeps the failure and when to try again. Never throws for the
 * registry's failure (the sweep tries again, not the queue).
 */
export async function uploadCkyc(services: Services, { userId }: { userId: string }): Promise<Outcome> {
  if (!services.ckyc) return "skipped";
  return services.db.transaction(async (tx) => {
    const [row] = await tx.select().from(ckycRecords).where(eq(ckycRecords.userId, userId)).for("update");
    const at = services.now();
    if (!row?.dueBy || (row.status !== "pending" && row.status !== "failed")) return "skipped";
    if (row.nextAttemptAt && row.nextAttemptAt > at) return "skipped";
    const attempts = row.attempts + 1;
    let asked: { outcome: Outcome; ckycNumber?: string };
    try {
      asked = await askRegistry({ ...services, db: tx }, row, at);
    } catch (error) {
      const lastError = reasonOf(error);
      services.log.warn({ err: error instanceof CkycRefusal ? undefined : error, userId, attempts }, "a CKYC upload failed");
      const nextAttemptAt = new Date(at.getTime() + ckycRetryMinutes(attempts) * 60_000);
      await tx
        .update(ckycRecords)
        .set({ status: "failed", attempts, lastError, nextAttemptAt, updatedAt: at })
        .where(eq(ckycRecords.userId, userId));
      await audit(
        { db: tx },
        {
          by: "system",
          at,
          action: "ckyc.upload_failed",
          subject: userSubject(userId),
          details: { applicationId: row.applicationId, attempts, reason: lastError },
        },
      );
      return "failed";
    }
    if (asked.outcome === "skipped") return "skipped";
    const uploaded = asked.outcome === "uploaded";
    await tx
      .update(ckycRecords)
      .set({
        status: asked.outcome,
        ckycNumber: asked.ckycNumber,
        ...(uploaded ? { uploadedAt: at, attempts } : {}),
        lastError: null,
        nextAttemptAt: null,
        updatedAt: at,
      })
      .where(eq(ckycRecords.userId, userId));
    await audit(
      { db: tx },
      {
        by: "system",
        at,
        action: uploaded ? "ckyc.uploaded" : "ckyc.found",
        subject: userSubject(userId),
        details: { applicationId: row.applicationId, ckycNumber: asked.ckycNumber, attempts },
      },
    );
    return asked.outcome;
  });
}

/** The hourly sweep: uploads still to be made whose time has come (a failure's wait over, a job lost) are queued again. */
export async function sweepCkyc(services: Pick<AppServices, "db" | "now" | "jobs">): Promise<number> {
  const due = await services.db
    .select({ userId: ckycRecords.userId })
    .from(ckycRecords)
    .where(
      and(
        inArray(ckycRecords.status, ["pending", "failed"]),
        isNotNull(ckycRecords.dueBy),
        or(isNull(ckycRecords.nextAttemptAt), lte(ckycRecords.nextAttemptAt, services.now())),
      ),
    );
  await services.jobs.sendMany(
    "ckyc-upload",
    due.map((r) => ({ data: { userId: r.userId }, singletonKey: r.userId })),
  );
  return due.length;
}
