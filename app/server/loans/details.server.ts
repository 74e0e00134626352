import { and, eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { DisbursalAccount, Purpose } from "../../domain/loans/application.ts";
import { loanApplications } from "../db/schema.ts";
import { type Application, supersedeDocument } from "./rows.server.ts";

/**
 * Step1: the purpose, and the disbursal account as it is now (snapshotted,
 * masked; null keeps the one saved), while the application is the owner's
 * draft; a change withdraws the KFS issued for the old details.
 */
export async function saveDetails(
  { db, now }: Pick<AppServices, "db" | "now">,
  {
    userId,
    application,
    details,
  }: {
    userId: string;
    application: Application;
    details: { purpose: Purpose; purposeDetails: string | null; account: DisbursalAccount | null };
  },
) {
  const at = now();
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(loanApplications)
      .set({
        purpose: details.purpose,
        purposeDetails: details.purposeDetails,
        disbursalAccount: details.account ?? application.disbursalAccount,
        detailsSavedAt: details.account ? at : application.detailsSavedAt,
        updatedAt: at,
      })
      .where(and(eq(loanApplications.id, application.id), eq(loanApplications.userId, userId), eq(loanApplications.status, "draft")))
      .returning({ id: loanApplications.id });
    const changed =
      application.purpose !== details.purpose ||
      (application.purposeDetails ?? null) !== details.purposeDetails ||
      JSON.stringify(application.disbursalAccount) !== JSON.stringify(details.account ?? application.disbursalAccount);
    if (updated.length && changed) await supersedeDocument(tx, application.id, at);
  });
}
