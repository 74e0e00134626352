import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { accountMatchesAgreement } from "../../domain/loans/disbursal.ts";
import { exposureRule, ownRecordRules, type RuleCode } from "../../domain/credit-policy/evaluate.ts";
import { todayIST } from "../../domain/india-date.ts";
import { applicationSubject, audit } from "../audit.server.ts";
import { policyInForce } from "../credit/policy.server.ts";
import { applicationDeviations, borrowerBankAccounts, loanApplications, payouts, users } from "../db/schema.ts";
import { ownRecord, recordEvaluation } from "../credit/judge.server.ts";
import type { Application } from "../loans/rows.server.ts";
import { lockByReference, type Staff } from "../review/rows.server.ts";
import type { Db } from "../db/client.ts";
import { autopayMissing } from "../mandates/required.server.ts";
import { amlHold } from "../aml/screen.server.ts";
import { signedTerms } from "../loans/signed-terms.server.ts";
import { askAgain } from "./check.server.ts";

type Services = Pick<AppServices, "db" | "now" | "jobs" | "payouts" | "config" | "mandates">;

export type DisburseRefusal =
  | "not_found"
  | "policy_stops"
  | "not_approved"
  | "four_eyes"
  | "in_flight"
  | "already_disbursed"
  | "account_unverified"
  | "autopay_missing"
  | "account_changed"
  | "not_signed"
  | "terms_unknown"
  | "compliance_hold";
export type DisburseResult = { ok: true; payoutId: string } | { ok: false; reason: DisburseRefusal; stops?: RuleCode[] };

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

/** Whether `staffId` proposed a deviation this application was approved with (four eyes: neither approver disburses). */
async function approvedDeviation(tx: Db, applicationId: string, staffId: string) {
  const [row] = await tx
    .select({ id: applicationDeviations.id })
    .from(applicationDeviations)
    .where(and(eq(applicationDeviations.applicationId, applicationId), eq(applicationDeviations.proposedBy, staffId)));
  return Boolean(row);
}

/** The credit policy's rules a disbursal checks again (docs/product.md "Credit policy"). */
const DISBURSAL_RULES: readonly RuleCode[] = ["own_overdue", "own_written_off", "active_loans", "exposure"];

/**
 * The disbursal's own judgement: the borrower's loans now (active ones, and approved ones whose
 * payout is on its way, which will be loans in minutes) against the policy in force, with this
 * loan's amount. Kept with the application; returns the rules that stop it.
 */
async function disbursalStops(
  services: Pick<AppServices, "db" | "now">,
  { application: a, staff, at }: { application: Application; staff: Staff; at: Date },
): Promise<RuleCode[]> {
  const { db } = services;
  await db.select({ id: users.id }).from(users).where(eq(users.id, a.userId)).for("update");
  const own = await ownRecord(db, a.userId, a.id);
  const inFlight = await db
    .select({
      reference: loanApplications.reference,
      kind: loanApplications.product,
      amountPaise: payouts.amountPaise,
      principalPaise: loanApplications.amountPaise,
    })
    .from(payouts)
    .innerJoin(loanApplications, eq(loanApplications.id, payouts.applicationId))
    .where(
      and(
        eq(loanApplications.userId, a.userId),
        eq(payouts.purpose, "disbursal"),
        eq(payouts.status, "requested"),
        eq(loanApplications.status, "approved"),
      ),
    );
  // Applications not yet paid out are not loans at disbursal: only those whose money is on its way.
  const loans = [
    ...own.loans,
    ...inFlight.map((p) => ({
      status: "active" as const,
      dpd: 0,
      overduePaise: 0,
      principalOutstandingPaise: p.principalPaise ?? p.amountPaise,
    })),
  ];
  const policy = await policyInForce(services);
  // The stops need nothing of the applicant's profile: a profile missing a fact never lets money go unjudged.
  const rules = [
    ...ownRecordRules({ policy, own: { loans, applications: [], lastRejectionOn: null }, today: todayIST(at) }),
    exposureRule(
      policy.rules,
      loans.filter((l) => l.status === "active").reduce((sum, l) => sum + l.principalOutstandingPaise, 0),
      a.amountPaise ?? 0,
    ),
  ].filter((r) => DISBURSAL_RULES.includes(r.code));
  const stops = rules.filter((r) => r.outcome !== "pass").map((r) => r.code);
  await recordEvaluation(db, {
    userId: a.userId,
    applicationId: a.id,
    stage: "disbursal",
    verdict: {
      version: policy.version,
      kind: a.product,
      rules,
      result: stops.length ? "fail" : "pass",
      asked: { amountPaise: a.amountPaise ?? 0, tenureMonths: a.tenureMonths },
      tenureMonths: a.tenureMonths,
      maxAmountPaise: a.amountPaise ?? 0,
    },
    bureauReference: null,
    actorUserId: staff.id,
    at,
  });
  return stops;
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
    if (a.decidedBy === staff.id || (await approvedDeviation(tx, a.id, staff.id))) return { ok: false, reason: "four_eyes" };
    // Sanctions screening: a possible match waits for compliance, a confirmed one freezes the borrower.
    if (await amlHold({ ...services, db: tx }, a.userId)) return { ok: false, reason: "compliance_hold" };
    // The credit policy's stops on exposure, the number of loans and overdue loans, judged again now,
    // with the borrower's row locked so that two disbursals of theirs at once are judged one after the other.
    const stops = await disbursalStops({ ...services, db: tx }, { application: a, staff, at });
    if (stops.length) return { ok: false, reason: "policy_stops", stops };
    const [bank] = await tx.select().from(borrowerBankAccounts).where(eq(borrowerBankAccounts.userId, a.userId));
    if (!bank?.verifiedAt) return { ok: false, reason: "account_unverified" };
    if (!accountMatchesAgreement(a.disbursalAccount, bank)) return { ok: false, reason: "account_changed" };
    if (await autopayMissing({ ...services, db: tx }, a)) return { ok: false, reason: "autopay_missing" };
    const signed = await signedTerms({ ...services, db: tx }, a);
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
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "payout.requested",
        subject: applicationSubject(a.id),
        details: {
          payoutId: id,
          attempt,
          amountPaise: signed.figures.netDisbursedPaise,
          account: bank.accountMasked,
          ifsc: bank.ifsc,
          provider: services.payouts.name,
        },
      },
    );
    await askAgain(services, id, 0, { db: tx });
    return { ok: true, payoutId: id };
  });
}
