// How a value of "Download my data" reads in its PDF: amounts (`…_paise`, or `…Paise` inside a JSON
// value) in rupees with Indian grouping, rates (`…_bps`) as percentages, times in India time, dates
// as "22 Nov 2026", yes or no, a dash for nothing; a JSON value as its keys and values. Pure.
import { formatDateTimeIST, longDate } from "../india-date.ts";
import { formatRupees } from "../money.ts";
import { COLUMN_LABELS } from "./column-labels.ts";
import { EXPORT_TEXT } from "./export-text.ts";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type ExportRow = Record<string, JsonValue>;

/** The column's name in words, or its database name when it has none. */
export const columnLabel = (column: string) => COLUMN_LABELS[column] ?? column;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
// Control characters other than a line break would print as boxes.
// oxlint-disable-next-line no-control-regex -- matching them is the point
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F]/g;

const isAmount = (key: string) => key.endsWith("_paise") || key.endsWith("Paise");
const isRate = (key: string) => key.endsWith("_bps") || key.endsWith("Bps");

function scalarText(key: string, value: null | boolean | number | string): string {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? EXPORT_TEXT.yes : EXPORT_TEXT.no;
  if (typeof value === "number") {
    if (isAmount(key) && Number.isInteger(value)) return formatRupees(value);
    if (isRate(key)) return `${(value / 100).toFixed(2)}%`;
    return String(value);
  }
  if (TIMESTAMP.test(value)) return formatDateTimeIST(new Date(value));
  if (DATE.test(value)) return longDate(value);
  return value.replace(CONTROL, " ");
}

function valueText(key: string, value: JsonValue): string {
  if (value === null || typeof value !== "object") return scalarText(key, value);
  if (Array.isArray(value)) return value.map((v) => valueText(key, v)).join(", ");
  return Object.entries(value)
    .map(([k, v]) => (v !== null && typeof v === "object" ? `${k}: (${valueText(k, v)})` : `${k}: ${valueText(k, v)}`))
    .join("; ");
}

/** A value as the PDF shows it, at most `max` characters (the JSON file has it whole). */
export function cellText(column: string, value: JsonValue | undefined, max = 1500): string {
  const text = valueText(column, value ?? null);
  return text.length <= max ? text : `${text.slice(0, max)}… ${EXPORT_TEXT.shortened}`;
}
