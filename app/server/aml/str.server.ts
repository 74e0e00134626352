// Suspicious-transaction reports (docs/product.md "Suspicious-transaction reports"): drafted by
// compliance (or from a confirmed sanctions match, in the confirmation's transaction), changed while a
// draft, reviewed by someone who neither drafted nor changed it (approved, or sent back with a note),
// exported as FIU-IND's file (docs/decisions/0008-str-export-format.md) and its acknowledgement number
// recorded. Each step locks the report, changes it and writes its audit row (`aml.str.*`, hidden with
// the rest of screening from other staff) in one transaction; the same request twice changes nothing
// and says so.
import { and, eq, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { matchGrounds, strDueOn } from "../../domain/aml/str.ts";
import { todayIST } from "../../domain/india-date.ts";
import { audit } from "../audit.server.ts";
import type { Db } from "../db/client.ts";
import { amlMatches, auditLog, borrowerProfiles, suspiciousReports, users } from "../db/schema.ts";
import { randomReference } from "../reference.server.ts";
import { type ReportRow, strFile, strVersion } from "./str-read.server.ts";

type Services = Pick<AppServices, "db" | "now" | "config">;
type By = { staff: { id: string; role: string }; client: Client | null };

export type StrRefusal =
  | "not_found"
  | "future_suspicion"
  | "not_draft"
  | "changed_since"
  | "own_report"
  | "not_reviewed"
  | "not_exported"
  | "acknowledged_otherwise";
export type StrDone = { ok: true; reference: string; already: boolean } | { ok: false; reason: StrRefusal };

/** The report's fields a draft and an edit give. */
export interface StrContent {
  suspectedAt: Date;
  periodFrom: string;
  periodTo: string;
  grounds: string;
}

const subject = (id: string) => ({ type: "suspicious_report", id });
const done = (reference: string, already = false): StrDone => ({ ok: true, reference, already });
const refused = (reason: StrRefusal): StrDone => ({ ok: false, reason });
/** A suspicion cannot be later than now (a minute allowed for clocks that differ). */
const inFuture = (services: Services, at: Date) => at.getTime() > services.now().getTime() + 60_000;

/** A step's audit row (`aml.str.<step>`), about the report, by the staff member who took it. */
const logged = (db: Db, by: By, at: Date, r: ReportRow, step: string, details: Record<string, unknown> = {}) =>
  audit(
    { db },
    {
      by: by.staff,
      client: by.client,
      at,
      action: `aml.str.${step}`,
      subject: subject(r.id),
      details: { reference: r.reference, ...details },
    },
  );

/** The report locked for the caller's transaction; undefined when there is none. */
async function lockReport(tx: Db, reference: string) {
  const [row] = await tx.select().from(suspiciousReports).where(eq(suspiciousReports.reference, reference)).for("update");
  return row;
}

/** A new draft in the caller's transaction, audited. */
async function insertDraft(
  services: Services & { db: Db },
  values: StrContent & { userId: string; matchId: string | null },
  by: By | null,
) {
  const at = services.now();
  const [row] = await services.db
    .insert(suspiciousReports)
    .values({
      reference: randomReference("STR"),
      ...values,
      dueOn: strDueOn(values.suspectedAt, services.config.holidays),
      status: "draft",
      draftedBy: by?.staff.id ?? null,
      draftedAt: at,
      updatedAt: at,
    })
    .returning();
  if (!row) throw new Error("the report was not stored");
  await audit(
    { db: services.db },
    {
      by: by?.staff ?? "system",
      client: by?.client ?? null,
      at,
      action: "aml.str.draft",
      subject: subject(row.id),
      details: {
        reference: row.reference,
        userId: row.userId,
        matchId: row.matchId,
        periodFrom: row.periodFrom,
        periodTo: row.periodTo,
        dueOn: row.dueOn,
      },
    },
  );
  return row;
}

/** Compliance drafts a report about a borrower; the same draft sent twice is one. */
export async function draftReport(
  services: Services,
  { userId, content, by }: { userId: string; content: StrContent; by: By },
): Promise<StrDone> {
  if (inFuture(services, content.suspectedAt)) return refused("future_suspicion");
  return services.db.transaction(async (tx) => {
    // The borrower locked: two identical drafts sent at once are still one.
    const [borrower] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.role, "borrower")))
      .for("update");
    if (!borrower) return refused("not_found");
    const [same] = await tx
      .select({ reference: suspiciousReports.reference })
      .from(suspiciousReports)
      .where(
        and(
          eq(suspiciousReports.userId, userId),
          eq(suspiciousReports.draftedBy, by.staff.id),
          eq(suspiciousReports.suspectedAt, content.suspectedAt),
          eq(suspiciousReports.periodFrom, content.periodFrom),
          eq(suspiciousReports.periodTo, content.periodTo),
          eq(suspiciousReports.grounds, content.grounds),
        ),
      );
    if (same) return done(same.reference, true);
    const row = await insertDraft({ ...services, db: tx }, { ...content, userId, matchId: null }, by);
    return done(row.reference);
  });
}

/**
 * A confirmed sanctions match's report, drafted in the confirmation's transaction by the person who
 * confirmed it: suspected when confirmed, the borrower's whole history to that day, the grounds naming
 * the list, its entry and the score. One per match.
 */
export async function draftFromMatch(services: Services & { db: Db }, { matchId, by }: { matchId: string; by: By }) {
  const [existing] = await services.db.select().from(suspiciousReports).where(eq(suspiciousReports.matchId, matchId));
  if (existing) return existing;
  const [m] = await services.db
    .select({ match: amlMatches, name: borrowerProfiles.fullName, since: users.createdAt })
    .from(amlMatches)
    .innerJoin(users, eq(users.id, amlMatches.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, amlMatches.userId))
    .where(eq(amlMatches.id, matchId));
  if (!m || m.match.status !== "confirmed" || !m.match.decidedAt) throw new Error("only a confirmed match drafts a report");
  const at = m.match.decidedAt;
  const grounds = matchGrounds({ ...m.match, borrowerName: m.name ?? "", confirmedOn: todayIST(at), note: m.match.note ?? "" });
  return insertDraft(
    services,
    // The whole history: from the day the account was opened (never after the confirmation) to the confirmation's day.
    {
      userId: m.match.userId,
      matchId,
      suspectedAt: at,
      periodFrom: [todayIST(m.since), todayIST(at)].sort()[0] as string,
      periodTo: todayIST(at),
      grounds,
    },
    by,
  );
}

const sameContent = (r: ReportRow, c: StrContent) =>
  r.suspectedAt.getTime() === c.suspectedAt.getTime() &&
  r.periodFrom === c.periodFrom &&
  r.periodTo === c.periodTo &&
  r.grounds === c.grounds;

/** A draft changed (a match's report keeps the confirmation as its suspicion); `version` is when it was last changed as the editor saw it. */
export async function editReport(
  services: Services,
  { reference, version, content, by }: { reference: string; version: string; content: StrContent; by: By },
): Promise<StrDone> {
  return services.db.transaction(async (tx) => {
    const r = await lockReport(tx, reference);
    if (!r) return refused("not_found");
    if (r.status !== "draft") return refused("not_draft");
    const next = r.matchId ? { ...content, suspectedAt: r.suspectedAt } : content;
    if (sameContent(r, next)) return done(reference, true);
    if (version !== strVersion(r)) return refused("changed_since");
    if (inFuture(services, next.suspectedAt)) return refused("future_suspicion");
    const at = services.now();
    const changed = [
      ...(r.suspectedAt.getTime() === next.suspectedAt.getTime() ? [] : ["suspectedAt"]),
      ...(["periodFrom", "periodTo", "grounds"] as const).filter((k) => r[k] !== next[k]),
    ];
    await tx
      .update(suspiciousReports)
      .set({ ...next, dueOn: strDueOn(next.suspectedAt, services.config.holidays), updatedAt: at })
      .where(eq(suspiciousReports.id, r.id));
    await logged(tx, by, at, r, "edit", { changed });
    return done(reference);
  });
}

/** Whether `staffId` wrote the report: drafted it, or changed it since. */
async function wrote(tx: Db, r: ReportRow, staffId: string) {
  if (r.draftedBy === staffId) return true;
  const [edit] = await tx
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.action, "aml.str.edit"), eq(auditLog.subjectId, r.id), eq(auditLog.actorUserId, staffId)))
    .limit(1);
  return edit !== undefined;
}

/** The review (four eyes): approved, or sent back to a draft with what to change. */
export async function reviewReport(
  services: Services,
  { reference, decision, note, by }: { reference: string; decision: "approve" | "send_back"; note: string | null; by: By },
): Promise<StrDone> {
  return services.db.transaction(async (tx) => {
    const r = await lockReport(tx, reference);
    if (!r) return refused("not_found");
    const mine = r.reviewedBy === by.staff.id;
    if (decision === "approve" && r.status !== "draft") return mine ? done(reference, true) : refused("not_draft");
    if (r.status !== "draft") return refused("not_draft");
    if (decision === "send_back" && mine && r.reviewNote === note && r.reviewedAt && r.reviewedAt >= r.updatedAt)
      return done(reference, true);
    if (await wrote(tx, r, by.staff.id)) return refused("own_report");
    const at = services.now();
    await tx
      .update(suspiciousReports)
      .set({
        status: decision === "approve" ? "reviewed" : "draft",
        reviewedBy: by.staff.id,
        reviewedAt: at,
        reviewNote: note,
        updatedAt: at,
      })
      .where(eq(suspiciousReports.id, r.id));
    await logged(tx, by, at, r, decision, { note });
    return done(reference);
  });
}

/** A reviewed report exported: its file made, its SHA-256 kept, marked exported (once; exporting again is a download). */
export async function exportReport(
  services: Services & Pick<AppServices, "keyring">,
  { reference, by }: { reference: string; by: By },
): Promise<StrDone> {
  return services.db.transaction(async (tx) => {
    const r = await lockReport(tx, reference);
    if (!r) return refused("not_found");
    if (r.status === "exported") return done(reference, true);
    if (r.status !== "reviewed") return refused("not_reviewed");
    const at = services.now();
    const file = await strFile({ ...services, db: tx }, r, todayIST(at));
    await tx
      .update(suspiciousReports)
      .set({ status: "exported", exportedBy: by.staff.id, exportedAt: at, fileSha256: file.sha256, updatedAt: at })
      .where(eq(suspiciousReports.id, r.id));
    await logged(tx, by, at, r, "export", { sha256: file.sha256, transactions: file.movements });
    return done(reference);
  });
}

/**
 * The exported report's file, made again from the database (its batch dated the export's day) for a
 * download, audited with its SHA-256 and whether that is still the exported file's. Null when the
 * report is not exported.
 */
export async function downloadReport(services: Services & Pick<AppServices, "keyring">, { reference, by }: { reference: string; by: By }) {
  const [r] = await services.db.select().from(suspiciousReports).where(eq(suspiciousReports.reference, reference));
  if (!r || r.status !== "exported" || !r.exportedAt) return null;
  const file = await strFile(services, r, todayIST(r.exportedAt));
  await logged(services.db, by, services.now(), r, "download", { sha256: file.sha256, sameAsExported: file.sha256 === r.fileSha256 });
  return file;
}

/** FIU-IND's acknowledgement number recorded (a report from a sanctions match marks the match reported with it). */
export async function acknowledgeReport(
  services: Services,
  { reference, fiuReference, by }: { reference: string; fiuReference: string; by: By },
): Promise<StrDone> {
  return services.db.transaction(async (tx) => {
    const r = await lockReport(tx, reference);
    if (!r) return refused("not_found");
    if (r.status !== "exported") return refused("not_exported");
    if (r.fiuReference === fiuReference) return done(reference, true);
    if (r.fiuReference) return refused("acknowledged_otherwise");
    const at = services.now();
    await tx.update(suspiciousReports).set({ fiuReference, updatedAt: at }).where(eq(suspiciousReports.id, r.id));
    if (r.matchId)
      await tx
        .update(amlMatches)
        .set({ reportedAt: at, reportedBy: by.staff.id, reportReference: fiuReference })
        .where(and(eq(amlMatches.id, r.matchId), eq(amlMatches.status, "confirmed"), sql`${amlMatches.reportedAt} is null`));
    await logged(tx, by, at, r, "acknowledge", { fiuReference, matchId: r.matchId });
    return done(reference);
  });
}
