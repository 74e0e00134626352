// What the loan operations share: the owner's application row locked for a
// change, and withdrawing a KFS the change makes stale.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { loanApplications, loanDocuments } from "../db/schema.ts";

export type Application = typeof loanApplications.$inferSelect;

/** The owner's application, locked until the transaction ends (so concurrent changes queue); null for anyone else's. */
export async function lockOwned(tx: Db, userId: string, applicationId: string): Promise<Application | null> {
  const [row] = await tx
    .select()
    .from(loanApplications)
    .where(and(eq(loanApplications.id, applicationId), eq(loanApplications.userId, userId)))
    .for("update");
  return row ?? null;
}

/** Any change to the terms or details makes the issued KFS stale: it is withdrawn and issued again at Step5. */
export async function supersedeDocument(tx: Db, applicationId: string, at: Date) {
  await tx
    .update(loanDocuments)
    .set({ supersededAt: at })
    .where(and(eq(loanDocuments.applicationId, applicationId), isNull(loanDocuments.supersededAt)));
}
