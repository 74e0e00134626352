// What the audit log viewer and its CSV export read (PRODUCT.md §12: every staff action and every
// status change, filterable by actor, borrower, action and date). Read only: nothing here, nor
// anywhere else, lets staff edit or delete an audit row.
import { and, count, desc, eq, gte, inArray, lt, lte, max, ne, notLike, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { AUDIT_PAGE_SIZE, type AuditFilter } from "../../domain/audit.ts";
import { istDayEnd, istDayStart } from "../../domain/india-date.ts";
import { auditLog, borrowerDocuments, borrowerProfiles, loanApplications, users } from "../db/schema.ts";
import type { Db } from "../db/client.ts";

type Services = Pick<AppServices, "db">;

const actor = alias(users, "actor");
const subjectUser = alias(users, "subject_user");
const borrower = alias(users, "borrower");

/**
 * The conditions of a filter. A borrower is found by mobile number; the rows about them are those
 * whose subject is their account, one of their loan applications or one of their documents.
 * `borrowerKnown` is false when no borrower has that number (then nothing matches).
 */
async function conditionsOf(db: Db, filter: AuditFilter): Promise<{ where: SQL | undefined; borrowerKnown: boolean }> {
  let borrowerCondition: SQL | undefined;
  let borrowerKnown = true;
  if (filter.borrower) {
    const [found] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.mobile, filter.borrower), eq(users.role, "borrower")));
    borrowerKnown = Boolean(found);
    borrowerCondition = found
      ? or(
          and(eq(auditLog.subjectType, "user"), eq(auditLog.subjectId, found.id)),
          and(
            eq(auditLog.subjectType, "loan_application"),
            inArray(
              auditLog.subjectId,
              db
                .select({ id: sql<string>`${loanApplications.id}::text` })
                .from(loanApplications)
                .where(eq(loanApplications.userId, found.id)),
            ),
          ),
          and(
            eq(auditLog.subjectType, "document"),
            inArray(
              auditLog.subjectId,
              db
                .select({ id: sql<string>`${borrowerDocuments.id}::text` })
                .from(borrowerDocuments)
                .where(eq(borrowerDocuments.userId, found.id)),
            ),
          ),
        )
      : sql`false`;
  }
  const a = filter.actor;
  const actorCondition = !a ? undefined : a.kind === "staff" ? eq(auditLog.actorUserId, a.id) : eq(auditLog.actorRole, a.kind);
  const where = and(
    // Sanctions screening's rows are compliance's alone (docs/product.md "Sanctions screening").
    filter.hideScreening ? notLike(auditLog.action, "aml.%") : undefined,
    actorCondition,
    borrowerCondition,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.createdAt, istDayStart(filter.from)) : undefined,
    filter.to ? lt(auditLog.createdAt, istDayEnd(filter.to)) : undefined,
  );
  return { where, borrowerKnown };
}

/** The rows with who did it and what they were about; `where` applies to audit_log only. */
const rowsQuery = (db: Db, where: SQL | undefined) =>
  db
    .select({
      id: auditLog.id,
      at: auditLog.createdAt,
      actorUserId: auditLog.actorUserId,
      actorRole: auditLog.actorRole,
      actorName: actor.name,
      action: auditLog.action,
      subjectType: auditLog.subjectType,
      subjectId: auditLog.subjectId,
      reference: loanApplications.reference,
      documentKind: borrowerDocuments.kind,
      borrowerName: borrowerProfiles.fullName,
      borrowerMobile: borrower.mobile,
      details: auditLog.details,
      ip: auditLog.ip,
      userAgent: auditLog.userAgent,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
    .leftJoin(
      loanApplications,
      and(eq(auditLog.subjectType, "loan_application"), eq(auditLog.subjectId, sql`${loanApplications.id}::text`)),
    )
    .leftJoin(borrowerDocuments, and(eq(auditLog.subjectType, "document"), eq(auditLog.subjectId, sql`${borrowerDocuments.id}::text`)))
    .leftJoin(subjectUser, and(eq(auditLog.subjectType, "user"), eq(auditLog.subjectId, sql`${subjectUser.id}::text`)))
    .leftJoin(borrower, eq(borrower.id, sql`coalesce(${loanApplications.userId}, ${borrowerDocuments.userId}, ${subjectUser.id})`))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, borrower.id))
    .where(where);

export type AuditRow = Awaited<ReturnType<typeof rowsQuery>>[number];

/** One page of the log, newest first, and how many rows match. */
export async function auditPage({ db }: Services, filter: AuditFilter) {
  const { where, borrowerKnown } = await conditionsOf(db, filter);
  const [rows, [total]] = await Promise.all([
    rowsQuery(db, where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((filter.page - 1) * AUDIT_PAGE_SIZE),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0, borrowerKnown };
}

/** What the filter form offers: the staff (everyone who may have acted) and the actions present. */
export async function auditFilterChoices({ db }: Services, { hideScreening }: { hideScreening: boolean }) {
  const [staff, actions] = await Promise.all([
    db
      .select({ id: users.id, name: users.name, email: users.email, role: users.role, disabledAt: users.disabledAt })
      .from(users)
      .where(ne(users.role, "borrower"))
      .orderBy(users.name, users.email),
    db
      .selectDistinct({ action: auditLog.action })
      .from(auditLog)
      .where(hideScreening ? notLike(auditLog.action, "aml.%") : undefined)
      .orderBy(auditLog.action)
      .limit(500),
  ]);
  return { staff, actions: actions.map((a) => a.action) };
}

/**
 * The start of an export: the newest row it may hold (rows written later, its own audit row among
 * them, stay out) and how many rows match, before the cap.
 */
export async function auditExportStart({ db }: Services, filter: AuditFilter) {
  const { where } = await conditionsOf(db, filter);
  const [[last], [total]] = await Promise.all([
    db.select({ id: max(auditLog.id) }).from(auditLog),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return { upToId: last?.id ?? 0, total: total?.n ?? 0 };
}

const EXPORT_BATCH = 2_000;

/**
 * The rows of an export, newest first, in batches (so a large export never sits whole in memory),
 * at most `limit` of them and none newer than `upToId`. Each batch continues after the last row
 * of the one before, by its stored time and id.
 */
export async function* auditExportBatches(
  { db }: Services,
  { filter, upToId, limit }: { filter: AuditFilter; upToId: number; limit: number },
): AsyncGenerator<AuditRow[]> {
  const { where } = await conditionsOf(db, filter);
  let after: number | null = null;
  let sent = 0;
  while (sent < limit) {
    const size = Math.min(EXPORT_BATCH, limit - sent);
    const rows: AuditRow[] = await rowsQuery(
      db,
      and(
        where,
        lte(auditLog.id, upToId),
        after === null
          ? undefined
          : sql`(${auditLog.createdAt}, ${auditLog.id}) < (select a.created_at, a.id from audit_log a where a.id = ${after})`,
      ),
    )
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(size);
    if (rows.length === 0) return;
    yield rows;
    sent += rows.length;
    after = rows.at(-1)?.id ?? null;
    if (rows.length < size) return;
  }
}
