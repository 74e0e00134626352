/**
 * Staff servicing (docs/product.md "Loan servicing"): a contact with an overdue borrower noted on
 * the loan, audited.
 */
import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { type ContactOutcome, type StaffResult } from "../../domain/loans/staff-servicing.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { collectionNotes, loanApplications } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log" | "payments">;

export async function addCollectionNote(
  services: Services,
  {
    staff,
    client,
    loanNumber,
    outcome,
    note,
    followUpOn,
  }: { staff: Staff; client: Client; loanNumber: string; outcome: ContactOutcome; note: string; followUpOn?: IsoDate },
): Promise<StaffResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.loanNumber, loanNumber));
    if (!a?.disbursalDate) return { ok: false, reason: "not_found" };
    await tx
      .insert(collectionNotes)
      .values({ applicationId: a.id, staffUserId: staff.id, outcome, note, followUpOn: followUpOn ?? null, createdAt: at });
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "collections.note",
        subject: applicationSubject(a.id),
        details: { outcome, followUpOn: followUpOn ?? null },
      },
    );
    return { ok: true, message: "Note saved." };
  });
}
