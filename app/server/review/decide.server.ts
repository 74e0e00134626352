import { and, eq, isNull } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { KIND_NOUN, stepPath } from "../../domain/loans/application.ts";
import { addDays } from "../../domain/loan-math.ts";
import { longDate } from "../../domain/loans/kfs.ts";
import { checklistComplete, type RejectionReason, rejectionText } from "../../domain/review.ts";
import { formatRupees } from "../../domain/money.ts";
import { todayIST } from "../../lib/format.ts";
import { applicationRequests, reviewChecklist } from "../db/schema.ts";
import { changeStatus } from "../loans/lifecycle.server.ts";
import { notify } from "../notifications/notify.server.ts";
import { isMine, lockByReference, type Staff, staffBy } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs" | "config">;
export type Decision = { kind: "approve" } | { kind: "reject"; reason: RejectionReason; note: string };
export type DecideResult =
  { ok: true } | { ok: false; reason: "not_found" | "not_yours" | "checklist_incomplete" | "waiting_for_borrower" | "not_open" };

/** The first day (India time) a borrower rejected at `decidedAt` may apply for the same product again. */
export const reapplyFrom = (services: Pick<AppServices, "config">, decidedAt: Date) =>
  addDays(todayIST(decidedAt), services.config.reapplyAfterDays);

/**
 * Approve or reject (docs/product.md "Credit review and decision"). Approval: the officer's own
 * application under review, every checklist item ticked, nothing asked of the borrower still
 * open. Rejection: from `signed` or the officer's own under review, with a reason the borrower
 * reads in plain words and a note for the file. Both send the borrower an SMS.
 */
export async function decideApplication(
  services: Services,
  { staff, reference, decision, origin, client }: { staff: Staff; reference: string; decision: Decision; origin: string; client: Client },
): Promise<DecideResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    // The same decision sent twice (a double click, a retried request) is done already.
    const repeated = a.decidedBy === staff.id && a.status === (decision.kind === "approve" ? "approved" : "rejected");
    if (repeated) return { ok: true };
    if (decision.kind === "approve") {
      if (!isMine(a, staff)) return { ok: false, reason: a.status === "under_review" ? "not_yours" : "not_open" };
      const ticked = await tx
        .select({ item: reviewChecklist.item })
        .from(reviewChecklist)
        .where(and(eq(reviewChecklist.applicationId, a.id), eq(reviewChecklist.checked, true)));
      if (!checklistComplete(new Set(ticked.map((t) => t.item)))) return { ok: false, reason: "checklist_incomplete" };
      const [open] = await tx
        .select({ id: applicationRequests.id })
        .from(applicationRequests)
        .where(and(eq(applicationRequests.applicationId, a.id), isNull(applicationRequests.answeredAt)));
      if (open) return { ok: false, reason: "waiting_for_borrower" };
      await changeStatus(
        { db: tx },
        { application: a, to: "approved", by: staffBy(staff, client, "approved"), at, extra: { decidedBy: staff.id, decidedAt: at } },
      );
      await notify(services, tx, {
        userId: a.userId,
        event: "application_approved",
        key: a.id,
        origin,
        data: {
          reference: a.reference,
          what: `${KIND_NOUN[a.product]} of ${formatRupees(a.amountPaise ?? 0)}`,
          accountMasked: a.disbursalAccount?.accountMasked ?? "on file",
        },
      });
      return { ok: true };
    }
    const mayReject = a.status === "signed" || isMine(a, staff);
    if (!mayReject) return { ok: false, reason: a.status === "under_review" ? "not_yours" : "not_open" };
    const told = rejectionText(decision.reason, longDate(reapplyFrom(services, at)));
    await changeStatus(
      { db: tx },
      {
        application: a,
        to: "rejected",
        by: staffBy(staff, client, told),
        at,
        extra: {
          decidedBy: staff.id,
          decidedAt: at,
          rejectionReason: decision.reason,
          decisionNote: decision.note,
          assignedTo: a.assignedTo ?? staff.id,
          assignedAt: a.assignedAt ?? at,
        },
        details: { rejectionReason: decision.reason, note: decision.note },
      },
    );
    await notify(services, tx, {
      userId: a.userId,
      event: "application_rejected",
      key: a.id,
      origin,
      data: { reference: a.reference, statusPath: stepPath(a.product, a.reference, "Step7") },
    });
    return { ok: true };
  });
}
