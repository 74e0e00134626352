/**
 * CSV as RFC 4180 has it, read and written (docs/decisions/0005-reconciliation-formats.md: the
 * providers' statements). Pure and browser-safe. Writing here is for files this application reads
 * back (the stand-ins' statements): values are kept as they are; a CSV a person opens in a
 * spreadsheet is written with `csvCell` (app/domain/audit.ts), which guards against formulas.
 */

/**
 * RFC 4180 rows: fields separated by commas, a field in double quotes may hold commas, line breaks
 * and doubled quotes; CRLF or LF ends a row; a byte-order mark at the start is dropped. Refused:
 * a quote left open, a quote inside an unquoted field, too many rows, columns or characters.
 */
export function parseCsv(
  text: string,
  { maxRows = 50_000, maxColumns = 80, maxCell = 4_000 }: { maxRows?: number; maxColumns?: number; maxCell?: number } = {},
): { ok: true; rows: string[][] } | { ok: false; message: string } {
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let wasQuoted = false;
  let i = 0;
  const endCell = () => {
    if (cell.length > maxCell) return false;
    row.push(cell);
    cell = "";
    wasQuoted = false;
    return true;
  };
  const rowNo = () => rows.length + 1;
  while (i < src.length) {
    const c = src[i] as string;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += c;
      if (cell.length > maxCell) return { ok: false, message: `Row ${rowNo()}: a value is longer than ${maxCell} characters.` };
      i++;
      continue;
    }
    if (c === '"') {
      if (cell !== "" || wasQuoted) return { ok: false, message: `Row ${rowNo()}: a quote inside a value that does not start with one.` };
      quoted = true;
      wasQuoted = true;
      i++;
      continue;
    }
    if (c === ",") {
      if (!endCell()) return { ok: false, message: `Row ${rowNo()}: a value is longer than ${maxCell} characters.` };
      if (row.length > maxColumns) return { ok: false, message: `Row ${rowNo()} has more than ${maxColumns} columns.` };
      i++;
      continue;
    }
    if (c === "\r" || c === "\n") {
      if (!endCell()) return { ok: false, message: `Row ${rowNo()}: a value is longer than ${maxCell} characters.` };
      rows.push(row);
      row = [];
      if (rows.length > maxRows + 1)
        return { ok: false, message: `The file has more than ${maxRows.toLocaleString("en-IN")} rows: import it in parts.` };
      i += c === "\r" && src[i + 1] === "\n" ? 2 : 1;
      continue;
    }
    if (wasQuoted) return { ok: false, message: `Row ${rowNo()}: text after a quoted value's closing quote.` };
    cell += c;
    if (cell.length > maxCell) return { ok: false, message: `Row ${rowNo()}: a value is longer than ${maxCell} characters.` };
    i++;
  }
  if (quoted) return { ok: false, message: `Row ${rowNo()}: a quoted value is never closed.` };
  if (cell !== "" || wasQuoted || row.length > 0) {
    endCell();
    rows.push(row);
  }
  // Blank lines (a trailing newline, an empty row) are no rows.
  return { ok: true, rows: rows.filter((r) => r.some((v) => v.trim() !== "")) };
}

const needsQuotes = /[",\r\n]/;
/** One CSV row: a value with a comma, quote or line break in double quotes (quotes doubled). */
export const csvRow = (values: readonly (string | number | boolean | null)[]) =>
  values
    .map((v) => {
      const s = v === null ? "" : String(v);
      return needsQuotes.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
    })
    .join(",");

/** A table as CSV: the header row, then each record's values in the columns' order (a missing one empty), CRLF after each row. */
export const csvTable = <C extends string>(
  columns: readonly C[],
  records: readonly Partial<Record<C, string | number | boolean | null>>[],
) => [csvRow(columns), ...records.map((rec) => csvRow(columns.map((c) => rec[c] ?? null)))].map((row) => `${row}\r\n`).join("");
