// Borrowers for staff (docs/product.md "Borrowers"): search, and one borrower's page with their
// profile, applications and loans, and what was done about them.
import { and, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { BORROWER_PAGE_SIZE } from "../../domain/borrowers.ts";
import { LOAN_NUMBER } from "../../domain/loans/disbursal.ts";
import { isUuid } from "../../domain/validators/ids.ts";
import { auditLog, borrowerProfiles, loanApplications, loanInstalments, payouts, users } from "../db/schema.ts";
import { loadCompleteness } from "../kyc/completeness.server.ts";
import { peopleNamedBy } from "./match.server.ts";

type Services = Pick<AppServices, "db">;

/**
 * What a search term can be: a loan number (SL + 8 digits), an application reference or its first
 * 6+ characters (their owner, looked up once), or what names a person (peopleNamedBy).
 */
function borrowerCondition(q: string): SQL | undefined {
  const term = q.trim();
  if (!term) return undefined;
  const conditions: (SQL | undefined)[] = [];
  if (LOAN_NUMBER.test(term.toUpperCase()))
    conditions.push(inArray(users.id, sql`(select l.user_id from loan_applications l where l.loan_number = ${term.toUpperCase()})`));
  if (/^[a-z2-7]{6,26}$/i.test(term))
    conditions.push(inArray(users.id, sql`(select l.user_id from loan_applications l where l.reference like ${`${term.toLowerCase()}%`})`));
  conditions.push(peopleNamedBy(users.id, term));
  return or(...conditions);
}

/** One page of borrowers matching `q` (all borrowers, newest first, when it is empty), and how many match. */
export async function searchBorrowers({ db }: Services, { q, page }: { q: string; page: number }) {
  const where = and(eq(users.role, "borrower"), borrowerCondition(q));
  // The page is cut on the accounts alone; only its rows are joined to their profiles and counted.
  const cut = db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(BORROWER_PAGE_SIZE)
    .offset((page - 1) * BORROWER_PAGE_SIZE)
    .as("cut");
  const rows = await db
    .select({
      id: users.id,
      mobile: users.mobile,
      name: borrowerProfiles.fullName,
      panMasked: borrowerProfiles.panMasked,
      createdAt: users.createdAt,
      applications: sql<number>`(select count(*) from loan_applications l where l.user_id = ${users.id})`.mapWith(Number),
      latestStatus: sql<
        string | null
      >`(select l.status from loan_applications l where l.user_id = ${users.id} order by l.created_at desc limit 1)`,
    })
    .from(cut)
    .innerJoin(users, eq(users.id, cut.id))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
    .orderBy(desc(users.createdAt), desc(users.id));
  const [total] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(users)
    .where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Everything the borrower page shows; null when the id is not a borrower's. */
export async function borrowerDetails(services: Services, id: string) {
  if (!isUuid(id)) return null;
  const { db } = services;
  const [person] = await db
    .select({
      id: users.id,
      mobile: users.mobile,
      mobileVerifiedAt: users.mobileVerifiedAt,
      createdAt: users.createdAt,
      name: borrowerProfiles.fullName,
      email: borrowerProfiles.email,
      panMasked: borrowerProfiles.panMasked,
      dateOfBirth: borrowerProfiles.dateOfBirth,
    })
    .from(users)
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
    .where(and(eq(users.id, id), eq(users.role, "borrower")));
  if (!person) return null;
  const applications = await db
    .select({
      id: loanApplications.id,
      reference: loanApplications.reference,
      product: loanApplications.product,
      status: loanApplications.status,
      amountPaise: loanApplications.amountPaise,
      tenureMonths: loanApplications.tenureMonths,
      createdAt: loanApplications.createdAt,
      signedAt: loanApplications.signedAt,
      decidedAt: loanApplications.decidedAt,
      loanNumber: loanApplications.loanNumber,
      disbursalDate: loanApplications.disbursalDate,
    })
    .from(loanApplications)
    .where(eq(loanApplications.userId, id))
    .orderBy(desc(loanApplications.createdAt));
  const ids = applications.map((a) => a.id);
  const loans = ids.length
    ? await db
        .select({
          applicationId: loanInstalments.applicationId,
          instalments: sql<number>`count(*)`.mapWith(Number),
          firstDue: sql<string>`min(${loanInstalments.dueDate})`,
          lastDue: sql<string>`max(${loanInstalments.dueDate})`,
          totalDuePaise: sql<number>`sum(${loanInstalments.principalPaise} + ${loanInstalments.interestPaise})`.mapWith(Number),
        })
        .from(loanInstalments)
        .where(inArray(loanInstalments.applicationId, ids))
        .groupBy(loanInstalments.applicationId)
    : [];
  const paid = ids.length
    ? await db
        .select({ applicationId: payouts.applicationId, amountPaise: payouts.amountPaise, utr: payouts.utr })
        .from(payouts)
        .where(and(inArray(payouts.applicationId, ids), eq(payouts.status, "processed")))
    : [];
  const actor = alias(users, "actor");
  const subjects = [sql`(${auditLog.subjectType} = 'user' and ${auditLog.subjectId} = ${id})`];
  if (ids.length) subjects.push(sql`(${auditLog.subjectType} = 'loan_application' and ${inArray(auditLog.subjectId, ids)})`);
  const history = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      details: auditLog.details,
      at: auditLog.createdAt,
      actorRole: auditLog.actorRole,
      actorName: actor.name,
      subjectId: auditLog.subjectId,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
    .where(or(...subjects))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(50);
  const completeness = await loadCompleteness(services, id);
  return {
    person,
    applications: applications.map((a) => ({
      ...a,
      loan: loans.find((l) => l.applicationId === a.id) ?? null,
      payout: paid.find((p) => p.applicationId === a.id) ?? null,
    })),
    history,
    completeness,
  };
}
