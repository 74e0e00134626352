/**
 * What staff read of collections (docs/product.md "Collections"): a loan's case with its promises,
 * call tasks and reminders (the staff loan page), the queue by bucket, age, assignee and promise
 * status, and who may be given a case.
 */
import { aliasedTable, and, asc, desc, eq, gte, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { caseAge, type CaseSort, type PromiseFilter, type PromiseStatus } from "../../domain/collections.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { jsonColumns } from "../db/json-rows.ts";
import {
  borrowerProfiles,
  collectionCases,
  collectionTasks,
  dunningSends,
  loanAccounts,
  loanApplications,
  promisesToPay,
  users,
} from "../db/schema.ts";

type Db = Pick<AppServices, "db">;

/** The staff who may work a case: active operations, support and administrators. */
export async function caseWorkers({ db }: Db) {
  return db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(and(inArray(users.role, ["operations", "support", "admin"]), isNull(users.disabledAt)))
    .orderBy(asc(users.name));
}

/** A loan's latest case (open or the last closed), with its promises, tasks and reminders; null when it never had one. */
export async function loanCase({ db }: Db, { applicationId, today }: { applicationId: string; today: IsoDate }) {
  const assignee = aliasedTable(users, "assignee");
  const pauser = aliasedTable(users, "pauser");
  const [row] = await db
    .select({ c: collectionCases, assigneeName: assignee.name, pausedByName: pauser.name })
    .from(collectionCases)
    .leftJoin(assignee, eq(assignee.id, collectionCases.assigneeUserId))
    .leftJoin(pauser, eq(pauser.id, collectionCases.pausedBy))
    .where(eq(collectionCases.applicationId, applicationId))
    .orderBy(sql`${collectionCases.closedOn} is null desc`, desc(collectionCases.openedOn))
    .limit(1);
  if (!row) return null;
  const c = row.c;
  const promises = await db
    .select({ p: promisesToPay, by: users.name })
    .from(promisesToPay)
    .leftJoin(users, eq(users.id, promisesToPay.staffUserId))
    .where(eq(promisesToPay.caseId, c.id))
    .orderBy(desc(promisesToPay.createdAt));
  const tasks = await db
    .select({ t: collectionTasks, by: users.name })
    .from(collectionTasks)
    .innerJoin(users, eq(users.id, collectionTasks.assigneeUserId))
    .where(eq(collectionTasks.caseId, c.id))
    .orderBy(desc(collectionTasks.dueOn));
  const sends = await db.select().from(dunningSends).where(eq(dunningSends.caseId, c.id)).orderBy(desc(dunningSends.stepDpd));
  return {
    id: c.id,
    open: c.closedOn === null,
    openedOn: c.openedOn,
    closedOn: c.closedOn,
    closedReason: c.closedReason,
    ageDays: caseAge(c.openedOn, c.closedOn ?? today),
    priority: c.priority,
    assignee: c.assigneeUserId ? { id: c.assigneeUserId, name: row.assigneeName } : null,
    pause: c.pausedAt ? { at: c.pausedAt.toISOString(), kind: c.pauseKind, reason: c.pauseReason, by: row.pausedByName } : null,
    promises: promises.map(({ p, by }) => ({
      id: p.id,
      amountPaise: p.amountPaise,
      madeOn: p.madeOn,
      dueOn: p.dueOn,
      status: p.status,
      by: p.staffUserId ? (by ?? "Staff") : "The borrower",
    })),
    tasks: tasks.map(({ t, by }) => ({ id: t.id, dueOn: t.dueOn, status: t.status, stepDpd: t.stepDpd, assignee: by })),
    sends: sends.map((s) => ({
      id: s.id,
      stepDpd: s.stepDpd,
      sentOn: s.sentOn,
      channels: s.channels,
      tone: s.tone,
      amountPaise: s.amountPaise,
    })),
  };
}

/**
 * The queue: open cases in a bucket (days past due from `minDpd` to `maxDpd`), by assignee (a staff
 * id, "unassigned", or any) and by the latest promise's status, most urgent first (`sort`).
 */
export async function casesQueue(
  { db }: Db,
  {
    minDpd,
    maxDpd,
    assignee,
    promise,
    sort,
    page,
    today,
  }: {
    minDpd: number;
    maxDpd: number | null;
    assignee: string | "unassigned" | null;
    promise: PromiseFilter;
    sort: CaseSort;
    page: number;
    today: IsoDate;
  },
) {
  const perPage = 50;
  const latestPromise = sql<PromiseStatus | null>`(select p.status from promises_to_pay p where p.case_id = ${collectionCases.id} order by p.created_at desc limit 1)`;
  const filters: (SQL | undefined)[] = [
    isNull(collectionCases.closedOn),
    gte(loanAccounts.dpd, minDpd),
    maxDpd === null ? undefined : lte(loanAccounts.dpd, maxDpd),
    assignee === "unassigned"
      ? isNull(collectionCases.assigneeUserId)
      : assignee
        ? eq(collectionCases.assigneeUserId, assignee)
        : undefined,
    promise === "any" ? undefined : promise === "none" ? sql`${latestPromise} is null` : sql`${latestPromise} = ${promise}`,
  ];
  const order: SQL[] =
    sort === "age"
      ? [asc(collectionCases.openedOn), desc(loanAccounts.dpd)]
      : sort === "priority"
        ? [desc(sql`${collectionCases.priority} = 'high'`), desc(loanAccounts.dpd)]
        : [desc(loanAccounts.dpd), asc(collectionCases.openedOn)];
  const rows = await db
    .select({
      caseId: collectionCases.id,
      loanNumber: loanApplications.loanNumber,
      kind: loanApplications.product,
      dpd: loanAccounts.dpd,
      owedPaise: sql<number>`(${loanAccounts.overduePaise} + ${loanAccounts.penalDuePaise})`,
      openedOn: collectionCases.openedOn,
      priority: collectionCases.priority,
      paused: sql<boolean>`${collectionCases.pausedAt} is not null`,
      assignee: sql<string | null>`(select u.name from users u where u.id = ${collectionCases.assigneeUserId})`,
      promise: latestPromise,
      promiseDueOn: sql<
        string | null
      >`(select p.due_on from promises_to_pay p where p.case_id = ${collectionCases.id} order by p.created_at desc limit 1)`,
      openTasks: sql<number>`(select count(*)::int from collection_tasks t where t.case_id = ${collectionCases.id} and t.status = 'open')`,
      lastOutcome: sql<
        string | null
      >`(select n.outcome from collection_notes n where n.application_id = ${collectionCases.applicationId} order by n.created_at desc limit 1)`,
      lastContactAt: sql<
        string | null
      >`(select max(n.created_at)::text from collection_notes n where n.application_id = ${collectionCases.applicationId})`,
      name: borrowerProfiles.fullName,
      mobile: users.mobile,
    })
    .from(collectionCases)
    .innerJoin(loanApplications, eq(loanApplications.id, collectionCases.applicationId))
    .innerJoin(loanAccounts, eq(loanAccounts.applicationId, collectionCases.applicationId))
    .innerJoin(users, eq(users.id, collectionCases.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, collectionCases.userId))
    .where(and(...filters))
    .orderBy(...order, asc(collectionCases.id))
    .limit(perPage + 1)
    .offset((page - 1) * perPage);
  return {
    more: rows.length > perPage,
    rows: rows.slice(0, perPage).map((r) => ({ ...r, owedPaise: Number(r.owedPaise), ageDays: caseAge(r.openedOn, today) })),
  };
}

/** A staff member's open call tasks due by `today` (the queue's top), oldest first. */
export async function myCallTasks({ db }: Db, { staffId, today }: { staffId: string; today: IsoDate }) {
  return db
    .select({
      id: collectionTasks.id,
      dueOn: collectionTasks.dueOn,
      loanNumber: loanApplications.loanNumber,
      stepDpd: collectionTasks.stepDpd,
    })
    .from(collectionTasks)
    .innerJoin(collectionCases, eq(collectionCases.id, collectionTasks.caseId))
    .innerJoin(loanApplications, eq(loanApplications.id, collectionCases.applicationId))
    .where(and(eq(collectionTasks.assigneeUserId, staffId), eq(collectionTasks.status, "open"), lte(collectionTasks.dueOn, today)))
    .orderBy(asc(collectionTasks.dueOn))
    .limit(50);
}

/**
 * The loan's open collections case, and its latest promise (the loan page's "Promise to pay"), as
 * JSON beside the loan's row (`applicationId` is its column; the owner is in that statement's
 * condition): the borrower's loan page reads it in its one statement. `borrowerCaseFromJson` reads it.
 */
export const borrowerCaseColumn = (applicationId: AnyPgColumn) =>
  sql`(select json_build_object('latest', (select ${promiseJson.sql} from promises_to_pay p where p.case_id = c.id order by p.created_at desc limit 1)) from collection_cases c where c.application_id = ${applicationId} and c.closed_on is null)`;
const promiseJson = jsonColumns(promisesToPay, "p", ["id", "amountPaise", "dueOn", "status"]);

/** The open case of `borrowerCaseColumn` and its latest promise; null when none is open. */
export function borrowerCaseFromJson(json: unknown) {
  if (!json) return null;
  const latest = (json as { latest: Record<string, unknown> | null }).latest;
  const p = latest ? promiseJson.decode(latest) : null;
  return { latest: p ? { ...p, dueOn: p.dueOn as IsoDate } : null };
}
