import { and, eq, isNull } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { stepPath } from "../../domain/loans/application.ts";
import { addDays } from "../../domain/loan-math.ts";
import { longDate, todayIST } from "../../domain/india-date.ts";
import { checklistComplete, type RejectionReason, rejectionText } from "../../domain/review.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import type { Db } from "../db/client.ts";
import { applicationDeviations, applicationRequests, reviewChecklist } from "../db/schema.ts";
import { recordEvaluation } from "../credit/judge.server.ts";
import { policyInForce } from "../credit/policy.server.ts";
import { changeStatus } from "../loans/lifecycle.server.ts";
import type { Application } from "../loans/rows.server.ts";
import { notify } from "../notifications/notify.server.ts";
import { autopayMissing } from "../mandates/required.server.ts";
import { judgeApplication, openDeviation, returnForSigning, sendsBack, withdrawDeviation } from "./policy.server.ts";
import { isMine, lockByReference, type Staff, staffBy } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs" | "config" | "mandates">;
/**
 * approve: with `deviationReason` when the credit policy needs a deviation (the first approver);
 * confirm_deviation: the second approver, who is not the first.
 */
export type Decision =
  | { kind: "approve"; deviationReason?: string | null }
  | { kind: "confirm_deviation" }
  | { kind: "reject"; reason: RejectionReason; note: string };
export type DecideRefusal =
  | "not_found"
  | "not_yours"
  | "checklist_incomplete"
  | "waiting_for_borrower"
  | "not_open"
  | "policy_refuses"
  | "checks_missing"
  | "deviation_reason_needed"
  | "no_deviation"
  | "same_approver"
  | "sent_back";
export type DecideResult = { ok: true; deviationProposed?: boolean } | { ok: false; reason: DecideRefusal };

/** The first day (India time) a borrower rejected at `decidedAt` may apply again: the credit policy's days after a rejection. */
export async function reapplyFrom(services: Pick<AppServices, "db">, decidedAt: Date) {
  const { rules } = await policyInForce(services);
  return addDays(todayIST(decidedAt), rules.rejectionCoolOffDays);
}

/** Approval needs every checklist item ticked and nothing asked of the borrower still open. */
async function readyToApprove(tx: Db, a: Application): Promise<DecideRefusal | null> {
  const ticked = await tx
    .select({ item: reviewChecklist.item })
    .from(reviewChecklist)
    .where(and(eq(reviewChecklist.applicationId, a.id), eq(reviewChecklist.checked, true)));
  if (!checklistComplete(new Set(ticked.map((t) => t.item)))) return "checklist_incomplete";
  const [open] = await tx
    .select({ id: applicationRequests.id })
    .from(applicationRequests)
    .where(and(eq(applicationRequests.applicationId, a.id), isNull(applicationRequests.answeredAt)));
  return open ? "waiting_for_borrower" : null;
}

/**
 * Approve or reject (docs/product.md "Credit review and decision", "Credit policy"). Approval: the
 * officer's own application under review, every checklist item ticked, nothing asked of the
 * borrower still open, and the credit policy in force on the amount signed: passed; a deviation
 * needs a written reason and then a second approver who is not the first; an amount the policy
 * now refuses while a smaller one passes sends the application back for a fresh KFS; a hard stop
 * refuses it. Rejection: from `signed` or the officer's own under review, with a reason the
 * borrower reads in plain words and a note for the file. Each decision keeps the policy's table.
 */
export async function decideApplication(
  services: Services,
  { staff, reference, decision, client }: { staff: Staff; reference: string; decision: Decision; client: Client },
): Promise<DecideResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const a = await lockByReference(tx, reference);
    if (!a) return { ok: false, reason: "not_found" };
    // The same decision sent twice (a double click, a retried request) is done already.
    const repeated = a.decidedBy === staff.id && a.status === (decision.kind === "reject" ? "rejected" : "approved");
    if (repeated) return { ok: true };
    if (decision.kind === "reject") return reject({ ...services, db: tx }, { a, staff, decision, client, at });
    if (decision.kind === "approve" && !isMine(a, staff))
      return { ok: false, reason: a.status === "under_review" ? "not_yours" : "not_open" };
    if (a.status !== "under_review") return { ok: false, reason: "not_open" };
    const judged = await judgeApplication({ db: tx, now: services.now }, a);
    if (!judged.ok) return { ok: false, reason: "checks_missing" };
    const { verdict } = judged;
    const keep = (stage: "review" | "decision") =>
      recordEvaluation(tx, {
        userId: a.userId,
        applicationId: a.id,
        stage,
        verdict,
        bureauReference: judged.bureauReference,
        actorUserId: staff.id,
        at,
      });
    if (sendsBack(verdict)) {
      await keep("decision");
      await returnForSigning({ ...services, db: tx }, { application: a, verdict, by: staffBy(staff, client), at });
      return { ok: false, reason: "sent_back" };
    }
    const notReady = await readyToApprove(tx, a);
    if (notReady) return { ok: false, reason: notReady };
    if (verdict.result === "missing") return { ok: false, reason: "checks_missing" };
    if (verdict.result === "fail") return { ok: false, reason: "policy_refuses" };
    const deviation = await openDeviation(tx, a.id);
    if (decision.kind === "confirm_deviation") {
      if (!deviation) return { ok: false, reason: "no_deviation" };
      if (deviation.proposedBy === staff.id) return { ok: false, reason: "same_approver" };
      // What the first approver saw must still be all that deviates.
      if (verdict.deviations.some((code) => !deviation.rules.includes(code))) return { ok: false, reason: "policy_refuses" };
      await tx
        .update(applicationDeviations)
        .set({ confirmedBy: staff.id, confirmedAt: at })
        .where(eq(applicationDeviations.id, deviation.id));
      await audit(
        { db: tx },
        {
          by: staff,
          client,
          at,
          action: "application.deviation_approved",
          subject: applicationSubject(a.id),
          details: {
            rules: deviation.rules,
            reason: deviation.reason,
            firstApprover: deviation.proposedBy,
            secondApprover: staff.id,
            policyVersion: verdict.version,
          },
        },
      );
      await keep("decision");
      return approve({ ...services, db: tx }, { a, staff, client, at });
    }
    if (verdict.result === "deviation") {
      if (deviation) return { ok: true, deviationProposed: true };
      const reason = decision.deviationReason?.trim();
      if (!reason) return { ok: false, reason: "deviation_reason_needed" };
      const evaluationId = await keep("review");
      await tx.insert(applicationDeviations).values({
        applicationId: a.id,
        evaluationId,
        rules: verdict.deviations,
        reason,
        proposedBy: staff.id,
        proposedAt: at,
      });
      await audit(
        { db: tx },
        {
          by: staff,
          client,
          at,
          action: "application.deviation_proposed",
          subject: applicationSubject(a.id),
          details: { rules: verdict.deviations, reason, policyVersion: verdict.version },
        },
      );
      return { ok: true, deviationProposed: true };
    }
    await keep("decision");
    return approve({ ...services, db: tx }, { a, staff, client, at });
  });
}

interface Deciding {
  a: Application;
  staff: Staff;
  client: Client;
  at: Date;
}

async function approve(services: Services, { a, staff, client, at }: Deciding): Promise<DecideResult> {
  const tx = services.db;
  await changeStatus(
    { ...services, db: tx },
    { application: a, to: "approved", by: staffBy(staff, client, "approved"), at, extra: { decidedBy: staff.id, decidedAt: at } },
  );
  await notify(
    { ...services, db: tx },
    {
      userId: a.userId,
      event: "application_approved",
      key: a.id,
      data: {
        reference: a.reference,
        product: a.product,
        amountPaise: a.amountPaise ?? 0,
        accountMasked: a.disbursalAccount?.accountMasked ?? null,
        // Paid out only once autopay is active: the notice leads to where it is set up.
        autopayPath: (await autopayMissing(services, a)) ? stepPath(a.product, a.reference, "Step7") : null,
      },
    },
  );
  return { ok: true };
}

async function reject(
  services: Services,
  { a, staff, decision, client, at }: Deciding & { decision: Extract<Decision, { kind: "reject" }> },
): Promise<DecideResult> {
  const tx = services.db;
  const mayReject = a.status === "signed" || isMine(a, staff);
  if (!mayReject) return { ok: false, reason: a.status === "under_review" ? "not_yours" : "not_open" };
  const judged = await judgeApplication({ db: tx, now: services.now }, a);
  if (judged.ok)
    await recordEvaluation(tx, {
      userId: a.userId,
      applicationId: a.id,
      stage: "decision",
      verdict: judged.verdict,
      bureauReference: judged.bureauReference,
      actorUserId: staff.id,
      at,
    });
  const told = rejectionText(decision.reason, longDate(await reapplyFrom({ db: tx }, at)));
  await withdrawDeviation(tx, a.id, at);
  await changeStatus(
    { ...services, db: tx },
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
  await notify(
    { ...services, db: tx },
    {
      userId: a.userId,
      event: "application_rejected",
      key: a.id,
      data: { reference: a.reference, statusPath: stepPath(a.product, a.reference, "Step7") },
    },
  );
  return { ok: true };
}
