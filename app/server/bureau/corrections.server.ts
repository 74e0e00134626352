/**
 * A bureau's rejections (docs/product.md "Credit bureau reporting"): its rejection file imported
 * against the file it answers (strictly: every row must name an account that file reported, or
 * nothing is imported), each rejected record due to be sent again within 7 days, and the correction
 * files that send them: made by finance, or by the daily run when 2 days are left.
 */
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { BUREAUS, type Bureau, parseRejections } from "../../domain/bureau/format.ts";
import { AUTO_RESEND_DAYS_LEFT, resendDueBy } from "../../domain/bureau/reporting.ts";
import { todayIST } from "../../domain/india-date.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { audit } from "../audit.server.ts";
import { sha256Bytes } from "../crypto.server.ts";
import { bureauRecords, bureauRejectionImports, bureauRejections, bureauRuns, loanApplications } from "../db/schema.ts";
import { recordsAsOf } from "./records.server.ts";
import { makeFile, type Services } from "./run.server.ts";
type Staff = { id: string; role: string };

export type Imported =
  | { ok: true; rows: number; dueBy: IsoDate }
  | { ok: false; reason: "unreadable"; message: string }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "imported_already"; importedAt: Date };

/** Imports a bureau's rejection file against the run it answers; audited. */
export async function importRejections(
  services: Services,
  { runId, fileName, bytes, staff, client }: { runId: string; fileName: string; bytes: Buffer; staff: Staff; client: Client },
): Promise<Imported> {
  const [run] = await services.db.select().from(bureauRuns).where(eq(bureauRuns.id, runId));
  if (!run) return { ok: false, reason: "not_found" };
  let rows;
  try {
    rows = parseRejections(bytes.toString("utf8"));
  } catch (error) {
    return { ok: false, reason: "unreadable", message: (error as Error).message };
  }
  if (rows.length === 0) return { ok: false, reason: "unreadable", message: "The file lists no rejected record." };
  const reported = await services.db
    .select({ applicationId: bureauRecords.applicationId, loanNumber: loanApplications.loanNumber })
    .from(bureauRecords)
    .innerJoin(loanApplications, eq(loanApplications.id, bureauRecords.applicationId))
    .where(and(eq(bureauRecords.runId, runId), eq(bureauRecords.heldBack, false)));
  const byNumber = new Map(reported.map((r) => [r.loanNumber, r.applicationId]));
  const missing = rows.findIndex((r) => !byNumber.has(r.accountNumber));
  if (missing >= 0)
    return {
      ok: false,
      reason: "unreadable",
      message: `Row ${missing + 2}: account ${rows[missing]?.accountNumber} is not in ${run.fileName}. Check that the file answers this run.`,
    };
  const at = services.now();
  const dueBy = resendDueBy(todayIST(at));
  // The same rows are the same import however the file was saved (line endings, quoting, order).
  const sha = sha256Bytes(Buffer.from(JSON.stringify(rows.map((r) => [r.accountNumber, r.segment, r.field, r.code, r.message]).sort())));
  return services.db.transaction(async (tx) => {
    const [done] = await tx
      .insert(bureauRejectionImports)
      .values({ runId, fileName, fileSha256: sha, rows: rows.length, importedBy: staff.id, importedAt: at })
      .onConflictDoNothing()
      .returning({ id: bureauRejectionImports.id });
    if (!done) {
      const [before] = await tx
        .select({ at: bureauRejectionImports.importedAt })
        .from(bureauRejectionImports)
        .where(and(eq(bureauRejectionImports.runId, runId), eq(bureauRejectionImports.fileSha256, sha)));
      return { ok: false, reason: "imported_already", importedAt: before?.at ?? at } as const;
    }
    await tx.insert(bureauRejections).values(
      rows.map((r) => ({
        importId: done.id,
        runId,
        applicationId: byNumber.get(r.accountNumber) as string,
        accountNumber: r.accountNumber,
        segment: r.segment,
        field: r.field,
        code: r.code,
        message: r.message,
        dueBy,
        createdAt: at,
      })),
    );
    await audit(
      { db: tx },
      {
        by: staff,
        client,
        at,
        action: "bureau.rejections_import",
        subject: { type: "bureau_run", id: runId },
        details: { fileName, rows: rows.length, bureau: run.bureau, asOf: run.asOf },
      },
    );
    return { ok: true, rows: rows.length, dueBy } as const;
  });
}

/** Rejections not sent again yet, due by `dueBy` at the latest (all when null), with their runs. */
async function pendingRejections({ db }: Pick<AppServices, "db">, dueBy: IsoDate | null) {
  return db
    .select({ id: bureauRejections.id, applicationId: bureauRejections.applicationId, bureau: bureauRuns.bureau, asOf: bureauRuns.asOf })
    .from(bureauRejections)
    .innerJoin(bureauRuns, eq(bureauRuns.id, bureauRejections.runId))
    .where(and(isNull(bureauRejections.resentRunId), dueBy ? lte(bureauRejections.dueBy, dueBy) : undefined))
    .orderBy(asc(bureauRejections.createdAt));
}

/**
 * Sends the rejected records again: one correction file per bureau and reporting date, each record
 * read afresh (as at its original date) so that what was corrected since goes. One sending at a time
 * (a lock held for the whole of it), so finance's button and the daily run never send a record
 * twice. A record that still fails the format's rules is held back and stays waiting; a file of
 * nothing but such records is not made.
 */
export async function sendCorrections(
  services: Services,
  { dueBy = null, staff = null, client = null }: { dueBy?: IsoDate | null; staff?: Staff | null; client?: Client | null } = {},
) {
  const made: { bureau: Bureau; asOf: IsoDate; runId: string; fileKey: string; accounts: number; heldBack: number }[] = [];
  const stuck: { bureau: Bureau; asOf: IsoDate; heldBack: number }[] = [];
  const by = staff && client ? { staff, client } : null;
  try {
    await services.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('bureau-corrections'))`);
      const s = { ...services, db: tx };
      const groups = Map.groupBy(await pendingRejections(s, dueBy), (p) => `${p.bureau}|${p.asOf}`);
      for (const [group, rows] of groups) {
        const [bureau, asOf] = group.split("|") as [Bureau, IsoDate];
        if (!(BUREAUS as readonly string[]).includes(bureau)) continue;
        const records = await recordsAsOf(s, asOf, [...new Set(rows.map((r) => r.applicationId))]);
        const file = await makeFile(s, { bureau, asOf, kind: "correction", records, by });
        if (!file.ok) {
          if (file.reason === "nothing_valid") stuck.push({ bureau, asOf, heldBack: file.heldBack });
          continue;
        }
        made.push({ bureau, asOf, runId: file.runId, fileKey: file.fileKey, accounts: file.accounts, heldBack: file.heldBack });
        const sent = await tx
          .select({ applicationId: bureauRecords.applicationId })
          .from(bureauRecords)
          .where(and(eq(bureauRecords.runId, file.runId), eq(bureauRecords.heldBack, false)));
        const sentIds = new Set(sent.map((x) => x.applicationId));
        const resent = rows.filter((r) => sentIds.has(r.applicationId)).map((r) => r.id);
        if (resent.length) await tx.update(bureauRejections).set({ resentRunId: file.runId }).where(inArray(bureauRejections.id, resent));
      }
    });
  } catch (error) {
    // The runs were not kept: neither are their files (they hold PANs and addresses).
    for (const m of made) await services.storage.remove(m.fileKey);
    throw error;
  }
  return { made, stuck };
}

/** The daily run's part: corrections with 2 days or fewer left are sent without waiting for finance. */
export const sendDueCorrections = (services: Services, today: IsoDate) =>
  sendCorrections(services, { dueBy: addDays(today, AUTO_RESEND_DAYS_LEFT) });
