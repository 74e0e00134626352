/**
 * Making a bureau file (docs/product.md "Credit bureau reporting"): the records as at the reporting
 * date, each checked against the format's rules (one that fails is held back and listed with why),
 * the file written, read back and checked whole before it is kept (sealed in storage), its run and
 * records stored, and the borrowers whose days past due or default it reports told, once per date.
 */
import { Readable } from "node:stream";
import { and, desc, eq, lt } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import {
  type Bureau,
  type BureauHeader,
  encodeFile,
  fileName as bureauFileName,
  fileProblems,
  parseFile,
  recordProblems,
} from "../../domain/bureau/format.ts";
import { tellsBorrower } from "../../domain/bureau/reporting.ts";
import { todayIST } from "../../domain/india-date.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { sha256Bytes } from "../crypto.server.ts";
import { bureauAlerts, bureauRecords, bureauRuns } from "../db/schema.ts";
import { notifyMany } from "../notifications/notify.server.ts";
import { type LoanRecord, loansToReport, recordsAsOf } from "./records.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "keyring" | "storage" | "jobs" | "log">;

/** A bureau file is at most this large (a million accounts at ~1 kB each would need the storage's streaming writer). */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

export interface FileOrder {
  bureau: Bureau;
  asOf: IsoDate;
  kind: "regular" | "correction";
  /** A correction file: the loans to send again. */
  only?: readonly string[];
  /** The staff member asking; null for the daily run. */
  createdBy: string | null;
}

export type Made = { ok: true; runId: string; accounts: number; heldBack: number } | { ok: false; reason: "made_already"; runId: string };

/** The regular file of the reporting date before `asOf` at this bureau: what "closed since the last file" counts from. */
async function previousFileDate({ db }: Pick<AppServices, "db">, bureau: Bureau, asOf: IsoDate) {
  const [row] = await db
    .select({ asOf: bureauRuns.asOf })
    .from(bureauRuns)
    .where(and(eq(bureauRuns.bureau, bureau), eq(bureauRuns.kind, "regular"), lt(bureauRuns.asOf, asOf)))
    .orderBy(desc(bureauRuns.asOf))
    .limit(1);
  return (row?.asOf as IsoDate | undefined) ?? null;
}

async function regularRun({ db }: Pick<AppServices, "db">, bureau: Bureau, asOf: IsoDate) {
  const [row] = await db
    .select({ id: bureauRuns.id })
    .from(bureauRuns)
    .where(and(eq(bureauRuns.bureau, bureau), eq(bureauRuns.kind, "regular"), eq(bureauRuns.asOf, asOf)));
  return row ?? null;
}

/** The text of a file of `records` (the valid ones) and those held back with their problems; throws when the file fails its own check. */
export function writeFile(header: BureauHeader, records: readonly LoanRecord[]) {
  const held = new Map<string, string[]>();
  for (const r of records) {
    const problems = recordProblems(r.record, header.reportedOn);
    if (problems.length)
      held.set(
        r.applicationId,
        problems.map((p) => (p.field ? `${p.segment} ${p.field}: ${p.message}` : `${p.segment}: ${p.message}`)),
      );
  }
  const kept = records.filter((r) => !held.has(r.applicationId));
  const text = encodeFile(
    header,
    kept.map((r) => r.record),
  );
  const parsed = parseFile(text);
  const problems = fileProblems(parsed);
  const read = parsed.records.map((r) => r.accountNumber).join(",");
  const meant = kept.map((r) => r.record.account.accountNumber).join(",");
  if (problems.length || read !== meant)
    throw new Error(
      `the ${header.bureau} file as at ${header.reportedOn} failed its own check: ${problems[0]?.message ?? "accounts read back differ"}`,
    );
  return { text, held };
}

export const headerFor = (services: Pick<AppServices, "config" | "now">, bureau: Bureau, asOf: IsoDate): BureauHeader => ({
  bureau,
  memberId: services.config.bureau.memberIds[bureau],
  memberShortName: services.config.bureau.memberShortName,
  reportedOn: asOf,
  createdOn: todayIST(services.now()),
});

/** Makes one file: a bureau's regular file for a reporting date (once), or a correction file of some loans. */
export async function makeFile(services: Services, order: FileOrder): Promise<Made> {
  const { bureau, asOf, kind } = order;
  if (kind === "regular") {
    const made = await regularRun(services, bureau, asOf);
    if (made) return { ok: false, reason: "made_already", runId: made.id };
  }
  const previousAsOf = kind === "regular" ? await previousFileDate(services, bureau, asOf) : null;
  const ids = order.only ?? (await loansToReport(services, asOf, previousAsOf));
  const records = await recordsAsOf(services, asOf, ids);
  const header = headerFor(services, bureau, asOf);
  const { text, held } = writeFile(header, records);
  const bytes = Buffer.from(text, "utf8");
  const temp = await services.storage.writeTemp(Readable.from([bytes]), MAX_FILE_BYTES);
  const key = await services.storage.commit(temp.key);
  const at = services.now();
  const stored = await services.db.transaction(async (tx) => {
    const [run] = await tx
      .insert(bureauRuns)
      .values({
        bureau,
        kind,
        asOf,
        previousAsOf,
        fileKey: key,
        fileName: bureauFileName(header, kind),
        fileSha256: sha256Bytes(bytes),
        fileBytes: bytes.length,
        accounts: records.length - held.size,
        heldBack: held.size,
        delinquent: records.filter((r) => !held.has(r.applicationId) && tellsBorrower(recordFacts(r, held))).length,
        createdBy: order.createdBy,
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: bureauRuns.id });
    if (!run) return null;
    for (let i = 0; i < records.length; i += 1000)
      await tx.insert(bureauRecords).values(
        records.slice(i, i + 1000).map((r) => ({
          runId: run.id,
          applicationId: r.applicationId,
          userId: r.userId,
          heldBack: held.has(r.applicationId),
          problems: held.get(r.applicationId) ?? null,
          dpd: r.record.account.dpd,
          overduePaise: r.record.account.overduePaise,
          currentBalancePaise: r.record.account.currentBalancePaise,
          assetClass: r.record.account.assetClass,
          writtenOff: r.record.account.writtenOff !== null,
          closedOn: r.record.account.closedOn,
        })),
      );
    await tellBorrowers(
      { ...services, db: tx },
      asOf,
      records.filter((r) => tellsBorrower(recordFacts(r, held))),
    );
    return run.id;
  });
  if (!stored) {
    // Another process made the same regular file meanwhile: its run stands, this copy goes.
    await services.storage.remove(key);
    const made = await regularRun(services, bureau, asOf);
    return { ok: false, reason: "made_already", runId: made?.id ?? "" };
  }
  services.log.info({ bureau, asOf, kind, accounts: records.length - held.size, heldBack: held.size }, "bureau file made");
  return { ok: true, runId: stored, accounts: records.length - held.size, heldBack: held.size };
}

const reportedAs = (r: LoanRecord) =>
  r.record.account.writtenOff?.status === "post_write_off_settled"
    ? ("settled" as const)
    : r.record.account.writtenOff
      ? ("written_off" as const)
      : ("past_due" as const);

const recordFacts = (r: LoanRecord, held: ReadonlyMap<string, string[]>) => ({
  dpd: r.record.account.dpd,
  writtenOff: r.record.account.writtenOff !== null,
  heldBack: held.has(r.applicationId),
});

/**
 * The borrowers whose days past due or default a file as at `asOf` reports, told by SMS, e-mail,
 * push and in the app, once per loan and reporting date however many bureaus' files report it.
 */
async function tellBorrowers(services: Services, asOf: IsoDate, records: readonly LoanRecord[]) {
  if (records.length === 0) return;
  const at = services.now();
  const fresh = await services.db
    .insert(bureauAlerts)
    .values(records.map((r) => ({ applicationId: r.applicationId, asOf, dpd: r.record.account.dpd, createdAt: at })))
    .onConflictDoNothing()
    .returning({ applicationId: bureauAlerts.applicationId });
  const told = new Set(fresh.map((f) => f.applicationId));
  await notifyMany(
    services,
    records
      .filter((r) => told.has(r.applicationId))
      .map((r) => ({
        userId: r.userId,
        event: "bureau_reported" as const,
        key: `bureau:${r.applicationId}:${asOf}`,
        data: {
          loanNumber: r.record.account.accountNumber,
          loanPath: loanPath(r.record.account.kind, r.record.account.accountNumber),
          asOf,
          dpd: r.record.account.dpd,
          overduePaise: r.record.account.overduePaise,
          reported: reportedAs(r),
        },
      })),
  );
}
