import type { AppServices, Client } from "../../context.ts";
import { borrowerCanCancel } from "../../domain/loans/lifecycle.ts";
import { livePayout } from "../payouts/disburse.server.ts";
import { changeStatus } from "./lifecycle.server.ts";
import { lockOwned } from "./rows.server.ts";

export type CancelResult = { ok: true } | { ok: false; reason: "not_cancellable" | "payout_in_flight" };

/** The borrower cancels before disbursal (draft, signed, under review or approved): the owner's row locked, the status checked, moved with its audit row. */
export async function cancelApplication(
  services: Pick<AppServices, "db" | "now" | "jobs">,
  { userId, applicationId, client }: { userId: string; applicationId: string; client: Client },
): Promise<CancelResult> {
  return services.db.transaction(async (tx) => {
    const application = await lockOwned(tx, userId, applicationId);
    if (!application || !borrowerCanCancel(application.status)) return { ok: false, reason: "not_cancellable" } as const;
    // The money may be on its way: the application row is locked, so no payout can start while this decides.
    if (application.status === "approved" && (await livePayout(tx, application.id)))
      return { ok: false, reason: "payout_in_flight" } as const;
    await changeStatus(
      { ...services, db: tx },
      {
        application,
        to: "cancelled",
        by: { actor: "borrower", actorUserId: userId, reason: "Cancelled by the borrower", ...client },
        at: services.now(),
      },
    );
    return { ok: true } as const;
  });
}
