/**
 * Cancelling autopay (docs/product.md "Autopay"): by the borrower on their own loan, or by
 * operations staff on the borrower's request (with the reason). The mandate is ended at the
 * provider first; only when the provider has done so is it cancelled here and audited. A mandate
 * still waiting for the borrower's approval is simply withdrawn.
 */
import { and, eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { applicationSubject, audit, type AuditActor } from "../audit.server.ts";
import { loanApplications, mandates } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { DEBIT_CANCELLED } from "../../domain/loans/autopay.ts";
import { cancelWaitingDebits } from "./debit-rows.server.ts";
import { lockLiveMandate, registering } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "log" | "mandates">;

export type CancelMandateResult =
  { ok: true } | { ok: false; reason: "not_found" | "no_mandate" | "being_set_up" | "provider_unavailable" | "provider_silent" };

export async function cancelMandate(
  services: Services,
  {
    loanNumber,
    by,
    client,
    reason,
  }: {
    loanNumber: string;
    /** The borrower (their own loan only), or a staff member acting on the borrower's request. */
    by: { borrower: string } | { staff: Staff };
    client: Client;
    reason: string;
  },
): Promise<CancelMandateResult> {
  const owner = "borrower" in by ? eq(loanApplications.userId, by.borrower) : undefined;
  const [a] = await services.db
    .select({ id: loanApplications.id })
    .from(loanApplications)
    .where(and(eq(loanApplications.loanNumber, loanNumber), owner));
  if (!a) return { ok: false, reason: "not_found" };
  return endLiveMandate(services, {
    applicationId: a.id,
    reason,
    by: "borrower" in by ? { id: by.borrower, role: "borrower" } : by.staff,
    client,
  });
}

/**
 * Ends a loan's live mandate: at the provider first (until it says so, debits could still come),
 * then here, audited. Refused while it is being registered, when the provider that holds it is not
 * the one configured, and when the provider does not end it; nothing changes then.
 */
export async function endLiveMandate(
  services: Services,
  { applicationId, reason, by, client }: { applicationId: string; reason: string; by: AuditActor; client: Client | null },
): Promise<{ ok: true } | { ok: false; reason: "no_mandate" | "being_set_up" | "provider_unavailable" | "provider_silent" }> {
  const at = services.now();
  // Read (its lock ends with the statement): the provider is not asked inside a transaction.
  const mandate = await lockLiveMandate(services, applicationId);
  if (!mandate) return { ok: false, reason: "no_mandate" };
  // Being registered with the provider right now: ended once it is (in a moment), never behind its back.
  if (registering(mandate, at)) return { ok: false, reason: "being_set_up" };
  // Only the provider that holds the mandate can end it.
  if (mandate.providerMandateId && services.mandates?.name !== mandate.provider) return { ok: false, reason: "provider_unavailable" };
  if (mandate.providerMandateId && services.mandates) {
    try {
      const answer = await services.mandates.cancel(mandate.providerMandateId);
      if (answer.state !== "cancelled" && answer.state !== "rejected") return { ok: false, reason: "provider_silent" };
    } catch (error) {
      services.log.warn({ err: error, reference: mandate.reference }, "the mandate provider did not cancel the mandate");
      return { ok: false, reason: "provider_silent" };
    }
  }
  return services.db.transaction(async (tx) => {
    const m = await lockLiveMandate({ db: tx }, applicationId);
    if (!m || m.id !== mandate.id) return { ok: true } as const;
    await tx
      .update(mandates)
      .set({ status: "cancelled", reason, cancelledBy: by === "system" ? null : by.id, endedAt: at, updatedAt: at })
      .where(eq(mandates.id, m.id));
    await cancelWaitingDebits(
      { db: tx },
      { mandateId: m.id, reason: by === "system" ? DEBIT_CANCELLED.loanEnded : DEBIT_CANCELLED.mandateEnded, at },
    );
    await audit(
      { db: tx },
      {
        by,
        client,
        at,
        action: "mandate.cancelled",
        subject: applicationSubject(applicationId),
        details: { reference: m.reference, reason, wasStatus: m.status },
      },
    );
    return { ok: true } as const;
  });
}
