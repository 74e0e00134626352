import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { accountMatchesAgreement } from "../../domain/loans/disbursal.ts";
import { auditLog, borrowerBankAccounts, loanApplications, payouts } from "../db/schema.ts";
import { lockByReference, reviewAudit, type Staff } from "../review/rows.server.ts";
import type { Db } from "../db/client.ts";
import { signedTerms } from "../loans/signed-terms.server.ts";
import { askAgain } from "./settle.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs" | "payouts" | "config">;

export type DisburseRefusal =
  | "not_found"
  | "not_approved"
  | "four_eyes"
  | "in_flight"
  | "already_disbursed"
  | "account_unverified"
  | "account_changed"
  | "not_signed"
  | "terms_unknown";
export type DisburseResult = { ok: true; payoutId: string } | { ok: false; reason: DisburseRefusal };

/** The attempt waiting for the provider's answer, or the one that paid; null when none (never sent, or the last failed). */
export async function livePayout(db: Db, applicationId: string) {
  const [row] = await db
    .select()
    .from(payouts)
    .where(
      and(eq(payouts.applicationId, applicationId), eq(payouts.purpose, "disbursal"), inArray(payouts.status, ["requested", "processed"])),
    );
  return row ?? null;
}

/**
 * Disburse an approved loan (docs/product.md "Disbursal"): operations or admin, never the person
 * who approved it (four eyes); to the account chosen at Step1 and named in the signed agreement,
 * still verified; the net amount of the signed KFS. The attempt is stored with its idempotency
 * key and the account as verified now, and the job queue sends it after this transaction commits.
 * A new attempt only after the provider confirmed that the last one failed.
 */
export async function requestDisbursal(
  services: Services,
  { staff, reference, client }: { staff: Staff; reference: string; client: Client },
): Promise<DisburseResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    const live = await livePayout(tx, a.id);
    if (live) return { ok: false, reason: live.status === "requested" ? "in_flight" : "already_disbursed" };
    if (a.status !== "approved") return { ok: false, reason: "not_approved" };
    if (a.decidedBy === staff.id) return { ok: false, reason: "four_eyes" };
    const [bank] = await tx.select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, a.userId));
    if (!bank?.verifiedAt) return { ok: false, reason: "account_unverified" };
    if (!accountMatchesAgreement(a.disbursalAccount, bank)) return { ok: false, reason: "account_changed" };
    const signed = await signedTerms(services, tx, a);
    if (!signed) return { ok: false, reason: "not_signed" };
    // The terms the schedule will be fixed with must be the signed ones, before any money moves.
    if (!signed.input) return { ok: false, reason: "terms_unknown" };
    const [last] = await tx
      .select({ attempt: payouts.attempt })
      .from(payouts)
      .where(eq(payouts.applicationId, a.id))
      .orderBy(desc(payouts.attempt))
      .limit(1);
    const attempt = (last?.attempt ?? 0) + 1;
    const id = randomUUID();
    await tx.insert(payouts).values({
      id,
      applicationId: a.id,
      attempt,
      provider: services.payouts.name,
      status: "requested",
      amountPaise: signed.figures.netDisbursedPaise,
      holderName: bank.holderName,
      accountNumberEnc: bank.accountNumberEnc,
      accountMasked: bank.accountMasked,
      ifsc: bank.ifsc,
      requestedBy: staff.id,
      requestedAt: at,
      updatedAt: at,
    });
    await tx.update(loanApplications).set({ updatedAt: at }).where(eq(loanApplications.id, a.id));
    await tx.insert(auditLog).values(
      reviewAudit(staff, client, at, a, "payout.requested", {
        payoutId: id,
        attempt,
        amountPaise: signed.figures.netDisbursedPaise,
        account: bank.accountMasked,
        ifsc: bank.ifsc,
        provider: services.payouts.name,
      }),
    );
    await askAgain(services, id, 0, { db: tx });
    return { ok: true, payoutId: id };
  });
}
