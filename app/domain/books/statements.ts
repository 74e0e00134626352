/**
 * The providers' statements as files (docs/decisions/0005-reconciliation-formats.md): the payment
 * gateway's settlement report in Razorpay's settlement recon columns, and the payout account's
 * statement in RazorpayX's account statement (transactions) columns. Each is read into statement
 * lines in integer paise, every row checked, or refused whole with the row and column named; each
 * is written the same way by the local stand-ins. Pure and browser-safe.
 */
import { todayIST } from "../india-date.ts";
import { divHalfUp, type IsoDate } from "../loan-math.ts";
import { csvTable, parseCsv } from "../csv.ts";
import { hasControlCharacter } from "../validators/text.ts";

export const STATEMENT_KINDS = ["gateway_settlement", "payout_statement"] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** A statement as a file: what a stand-in writes, what an upload carries. */
export interface StatementFile {
  name: string;
  csv: string;
}

/** The account and side of the journal line a statement line stands for (reconciliation matches it there). */
export interface MatchKey {
  purpose: "gateway_clearing" | "payout_account";
  ref: string;
  side: "debit" | "credit";
}

/** One line of a statement, as stored: amounts in paise. */
export interface StatementLine {
  /** The file's row (the header is row 1). */
  row: number;
  /** The provider's kind of line: payment, refund, adjustment… (gateway); payout, reversal, bank_transfer… (payouts). */
  lineType: string;
  /** The provider's id of the line's money: the payment (pay_…), the payout (pout_…), the refund, the transaction. */
  providerRef: string;
  /** What makes the line the same line in another file (overlapping reports): the kind and the provider's id. */
  lineKey: string;
  /** The amount the line is about (a payment's captured amount, a payout's amount), never negative. */
  grossPaise: number;
  /** The provider's fee, without its GST (negative when a reversal returns it). */
  feePaise: number;
  /** The GST on the fee. */
  taxPaise: number;
  /** What the line moves in the lender's account: positive in, negative out. */
  netPaise: number;
  /** Money in (a payment settled, a payout reversed) or out (a refund, a payout). */
  direction: "in" | "out";
  /** The statement's date of the line: the settlement's day (gateway), the transaction's day (payouts). */
  valueDate: IsoDate | null;
  /** The day of the event itself (the capture, the payout's creation), when the file says. */
  eventDate: IsoDate | null;
  settlementId: string | null;
  /** The settlement's bank reference (gateway) or the payout's UTR. */
  utr: string | null;
  /** Settled by the gateway (payout statements: always). A line not settled yet is kept but neither journalled nor matched. */
  settled: boolean;
  match: MatchKey | null;
  /** The row as the file had it, by column. */
  raw: Record<string, string>;
}

export type Parsed = { ok: true; lines: StatementLine[] } | { ok: false; message: string };

/** The most rows a statement may have (a month of a busy lender's settlements fits). */
export const MAX_STATEMENT_ROWS = 50_000;

/** GST on a provider's fees: 18%. */
export const GST_ON_FEES_BPS = 1800;

/** A header's name as compared: lower case, spaces, dots and hyphens as underscores ("Settlement UTR" = "settlement_utr", "source.id" = "source_id"). */
const columnName = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s.-]+/g, "_");

// ---- Values ---------------------------------------------------------------------------------

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const WHOLE = /^-?\d{1,13}$/;
const DECIMAL = /^-?\d{1,11}\.\d{1,2}$/;

class RowError extends Error {}

interface Row {
  no: number;
  get(column: string): string;
}

/** Amounts in a file: integer paise (the APIs', the stand-ins'), or rupees when any amount in the file has a decimal point (the dashboards' downloads). */
function amountReader(rows: readonly Row[], columns: readonly string[]) {
  const rupees = rows.some((r) => columns.some((c) => r.get(c).includes(".")));
  return (r: Row, column: string, { optional = false, signed = false } = {}): number => {
    const v = r.get(column).replaceAll(",", "").trim();
    if (v === "") {
      if (optional) return 0;
      throw new RowError(`Row ${r.no}: ${column} is empty.`);
    }
    let paise: number;
    if (rupees && (DECIMAL.test(v) || WHOLE.test(v))) {
      const [whole = "0", fraction = ""] = v.replace("-", "").split(".");
      paise = (Number(whole) * 100 + Number((fraction + "00").slice(0, 2))) * (v.startsWith("-") ? -1 : 1);
    } else if (!rupees && WHOLE.test(v)) paise = Number(v);
    else throw new RowError(`Row ${r.no}: ${column} is not an amount ("${v.slice(0, 20)}").`);
    if (!Number.isSafeInteger(paise)) throw new RowError(`Row ${r.no}: ${column} is too large.`);
    if (paise < 0 && !signed) throw new RowError(`Row ${r.no}: ${column} cannot be negative.`);
    return paise;
  };
}

/**
 * The India date of a time in a file: unix seconds (the APIs'), an ISO time with a zone, or a
 * date and time written in India time ("2026-03-03 11:00:00", "03/03/2026 11:00:00").
 */
function dateOf(r: Row, column: string, optional: boolean): IsoDate | null {
  const v = r.get(column).trim();
  if (v === "") {
    if (optional) return null;
    throw new RowError(`Row ${r.no}: ${column} is empty.`);
  }
  let day: string | null = null;
  if (/^\d{9,11}$/.test(v)) day = todayIST(new Date(Number(v) * 1000));
  else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v)) {
    const t = Date.parse(v);
    day = Number.isNaN(t) ? null : todayIST(new Date(t));
  } else {
    const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(v);
    const dmy = /^(\d{2})\/(\d{2})\/(\d{4})(?: \d{2}:\d{2}(?::\d{2})?)?$/.exec(v);
    const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : [];
    if (y && m && d) {
      const candidate = `${y}-${m}-${d}`;
      const t = new Date(`${candidate}T00:00:00Z`);
      day = !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === candidate ? candidate : null;
    }
  }
  if (!day || day < "2000-01-01" || day > "2099-12-31")
    throw new RowError(`Row ${r.no}: ${column} is not a date and time ("${v.slice(0, 30)}").`);
  return day;
}

function idOf(r: Row, column: string, optional = false): string | null {
  const v = r.get(column).trim();
  if (v === "") {
    if (optional) return null;
    throw new RowError(`Row ${r.no}: ${column} is empty.`);
  }
  if (!ID.test(v)) throw new RowError(`Row ${r.no}: ${column} is not a provider's id ("${v.slice(0, 30)}").`);
  return v;
}

function booleanOf(r: Row, column: string, fallback: boolean): boolean {
  const v = r.get(column).trim().toLowerCase();
  if (v === "") return fallback;
  if (["true", "1", "yes", "y"].includes(v)) return true;
  if (["false", "0", "no", "n"].includes(v)) return false;
  throw new RowError(`Row ${r.no}: ${column} is neither true nor false ("${v.slice(0, 10)}").`);
}

function typeOf(r: Row, column: string): string {
  const v = r.get(column).trim().toLowerCase();
  if (!/^[a-z][a-z_]{0,31}$/.test(v)) throw new RowError(`Row ${r.no}: ${column} is not a kind of line ("${v.slice(0, 20)}").`);
  return v;
}

/** A reference (a UTR) as kept: printable, at most 64 characters. */
function textOf(r: Row, column: string): string | null {
  const v = r.get(column).trim();
  if (v === "") return null;
  if (!/^[\x20-\x7e]{1,64}$/.test(v)) throw new RowError(`Row ${r.no}: ${column} is not a reference ("${v.slice(0, 20)}").`);
  return v;
}

/**
 * The rows of a CSV file with the columns it must have: each row a lookup by column (aliases
 * resolved), or the file refused (not text, no header, a column missing, a row of another width).
 */
function tableOf(
  text: string,
  required: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): { ok: true; rows: Row[]; columns: string[] } | { ok: false; message: string } {
  if (hasControlCharacter(text)) return { ok: false, message: "The file is not a CSV text file (it holds binary data)." };
  const parsed = parseCsv(text, { maxRows: MAX_STATEMENT_ROWS });
  if (!parsed.ok) return parsed;
  const [header, ...body] = parsed.rows;
  if (!header) return { ok: false, message: "The file is empty." };
  const columns = header.map((h) => {
    const name = columnName(h);
    return aliases[name] ?? name;
  });
  const seen = new Set<string>();
  for (const c of columns) {
    if (c && seen.has(c)) return { ok: false, message: `The column ${c} appears twice in the header.` };
    seen.add(c);
  }
  const missing = required.filter((c) => !seen.has(c));
  if (missing.length)
    return {
      ok: false,
      message: `The header has no ${missing.join(", ")} column${missing.length > 1 ? "s" : ""}: is this the right kind of statement, exported as CSV?`,
    };
  if (body.length === 0) return { ok: false, message: "The file has a header but no lines." };
  const index = new Map(columns.map((c, i) => [c, i]));
  const rows: Row[] = [];
  for (const [i, values] of body.entries()) {
    const no = i + 2;
    if (values.length !== columns.length)
      return { ok: false, message: `Row ${no} has ${values.length} values where the header has ${columns.length} columns.` };
    rows.push({ no, get: (column) => (index.has(column) ? (values[index.get(column) as number] ?? "") : "") });
  }
  return { ok: true, rows, columns };
}

const rawOf = (r: Row, columns: readonly string[]) => Object.fromEntries(columns.filter(Boolean).map((c) => [c, r.get(c)]));

function currencyCheck(r: Row) {
  const currency = r.get("currency").trim().toUpperCase();
  if (currency !== "" && currency !== "INR") throw new RowError(`Row ${r.no}: the currency is ${currency.slice(0, 5)}, not INR.`);
}

function linesOf(rows: readonly Row[], read: (r: Row) => StatementLine): Parsed {
  const lines: StatementLine[] = [];
  const keys = new Map<string, number>();
  try {
    for (const r of rows) {
      const line = read(r);
      const twice = keys.get(line.lineKey);
      if (twice !== undefined) return { ok: false, message: `Rows ${twice} and ${r.no} are the same line (${line.lineKey}).` };
      keys.set(line.lineKey, r.no);
      lines.push(line);
    }
  } catch (error) {
    if (error instanceof RowError) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, lines };
}

// ---- The gateway's settlement report (Razorpay settlement recon) -----------------------------

/** Razorpay's settlement recon columns, in the order the stand-in writes them. */
export const SETTLEMENT_COLUMNS = [
  "entity_id",
  "type",
  "debit",
  "credit",
  "amount",
  "currency",
  "fee",
  "tax",
  "on_hold",
  "settled",
  "created_at",
  "settled_at",
  "settlement_id",
  "posted_at",
  "credit_type",
  "description",
  "notes",
  "payment_id",
  "settlement_utr",
  "order_id",
  "order_receipt",
  "method",
  "card_network",
  "card_issuer",
  "card_type",
  "dispute_id",
] as const;
export type SettlementRecord = Partial<Record<(typeof SETTLEMENT_COLUMNS)[number], string | number | boolean | null>>;

const SETTLEMENT_REQUIRED = ["entity_id", "type", "debit", "credit", "amount", "fee", "tax", "settled_at", "settlement_id"] as const;

/**
 * Reads a settlement report. Per line: `amount` is the transaction's amount, `fee` Razorpay's fee
 * including its GST, `tax` that GST; money in (`credit`) is the amount less the fee, money out
 * (`debit`) the amount plus the fee: a line whose figures do not add up is refused, since the
 * settlement entry must balance to the paisa. A payment is matched to its capture (the gateway
 * clearing account's debit with its id); a refund or dispute naming a payment to that payment's
 * reversal (a credit); anything else matches nothing.
 */
export function parseSettlementReport(text: string): Parsed {
  const table = tableOf(text, SETTLEMENT_REQUIRED, { id: "entity_id", utr: "settlement_utr", fees: "fee" });
  if (!table.ok) return table;
  const amount = amountReader(table.rows, ["debit", "credit", "amount", "fee", "tax"]);
  return linesOf(table.rows, (r) => {
    currencyCheck(r);
    const entityId = idOf(r, "entity_id") as string;
    const lineType = typeOf(r, "type");
    const [debit, credit, gross, fee, tax] = ["debit", "credit", "amount", "fee", "tax"].map((c) => amount(r, c)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    if (debit > 0 && credit > 0) throw new RowError(`Row ${r.no}: a line is either a debit or a credit, not both.`);
    if (tax > fee) throw new RowError(`Row ${r.no}: the tax is more than the fee it is part of.`);
    const direction = debit > 0 ? "out" : "in";
    const net = credit - debit;
    if (net !== (direction === "in" ? gross - fee : -(gross + fee)))
      throw new RowError(
        direction === "in"
          ? `Row ${r.no}: the credit is not the amount less the fee.`
          : `Row ${r.no}: the debit is not the amount plus the fee.`,
      );
    const settled = booleanOf(r, "settled", true) && !booleanOf(r, "on_hold", false);
    const paymentId = idOf(r, "payment_id", true);
    return {
      row: r.no,
      lineType,
      providerRef: entityId,
      // Listed before it settled, it is another line than the settled one a later report lists.
      lineKey: settled ? `${lineType}:${entityId}` : `${lineType}:${entityId}:not_settled`,
      grossPaise: gross,
      feePaise: fee - tax,
      taxPaise: tax,
      netPaise: net,
      direction,
      valueDate: dateOf(r, "settled_at", !settled),
      eventDate: dateOf(r, "created_at", true),
      settlementId: idOf(r, "settlement_id", !settled),
      utr: textOf(r, "settlement_utr"),
      settled,
      match:
        lineType === "payment" && direction === "in"
          ? { purpose: "gateway_clearing", ref: entityId, side: "debit" }
          : direction === "out" && paymentId && lineType !== "payment"
            ? { purpose: "gateway_clearing", ref: paymentId, side: "credit" }
            : null,
      raw: rawOf(r, table.columns),
    };
  });
}

/** A settlement report as CSV, in Razorpay's columns (what the local stand-in writes). */
export const settlementCsv = (records: readonly SettlementRecord[]) => csvTable(SETTLEMENT_COLUMNS, records);

/**
 * What the local gateway stand-in charges on a payment (deterministic): its fee at `feeBps` of the
 * amount, half-up to the paisa, and 18% GST on the fee. `fee` is Razorpay's column: the fee with its GST.
 */
export function standInCharges(amountPaise: number, feeBps: number) {
  const base = divHalfUp(amountPaise * feeBps, 10_000);
  const tax = divHalfUp(base * GST_ON_FEES_BPS, 10_000);
  return { fee: base + tax, tax };
}

// ---- The payout account's statement (RazorpayX transactions) --------------------------------

/** RazorpayX's account statement columns (the transaction entity, `source` flattened), in the order the stand-in writes them. */
export const PAYOUT_STATEMENT_COLUMNS = [
  "id",
  "account_number",
  "source_entity",
  "source_id",
  "payout_id",
  "amount",
  "currency",
  "debit",
  "credit",
  "fees",
  "tax",
  "balance",
  "utr",
  "mode",
  "status",
  "reference_id",
  "created_at",
] as const;
export type PayoutStatementRecord = Partial<Record<(typeof PAYOUT_STATEMENT_COLUMNS)[number], string | number | boolean | null>>;

const PAYOUT_REQUIRED = ["id", "source_entity", "source_id", "amount", "debit", "credit", "created_at"] as const;

/**
 * Reads a payout account statement. Per line: `amount` is the transaction's amount without fees
 * (debited for a payout, credited for a reversal: the debit or credit must be it), `fees` RazorpayX's
 * fee including its GST and `tax` that GST (negative on a reversal, which returns them). A payout is
 * matched to the payout account's credit with its id; a reversal to the debit that undid it (its
 * `payout_id`); anything else (money added to the account) matches nothing.
 */
export function parsePayoutStatement(text: string): Parsed {
  const table = tableOf(text, PAYOUT_REQUIRED, {
    transaction_id: "id",
    source_payout_id: "payout_id",
    source_fees: "fees",
    source_tax: "tax",
    source_utr: "utr",
    source_mode: "mode",
    source_status: "status",
    fee: "fees",
  });
  if (!table.ok) return table;
  const amount = amountReader(table.rows, ["amount", "debit", "credit", "fees", "tax", "balance"]);
  return linesOf(table.rows, (r) => {
    currencyCheck(r);
    const id = idOf(r, "id") as string;
    const source = typeOf(r, "source_entity");
    const sourceId = idOf(r, "source_id") as string;
    const gross = amount(r, "amount");
    const debit = amount(r, "debit");
    const credit = amount(r, "credit");
    const fees = amount(r, "fees", { optional: true, signed: true });
    const tax = amount(r, "tax", { optional: true, signed: true });
    if (debit > 0 && credit > 0) throw new RowError(`Row ${r.no}: a line is either a debit or a credit, not both.`);
    if (Math.max(debit, credit) !== gross) throw new RowError(`Row ${r.no}: the debit or credit is not the amount.`);
    if (Math.abs(tax) > Math.abs(fees) || (tax !== 0 && Math.sign(tax) !== Math.sign(fees)))
      throw new RowError(`Row ${r.no}: the tax is not part of the fees.`);
    const payoutId = idOf(r, "payout_id", true) ?? (source === "payout" ? sourceId : null);
    if (source === "reversal" && !payoutId) throw new RowError(`Row ${r.no}: a reversal that names no payout_id.`);
    const direction = debit > 0 ? "out" : "in";
    return {
      row: r.no,
      lineType: source,
      providerRef: payoutId ?? sourceId,
      lineKey: `txn:${id}`,
      grossPaise: gross,
      feePaise: fees - tax,
      taxPaise: tax,
      netPaise: credit - debit,
      direction,
      valueDate: dateOf(r, "created_at", false),
      eventDate: dateOf(r, "created_at", false),
      settlementId: null,
      utr: textOf(r, "utr"),
      settled: true,
      match:
        source === "payout" && direction === "out" && payoutId
          ? { purpose: "payout_account", ref: payoutId, side: "credit" }
          : source === "reversal" && direction === "in" && payoutId
            ? { purpose: "payout_account", ref: payoutId, side: "debit" }
            : null,
      raw: rawOf(r, table.columns),
    };
  });
}

/** A payout account statement as CSV, in RazorpayX's columns (what the local stand-in writes). */
export const payoutStatementCsv = (records: readonly PayoutStatementRecord[]) => csvTable(PAYOUT_STATEMENT_COLUMNS, records);

/** The statement of `kind` read from `text`. */
export const parseStatement = (kind: StatementKind, text: string): Parsed =>
  kind === "gateway_settlement" ? parseSettlementReport(text) : parsePayoutStatement(text);
