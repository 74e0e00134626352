// The credit policy applied to one borrower (docs/product.md "Credit policy"): every input the
// policy function takes, read from the database with the owner's id, then the one pure judgement.
// Offers, the new-loan steps, signing, the review and the disbursal all come here.
import { createHash } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, max, ne, or, type SQL } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import {
  evaluatePolicy,
  type OwnApplication,
  type OwnLoan,
  type PolicyInput,
  type PolicyVerdict,
} from "../../domain/credit-policy/evaluate.ts";
import { bureauFactsOf, panStatusOf } from "../../domain/credit-policy/facts.ts";
import type { LoanKind } from "../../domain/loans/application.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { type ApplicantFacts, ageOn } from "../../domain/offer.ts";
import type { BureauReport, PanCheck } from "../../domain/review.ts";
import { todayIST } from "../../domain/india-date.ts";
import type { Db } from "../db/client.ts";
import {
  borrowerEmployment,
  consents,
  borrowerProfiles,
  creditChecks,
  loanAccounts,
  loanApplications,
  loanDocuments,
  loanInstalments,
  loanSignatures,
  policyEvaluations,
} from "../db/schema.ts";
import { loadProducts } from "../products.server.ts";
import { policyInForce } from "./policy.server.ts";

type Services = Pick<AppServices, "db" | "now">;

/** A fact the policy needs and the profile lacks: which one, its section, where to give it. */
export interface MissingFact {
  fact: "dateOfBirth" | "employment" | "existingEmis";
  section: string;
  href: string;
  what: string;
}
export type FactsResult = { ok: true; facts: ApplicantFacts; subject: string } | { ok: false; missing: MissingFact[] };

/**
 * Who a PAN check or a bureau report is of: the PAN (its keyed hash), the name and the date of birth
 * the providers were given. A check counts while the profile still says the same: a changed PAN,
 * name or date of birth is checked afresh (a PAN verified with one date of birth says nothing of
 * another).
 */
export function checkSubject(p: { panHmac: string; fullName: string; dateOfBirth: string }) {
  const name = p.fullName.trim().replace(/\s+/g, " ").toUpperCase();
  return createHash("sha256").update(`${p.panHmac}\n${name}\n${p.dateOfBirth}`).digest("hex");
}

/** The subject of the borrower's checks as their profile stands, or null without a profile. */
export async function subjectOf(db: Db, userId: string): Promise<string | null> {
  const [p] = await db
    .select({ panHmac: borrowerProfiles.panHmac, fullName: borrowerProfiles.fullName, dateOfBirth: borrowerProfiles.dateOfBirth })
    .from(borrowerProfiles)
    .where(eq(borrowerProfiles.userId, userId));
  return p ? checkSubject(p) : null;
}

/** What the policy needs from the Profile (date of birth, PAN) and Employment sections. */
export async function applicantFacts(
  { db }: Pick<AppServices, "db">,
  { userId, today }: { userId: string; today: IsoDate },
): Promise<FactsResult> {
  // One after the other: `db` may be a transaction's single connection.
  const [profile] = await db
    .select({ dateOfBirth: borrowerProfiles.dateOfBirth, panHmac: borrowerProfiles.panHmac, fullName: borrowerProfiles.fullName })
    .from(borrowerProfiles)
    .where(eq(borrowerProfiles.userId, userId));
  const [employment] = await db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId));
  const missing: MissingFact[] = [];
  if (!profile)
    missing.push({ fact: "dateOfBirth", section: "Profile", href: "/User/Profile/components/Profile", what: "your date of birth and PAN" });
  if (!employment) {
    missing.push({
      fact: "employment",
      section: "Employment",
      href: "/User/Profile/components/Employment",
      what: "your work, income and existing EMIs",
    });
  } else if (employment.existingEmiPaise === null) {
    missing.push({ fact: "existingEmis", section: "Employment", href: "/User/Profile/components/Employment", what: "your existing EMIs" });
  }
  if (!profile || !employment || employment.existingEmiPaise === null) return { ok: false, missing };
  return {
    ok: true,
    subject: checkSubject(profile),
    facts: {
      ageYears: ageOn(profile.dateOfBirth, today),
      netMonthlyIncomePaise: employment.netMonthlyIncomePaise,
      existingEmiPaise: employment.existingEmiPaise,
      employmentType: employment.employmentType,
      salaryDay: employment.salaryDay,
    },
  };
}

/** Where the bureau report for the borrower's PAN stands: none pulled, asked and not answered yet, answered, never answered. */
export type BureauState = "none" | "waiting" | "done" | "failed";

/**
 * How long a bureau report may stay "waiting": the job's five tries back off over about 20
 * minutes; a wait older than this (a job lost) counts as failed, and the page offers to ask again.
 */
const WAITING_EXPIRES_MS = 45 * 60_000;

/** The latest PAN check and bureau report of this subject (each the newest of its kind), as of `now`. */
export async function latestChecks(db: Db, userId: string, subject: string, now: Date) {
  // A bureau report asked for under a consent since withdrawn is used no more (docs/product.md "Data rights").
  const [withdrawn] = await db
    .select({ at: max(consents.createdAt) })
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.purpose, "bureau_enquiry"), eq(consents.granted, false)));
  const rows = await db
    .select()
    .from(creditChecks)
    .where(
      and(
        eq(creditChecks.userId, userId),
        eq(creditChecks.subjectKey, subject),
        withdrawn?.at ? or(eq(creditChecks.kind, "pan"), gt(creditChecks.checkedAt, withdrawn.at)) : undefined,
      ),
    )
    .orderBy(desc(creditChecks.checkedAt), desc(creditChecks.id))
    .limit(20);
  const pan = rows.find((r) => r.kind === "pan" && r.status === "done");
  const bureauRow = rows.find((r) => r.kind === "bureau");
  const bureauDone = rows.find((r) => r.kind === "bureau" && r.status === "done");
  return {
    pan: pan ? { ...pan, result: pan.result as PanCheck } : null,
    bureau: bureauDone ? { ...bureauDone, result: bureauDone.result as BureauReport } : null,
    bureauState: (bureauRow?.status === "waiting" && now.getTime() - bureauRow.checkedAt.getTime() > WAITING_EXPIRES_MS
      ? "failed"
      : (bureauRow?.status ?? "none")) as BureauState,
  };
}

/** The borrower's loans with the lender, from the account each keeps beside its ledger. */
async function ownLoans(db: Db, userId: string, except: string | null): Promise<OwnLoan[]> {
  const loans = await db
    .select({
      id: loanApplications.id,
      reference: loanApplications.reference,
      kind: loanApplications.product,
      status: loanApplications.status,
      dpd: loanAccounts.dpd,
      overduePaise: loanAccounts.overduePaise,
      penalDuePaise: loanAccounts.penalDuePaise,
      principalOutstandingPaise: loanAccounts.outstandingPrincipalPaise,
    })
    .from(loanApplications)
    .innerJoin(loanAccounts, eq(loanAccounts.applicationId, loanApplications.id))
    .where(
      and(
        eq(loanApplications.userId, userId),
        inArray(loanApplications.status, ["active", "written_off"]),
        except ? ne(loanApplications.id, except) : undefined,
      ),
    );
  if (!loans.length) return [];
  const first = await db
    .select({
      id: loanInstalments.applicationId,
      principalPaise: loanInstalments.principalPaise,
      interestPaise: loanInstalments.interestPaise,
    })
    .from(loanInstalments)
    .where(
      and(
        inArray(
          loanInstalments.applicationId,
          loans.map((l) => l.id),
        ),
        eq(loanInstalments.seq, 1),
      ),
    );
  return loans.map((l) => {
    const i = first.find((f) => f.id === l.id);
    return {
      reference: l.reference,
      kind: l.kind,
      status: l.status === "written_off" ? "written_off" : "active",
      dpd: l.dpd,
      overduePaise: l.overduePaise + l.penalDuePaise,
      monthlyPaise: i ? i.principalPaise + i.interestPaise : 0,
      principalOutstandingPaise: l.principalOutstandingPaise,
    };
  });
}

/** The borrower's applications signed and not yet disbursed, but `except`: what they will owe each month once paid out. */
async function ownApplications(db: Db, userId: string, except: string | null): Promise<OwnApplication[]> {
  const where: SQL[] = [eq(loanApplications.userId, userId), inArray(loanApplications.status, ["signed", "under_review", "approved"])];
  if (except) where.push(ne(loanApplications.id, except));
  const rows = await db
    .select({
      reference: loanApplications.reference,
      kind: loanApplications.product,
      amountPaise: loanApplications.amountPaise,
      terms: loanDocuments.terms,
    })
    .from(loanApplications)
    .innerJoin(loanSignatures, and(eq(loanSignatures.applicationId, loanApplications.id), isNull(loanSignatures.supersededAt)))
    .innerJoin(loanDocuments, eq(loanDocuments.id, loanSignatures.documentId))
    .where(and(...where));
  return rows.map((r) => ({
    reference: r.reference,
    kind: r.kind,
    amountPaise: r.amountPaise ?? 0,
    monthlyPaise: r.terms.figures.instalmentPaise,
  }));
}

async function lastRejectionOn(db: Db, userId: string): Promise<IsoDate | null> {
  const [row] = await db
    .select({ decidedAt: loanApplications.decidedAt })
    .from(loanApplications)
    .where(and(eq(loanApplications.userId, userId), eq(loanApplications.status, "rejected")))
    .orderBy(desc(loanApplications.decidedAt))
    .limit(1);
  return row?.decidedAt ? todayIST(row.decidedAt) : null;
}

/** The borrower's own record with the lender: loans, applications signed and not paid out (but `except`), the last rejection. */
export async function ownRecord(db: Db, userId: string, except: string | null = null): Promise<PolicyInput["own"]> {
  // One after the other: `db` may be a transaction's single connection.
  const loans = await ownLoans(db, userId, except);
  const applications = await ownApplications(db, userId, except);
  return { loans, applications, lastRejectionOn: await lastRejectionOn(db, userId) };
}

export interface JudgeRequest {
  userId: string;
  kind: LoanKind;
  /** The application judged: left out of the borrower's own applications. */
  applicationId?: string | null;
  /** EMI loan: the tenure the table is for. */
  tenureMonths?: number | null;
  /** The amount and tenure to judge; none for an offer. */
  asked?: PolicyInput["asked"];
}

export type Judged =
  | {
      ok: true;
      verdict: PolicyVerdict;
      input: PolicyInput;
      facts: ApplicantFacts;
      products: Awaited<ReturnType<typeof loadProducts>>;
      bureauState: BureauState;
      bureauReference: string | null;
      policyId: number;
    }
  | { ok: false; missing: MissingFact[] };

/** The policy in force, applied to the borrower as they are now. */
export async function judge(services: Services, request: JudgeRequest): Promise<Judged> {
  const { db } = services;
  const today = todayIST(services.now());
  // One after the other: `db` may be a transaction's single connection.
  const facts = await applicantFacts(services, { userId: request.userId, today });
  if (!facts.ok) return facts;
  const products = await loadProducts(services);
  const policy = await policyInForce(services);
  const checks = await latestChecks(db, request.userId, facts.subject, services.now());
  const own = await ownRecord(db, request.userId, request.applicationId ?? null);
  const f = facts.facts;
  const input: PolicyInput = {
    policy: { version: policy.version, rules: policy.rules },
    kind: request.kind,
    product: request.kind === "emi" ? products.emi : products.salaryAdvance,
    bands: products.riskBands,
    applicant: {
      ageYears: f.ageYears,
      netMonthlyIncomePaise: f.netMonthlyIncomePaise,
      declaredEmiPaise: f.existingEmiPaise,
      employmentType: f.employmentType,
      salaryDay: f.salaryDay ?? null,
    },
    pan: checks.pan ? panStatusOf(checks.pan.result) : null,
    bureau: checks.bureau ? bureauFactsOf(checks.bureau.result, todayIST(checks.bureau.checkedAt)) : null,
    own,
    today,
    tenureMonths: request.tenureMonths ?? null,
    asked: request.asked ?? null,
  };
  return {
    ok: true,
    verdict: evaluatePolicy(input),
    input,
    facts: f,
    products,
    bureauState: checks.bureauState,
    bureauReference: checks.bureau?.result.reference ?? null,
    policyId: policy.id,
  };
}

export type EvaluationStage = (typeof policyEvaluations.$inferInsert)["stage"];

/** Keeps a judgement (the offer taken, the terms saved, the signing, a decision, the disbursal) with its version and table. */
export async function recordEvaluation(
  db: Db,
  {
    userId,
    applicationId = null,
    stage,
    verdict,
    bureauReference,
    actorUserId = null,
    at,
  }: {
    userId: string;
    applicationId?: string | null;
    stage: EvaluationStage;
    verdict: Pick<PolicyVerdict, "version" | "kind" | "result" | "rules" | "asked" | "tenureMonths" | "maxAmountPaise">;
    bureauReference: string | null;
    actorUserId?: string | null;
    at: Date;
  },
): Promise<string> {
  const [row] = await db
    .insert(policyEvaluations)
    .values({
      userId,
      applicationId,
      stage,
      policyVersion: verdict.version,
      product: verdict.kind,
      result: verdict.result,
      amountPaise: verdict.asked?.amountPaise ?? null,
      tenureMonths: verdict.asked?.tenureMonths ?? verdict.tenureMonths,
      maxAmountPaise: verdict.maxAmountPaise,
      rules: verdict.rules,
      bureauReference,
      actorUserId,
      createdAt: at,
    })
    .returning({ id: policyEvaluations.id });
  if (!row) throw new Error("the evaluation was not stored");
  return row.id;
}
