/**
 * The rejections a bureau reports on a file we sent, as the one CSV we import
 * (docs/decisions/0006-credit-bureau-format.md, "The rejection file"): the CICs' own error reports
 * differ, so finance turns each into these columns. Read strictly (the row and column named on
 * anything wrong) and written the same way (tests, the local stand-in). Pure and browser-safe.
 */
import { csvTable, parseCsv } from "../csv.ts";
import { hasControlCharacter } from "../validators/text.ts";

export interface Rejection {
  accountNumber: string;
  segment: string;
  field: string | null;
  code: string;
  message: string;
}

/** The columns, in the order written; read in any order, names compared without regard to case. */
export const REJECTION_COLUMNS = ["account_number", "segment", "field", "error_code", "message"] as const;
type Column = (typeof REJECTION_COLUMNS)[number];

/** The most rows a rejection file may have. */
export const MAX_REJECTION_ROWS = 50_000;

const SEGMENTS = ["TUDF", "PN", "ID", "PT", "EC", "PA", "TL", "ES", "TRLR"];

/** Each column's check: the value as stored, or an Error's text. */
const CHECKS: Record<Column, (v: string) => string | null | { error: string }> = {
  account_number: (v) => (/^SL\d{8}$/.test(v) ? v : { error: "is not one of our account numbers (SL and 8 digits)" }),
  segment: (v) => (SEGMENTS.includes(v) ? v : { error: `is not a segment of the format (${SEGMENTS.join(", ")})` }),
  field: (v) => (v === "" ? null : /^\d{2}$/.test(v) ? v : { error: "is neither empty nor a two-digit field tag" }),
  error_code: (v) => (/^[A-Za-z0-9_-]{1,16}$/.test(v) ? v : { error: "is not an error code (1 to 16 letters, digits, _ or -)" }),
  message: (v) => (v !== "" && v.length <= 500 ? v : { error: "is empty or longer than 500 characters" }),
};

function headerIndex(header: readonly string[]): Map<Column, number> {
  const names = header.map((h) => h.trim().toLowerCase());
  const index = new Map<Column, number>();
  for (const [i, name] of names.entries()) {
    if (!(REJECTION_COLUMNS as readonly string[]).includes(name))
      throw new Error(`Row 1, column ${i + 1}: "${name}" is not a column of the rejection file.`);
    if (index.has(name as Column)) throw new Error(`Row 1, column ${i + 1}: the column ${name} appears twice.`);
    index.set(name as Column, i);
  }
  const missing = REJECTION_COLUMNS.filter((c) => !index.has(c));
  if (missing.length) throw new Error(`Row 1: the header has no ${missing.join(", ")} column.`);
  return index;
}

function rowOf(values: readonly string[], index: Map<Column, number>, row: number): Rejection {
  if (values.length !== index.size) throw new Error(`Row ${row} has ${values.length} values where the header has ${index.size} columns.`);
  const read = (column: Column) => {
    const raw = values[index.get(column) as number] ?? "";
    const result = CHECKS[column](raw.trim());
    if (result !== null && typeof result === "object")
      throw new Error(`Row ${row}, column ${column}: "${raw.slice(0, 40)}" ${result.error}.`);
    return result;
  };
  return {
    accountNumber: read("account_number") as string,
    segment: read("segment") as string,
    field: read("field"),
    code: read("error_code") as string,
    message: read("message") as string,
  };
}

/** Reads a rejection file: UTF-8 CSV (a byte-order mark allowed), the five columns; a file with a header and no rows rejects nothing. */
export function parseRejections(text: string): Rejection[] {
  if (hasControlCharacter(text)) throw new Error("The rejection file is not a CSV text file (it holds control characters).");
  const parsed = parseCsv(text, { maxRows: MAX_REJECTION_ROWS });
  if (!parsed.ok) throw new Error(parsed.message);
  const [header, ...body] = parsed.rows;
  if (!header) throw new Error("The rejection file is empty: it has no header row.");
  const index = headerIndex(header);
  return body.map((values, i) => rowOf(values, index, i + 2));
}

/** A rejection file, CRLF after each row. */
export const rejectionCsv = (rows: readonly Rejection[]) =>
  csvTable(
    REJECTION_COLUMNS,
    rows.map((r) => ({ account_number: r.accountNumber, segment: r.segment, field: r.field, error_code: r.code, message: r.message })),
  );
