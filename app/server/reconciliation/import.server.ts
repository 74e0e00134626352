/**
 * Importing a provider's statement (docs/product.md "The lender's books"; the columns in
 * docs/decisions/0005-reconciliation-formats.md): the file read and checked whole before anything
 * is stored, then in one transaction (one reconciliation at a time) its lines stored, a gateway
 * settlement journalled (one balanced entry per settlement: the bank, the fees and their GST
 * against the clearing account, each payment clearing its capture), a payout statement's fees
 * journalled, every line matched, and the import audited. The same file is never imported twice.
 */
import { createHash } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import type { Line } from "../../domain/books/positions.ts";
import { parseStatement, type StatementKind, type StatementLine } from "../../domain/books/statements.ts";
import { formatRupees } from "../../domain/money.ts";
import { withoutControlCharacters } from "../../domain/validators/text.ts";
import { audit } from "../audit.server.ts";
import { postEntry } from "../books/journal.server.ts";
import { statementImports, statementLines, users } from "../db/schema.ts";
import type { Staff } from "../review/rows.server.ts";
import { candidatesFor, lockReconciliation, matchStatementLines, reconcileAll } from "./match.server.ts";

type Services = Pick<AppServices, "db" | "now" | "config" | "log">;

export interface ImportInput {
  kind: StatementKind;
  /** Whose statement: razorpay, razorpayx, or local (a stand-in's). */
  provider: string;
  source: "upload" | "stand_in";
  fileName: string;
  bytes: Uint8Array;
  staff: Staff;
  client: Client | null;
}

export type ImportResult =
  | {
      ok: true;
      importId: string;
      lines: number;
      matched: number;
      exceptions: number;
      duplicates: number;
      notSettled: number;
      entries: number;
    }
  | { ok: false; reason: "already_imported"; importedAt: Date; importedBy: string | null; fileName: string }
  | { ok: false; reason: "unreadable"; message: string };

export const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The file's text: UTF-8 (a byte-order mark allowed), or null when it is not text. */
function textOf(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** A file name as kept: no control characters, at most 200 characters. */
const cleanName = (name: string) => withoutControlCharacters(name).trim().slice(-200) || "statement.csv";

const CHUNK = 500;
const chunks = <T>(list: readonly T[]) =>
  Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

/** The loan each provider id's journal line is about (the capture's, the payout's). */
async function loansOf(services: Pick<AppServices, "db">, refs: readonly string[]) {
  const byRef = new Map<string, string | null>();
  for (const c of await candidatesFor(services, refs)) if (!byRef.get(c.ref)) byRef.set(c.ref, c.applicationId);
  return byRef;
}

type Stored = StatementLine & { id: number };

/**
 * One entry per settlement: Dr bank (the net settled), Dr gateway fees (without GST), Dr input GST,
 * and the gross on the clearing account (credited for a payment, debited for a refund or dispute of
 * one), each line with the payment's id so it clears that capture; a line the books hold nothing
 * of (an adjustment, a transfer) goes to suspense for finance to look into.
 */
async function journalSettlements(services: Services, importId: string, lines: readonly Stored[], staff: Staff) {
  const bySettlement = new Map<string, Stored[]>();
  for (const l of lines) if (l.settlementId) bySettlement.set(l.settlementId, [...(bySettlement.get(l.settlementId) ?? []), l]);
  const loans = await loansOf(
    services,
    lines.flatMap((l) => (l.match ? [l.match.ref] : [])),
  );
  let entries = 0;
  for (const [settlementId, group] of bySettlement) {
    const utr = group.find((l) => l.utr)?.utr ?? null;
    const entryLines: Line[] = group.map((l) =>
      l.match
        ? {
            purpose: "gateway_clearing",
            paise: l.direction === "in" ? -l.grossPaise : l.grossPaise,
            applicationId: loans.get(l.match.ref) ?? null,
            providerRef: l.match.ref,
          }
        : {
            purpose: "books_suspense",
            paise: l.direction === "in" ? -l.grossPaise : l.grossPaise,
            applicationId: null,
            providerRef: l.providerRef,
          },
    );
    const fees = group.reduce((s, l) => s + l.feePaise, 0);
    const tax = group.reduce((s, l) => s + l.taxPaise, 0);
    const net = group.reduce((s, l) => s + l.netPaise, 0);
    entryLines.push(
      { purpose: "gateway_fees", paise: fees, applicationId: null },
      { purpose: "input_gst", paise: tax, applicationId: null },
      { purpose: "bank", paise: net, applicationId: null, providerRef: utr ?? settlementId },
    );
    const day = group.map((l) => l.valueDate ?? "").reduce((a, b) => (a > b ? a : b));
    const gross = group.reduce((s, l) => s + (l.direction === "in" ? l.grossPaise : -l.grossPaise), 0);
    const posted = await postEntry(services, {
      kind: "gateway_settlement",
      businessDate: day,
      narration:
        `Gateway settlement ${settlementId}${utr ? ` (UTR ${utr})` : ""}: ${group.length} line${group.length === 1 ? "" : "s"}, ` +
        `${formatRupees(gross)} gross, ${formatRupees(fees + tax)} fees and GST kept, ${formatRupees(net)} to the bank`,
      sourceKey: `gateway_settlement:${importId}:${settlementId}`,
      createdBy: staff.id,
      lines: entryLines,
    });
    if (!posted) continue;
    entries++;
    for (const part of chunks(group.map((l) => l.id)))
      await services.db.update(statementLines).set({ journalEntryId: posted.id }).where(inArray(statementLines.id, part));
  }
  return entries;
}

/**
 * A payout statement moves no money the books do not hold already (each disbursal and refund was
 * journalled when processed); only its fees are new: per day, Dr gateway fees (without GST) and
 * Dr input GST against the payout account they were taken from, each payout's fee on its own line.
 */
async function journalPayoutFees(services: Services, importId: string, lines: readonly Stored[], staff: Staff) {
  const byDay = new Map<string, Stored[]>();
  for (const l of lines)
    if ((l.feePaise !== 0 || l.taxPaise !== 0) && l.valueDate) byDay.set(l.valueDate, [...(byDay.get(l.valueDate) ?? []), l]);
  let entries = 0;
  for (const [day, group] of byDay) {
    const fees = group.reduce((s, l) => s + l.feePaise, 0);
    const tax = group.reduce((s, l) => s + l.taxPaise, 0);
    const posted = await postEntry(services, {
      kind: "payout_fees",
      businessDate: day,
      narration: `Payout fees of ${group.length} payout${group.length === 1 ? "" : "s"}: ${formatRupees(fees)} and ${formatRupees(tax)} GST`,
      sourceKey: `payout_fees:${importId}:${day}`,
      createdBy: staff.id,
      lines: [
        { purpose: "gateway_fees", paise: fees, applicationId: null },
        { purpose: "input_gst", paise: tax, applicationId: null },
        ...group.map((l): Line => ({
          purpose: "payout_account",
          paise: -(l.feePaise + l.taxPaise),
          applicationId: null,
          providerRef: l.providerRef,
        })),
      ],
    });
    if (!posted) continue;
    entries++;
    for (const part of chunks(group.map((l) => l.id)))
      await services.db.update(statementLines).set({ journalEntryId: posted.id }).where(inArray(statementLines.id, part));
  }
  return entries;
}

/**
 * Imports a statement. Refused before anything is stored when the file is not UTF-8 text, does not
 * read as the statement chosen (the row and column named), or was imported before (by its hash).
 */
export async function importStatement(services: Services, input: ImportInput): Promise<ImportResult> {
  const text = textOf(input.bytes);
  if (text === null) return { ok: false, reason: "unreadable", message: "The file is not text in UTF-8: export the report as CSV." };
  const parsed = parseStatement(input.kind, text);
  if (!parsed.ok) return { ok: false, reason: "unreadable", message: parsed.message };
  const sha256 = sha256Of(input.bytes);
  const fileName = cleanName(input.fileName);
  return services.db.transaction(async (tx) => {
    const s = { ...services, db: tx };
    await lockReconciliation(s);
    const [before] = await tx
      .select({ at: statementImports.importedAt, by: users.name, email: users.email, fileName: statementImports.fileName })
      .from(statementImports)
      .leftJoin(users, eq(users.id, statementImports.importedBy))
      .where(eq(statementImports.sha256, sha256));
    if (before)
      return {
        ok: false,
        reason: "already_imported",
        importedAt: before.at,
        importedBy: before.by ?? before.email,
        fileName: before.fileName,
      };
    const at = services.now();
    const dates = parsed.lines.flatMap((l) => (l.valueDate ? [l.valueDate] : [])).sort();
    const [imported] = await tx
      .insert(statementImports)
      .values({
        kind: input.kind,
        provider: input.provider,
        source: input.source,
        fileName,
        sha256,
        sizeBytes: input.bytes.byteLength,
        lineCount: parsed.lines.length,
        firstDate: dates[0] ?? null,
        lastDate: dates.at(-1) ?? null,
        importedBy: input.staff.id,
        importedAt: at,
      })
      .returning({ id: statementImports.id });
    if (!imported) throw new Error("the statement import was not stored");
    // A line an earlier file listed already (overlapping reports) is kept, marked, and neither journalled nor matched again.
    const earlier = new Map<string, number>();
    for (const part of chunks(parsed.lines.map((l) => l.lineKey))) {
      const rows = await tx
        .select({ id: statementLines.id, key: statementLines.lineKey, duplicateOf: statementLines.duplicateOf, kind: statementLines.kind })
        .from(statementLines)
        .where(inArray(statementLines.lineKey, part));
      for (const r of rows) if (r.kind === input.kind && r.duplicateOf === null) earlier.set(r.key, r.id);
    }
    const stored: Stored[] = [];
    let duplicates = 0;
    let notSettled = 0;
    for (const part of chunks(parsed.lines)) {
      const ids = await tx
        .insert(statementLines)
        .values(
          part.map((l) => {
            const duplicateOf = earlier.get(l.lineKey) ?? null;
            return {
              importId: imported.id,
              kind: input.kind,
              rowNo: l.row,
              lineType: l.lineType,
              providerRef: l.providerRef,
              lineKey: l.lineKey,
              grossPaise: l.grossPaise,
              feePaise: l.feePaise,
              taxPaise: l.taxPaise,
              netPaise: l.netPaise,
              valueDate: l.valueDate,
              eventDate: l.eventDate,
              settlementId: l.settlementId,
              utr: l.utr,
              raw: l.raw,
              matchPurpose: l.match?.purpose ?? null,
              matchRef: l.match?.ref ?? null,
              matchSide: l.match?.side ?? null,
              state: duplicateOf !== null ? ("duplicate" as const) : l.settled ? ("unmatched" as const) : ("not_settled" as const),
              duplicateOf,
            };
          }),
        )
        .returning({ id: statementLines.id });
      part.forEach((l, i) => {
        const id = ids[i]?.id;
        if (id === undefined) throw new Error("a statement line was not stored");
        if (earlier.has(l.lineKey)) duplicates++;
        else if (!l.settled) notSettled++;
        else stored.push({ ...l, id });
      });
    }
    const entries =
      input.kind === "gateway_settlement"
        ? await journalSettlements(s, imported.id, stored, input.staff)
        : await journalPayoutFees(s, imported.id, stored, input.staff);
    const own = await matchStatementLines(
      s,
      stored.map((l) => l.id),
    );
    const everything = await reconcileAll(s);
    const summary = { lines: parsed.lines.length, matched: own.matched, exceptions: own.raised, duplicates, notSettled, entries };
    await audit(s, {
      by: input.staff,
      client: input.client,
      at,
      action: "reconciliation.imported",
      subject: { type: "statement_import", id: imported.id },
      details: {
        kind: input.kind,
        provider: input.provider,
        source: input.source,
        fileName,
        sha256,
        ...summary,
        alsoMatched: everything.matched,
        raisedElsewhere: everything.raised,
      },
    });
    return { ok: true, importId: imported.id, ...summary };
  });
}

/**
 * The local stand-ins' latest statements (the gateway's settlement reports, the payout account's
 * statements), each imported unless it was before. Only where a stand-in is the provider.
 */
export async function importStandInStatements(
  services: Services & Pick<AppServices, "payments" | "payouts">,
  { staff, client }: { staff: Staff; client: Client | null },
) {
  const files: { kind: StatementKind; name: string; csv: string }[] = [
    ...((await services.payments.settlementReports?.()) ?? []).map((f) => ({ ...f, kind: "gateway_settlement" as const })),
    ...((await services.payouts.accountStatements?.()) ?? []).map((f) => ({ ...f, kind: "payout_statement" as const })),
  ];
  const done: { name: string; kind: StatementKind; result: ImportResult }[] = [];
  for (const f of files) {
    const bytes = Buffer.from(f.csv, "utf8");
    const result = await importStatement(services, {
      kind: f.kind,
      provider: "local",
      source: "stand_in",
      fileName: f.name,
      bytes,
      staff,
      client,
    });
    done.push({ name: f.name, kind: f.kind, result });
  }
  return {
    available: Boolean(services.payments.settlementReports || services.payouts.accountStatements),
    imported: done.filter((d) => d.result.ok),
    skipped: done.filter((d) => !d.result.ok && d.result.reason === "already_imported").length,
    refused: done.filter((d) => !d.result.ok && d.result.reason === "unreadable"),
  };
}
