// "Try again now" on /admin/ckyc (docs/product.md "CKYC"): a failed upload queued at once, audited
// under the staff member's name; the job then uploads as it always does.
import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { isUuid } from "../../domain/validators/ids.ts";
import { audit } from "../audit.server.ts";
import { ckycRecords } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { userSubject } from "./rows.server.ts";
import { queueCkycUpload } from "./upload.server.ts";

export async function retryCkycUpload(
  services: Pick<AppServices, "db" | "now" | "jobs">,
  { staff, client, userId }: { staff: Staff; client: Client; userId: string },
): Promise<{ ok: true } | { ok: false; reason: "not_found" | "not_failed" }> {
  if (!isUuid(userId)) return { ok: false, reason: "not_found" };
  return services.db.transaction(async (tx) => {
    const [row] = await tx.select().from(ckycRecords).where(eq(ckycRecords.userId, userId)).for("update");
    if (!row) return { ok: false, reason: "not_found" };
    if (row.status !== "failed") return { ok: false, reason: "not_failed" };
    const at = services.now();
    await tx.update(ckycRecords).set({ nextAttemptAt: at, updatedAt: at }).where(eq(ckycRecords.userId, userId));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "ckyc.retry",
        subject: userSubject(userId),
        details: { applicationId: row.applicationId, attempts: row.attempts, lastError: row.lastError },
      },
    );
    await queueCkycUpload(services, userId, { db: tx });
    return { ok: true };
  });
}
