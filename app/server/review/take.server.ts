import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { loanApplications } from "../db/schema.ts";
import { changeStatus } from "../loans/lifecycle.server.ts";
import { queueCreditChecks } from "./credit-checks.server.ts";
import { lockByReference, type Staff, staffBy } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs">;
export type TakeResult =
  { ok: true; tookOver: boolean } | { ok: false; reason: "not_found" | "not_open" | "taken_by_other" | "already_yours" };

/**
 * Take an application for review (docs/product.md "Credit review and decision"): a signed one
 * moves to `under_review` assigned to this officer; with `takeOver`, one under review by another
 * officer is reassigned (audited). Taking queues the PAN and bureau checks (a job, so a slow
 * provider never holds the officer's page).
 */
export async function takeApplication(
  services: Services,
  { staff, reference, takeOver, client }: { staff: Staff; reference: string; takeOver: boolean; client: Client },
): Promise<TakeResult> {
  const at = services.now();
  return services.db.transaction(async (tx): Promise<TakeResult> => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    if (a.status === "signed") {
      await changeStatus(
        { ...services, db: tx },
        { application: a, to: "under_review", by: staffBy(staff, client, "taken"), at, extra: { assignedTo: staff.id, assignedAt: at } },
      );
      await queueCreditChecks({ ...services, db: tx }, a.id);
      return { ok: true, tookOver: false };
    }
    if (a.status !== "under_review") return { ok: false, reason: "not_open" };
    if (a.assignedTo === staff.id) return { ok: false, reason: "already_yours" };
    // Taking over needs the officer to say so: a plain "Take" that lost a race must not reassign it.
    if (!takeOver) return { ok: false, reason: "taken_by_other" };
    await tx.update(loanApplications).set({ assignedTo: staff.id, assignedAt: at, updatedAt: at }).where(eq(loanApplications.id, a.id));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "application.taken_over",
        subject: applicationSubject(a.id),
        details: { from: a.assignedTo, to: staff.id },
      },
    );
    return { ok: true, tookOver: true };
  });
}
