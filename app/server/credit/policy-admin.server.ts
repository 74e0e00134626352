// Changing the credit policy (docs/product.md "Credit policy"): an administrator proposes a new
// version with a reason, a second administrator confirms it (never the proposer), and from then
// it judges every offer and decision made after it. One proposal is open at a time; each step is
// audited; the history is kept.
import { eq } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { type PolicyRules, policyDiff } from "../../domain/credit-policy/rules.ts";
import type { StaffRole } from "../../domain/roles.ts";
import { audit } from "../audit.server.ts";
import { creditPolicies } from "../db/schema.ts";
import { clearPolicyCache, openProposal, policyInForce } from "./policy.server.ts";

type Services = Pick<AppServices, "db" | "now">;
interface Admin {
  id: string;
  role: StaffRole;
}

/** The subject of a policy step's audit row: the proposal (the version it becomes). */
const policySubject = (id: number) => ({ type: "credit_policy", id: String(id) });

export type ProposeResult = { ok: true; id: number } | { ok: false; reason: "open_proposal" | "no_change" };

/** A proposal: the rules and why, against the version in force now (nothing changes until it is confirmed). */
export async function proposePolicy(
  services: Services,
  { staff, rules, reason, client }: { staff: Admin; rules: PolicyRules; reason: string; client: Client },
): Promise<ProposeResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    if (await openProposal({ db: tx })) return { ok: false, reason: "open_proposal" };
    const inForce = await policyInForce({ db: tx });
    const changes = policyDiff(inForce.rules, rules);
    if (!changes.length) return { ok: false, reason: "no_change" };
    const [row] = await tx
      .insert(creditPolicies)
      .values({ status: "proposed", rules, reason, basedOn: inForce.version, proposedBy: staff.id, proposedAt: at })
      .onConflictDoNothing()
      .returning({ id: creditPolicies.id });
    // Another administrator's proposal went in a moment before.
    if (!row) return { ok: false, reason: "open_proposal" };
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "policy.proposed",
        subject: policySubject(row.id),
        details: { basedOn: inForce.version, reason, changes },
      },
    );
    return { ok: true, id: row.id };
  });
}

export type ConfirmResult = { ok: true; version: number } | { ok: false; reason: "not_open" | "same_person" | "stale" };

/**
 * The second administrator's confirmation: the proposal becomes the next version, in force from now.
 * Refused to its proposer, and when another version came into force since it was proposed (it is
 * withdrawn: a proposal is judged against the rules it would replace).
 */
export async function confirmPolicy(
  services: Services,
  { staff, proposalId, client }: { staff: Admin; proposalId: number; client: Client },
): Promise<ConfirmResult> {
  const at = services.now();
  const confirmed = await confirmInTransaction(services, { staff, proposalId, client, at });
  // In force from now on this process; the others hear it from the table's trigger.
  clearPolicyCache(services.db);
  return confirmed;
}

function confirmInTransaction(
  services: Services,
  { staff, proposalId, client, at }: { staff: Admin; proposalId: number; client: Client; at: Date },
): Promise<ConfirmResult> {
  return services.db.transaction(async (tx) => {
    const [proposal] = await tx.select().from(creditPolicies).where(eq(creditPolicies.id, proposalId)).for("update");
    if (!proposal || proposal.status !== "proposed") return { ok: false, reason: "not_open" };
    if (proposal.proposedBy === staff.id) return { ok: false, reason: "same_person" };
    const inForce = await policyInForce({ db: tx });
    if (proposal.basedOn !== inForce.version) {
      await tx
        .update(creditPolicies)
        .set({ status: "withdrawn", withdrawnBy: staff.id, withdrawnAt: at })
        .where(eq(creditPolicies.id, proposal.id));
      await audit(
        { db: tx },
        {
          by: staff,
          client,
          at,
          action: "policy.withdrawn",
          subject: policySubject(proposal.id),
          details: { why: `version ${inForce.version} came into force since it was proposed` },
        },
      );
      return { ok: false, reason: "stale" };
    }
    const version = inForce.version + 1;
    await tx
      .update(creditPolicies)
      .set({ status: "confirmed", version, confirmedBy: staff.id, confirmedAt: at })
      .where(eq(creditPolicies.id, proposal.id));
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "policy.confirmed",
        subject: policySubject(proposal.id),
        details: { version, proposedBy: proposal.proposedBy, reason: proposal.reason, changes: policyDiff(inForce.rules, proposal.rules) },
      },
    );
    return { ok: true, version };
  });
}

/** The open proposal withdrawn (its proposer or another administrator); kept in the history. */
export async function withdrawProposal(
  services: Services,
  { staff, proposalId, client }: { staff: Admin; proposalId: number; client: Client },
): Promise<{ ok: boolean }> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const [proposal] = await tx.select().from(creditPolicies).where(eq(creditPolicies.id, proposalId)).for("update");
    if (!proposal || proposal.status !== "proposed") return { ok: false };
    await tx
      .update(creditPolicies)
      .set({ status: "withdrawn", withdrawnBy: staff.id, withdrawnAt: at })
      .where(eq(creditPolicies.id, proposal.id));
    await audit(
      { db: tx },
      { by: staff, client, at, action: "policy.withdrawn", subject: policySubject(proposal.id), details: { reason: proposal.reason } },
    );
    return { ok: true };
  });
}
