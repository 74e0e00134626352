/**
 * The finance pages' rules (docs/product.md "The lender's books"): what each report reads from the
 * URL (one reader serves the page and its export), how an amount is written in a file (rupees with
 * two decimals, no grouping), a Tally voucher, and the forms' schemas (closing a month, a new
 * version of a rule). Pure, browser-safe.
 */
import { z } from "zod";
import { isoDay } from "../audit.ts";
import { addDays, type IsoDate } from "../loan-math.ts";
import { LOAN_NUMBER } from "../loans/disbursal.ts";
import { parseRupeesToPaise } from "../money.ts";
import { xmlText } from "../xml-text.ts";
import {
  ACCOUNT_PURPOSES,
  ACCOUNT_TYPE,
  type AccountPurpose,
  type AccountType,
  type BooksRuleKind,
  chartSchema,
  DEFAULT_CHART,
  FRAMEWORK_LABEL,
  frameworkSchema,
  type ProvisioningRule,
  provisioningSchema,
} from "./chart.ts";
import { dayAfterMonth, monthEnd } from "./positions.ts";

/** Lines a page of an account's ledger. */
export const LEDGER_PAGE_SIZE = 100;
/** Entries a page of the journal. */
export const JOURNAL_PAGE_SIZE = 50;
/** An entry with more lines than this (a day's accrual, a month's provisioning) is shown by account. */
export const ENTRY_LINES_SHOWN = 25;
/** At most this many rows (lines; vouchers for Tally) go into one export. */
export const BOOKS_EXPORT_LIMIT = 100_000;

// ─── Months ─────────────────────────────────────────────────────────────────

export const MONTH = /^20\d{2}-(0[1-9]|1[0-2])$/;
export const monthSchema = z.string().trim().regex(MONTH, "Choose a month");
/** The month after `month` (YYYY-MM). */
export const nextMonth = (month: string) => dayAfterMonth(month).slice(0, 7);
/** The month before `month` (YYYY-MM). */
export const previousMonth = (month: string) => addDays(`${month}-01`, -1).slice(0, 7);
/** The last day of a month (YYYY-MM). */
export const lastDayOf = (month: string): IsoDate => monthEnd(`${month}-01`);

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** "March 2026". */
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return `${MONTH_NAMES[m - 1]} ${y}`;
}

// ─── Amounts in files ───────────────────────────────────────────────────────

/** Paise as rupees with two decimals and no grouping ("-1234.05"): what a spreadsheet or Tally reads as a number. */
export function rupeesText(paise: number): string {
  const sign = paise < 0 ? "-" : "";
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** A balance (debit positive) on its side: what the trial balance and a ledger show in their debit or credit column. */
export const sideOf = (balance: number) => ({ debit: Math.max(0, balance), credit: Math.max(0, -balance) });
/** "Dr" or "Cr" for a balance (nothing for zero). */
export const drCr = (balance: number) => (balance > 0 ? "Dr" : balance < 0 ? "Cr" : "");

// ─── The chart, as the reports show it ──────────────────────────────────────

/** Whether a URL's segment names an account purpose. */
export const isPurpose = (value: string | undefined): value is AccountPurpose =>
  (ACCOUNT_PURPOSES as readonly string[]).includes(value ?? "");

/** What each account purpose is for, in words (the installation's first names say it). */
export const PURPOSE_MEANING = Object.fromEntries(DEFAULT_CHART.map((a) => [a.purpose, a.name])) as Record<AccountPurpose, string>;

export const ACCOUNT_TYPE_LABEL: Record<AccountType, string> = {
  asset: "Asset",
  liability: "Liability",
  income: "Income",
  expense: "Expense",
};

/** The income and expense accounts (the income page's), in the chart's order. */
export const INCOME_PURPOSES = (Object.keys(ACCOUNT_TYPE) as AccountPurpose[]).filter((p) => ACCOUNT_TYPE[p].type === "income");
export const EXPENSE_PURPOSES = (Object.keys(ACCOUNT_TYPE) as AccountPurpose[]).filter((p) => ACCOUNT_TYPE[p].type === "expense");

// ─── What the URL says ──────────────────────────────────────────────────────

/** The problems of a query, by field: each in words, shown beside its field. */
export type Problems<K extends string> = Partial<Record<K, string>>;

const shown = (v: string) => (v.length > 24 ? `${v.slice(0, 24)}…` : v);

/**
 * Reads each field of `shape` from `params` on its own: an empty field is null; one that does not
 * parse is null too, with `problem(raw)` for it (the page shows the default and says why).
 */
function readFields<S extends Record<string, z.ZodType>>(
  params: URLSearchParams,
  shape: S,
  problem: { [K in keyof S]: (raw: string) => string },
): { values: { [K in keyof S]: z.output<S[K]> | null }; problems: Problems<Extract<keyof S, string>> } {
  const values = {} as { [K in keyof S]: z.output<S[K]> | null };
  const problems: Problems<Extract<keyof S, string>> = {};
  for (const key of Object.keys(shape) as Extract<keyof S, string>[]) {
    const raw = params.get(key)?.trim() ?? "";
    const parsed = raw ? (shape[key] as z.ZodType).safeParse(raw) : null;
    values[key] = parsed?.success ? (parsed.data as z.output<S[typeof key]>) : null;
    if (parsed && !parsed.success) problems[key] = problem[key](shown(raw));
  }
  return { values, problems };
}

const notADate = (example: string) => (raw: string) => `“${raw}” is not a date (use a date like ${example}).`;
const page = z.coerce.number().int().min(1).max(1_000_000);
const notAPage = () => "Not a page number: showing the first page.";

/** The date of the trial balance (`on`), today when none or a bad one is given. */
export function parseOn(params: URLSearchParams, today: IsoDate) {
  const { values, problems } = readFields(params, { on: isoDay }, { on: notADate(today) });
  return { on: values.on ?? today, problems };
}

export interface DateRange {
  /** India dates, both included. */
  from: IsoDate;
  to: IsoDate;
}

/**
 * A period (`from`, `to`, both included) and a page: by default the month to date; the dates the
 * wrong way round are swapped.
 */
export function parseRange(params: URLSearchParams, today: IsoDate) {
  const { values, problems } = readFields(
    params,
    { from: isoDay, to: isoDay, page },
    { from: notADate(`${today.slice(0, 7)}-01`), to: notADate(today), page: notAPage },
  );
  let from = values.from ?? (values.to ? `${values.to.slice(0, 7)}-01` : `${today.slice(0, 7)}-01`);
  let to = values.to ?? (values.from && values.from > today ? lastDayOf(values.from.slice(0, 7)) : today);
  if (from > to) {
    [from, to] = [to, from];
    problems.to = "The dates were the wrong way round, so they were swapped.";
  }
  return { range: { from, to } as DateRange, page: values.page ?? 1, problems };
}

/** The query string of a period (and a page after the first). */
export function rangeQuery(range: DateRange, pageNo?: number) {
  const p = new URLSearchParams({ from: range.from, to: range.to });
  if (pageNo && pageNo > 1) p.set("page", String(pageNo));
  return p.toString();
}

/** The journal's filters: any of them may be empty (any). */
export interface JournalFilter {
  from: IsoDate | null;
  to: IsoDate | null;
  kind: string | null;
  /** A loan number, SL and 8 digits. */
  loan: string | null;
  /** An entry with a line of this amount (debit or credit). */
  amountPaise: number | null;
  /** Text in the narration. */
  text: string | null;
  page: number;
}

const journalShape = {
  from: isoDay,
  to: isoDay,
  kind: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/),
  loan: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(LOAN_NUMBER)),
  amount: z.string().transform((v, ctx) => {
    const paise = parseRupeesToPaise(v);
    if (paise && paise > 0) return paise;
    ctx.addIssue({ code: "custom", message: "not an amount" });
    return z.NEVER;
  }),
  text: z.string().max(100),
  page,
};
export type JournalField = keyof typeof journalShape;

export function parseJournalFilter(params: URLSearchParams): { filter: JournalFilter; problems: Problems<JournalField> } {
  const { values, problems } = readFields(params, journalShape, {
    from: notADate("2026-04-01"),
    to: notADate("2026-04-30"),
    kind: (raw) => `“${raw}” is not a kind of entry.`,
    loan: (raw) => `“${raw}” is not a loan number (SL and 8 digits).`,
    amount: (raw) => `“${raw}” is not an amount in rupees (like 1250.50).`,
    text: () => "Search for at most 100 characters.",
    page: notAPage,
  });
  const filter: JournalFilter = {
    from: values.from,
    to: values.to,
    kind: values.kind,
    loan: values.loan,
    amountPaise: values.amount,
    text: values.text,
    page: values.page ?? 1,
  };
  if (filter.from && filter.to && filter.from > filter.to) {
    [filter.from, filter.to] = [filter.to, filter.from];
    problems.to = "The dates were the wrong way round, so they were swapped.";
  }
  return { filter, problems };
}

/** The journal's filters as a query string (the page only when asked), for links and the exports. */
export function journalFilterQuery(f: JournalFilter, pageNo?: number): string {
  const p = new URLSearchParams();
  if (f.from) p.set("from", f.from);
  if (f.to) p.set("to", f.to);
  if (f.kind) p.set("kind", f.kind);
  if (f.loan) p.set("loan", f.loan);
  if (f.amountPaise) p.set("amount", rupeesText(f.amountPaise));
  if (f.text) p.set("text", f.text);
  if (pageNo && pageNo > 1) p.set("page", String(pageNo));
  return p.toString();
}

export const isJournalFiltered = (f: JournalFilter) => Boolean(f.from || f.to || f.kind || f.loan || f.amountPaise || f.text);

/** A month end to look at (`month`), or null for the latest kept. */
export function parseMonthParam(params: URLSearchParams) {
  const { values, problems } = readFields(params, { month: monthSchema }, { month: (raw) => `“${raw}” is not a month (like 2026-03).` });
  return { month: values.month, problems };
}

// ─── Tally ──────────────────────────────────────────────────────────────────

/** Text for an XML element (app/domain/xml-text.ts), kept here for the books' writers and their tests. */
export { xmlText };

/**
 * The start of a Tally Prime import file of vouchers (Import Data, report Vouchers): the vouchers
 * go into the company open in Tally, whose ledgers must bear the chart's account names.
 */
export const TALLY_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\r\n<ENVELOPE>\r\n<HEADER>\r\n<TALLYREQUEST>Import Data</TALLYREQUEST>\r\n</HEADER>\r\n<BODY>\r\n<IMPORTDATA>\r\n<REQUESTDESC>\r\n<REPORTNAME>Vouchers</REPORTNAME>\r\n</REQUESTDESC>\r\n<REQUESTDATA>\r\n';
export const TALLY_TAIL = "</REQUESTDATA>\r\n</IMPORTDATA>\r\n</BODY>\r\n</ENVELOPE>\r\n";

export interface TallyVoucher {
  entryNo: number;
  entryDate: IsoDate;
  narration: string;
  /** One per account: the ledger's name and the entry's net on it (debit positive; none zero). */
  lines: { ledger: string; paise: number }[];
}

/**
 * One journal entry as a Tally journal voucher: dated YYYYMMDD, numbered as the entry, a ledger
 * entry per account; a debit is "deemed positive" with a negative amount, a credit the reverse
 * (Tally's sign convention), in rupees with two decimals.
 */
export function tallyVoucher(v: TallyVoucher): string {
  const date = v.entryDate.replaceAll("-", "");
  const lines = v.lines
    .map(
      (l) =>
        `<ALLLEDGERENTRIES.LIST>\r\n<LEDGERNAME>${xmlText(l.ledger)}</LEDGERNAME>\r\n<ISDEEMEDPOSITIVE>${l.paise > 0 ? "Yes" : "No"}</ISDEEMEDPOSITIVE>\r\n<AMOUNT>${rupeesText(-l.paise)}</AMOUNT>\r\n</ALLLEDGERENTRIES.LIST>\r\n`,
    )
    .join("");
  return (
    `<TALLYMESSAGE xmlns:UDF="TallyUDF">\r\n<VOUCHER VCHTYPE="Journal" ACTION="Create" OBJVIEW="Accounting Voucher View">\r\n` +
    `<DATE>${date}</DATE>\r\n<EFFECTIVEDATE>${date}</EFFECTIVEDATE>\r\n<VOUCHERTYPENAME>Journal</VOUCHERTYPENAME>\r\n` +
    `<VOUCHERNUMBER>${v.entryNo}</VOUCHERNUMBER>\r\n<PERSISTEDVIEW>Accounting Voucher View</PERSISTEDVIEW>\r\n` +
    `<NARRATION>${xmlText(v.narration)}</NARRATION>\r\n${lines}</VOUCHER>\r\n</TALLYMESSAGE>\r\n`
  );
}

// ─── Forms ──────────────────────────────────────────────────────────────────

const reason = z
  .string({ error: "Say why it changes." })
  .trim()
  .min(5, "Say why it changes, in a few words.")
  .max(500, "Keep the reason under 500 characters.");

/** Closing a month: which, and a note for the file. */
export const closeMonthSchema = z.object({
  month: monthSchema,
  note: z
    .string({ error: "Write a note for the file (what was checked)." })
    .trim()
    .min(5, "Write a note for the file, in a few words.")
    .max(500, "Keep the note under 500 characters."),
});

/** A new version of each kind of the books' rules: the rule's own schema (chart.ts) and why. */
export const frameworkFormSchema = frameworkSchema.extend({ reason });
export const chartFormSchema = z.object({ accounts: chartSchema, reason });
export const provisioningFormSchema = provisioningSchema.extend({ reason });
export const RULE_FORM_SCHEMAS = {
  framework: frameworkFormSchema,
  chart: chartFormSchema,
  provisioning: provisioningFormSchema,
} as const;

// ─── Rules, in words ────────────────────────────────────────────────────────

/** Basis points as a percentage: 40 → "0.4%", 1000 → "10%". */
export const percentOfBps = (bps: number) => `${(bps / 100).toLocaleString("en-IN", { maximumFractionDigits: 2 })}%`;

export const PROVISIONING_RATES = [
  { key: "standardBps", label: "Standard" },
  { key: "subStandardBps", label: "Sub-standard (NPA up to 12 months)" },
  { key: "doubtfulBps", label: "Doubtful (NPA longer)" },
  { key: "lossBps", label: "Loss" },
  { key: "eclStage1Bps", label: "ECL stage 1 (up to 30 days past due)" },
  { key: "eclStage2Bps", label: "ECL stage 2 (31 to 90 days past due)" },
  { key: "eclStage3Bps", label: "ECL stage 3 (NPA)" },
] as const satisfies readonly { key: keyof ProvisioningRule; label: string }[];

/** A version of a rule in a line (the chart: how many accounts). */
export function describeRule(kind: BooksRuleKind, value: unknown): string {
  if (kind === "framework") {
    const f = frameworkSchema.safeParse(value);
    return f.success ? `${FRAMEWORK_LABEL[f.data.framework]}; GST registered in ${f.data.lenderState}.` : "Not readable.";
  }
  if (kind === "provisioning") {
    const p = provisioningSchema.safeParse(value);
    return p.success ? PROVISIONING_RATES.map((r) => `${r.label}: ${percentOfBps(p.data[r.key])}`).join("; ") + "." : "Not readable.";
  }
  const c = chartSchema.safeParse(value);
  return c.success ? `${c.data.length} accounts.` : "Not readable.";
}

/** What a version of the chart changed from the one before it, account by account. */
export function chartChanges(before: unknown, after: unknown): string[] {
  const a = chartSchema.safeParse(before);
  const b = chartSchema.safeParse(after);
  if (!a.success || !b.success) return [];
  const old = new Map(a.data.map((x) => [x.purpose, x]));
  const changes: string[] = [];
  for (const n of b.data) {
    const o = old.get(n.purpose);
    if (!o) continue;
    if (o.code !== n.code) changes.push(`${o.name}: code ${o.code} → ${n.code}`);
    if (o.name !== n.name) changes.push(`${n.code}: “${o.name}” → “${n.name}”`);
  }
  return changes;
}

/** Whether a new version would say the same as the one in force. */
export function sameRule(kind: BooksRuleKind, a: unknown, b: unknown): boolean {
  if (kind === "chart") {
    const x = chartSchema.safeParse(a);
    const y = chartSchema.safeParse(b);
    if (!x.success || !y.success) return false;
    const by = new Map(y.data.map((c) => [c.purpose, c]));
    return x.data.length === y.data.length && x.data.every((c) => by.get(c.purpose)?.code === c.code && by.get(c.purpose)?.name === c.name);
  }
  const schema = kind === "framework" ? frameworkSchema : provisioningSchema;
  const x = schema.safeParse(a);
  const y = schema.safeParse(b);
  return (
    x.success && y.success && JSON.stringify(x.data, Object.keys(x.data).sort()) === JSON.stringify(y.data, Object.keys(y.data).sort())
  );
}
