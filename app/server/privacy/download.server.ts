// "Download my data" asked for by the signed-in borrower (docs/product.md "Protecting data and the
// service"): at most `rateLimits().dataExport` an hour; each download is a data-rights request of
// kind access, answered at once, recorded in the same transaction that reads the data (so the file
// lists this request too, and a request is stored only with the data read for it).
import type { AppServices } from "../../context.ts";
import { todayIST } from "../../domain/india-date.ts";
import { addDays } from "../../domain/loan-math.ts";
import { ANSWER_WITHIN_DAYS } from "../../domain/privacy/notice.ts";
import { dataRequests } from "../db/schema.ts";
import { hitRateLimit, rateLimits } from "../rate-limit.server.ts";
import { randomReference } from "../reference.server.ts";
import { type BorrowerExport, exportBorrowerData } from "./export.server.ts";

export type ExportFormat = "json" | "pdf";

export type DownloadResult =
  { ok: true; data: BorrowerExport; reference: string } | { ok: false; reason: "too_many"; limit: number; resetAt: Date };

export async function downloadMyData(
  services: Pick<AppServices, "db" | "now" | "config">,
  { userId, format }: { userId: string; format: ExportFormat },
): Promise<DownloadResult> {
  const limit = rateLimits(services.config).dataExport;
  const hit = await hitRateLimit(services, { action: "data_export", key: userId, limit });
  if (!hit.allowed) return { ok: false, reason: "too_many", limit: limit.limit, resetAt: hit.resetAt };
  return services.db.transaction(
    async (tx) => {
      const at = services.now();
      const reference = randomReference("DR");
      await tx.insert(dataRequests).values({
        reference,
        userId,
        kind: "access",
        details: { format },
        status: "done",
        receivedAt: at,
        dueOn: addDays(todayIST(at), ANSWER_WITHIN_DAYS),
        answeredAt: at,
      });
      return { ok: true as const, data: await exportBorrowerData({ ...services, db: tx }, userId), reference };
    },
    { isolationLevel: "repeatable read" },
  );
}
