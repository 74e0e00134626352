// What the credit officer's pages show (docs/product.md "Credit review and decision"): the staff
// home's counts, the queue, and everything the review page needs on one screen.
import { and, asc, count, desc, eq, inArray, like, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import type { LoanKind } from "../../domain/loans/application.ts";
import { KIND_NAME } from "../../domain/loans/application.ts";
import { QUEUE_PAGE_SIZE, QUEUE_VIEWS, type QueueView } from "../../domain/review.ts";
import {
  applicationRequests,
  auditLog,
  borrowerDocuments,
  borrowerProfiles,
  loanApplications,
  loanDocuments,
  currentSignatureOf,
  loanSignatures,
  signedPdfColumns,
  reviewChecklist,
  users,
} from "../db/schema.ts";
import { peopleNamedBy } from "../borrowers/match.server.ts";
import { loadAddress, loadEmployment } from "../kyc/sections.server.ts";
import { loadBank, loadReferences } from "../kyc/references-bank.server.ts";
import { loadProfile } from "../kyc/profile.server.ts";
import { latestChecks, subjectOf } from "../credit/judge.server.ts";
import { policyForReview } from "./policy.server.ts";
import { jsonColumns, userColumnsReader } from "../db/json-rows.ts";

type Services = Pick<AppServices, "db">;

export interface QueueFilter {
  view: QueueView;
  product: LoanKind | null;
  mine: boolean;
  /** Application reference, mobile, name or the PAN's last 4. */
  q: string;
  page: number;
}

const assignee = alias(users, "assignee");
/** 'open' while the officer waits for the borrower, 'answered' when the latest question has its answer. */
const askState = sql<"open" | "answered" | null>`(
  select case when r.answered_at is null then 'open' else 'answered' end
  from application_requests r where r.application_id = ${loanApplications.id}
  order by r.asked_at desc limit 1)`;

/** The latest payout attempt's status, for approved and active applications. */
const payoutState = sql<"requested" | "processed" | "failed" | "reversed" | null>`(
  select p.status from payouts p where p.application_id = ${loanApplications.id}
  order by p.attempt desc limit 1)`;

/**
 * The search as a condition on the application row alone: its reference (the first 6+
 * characters), its loan number, or its borrower (peopleNamedBy).
 */
function searchCondition(q: string): SQL | undefined {
  const term = q.trim();
  if (!term) return undefined;
  // The queue shows a reference's first 10 characters: 6 or more find it.
  const conditions: (SQL | undefined)[] = /^[a-z2-7]{6,26}$/i.test(term)
    ? [like(loanApplications.reference, `${term.toLowerCase()}%`)]
    : [];
  if (/^SL\d{8}$/i.test(term)) conditions.push(eq(loanApplications.loanNumber, term.toUpperCase()));
  conditions.push(peopleNamedBy(loanApplications.userId, term));
  return or(...conditions);
}

/** One page of the queue, oldest submission first, and how many match. */
export async function reviewQueue({ db }: Services, { staffId, filter }: { staffId: string; filter: QueueFilter }) {
  const where = and(
    inArray(loanApplications.status, [...QUEUE_VIEWS[filter.view].statuses]),
    filter.product ? eq(loanApplications.product, filter.product) : undefined,
    filter.mine ? eq(loanApplications.assignedTo, staffId) : undefined,
    searchCondition(filter.q),
  );
  // The page is cut on the applications alone; only its 25 rows are joined to their people.
  const page = db
    .select({ id: loanApplications.id })
    .from(loanApplications)
    .where(where)
    .orderBy(asc(loanApplications.signedAt), asc(loanApplications.id))
    .limit(QUEUE_PAGE_SIZE)
    .offset((filter.page - 1) * QUEUE_PAGE_SIZE)
    .as("page");
  const rows = await db
    .select({
      reference: loanApplications.reference,
      product: loanApplications.product,
      status: loanApplications.status,
      amountPaise: loanApplications.amountPaise,
      tenureMonths: loanApplications.tenureMonths,
      signedAt: loanApplications.signedAt,
      decidedAt: loanApplications.decidedAt,
      name: borrowerProfiles.fullName,
      mobile: users.mobile,
      assigneeId: loanApplications.assignedTo,
      assigneeName: assignee.name,
      ask: askState,
      payout: payoutState,
    })
    .from(page)
    .innerJoin(loanApplications, eq(loanApplications.id, page.id))
    .innerJoin(users, eq(users.id, loanApplications.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, loanApplications.userId))
    .leftJoin(assignee, eq(assignee.id, loanApplications.assignedTo))
    .orderBy(asc(loanApplications.signedAt), asc(loanApplications.id));
  const [total] = await db.select({ n: count() }).from(loanApplications).where(where);
  return { rows: rows.map((r) => ({ ...r, kindName: KIND_NAME[r.product] })), total: total?.n ?? 0 };
}

/** The staff home's counts of what needs action now. */
export async function staffHomeCounts({ db }: Services, staffId: string) {
  const [row] = await db
    .select({
      signed: sql<number>`count(*) filter (where ${loanApplications.status} = 'signed')`.mapWith(Number),
      underReview: sql<number>`count(*) filter (where ${loanApplications.status} = 'under_review')`.mapWith(Number),
      mine: sql<number>`count(*) filter (where ${loanApplications.status} = 'under_review' and ${loanApplications.assignedTo} = ${staffId})`.mapWith(
        Number,
      ),
      approved: sql<number>`count(*) filter (where ${loanApplications.status} = 'approved')`.mapWith(Number),
      oldestSignedAt: sql<
        string | null
      >`min(${loanApplications.signedAt}) filter (where ${loanApplications.status} in ('signed', 'under_review'))`,
    })
    .from(loanApplications)
    .where(inArray(loanApplications.status, ["signed", "under_review", "approved"]));
  const [asks] = await db
    .select({
      waiting: sql<number>`count(*) filter (where ${applicationRequests.answeredAt} is null)`.mapWith(Number),
      answeredMine:
        sql<number>`count(*) filter (where ${applicationRequests.answeredAt} is not null and ${loanApplications.assignedTo} = ${staffId} and not exists (
        select 1 from application_requests later where later.application_id = ${applicationRequests.applicationId} and later.asked_at > ${applicationRequests.askedAt}))`.mapWith(
          Number,
        ),
    })
    .from(applicationRequests)
    .innerJoin(loanApplications, eq(loanApplications.id, applicationRequests.applicationId))
    .where(eq(loanApplications.status, "under_review"));
  return {
    signed: row?.signed ?? 0,
    underReview: row?.underReview ?? 0,
    mine: row?.mine ?? 0,
    approved: row?.approved ?? 0,
    oldestSignedAt: row?.oldestSignedAt ? new Date(row.oldestSignedAt) : null,
    waiting: asks?.waiting ?? 0,
    answeredMine: asks?.answeredMine ?? 0,
  };
}

/** The application behind a reference, with who has it and who decided it; null when there is none. */
export async function applicationByReference({ db }: Services, reference: string) {
  const decider = alias(users, "decider");
  const [row] = await db
    .select({
      application: loanApplications,
      assigneeName: assignee.name,
      deciderName: decider.name,
      mobile: users.mobile,
    })
    .from(loanApplications)
    .innerJoin(users, eq(users.id, loanApplications.userId))
    .leftJoin(assignee, eq(assignee.id, loanApplications.assignedTo))
    .leftJoin(decider, eq(decider.id, loanApplications.decidedBy))
    .where(eq(loanApplications.reference, reference));
  return row ?? null;
}

/** Everything the review page shows about one application, or null when there is no such application. */
export async function reviewDetails(services: Pick<AppServices, "db" | "config" | "now">, reference: string) {
  const found = await applicationByReference(services, reference);
  if (!found) return null;
  const a = found.application;
  const userId = a.userId;
  const { db } = services;
  const profile = await loadProfile(services, userId);
  const address = await loadAddress(services, userId);
  const employment = await loadEmployment(services, userId);
  const bank = await loadBank(services, userId);
  const references = await loadReferences(services, userId);
  const documents = await db
    .select({
      id: borrowerDocuments.id,
      kind: borrowerDocuments.kind,
      contentType: borrowerDocuments.contentType,
      sizeBytes: borrowerDocuments.sizeBytes,
      uploadedAt: borrowerDocuments.uploadedAt,
    })
    .from(borrowerDocuments)
    .where(eq(borrowerDocuments.userId, userId))
    .orderBy(asc(borrowerDocuments.kind), desc(borrowerDocuments.uploadedAt));
  // The borrower's latest checks for the PAN on the profile (pulled before the offer, or at review).
  const subject = await subjectOf(db, userId);
  const checks = subject
    ? await latestChecks(db, userId, subject, services.now())
    : { pan: null, bureau: null, bureauState: "none" as const };
  const { pan, bureau } = checks;
  const checker = alias(users, "checker");
  const checklist = await db
    .select({ item: reviewChecklist.item, checked: reviewChecklist.checked, at: reviewChecklist.checkedAt, by: checker.name })
    .from(reviewChecklist)
    .innerJoin(checker, eq(checker.id, reviewChecklist.checkedBy))
    .where(eq(reviewChecklist.applicationId, a.id));
  const asker = alias(users, "asker");
  const requests = await db
    .select({
      id: applicationRequests.id,
      documentKind: applicationRequests.documentKind,
      message: applicationRequests.message,
      askedAt: applicationRequests.askedAt,
      askedBy: asker.name,
      answer: applicationRequests.answer,
      answeredAt: applicationRequests.answeredAt,
    })
    .from(applicationRequests)
    .innerJoin(asker, eq(asker.id, applicationRequests.askedBy))
    .where(eq(applicationRequests.applicationId, a.id))
    .orderBy(desc(applicationRequests.askedAt));
  const [signature] = await db
    .select({
      signedAt: loanSignatures.signedAt,
      signedSha256: loanSignatures.signedSha256,
      agreementRef: loanSignatures.agreementRef,
      terms: loanDocuments.terms,
      validUntil: loanDocuments.validUntil,
    })
    .from(loanSignatures)
    .innerJoin(loanDocuments, eq(loanDocuments.id, loanSignatures.documentId))
    .where(currentSignatureOf(a.id));
  const actor = alias(users, "actor");
  const history = await db
    .select({
      action: auditLog.action,
      details: auditLog.details,
      at: auditLog.createdAt,
      actorRole: auditLog.actorRole,
      actorName: actor.name,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
    .where(and(eq(auditLog.subjectType, "loan_application"), eq(auditLog.subjectId, a.id)))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  return {
    found,
    profile,
    address,
    employment,
    bank,
    references,
    documents,
    pan: pan ? { ...pan.result, provider: pan.provider, checkedAt: pan.checkedAt } : null,
    bureau: bureau ? { ...bureau.result, provider: bureau.provider, checkedAt: bureau.checkedAt } : null,
    bureauState: checks.bureauState,
    checklist,
    requests,
    signature: signature ?? null,
    policy: await policyForReview(services, a),
    history,
  };
}

/** The signed PDF (KFS and agreement) of an application, for staff. */
export async function signedPdfForStaff({ db }: Services, reference: string) {
  const [row] = await db
    .select({
      id: loanApplications.id,
      userId: loanApplications.userId,
      pdf: signedPdfColumns,
    })
    .from(loanSignatures)
    .innerJoin(loanApplications, currentSignatureOf(loanApplications.id))
    .where(eq(loanApplications.reference, reference));
  return row ?? null;
}

/** The borrower's open requests (what the credit team asked for) on their applications under review. */
export async function openRequestsFor({ db }: Services, userId: string) {
  const row = await openRequestsOf(db, userId);
  return openRequestsFromJson(row?.requests ?? []);
}
const openRequestsOf = userColumnsReader("open_requests_of_user", (userId) => ({ requests: openRequestsColumn(userId) }));

/**
 * `openRequestsFor` as JSON (a subquery on `userId`, the owner's id): the dashboard reads it in its
 * one statement. `openRequestsFromJson` reads it.
 */
export const openRequestsColumn = (userId: SQLWrapper) =>
  sql`(select coalesce(json_agg(json_build_object('r', ${requestJson.sql}, 'reference', a.reference, 'product', a.product) order by r.asked_at), '[]') from application_requests r join loan_applications a on a.id = r.application_id where a.user_id = ${userId} and a.status = 'under_review' and r.answered_at is null)`;
const requestJson = jsonColumns(applicationRequests, "r", ["id", "documentKind", "message", "askedAt"]);

/** The requests of `openRequestsColumn`, oldest first. */
export const openRequestsFromJson = (json: unknown) =>
  (json as { r: Record<string, unknown>; reference: string; product: LoanKind }[]).map(({ r, reference, product }) => {
    const { id, documentKind, message, askedAt } = requestJson.decode(r);
    return { id, reference, product, documentKind, message, askedAt };
  });
