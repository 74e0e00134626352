/**
 * Making a bureau file (docs/product.md "Credit bureau reporting"): the records as at the reporting
 * date, each checked against the format's rules (an optional part that fails, the e-mail or one of
 * two addresses, is left out and noted; a record that still fails is held back and listed with why),
 * the file written, read back and checked whole before it is kept (sealed in storage), its run,
 * records and audit row stored in one transaction, and the borrowers whose days past due or default
 * it reports told, once per loan and date.
 */
import { putBytes } from "../storage/put-bytes.server.ts";
import { and, desc, eq, lt } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import {
  type Bureau,
  type BureauHeader,
  type BureauRecord,
  encodeFile,
  fileName as bureauFileName,
  fileProblems,
  type Problem,
  parseFile,
  recordProblems,
} from "../../domain/bureau/format.ts";
import { tellsBorrower } from "../../domain/bureau/reporting.ts";
import { todayIST } from "../../domain/india-date.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { loanPath } from "../../domain/loans/servicing.ts";
import { audit } from "../audit.server.ts";
import { sha256Bytes } from "../crypto.server.ts";
import { bureauAlerts, bureauRecords, bureauRuns } from "../db/schema.ts";
import { notifyMany } from "../notifications/notify.server.ts";
import type { LoanRecord } from "./records.server.ts";

export type Services = Pick<AppServices, "db" | "config" | "now" | "keyring" | "storage" | "jobs" | "log">;
export type By = { staff: { id: string; role: string }; client: Client } | null;

/** Rows written per statement (alerts and notices bind a dozen parameters each). */
const BATCH = 500;

export interface FileOrder {
  bureau: Bureau;
  asOf: IsoDate;
  kind: "regular" | "correction";
  records: readonly LoanRecord[];
  /** Who asked: a staff member, or null for the daily run. */
  by: By;
}

export type Made =
  | { ok: true; runId: string; fileKey: string; accounts: number; heldBack: number }
  | { ok: false; reason: "made_already"; runId: string }
  | { ok: false; reason: "nothing_valid"; heldBack: number };

/** The regular file of the reporting date before `asOf` at this bureau (kept with the run, for reading it). */
async function previousFileDate({ db }: Pick<AppServices, "db">, bureau: Bureau, asOf: IsoDate) {
  const [row] = await db
    .select({ asOf: bureauRuns.asOf })
    .from(bureauRuns)
    .where(and(eq(bureauRuns.bureau, bureau), eq(bureauRuns.kind, "regular"), lt(bureauRuns.asOf, asOf)))
    .orderBy(desc(bureauRuns.asOf))
    .limit(1);
  return (row?.asOf as IsoDate | undefined) ?? null;
}

export async function regularRun({ db }: Pick<AppServices, "db">, bureau: Bureau, asOf: IsoDate) {
  const [row] = await db
    .select({ id: bureauRuns.id })
    .from(bureauRuns)
    .where(and(eq(bureauRuns.bureau, bureau), eq(bureauRuns.kind, "regular"), eq(bureauRuns.asOf, asOf)));
  return row ?? null;
}

const words = (problems: readonly Problem[]) =>
  problems.map((p) => (p.field ? `${p.segment} ${p.field}: ${p.message}` : `${p.segment}: ${p.message}`));

/**
 * A record as it can be sent: the e-mail (an optional segment) left out when it fails the rules, and
 * of two addresses the one that passes; `left` says what was left out and why, `problems` what
 * still holds it back.
 */
function sendable(record: BureauRecord, reportedOn: IsoDate) {
  let r = record;
  const left: string[] = [];
  let problems = recordProblems(r, reportedOn);
  if (problems.some((p) => p.segment === "EC") && r.subject.email !== null) {
    left.push(`Sent without the e-mail (${words(problems.filter((p) => p.segment === "EC")).join(" ")})`);
    r = { ...r, subject: { ...r.subject, email: null } };
    problems = recordProblems(r, reportedOn);
  }
  if (problems.some((p) => p.segment === "PA") && r.subject.addresses.length > 1) {
    const bad = words(problems.filter((p) => p.segment === "PA")).join(" ");
    for (const address of r.subject.addresses) {
      const one = { ...r, subject: { ...r.subject, addresses: [address] } };
      const still = recordProblems(one, reportedOn);
      if (still.some((p) => p.segment === "PA")) continue;
      left.push(`Sent with the ${address.category} address only (${bad})`);
      r = one;
      problems = still;
      break;
    }
  }
  return { record: r, left, problems };
}

/**
 * The text of a file of `records` and those held back (application id → why); throws when the file
 * fails a check no record explains (its header or trailer). A record that passes its own rules but
 * fails the whole file's check is held back too, so one record never stops a file.
 */
export function writeFile(header: BureauHeader, records: readonly LoanRecord[]) {
  const held = new Map<string, string[]>();
  const notes = new Map<string, string[]>();
  let kept: LoanRecord[] = [];
  for (const r of records) {
    const s = sendable(r.record, header.reportedOn);
    if (s.problems.length) held.set(r.applicationId, words(s.problems));
    else kept.push({ ...r, record: s.record });
    if (s.left.length) notes.set(r.applicationId, s.left);
  }
  for (let round = 0; round < 3; round++) {
    const text = encodeFile(
      header,
      kept.map((r) => r.record),
    );
    const parsed = parseFile(text);
    const problems = fileProblems(parsed);
    const whole = problems.find((p) => !p.accountNumber);
    if (whole) throw new Error(`the ${header.bureau} file as at ${header.reportedOn} failed its own check: ${whole.message}`);
    if (problems.length === 0) {
      const read = parsed.records.map((r) => r.accountNumber).join(",");
      if (read !== kept.map((r) => r.record.account.accountNumber).join(","))
        throw new Error(`the ${header.bureau} file as at ${header.reportedOn} does not read back the accounts written`);
      return { text, kept, held, notes };
    }
    const bad = Map.groupBy(problems, (p) => p.accountNumber ?? "");
    for (const r of kept.filter((k) => bad.has(k.record.account.accountNumber)))
      held.set(r.applicationId, words(bad.get(r.record.account.accountNumber) ?? []));
    kept = kept.filter((k) => !bad.has(k.record.account.accountNumber));
  }
  throw new Error(`the ${header.bureau} file as at ${header.reportedOn} kept failing its own check`);
}

export const headerFor = (services: Pick<AppServices, "config" | "now">, bureau: Bureau, asOf: IsoDate): BureauHeader => ({
  bureau,
  memberId: services.config.bureau.memberIds[bureau],
  memberShortName: services.config.bureau.memberShortName,
  reportedOn: asOf,
  createdOn: todayIST(services.now()),
});

const reportedAs = (r: LoanRecord) =>
  r.record.account.writtenOff?.status === "post_write_off_settled"
    ? ("settled" as const)
    : r.record.account.writtenOff
      ? ("written_off" as const)
      : ("past_due" as const);

const delinquent = (r: LoanRecord, held: ReadonlyMap<string, string[]>) =>
  tellsBorrower({ dpd: r.record.account.dpd, writtenOff: r.record.account.writtenOff !== null, heldBack: held.has(r.applicationId) });

/**
 * Makes one file: a bureau's regular file for a reporting date (once), or a correction file of some
 * loans (none when every one of them is still held back: they stay waiting).
 */
export async function makeFile(services: Services, order: FileOrder): Promise<Made> {
  const { bureau, asOf, kind, records } = order;
  if (kind === "regular") {
    const made = await regularRun(services, bureau, asOf);
    if (made) return { ok: false, reason: "made_already", runId: made.id };
  }
  const header = headerFor(services, bureau, asOf);
  const { text, held, notes, kept } = writeFile(header, records);
  if (kind === "correction" && kept.length === 0) return { ok: false, reason: "nothing_valid", heldBack: held.size };
  const previousAsOf = kind === "regular" ? await previousFileDate(services, bureau, asOf) : null;
  const bytes = Buffer.from(text, "utf8");
  const { key } = await putBytes(services.storage, bytes);
  const at = services.now();
  const sent = new Map(kept.map((r) => [r.applicationId, r]));
  let stored: string | null;
  try {
    stored = await services.db.transaction(async (tx) => {
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
          accounts: kept.length,
          heldBack: held.size,
          delinquent: kept.filter((r) => delinquent(r, held)).length,
          createdBy: order.by?.staff.id ?? null,
          createdAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: bureauRuns.id });
      if (!run) return null;
      for (let i = 0; i < records.length; i += BATCH)
        await tx.insert(bureauRecords).values(
          records.slice(i, i + BATCH).map((r) => {
            const a = (sent.get(r.applicationId) ?? r).record.account;
            return {
              runId: run.id,
              applicationId: r.applicationId,
              userId: r.userId,
              heldBack: held.has(r.applicationId),
              problems: held.get(r.applicationId) ?? notes.get(r.applicationId) ?? null,
              dpd: a.dpd,
              overduePaise: a.overduePaise,
              currentBalancePaise: a.currentBalancePaise,
              assetClass: a.assetClass,
              writtenOff: a.writtenOff !== null,
              closedOn: a.closedOn,
            };
          }),
        );
      await tellBorrowers(
        { ...services, db: tx },
        asOf,
        kept.filter((r) => delinquent(r, held)),
      );
      await audit(
        { db: tx },
        {
          by: order.by?.staff ?? "system",
          client: order.by?.client ?? null,
          at,
          action: kind === "regular" ? "bureau.file" : "bureau.correction_file",
          subject: { type: "bureau_run", id: run.id },
          details: { bureau, asOf, accounts: kept.length, heldBack: held.size },
        },
      );
      return run.id;
    });
  } catch (error) {
    // Nothing of the run was stored: neither is its file (it holds PANs and addresses).
    await services.storage.remove(key);
    throw error;
  }
  if (!stored) {
    // Another process made the same regular file meanwhile: its run stands, this copy goes.
    await services.storage.remove(key);
    const made = await regularRun(services, bureau, asOf);
    return { ok: false, reason: "made_already", runId: made?.id ?? "" };
  }
  services.log.info({ bureau, asOf, kind, accounts: kept.length, heldBack: held.size }, "bureau file made");
  return { ok: true, runId: stored, fileKey: key, accounts: kept.length, heldBack: held.size };
}

/**
 * The borrowers whose days past due or default a file as at `asOf` reports, told by SMS, e-mail,
 * push and in the app, once per loan and reporting date however many bureaus' files report it.
 */
async function tellBorrowers(services: Services, asOf: IsoDate, records: readonly LoanRecord[]) {
  const at = services.now();
  for (let i = 0; i < records.length; i += BATCH) {
    const part = records.slice(i, i + BATCH);
    const fresh = await services.db
      .insert(bureauAlerts)
      .values(part.map((r) => ({ applicationId: r.applicationId, asOf, dpd: r.record.account.dpd, createdAt: at })))
      .onConflictDoNothing()
      .returning({ applicationId: bureauAlerts.applicationId });
    const told = new Set(fresh.map((f) => f.applicationId));
    await notifyMany(
      services,
      part
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
}
