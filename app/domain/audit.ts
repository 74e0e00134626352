/**
 * The audit log viewer's rules (docs/product.md "Staff roles"; PRODUCT.md §12): the filters as they
 * travel in the URL, read with one schema by the page and its CSV export; how a row's details are
 * shown; and how a CSV cell is written. Pure, browser-safe.
 */
import { z } from "zod";
import { ROLE_LABEL } from "./roles.ts";
import { normalizeIndianMobile } from "./validators/mobile.ts";

/** Rows per page of the viewer. */
export const AUDIT_PAGE_SIZE = 50;
/** At most this many rows go into one CSV export (the newest matching ones). */
export const AUDIT_EXPORT_LIMIT = 100_000;

/** Who did it: anyone, a staff member (their user id), the system (jobs, webhooks) or any borrower. */
export type AuditActor = { kind: "staff"; id: string } | { kind: "system" } | { kind: "borrower" };

export interface AuditFilter {
  /** Leave out sanctions screening's rows (a viewer without `aml.view`). */
  hideScreening?: boolean;
  actor: AuditActor | null;
  /** The borrower's 10-digit mobile number. */
  borrower: string | null;
  action: string | null;
  /** India-time days, "YYYY-MM-DD", both inclusive. */
  from: string | null;
  to: string | null;
  page: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What the application writes as an action: "loan.status", "kyc.document_viewed"… */
const ACTION_PATTERN = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*$/;

/** An India date (YYYY-MM-DD) between 2000 and 2099. */
export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && s >= "2000-01-01" && s <= "2099-12-31";
  });

/**
 * The filters, field by field. Each field is read on its own: one that is not understood falls back
 * to its default (and is named in a short notice) while the others still apply.
 */
export const auditFilterSchema = z.object({
  actor: z
    .string()
    .max(40)
    .transform((v, ctx): AuditActor => {
      if (v === "system" || v === "borrower") return { kind: v };
      if (UUID.test(v)) return { kind: "staff", id: v.toLowerCase() };
      ctx.addIssue({ code: "custom", message: "not an actor" });
      return z.NEVER;
    }),
  borrower: z
    .string()
    .max(20)
    .transform((v, ctx) => {
      const mobile = normalizeIndianMobile(v);
      if (mobile) return mobile;
      ctx.addIssue({ code: "custom", message: "not a mobile number" });
      return z.NEVER;
    }),
  action: z.string().max(64).regex(ACTION_PATTERN),
  from: isoDay,
  to: isoDay,
  page: z.coerce.number().int().min(1).max(10_000),
});

type FilterKey = keyof typeof auditFilterSchema.shape;

/** How each filter is named in the notice about those not understood. */
const FIELD_NAME: Record<FilterKey, string> = {
  actor: "who",
  borrower: "borrower mobile",
  action: "action",
  from: "from date",
  to: "to date",
  page: "page",
};

/**
 * The filters of a query string. Empty fields mean "any"; a field that is not understood is
 * dropped and named in `notices` (never an error: the page shows the default instead).
 */
export function parseAuditFilter(params: URLSearchParams): { filter: AuditFilter; notices: string[] } {
  const shape = auditFilterSchema.shape;
  const ignored: string[] = [];
  const read = <K extends FilterKey>(key: K): z.output<(typeof shape)[K]> | null => {
    const raw = params.get(key)?.trim();
    if (!raw) return null;
    const parsed = shape[key].safeParse(raw);
    if (parsed.success) return parsed.data as z.output<(typeof shape)[K]>;
    ignored.push(FIELD_NAME[key]);
    return null;
  };
  const filter: AuditFilter = {
    actor: read("actor"),
    borrower: read("borrower"),
    action: read("action"),
    from: read("from"),
    to: read("to"),
    page: read("page") ?? 1,
  };
  const notices = ignored.length ? [`Not understood, so not applied: ${ignored.join(", ")}.`] : [];
  if (filter.from && filter.to && filter.from > filter.to) {
    [filter.from, filter.to] = [filter.to, filter.from];
    notices.push("The dates were the wrong way round, so they were swapped.");
  }
  return { filter, notices };
}

/** The actor as a filter value (the select's option value). */
export const actorValue = (actor: AuditActor | null) => (actor ? (actor.kind === "staff" ? actor.id : actor.kind) : "");

/** The query string of a filter (without the page unless asked), for links and the CSV. */
export function auditFilterQuery(filter: AuditFilter, page?: number): string {
  const p = new URLSearchParams();
  if (filter.actor) p.set("actor", actorValue(filter.actor));
  if (filter.borrower) p.set("borrower", filter.borrower);
  if (filter.action) p.set("action", filter.action);
  if (filter.from) p.set("from", filter.from);
  if (filter.to) p.set("to", filter.to);
  if (page && page > 1) p.set("page", String(page));
  return p.toString();
}

/** Whether any filter other than the page is set. */
export const isFiltered = (f: AuditFilter) => Boolean(f.actor || f.borrower || f.action || f.from || f.to);

/** The filters as recorded in the `audit.exported` row. */
export const filterForRecord = (f: AuditFilter) => ({
  actor: f.actor ? actorValue(f.actor) : null,
  borrower: f.borrower,
  action: f.action,
  from: f.from,
  to: f.to,
});

/** How a stored actor role is named on the page. */
export const ACTOR_ROLE_LABEL: Record<string, string> = { ...ROLE_LABEL, borrower: "Borrower", system: "System" };

const DETAIL_VALUE_MAX = 80;

function detailText(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v !== "object" || v === null)) return value.map(String).join(", ");
  return JSON.stringify(value);
}

/**
 * A row's details as "key: value" pairs to read (not raw JSON): values longer than `max`
 * characters are cut with an ellipsis, and `full` keeps the whole text for a tooltip.
 */
export function detailPairs(details: unknown, max = DETAIL_VALUE_MAX): { key: string; value: string; full: string | null }[] {
  if (!details || typeof details !== "object" || Array.isArray(details)) {
    return details === null || details === undefined ? [] : [{ key: "value", ...cut(detailText(details), max) }];
  }
  return Object.entries(details as Record<string, unknown>).map(([key, value]) => ({ key, ...cut(detailText(value), max) }));
}

function cut(text: string, max: number): { value: string; full: string | null } {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > max ? { value: `${oneLine.slice(0, max - 1)}…`, full: oneLine.slice(0, 2000) } : { value: oneLine, full: null };
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. A
 * cell a spreadsheet would read as a formula (starting with = + - @, tab or carriage return) gets a
 * leading single quote first, so it is shown as text and never run; a negative number ("-12.50")
 * is no formula and stays a number.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line, ended with CRLF as RFC 4180 has it. */
export const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(",")}\r\n`;

export const AUDIT_CSV_COLUMNS = [
  "time_ist",
  "actor_name",
  "actor_role",
  "action",
  "subject_type",
  "subject_id",
  "subject_reference",
  "borrower_mobile",
  "details_json",
  "ip",
  "user_agent",
] as const;
