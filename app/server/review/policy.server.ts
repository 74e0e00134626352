// The credit policy at review (docs/product.md "Credit policy"): an application signed for an
// amount is judged again by the version in force with the latest checks; when that now allows
// less than was signed, the application goes back to the borrower for a fresh KFS and signature.
import { and, desc, eq, isNull, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import type { PolicyVerdict } from "../../domain/credit-policy/evaluate.ts";
import { stepPath } from "../../domain/loans/application.ts";
import type { Db } from "../db/client.ts";
import {
  applicationDeviations,
  applicationRequests,
  currentSignatureOf,
  loanApplications,
  loanDocuments,
  loanSignatures,
  policyEvaluations,
  reviewChecklist,
  users,
} from "../db/schema.ts";
import { type Judged, judge } from "../credit/judge.server.ts";
import { type ChangeBy, changeStatus } from "../loans/lifecycle.server.ts";
import { type Application, supersedeDocument } from "../loans/rows.server.ts";
import { notify } from "../notifications/notify.server.ts";

type Services = Pick<AppServices, "db" | "now" | "config" | "jobs">;

/**
 * The application judged at the amount, tenure and EMI it was signed for (its own row left out of
 * the borrower's applications).
 */
export async function judgeApplication(services: Pick<AppServices, "db" | "now">, a: Application): Promise<Judged> {
  const [signed] = await services.db
    .select({ terms: loanDocuments.terms })
    .from(loanSignatures)
    .innerJoin(loanDocuments, eq(loanDocuments.id, loanSignatures.documentId))
    .where(currentSignatureOf(a.id));
  return judge(services, {
    userId: a.userId,
    kind: a.product,
    applicationId: a.id,
    asked: { amountPaise: a.amountPaise ?? 0, tenureMonths: a.tenureMonths, monthlyPaise: signed?.terms.figures.instalmentPaise ?? null },
  });
}

/**
 * Whether the verdict sends the application back: the amount signed no longer passes (not even as
 * a deviation) but a smaller one would, and nothing else stops it.
 */
export function sendsBack(verdict: PolicyVerdict): boolean {
  if (verdict.result !== "fail" || !verdict.eligible) return false;
  return verdict.rules.every((r) => r.kind === "limit" || r.outcome === "pass" || r.outcome === "deviation");
}

/**
 * Back to the borrower: the status returns to draft, the signature and the KFS are withdrawn (kept,
 * superseded), the amount is chosen again at Step0, and what the review had done on the old terms
 * ends (the checklist, which the audit log keeps, an open question to the borrower, an open
 * deviation, the officer's assignment: the fresh signature is reviewed afresh); the borrower is told
 * by SMS why and up to how much. In the caller's transaction, the application locked.
 */
export async function returnForSigning(
  services: Services,
  { application, verdict, by, at }: { application: Application; verdict: PolicyVerdict; by: ChangeBy; at: Date },
) {
  const tx = services.db;
  const largest = verdict.kind === "emi" ? (verdict.maxByTenure[application.tenureMonths ?? 0] ?? 0) : verdict.maxAmountPaise;
  await changeStatus(
    { ...services, db: tx },
    {
      application,
      to: "draft",
      by: { ...by, reason: "The credit policy now allows less than was signed: the amount is to be chosen again and a fresh KFS signed." },
      at,
      extra: { termsSavedAt: null, signedAt: null, assignedTo: null, assignedAt: null },
      details: { policyVersion: verdict.version, signedAmountPaise: application.amountPaise, largestAmountPaise: largest },
    },
  );
  await tx
    .update(loanSignatures)
    .set({ supersededAt: at })
    .where(and(eq(loanSignatures.applicationId, application.id), isNull(loanSignatures.supersededAt)));
  await supersedeDocument(tx, application.id, at);
  await withdrawDeviation(tx, application.id, at);
  await tx.delete(reviewChecklist).where(eq(reviewChecklist.applicationId, application.id));
  await tx
    .update(applicationRequests)
    .set({ answer: "Withdrawn: the application went back to the borrower for a fresh Key Fact Statement.", answeredAt: at })
    .where(and(eq(applicationRequests.applicationId, application.id), isNull(applicationRequests.answeredAt)));
  const path = stepPath(application.product, application.reference, "Step0");
  await notify(
    { ...services, db: tx },
    {
      userId: application.userId,
      event: "application_returned",
      key: `${application.id}:${at.toISOString()}`,
      data: { reference: application.reference, maxAmountPaise: verdict.best.amountPaise, path },
    },
  );
}

/** An open deviation approval ends when the application leaves review another way. */
export async function withdrawDeviation(tx: Db, applicationId: string, at: Date) {
  await tx
    .update(applicationDeviations)
    .set({ withdrawnAt: at })
    .where(
      and(
        eq(applicationDeviations.applicationId, applicationId),
        isNull(applicationDeviations.confirmedAt),
        isNull(applicationDeviations.withdrawnAt),
      ),
    );
}

/** The open deviation approval of an application (the first approver's), if any. */
export async function openDeviation(db: Db, applicationId: string) {
  const [row] = await db
    .select()
    .from(applicationDeviations)
    .where(
      and(
        eq(applicationDeviations.applicationId, applicationId),
        isNull(applicationDeviations.confirmedAt),
        isNull(applicationDeviations.withdrawnAt),
      ),
    );
  return row ?? null;
}

/**
 * After the checks of an application taken for review have run (a bureau report pulled again, a
 * new policy version since the signing): sent back when the policy now allows less than was signed.
 */
export async function reviewAgainstPolicy(services: Services, { applicationId }: { applicationId: string }) {
  return services.db.transaction(async (tx) => {
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.id, applicationId)).for("update");
    if (!a || (a.status !== "signed" && a.status !== "under_review")) return { sentBack: false };
    const judged = await judgeApplication({ db: tx, now: services.now }, a);
    if (!judged.ok || !sendsBack(judged.verdict)) return { sentBack: false };
    const at = services.now();
    await returnForSigning(
      { ...services, db: tx },
      { application: a, verdict: judged.verdict, by: { actor: "system", actorUserId: null }, at },
    );
    return { sentBack: true };
  });
}

/** What the review page shows of the policy: the verdict now, the judgements kept for this application, an open deviation. */
export async function policyForReview(services: Pick<AppServices, "db" | "now">, a: Application) {
  const { db } = services;
  // Judged now only while a decision or a disbursal is ahead; a loan's review page shows what was kept.
  const open = a.status === "signed" || a.status === "under_review" || a.status === "approved";
  const judged = open ? await judgeApplication(services, a) : null;
  const kept = await keptEvaluations(db, eq(policyEvaluations.applicationId, a.id));
  const proposer = alias(users, "proposer");
  const [deviation] = await db
    .select({ deviation: applicationDeviations, proposerName: proposer.name })
    .from(applicationDeviations)
    .innerJoin(proposer, eq(proposer.id, applicationDeviations.proposedBy))
    .where(eq(applicationDeviations.applicationId, a.id))
    .orderBy(desc(applicationDeviations.proposedAt))
    .limit(1);
  return {
    now: judged?.ok ? { verdict: judged.verdict, sendsBack: sendsBack(judged.verdict) } : null,
    missing: judged && !judged.ok ? judged.missing.map((m) => m.section) : [],
    kept,
    deviation: deviation ? { ...deviation.deviation, proposerName: deviation.proposerName } : null,
  };
}

/** The judgements kept (newest first, at most 20): of one application, or of a borrower (the staff borrower page). */
export function keptEvaluations(db: Db, where: SQL | undefined) {
  const actor = alias(users, "actor");
  return db
    .select({
      id: policyEvaluations.id,
      stage: policyEvaluations.stage,
      version: policyEvaluations.policyVersion,
      result: policyEvaluations.result,
      amountPaise: policyEvaluations.amountPaise,
      tenureMonths: policyEvaluations.tenureMonths,
      maxAmountPaise: policyEvaluations.maxAmountPaise,
      rules: policyEvaluations.rules,
      at: policyEvaluations.createdAt,
      by: actor.name,
    })
    .from(policyEvaluations)
    .leftJoin(actor, eq(actor.id, policyEvaluations.actorUserId))
    .where(where)
    .orderBy(desc(policyEvaluations.createdAt))
    .limit(20);
}

/** A borrower's judgements, for the staff borrower page. */
export const borrowerJudgements = ({ db }: Pick<AppServices, "db">, userId: string) =>
  keptEvaluations(db, eq(policyEvaluations.userId, userId));
