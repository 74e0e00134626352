// "Download my data" (docs/product.md "Protecting data and the service"): everything held about one
// borrower, read table by table from the registry (tables.server.ts) with the borrower's id in each
// query, and whom their data went to, worked out from the records of what was sent. Values keep
// their database column names and become JSON: times as ISO strings, amounts in paise as stored.
import { and, asc, eq, getTableName, inArray, isNotNull, max, min, ne, sql } from "drizzle-orm";
import { getTableConfig, type PgColumn } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { BUREAU_NAME, type Bureau } from "../../domain/bureau/record.ts";
import type { ExportRow, JsonValue } from "../../domain/privacy/export-format.ts";
import { type DataItemId, RECIPIENT_KINDS, type RecipientKind } from "../../domain/privacy/notice.ts";
import type { Db } from "../db/client.ts";
import {
  borrowerBankAccounts,
  borrowerProfiles,
  bureauRecords,
  bureauRuns,
  ckycRecords,
  creditChecks,
  dataBreaches,
  loanApplications,
  mandateDebits,
  mandates,
  notificationDeliveries,
  notifications,
  payments,
  payouts,
  users,
  verificationSends,
} from "../db/schema.ts";
import { BORROWER_TABLES, type BorrowerTable } from "./tables.server.ts";

export interface ExportSection {
  table: string;
  label: string;
  item: DataItemId;
  rows: ExportRow[];
}

export interface ExportRecipient {
  kind: RecipientKind;
  /** The provider as recorded ("local" for a stand-in, "razorpay", a bureau's name). */
  name: string;
  firstAt: string;
  lastAt: string;
}

export interface BorrowerExport {
  generatedAt: string;
  borrower: { name: string | null; mobile: string | null };
  sections: ExportSection[];
  recipients: ExportRecipient[];
}

type Services = Pick<AppServices, "db" | "now" | "config">;

/**
 * Everything held about `userId`. Reads through `services.db`: in a repeatable-read transaction
 * (as `downloadMyData` calls it) every section is of one moment.
 */
export async function exportBorrowerData(services: Services, userId: string): Promise<BorrowerExport> {
  const { db } = services;
  const [who] = await db
    .select({ mobile: users.mobile, name: users.name, fullName: borrowerProfiles.fullName })
    .from(users)
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
    .where(eq(users.id, userId));
  const sections: ExportSection[] = [];
  for (const entry of BORROWER_TABLES) {
    const table = getTableName(entry.table);
    const rows = await readRows(db, entry, userId);
    sections.push({
      table,
      label: entry.label,
      item: entry.item,
      rows: table === "data_breach_borrowers" ? await withBreaches(db, rows) : rows,
    });
  }
  return {
    generatedAt: services.now().toISOString(),
    borrower: { name: who?.fullName ?? who?.name ?? null, mobile: who?.mobile ?? null },
    sections,
    recipients: await recipientsOf(services, userId),
  };
}

// The first of these a table has orders its rows (oldest first), then its primary key.
const TIME_ORDER = ["entry_no", "created_at", "recorded_at", "issued_at", "requested_at", "uploaded_at", "checked_at"];
const TIME_ORDER_MORE = ["asked_at", "sent_at", "received_at", "connected_at", "opened_on", "as_of", "month", "due_date"];

function orderOf(columns: readonly PgColumn[], primaryKey: readonly PgColumn[]): PgColumn[] {
  const time = [...TIME_ORDER, ...TIME_ORDER_MORE].map((name) => columns.find((c) => c.name === name)).find((c) => c !== undefined);
  const key = primaryKey.length ? primaryKey : columns.filter((c) => c.primary);
  return [...(time ? [time] : []), ...key.filter((c) => c !== time)];
}

async function readRows(db: Db, entry: BorrowerTable, userId: string): Promise<ExportRow[]> {
  const config = getTableConfig(entry.table);
  const columns = config.columns.filter((c) => !entry.omit?.includes(c.name));
  const fields = Object.fromEntries(columns.map((c) => [c.name, c]));
  const rows = await db
    .select(fields)
    .from(entry.table)
    .where(entry.where(userId))
    .orderBy(...orderOf(config.columns, config.primaryKeys[0]?.columns ?? []).map((c) => asc(c)));
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, jsonOf(v)])));
}

/** A value as JSON: a time as its ISO string, a big integer as a number (or a string beyond 2^53). */
function jsonOf(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(jsonOf);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonOf(v)]));
  return value as JsonValue;
}

/** Each breach the borrower was listed in, with what the register says of it for them to read. */
async function withBreaches(db: Db, rows: ExportRow[]): Promise<ExportRow[]> {
  const ids = rows.map((r) => String(r.breach_id));
  if (!ids.length) return rows;
  const b = dataBreaches;
  const breaches = await db
    .select({
      id: b.id,
      reference: b.reference,
      discovered_at: b.discoveredAt,
      occurred_at: b.occurredAt,
      description: b.description,
      data_items: b.dataItems,
      consequences: b.consequences,
      mitigation: b.mitigation,
      borrower_steps: b.borrowerSteps,
    })
    .from(b)
    .where(inArray(b.id, ids));
  return rows.map((row) => {
    const { id: _id, ...breach } = breaches.find((x) => x.id === row.breach_id) ?? { id: "" };
    return { ...row, ...(jsonOf(breach) as ExportRow) };
  });
}

type Sent = { kind: RecipientKind; name: string; firstAt: Date | null; lastAt: Date | null };

/** Who received the borrower's data, from the records of each sending, one line per kind and provider. */
async function recipientsOf({ db, config }: Services, userId: string): Promise<ExportRecipient[]> {
  const applications = sql`(select ${loanApplications.id} from ${loanApplications} where ${loanApplications.userId} = ${userId})`;
  const mobile = sql`(select ${users.mobile} from ${users} where ${users.id} = ${userId})`;
  const c = creditChecks;
  const checks = await db
    .select({ kind: c.kind, name: c.provider, firstAt: min(c.checkedAt), lastAt: max(c.checkedAt) })
    .from(c)
    .where(eq(c.userId, userId))
    .groupBy(c.kind, c.provider);
  const reported = await db
    .select({ bureau: bureauRuns.bureau, firstAt: min(bureauRuns.createdAt), lastAt: max(bureauRuns.createdAt) })
    .from(bureauRecords)
    .innerJoin(bureauRuns, eq(bureauRuns.id, bureauRecords.runId))
    .where(and(eq(bureauRecords.userId, userId), eq(bureauRecords.heldBack, false)))
    .groupBy(bureauRuns.bureau);
  const paid = await db
    .select({ name: payments.provider, firstAt: min(payments.createdAt), lastAt: max(payments.updatedAt) })
    .from(payments)
    .where(and(eq(payments.userId, userId), ne(payments.provider, "offline")))
    .groupBy(payments.provider);
  const paidOut = await db
    .select({ name: payouts.provider, firstAt: min(payouts.requestedAt), lastAt: max(payouts.updatedAt) })
    .from(payouts)
    .where(sql`${payouts.applicationId} in ${applications}`)
    .groupBy(payouts.provider);
  const mandated = await db
    .select({ name: mandates.provider, firstAt: min(mandates.createdAt), lastAt: max(mandates.updatedAt) })
    .from(mandates)
    .where(eq(mandates.userId, userId))
    .groupBy(mandates.provider);
  const debited = await db
    .select({ name: mandates.provider, firstAt: min(mandateDebits.presentedAt), lastAt: max(mandateDebits.presentedAt) })
    .from(mandateDebits)
    .innerJoin(mandates, eq(mandates.id, mandateDebits.mandateId))
    .where(and(eq(mandateDebits.userId, userId), isNotNull(mandateDebits.presentedAt)))
    .groupBy(mandates.provider);
  const d = notificationDeliveries;
  const delivered = await db
    .select({ channel: d.channel, firstAt: min(d.updatedAt), lastAt: max(d.updatedAt) })
    .from(d)
    .innerJoin(notifications, eq(notifications.id, d.notificationId))
    .where(and(eq(notifications.userId, userId), eq(d.status, "sent"), inArray(d.channel, ["sms", "email"])))
    .groupBy(d.channel);
  const [codes] = await db
    .select({ firstAt: min(verificationSends.sentAt), lastAt: max(verificationSends.sentAt) })
    .from(verificationSends)
    .where(sql`${verificationSends.target} = ${mobile}`);
  const k = ckycRecords;
  // A search sends the PAN and date of birth; an upload (even one that failed) the whole record.
  const sentToRegistry = sql`case when ${k.attempts} > 0 then ${k.updatedAt} end`;
  const [registry] = await db
    .select({
      firstAt: sql`least(${k.searchedAt}, ${k.uploadedAt}, ${sentToRegistry})`.mapWith(k.searchedAt),
      lastAt: sql`greatest(${k.searchedAt}, ${k.uploadedAt}, ${sentToRegistry})`.mapWith(k.searchedAt),
    })
    .from(k)
    .where(eq(k.userId, userId));
  // The account's number and holder's name, sent to check the name at the bank (the one verifier is the local stand-in).
  const [bankChecked] = await db
    .select({ firstAt: borrowerBankAccounts.updatedAt, lastAt: borrowerBankAccounts.updatedAt })
    .from(borrowerBankAccounts)
    .where(and(eq(borrowerBankAccounts.userId, userId), isNotNull(borrowerBankAccounts.nameAtBank)));
  const sms = config.sms ? hostOf(config.sms.url) : "local";
  const email = config.email.provider.name === "smtp" ? hostOf(config.email.provider.url) : "local";
  const sent: Sent[] = [
    ...checks.map((r) => ({ ...r, kind: r.kind === "pan" ? ("pan_verifier" as const) : ("credit_bureau" as const) })),
    ...reported.map((r) => ({ ...r, kind: "credit_bureau" as const, name: BUREAU_NAME[r.bureau as Bureau] ?? r.bureau })),
    ...paid.map((r) => ({ ...r, kind: "payment_gateway" as const })),
    ...paidOut.map((r) => ({ ...r, kind: "payout_provider" as const })),
    ...[...mandated, ...debited].map((r) => ({ ...r, kind: "mandate_provider" as const })),
    ...delivered.map((r) => ({
      ...r,
      kind: r.channel === "sms" ? ("sms_gateway" as const) : ("email_gateway" as const),
      name: r.channel === "sms" ? sms : email,
    })),
    ...(codes ? [{ ...codes, kind: "sms_gateway" as const, name: sms }] : []),
    ...(registry ? [{ ...registry, kind: "ckyc_registry" as const, name: config.ckyc.provider }] : []),
    ...(bankChecked ? [{ ...bankChecked, kind: "bank_verifier" as const, name: "local" }] : []),
  ];
  return merged(sent);
}

/** One line per kind and name, from the earliest sending to the latest; kinds in the notice's order. */
function merged(sent: readonly Sent[]): ExportRecipient[] {
  const lines = new Map<string, { kind: RecipientKind; name: string; first: number; last: number }>();
  for (const s of sent) {
    const times = [s.firstAt, s.lastAt].filter((t): t is Date => t instanceof Date).map((t) => t.getTime());
    if (!times.length) continue;
    const key = `${s.kind}\u0000${s.name}`;
    const line = lines.get(key) ?? { kind: s.kind, name: s.name, first: Infinity, last: -Infinity };
    line.first = Math.min(line.first, ...times);
    line.last = Math.max(line.last, ...times);
    lines.set(key, line);
  }
  const order = Object.keys(RECIPIENT_KINDS);
  return [...lines.values()]
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.name.localeCompare(b.name))
    .map((l) => ({ kind: l.kind, name: l.name, firstAt: new Date(l.first).toISOString(), lastAt: new Date(l.last).toISOString() }));
}

/** A provider's host name from its configured address (never its credentials). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname || "configured";
  } catch {
    return "configured";
  }
}
