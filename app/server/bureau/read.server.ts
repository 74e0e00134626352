/**
 * What the bureau pages show (docs/product.md "Credit bureau reporting"): the recent reporting dates
 * with each bureau's file (or that it is missing, and late past 7 days), the runs with their counts,
 * the rejections waiting to be sent again, and one run's records.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { firstDisbursal } from "./records.server.ts";
import { BUREAUS, type Bureau } from "../../domain/bureau/format.ts";
import { fileDueBy, RECORDS_PER_PAGE, recentReportingDates } from "../../domain/bureau/reporting.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import {
  borrowerProfiles,
  bureauRecords,
  bureauRejectionImports,
  bureauRejections,
  bureauRuns,
  loanApplications,
  users,
  writeOffSettlements,
} from "../db/schema.ts";

type Services = Pick<AppServices, "db">;

const RUNS_SHOWN = 40;

const runColumns = {
  id: bureauRuns.id,
  bureau: bureauRuns.bureau,
  kind: bureauRuns.kind,
  asOf: bureauRuns.asOf,
  fileName: bureauRuns.fileName,
  fileBytes: bureauRuns.fileBytes,
  accounts: bureauRuns.accounts,
  heldBack: bureauRuns.heldBack,
  delinquent: bureauRuns.delinquent,
  createdAt: bureauRuns.createdAt,
  createdBy: users.name,
};

export async function bureauOverview(services: Services, today: IsoDate) {
  const dates = recentReportingDates(today, 4);
  const made = await services.db
    .select({ id: bureauRuns.id, bureau: bureauRuns.bureau, asOf: bureauRuns.asOf, accounts: bureauRuns.accounts })
    .from(bureauRuns)
    .where(and(eq(bureauRuns.kind, "regular"), inArray(bureauRuns.asOf, dates)));
  const byKey = new Map(made.map((m) => [`${m.bureau}|${m.asOf}`, m]));
  const first = await firstDisbursal(services);
  const grid = dates.map((asOf) => ({
    asOf,
    dueBy: fileDueBy(asOf),
    /** Before the first loan's disbursal: nothing to report, no file due. */
    noLoans: !first || first > asOf,
    files: BUREAUS.map((bureau) => ({ bureau, run: byKey.get(`${bureau}|${asOf}`) ?? null })),
  }));
  const runs = await services.db
    .select(runColumns)
    .from(bureauRuns)
    .leftJoin(users, eq(users.id, bureauRuns.createdBy))
    .orderBy(desc(bureauRuns.createdAt), asc(bureauRuns.bureau))
    .limit(RUNS_SHOWN);
  const pending = await rejectionsWhere(services, isNull(bureauRejections.resentRunId));
  return { grid, runs, pending };
}

const resent = alias(bureauRuns, "resent");

function rejectionsWhere({ db }: Services, where: ReturnType<typeof eq> | undefined) {
  return db
    .select({
      id: bureauRejections.id,
      accountNumber: bureauRejections.accountNumber,
      segment: bureauRejections.segment,
      field: bureauRejections.field,
      code: bureauRejections.code,
      message: bureauRejections.message,
      dueBy: bureauRejections.dueBy,
      createdAt: bureauRejections.createdAt,
      runId: bureauRejections.runId,
      bureau: bureauRuns.bureau,
      asOf: bureauRuns.asOf,
      resentRunId: bureauRejections.resentRunId,
      resentFile: resent.fileName,
      resentAt: resent.createdAt,
    })
    .from(bureauRejections)
    .innerJoin(bureauRuns, eq(bureauRuns.id, bureauRejections.runId))
    .leftJoin(resent, eq(resent.id, bureauRejections.resentRunId))
    .where(where)
    .orderBy(asc(bureauRejections.dueBy), asc(bureauRejections.accountNumber));
}

/** One run: its counts, a page of its records (held-back ones first), the rejections it drew and the imports. */
export async function bureauRun(services: Services, runId: string, page = 1) {
  if (!/^[0-9a-f-]{36}$/i.test(runId)) return null;
  const [run] = await services.db
    .select(runColumns)
    .from(bureauRuns)
    .leftJoin(users, eq(users.id, bureauRuns.createdBy))
    .where(eq(bureauRuns.id, runId));
  if (!run) return null;
  const records = await services.db
    .select({
      applicationId: bureauRecords.applicationId,
      loanNumber: loanApplications.loanNumber,
      borrower: borrowerProfiles.fullName,
      heldBack: bureauRecords.heldBack,
      problems: bureauRecords.problems,
      dpd: bureauRecords.dpd,
      overduePaise: bureauRecords.overduePaise,
      currentBalancePaise: bureauRecords.currentBalancePaise,
      assetClass: bureauRecords.assetClass,
      writtenOff: bureauRecords.writtenOff,
      closedOn: bureauRecords.closedOn,
    })
    .from(bureauRecords)
    .innerJoin(loanApplications, eq(loanApplications.id, bureauRecords.applicationId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, bureauRecords.userId))
    .where(eq(bureauRecords.runId, runId))
    .orderBy(desc(bureauRecords.heldBack), asc(loanApplications.loanNumber))
    .limit(RECORDS_PER_PAGE)
    .offset((page - 1) * RECORDS_PER_PAGE);
  const rejections = await rejectionsWhere(services, eq(bureauRejections.runId, runId));
  const imports = await services.db
    .select({
      fileName: bureauRejectionImports.fileName,
      rows: bureauRejectionImports.rows,
      importedAt: bureauRejectionImports.importedAt,
      importedBy: users.name,
    })
    .from(bureauRejectionImports)
    .leftJoin(users, eq(users.id, bureauRejectionImports.importedBy))
    .where(eq(bureauRejectionImports.runId, runId))
    .orderBy(desc(bureauRejectionImports.importedAt));
  return { run: { ...run, bureau: run.bureau as Bureau }, records, rejections, imports };
}

/** The stored file of a run, for its download. */
export async function runFile({ db }: Services, runId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(runId)) return null;
  const [row] = await db
    .select({
      key: bureauRuns.fileKey,
      name: bureauRuns.fileName,
      bureau: bureauRuns.bureau,
      asOf: bureauRuns.asOf,
      bytes: bureauRuns.fileBytes,
    })
    .from(bureauRuns)
    .where(eq(bureauRuns.id, runId));
  return row ?? null;
}

/** What the staff loan page shows: the loan's last reporting to each bureau and rejections not sent again. */
export async function loanReporting({ db }: Services, applicationId: string) {
  const rows = await db
    .select({
      bureau: bureauRuns.bureau,
      asOf: bureauRuns.asOf,
      kind: bureauRuns.kind,
      dpd: bureauRecords.dpd,
      heldBack: bureauRecords.heldBack,
      runId: bureauRuns.id,
    })
    .from(bureauRecords)
    .innerJoin(bureauRuns, eq(bureauRuns.id, bureauRecords.runId))
    .where(eq(bureauRecords.applicationId, applicationId))
    .orderBy(desc(bureauRuns.asOf), desc(bureauRuns.createdAt))
    .limit(8);
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(bureauRejections)
    .where(and(eq(bureauRejections.applicationId, applicationId), isNull(bureauRejections.resentRunId)));
  return { last: rows, rejectionsOpen: open?.n ?? 0 };
}

/** A written-off loan's settlement, if any. */
export async function settlementOf({ db }: Services, applicationId: string) {
  const [row] = await db.select().from(writeOffSettlements).where(eq(writeOffSettlements.applicationId, applicationId));
  return row ?? null;
}
