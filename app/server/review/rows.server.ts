// What the review operations share: the application locked by its reference, and who the officer is.
import { eq } from "drizzle-orm";
import type { Client } from "../../context.ts";
import type { StaffRole } from "../../domain/roles.ts";
import type { ChangeBy } from "../loans/lifecycle.server.ts";
import type { Db } from "../db/client.ts";
import { loanApplications, users } from "../db/schema.ts";
import type { Application } from "../loans/rows.server.ts";

export interface Staff {
  id: string;
  role: StaffRole;
}

/** The application, locked until the transaction ends (so two officers' changes queue); null when there is none. */
export async function lockByReference(tx: Db, reference: string): Promise<Application | null> {
  const [row] = await tx.select().from(loanApplications).where(eq(loanApplications.reference, reference)).for("update");
  return row ?? null;
}

/** The borrower's mobile, for the SMS a review action sends. */
export async function borrowerMobile(tx: Db, userId: string) {
  const [row] = await tx.select({ mobile: users.mobile }).from(users).where(eq(users.id, userId));
  return row?.mobile ?? null;
}

/** The officer's own application under review: the only one they may tick, ask about or approve. */
export const isMine = (a: Application, staff: Staff) => a.status === "under_review" && a.assignedTo === staff.id;

export const staffBy = (staff: Staff, client: Client, reason?: string): ChangeBy => ({
  actor: staff.role,
  actorUserId: staff.id,
  reason: reason ?? null,
  ip: client.ip,
  userAgent: client.userAgent,
});
