// How a value of "Download my data" reads in its PDF: amounts (`…_paise`, or `…Paise` inside a JSON
// value) in rupees with Indian grouping, rates (`…_bps`) as percentages, times in India time, dates
// as "22 Nov 2026" ("22 नवंबर 2026" in Hindi), yes or no in the PDF's language, a dash for nothing;
// a JSON value as its keys and values (the stored keys, as the JSON file has them). Pure.
import type { Language } from "../../i18n/languages.ts";
import en from "../../i18n/messages/en/dataExport.ts";
import { formatDateTimeIST, longDate } from "../india-date.ts";
import { formatRupees } from "../money.ts";
import { COLUMN_LABELS } from "./column-labels.ts";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type ExportRow = Record<string, JsonValue>;

/** The words a value is read with, in the PDF's language (the catalogue's `dataExport`). */
export interface ValueWords {
  language: Language;
  yes: string;
  no: string;
  shortened: string;
}

/** The English words (the catalogue's source). */
export const ENGLISH_VALUE_WORDS: ValueWords = { language: "en", yes: en.yes, no: en.no, shortened: en.shortened };

/** The column's name in words, or its database name when it has none. */
export const columnLabel = (column: string, labels: Readonly<Record<string, string>> = COLUMN_LABELS) => labels[column] ?? column;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
// Control characters other than a line break would print as boxes.
// oxlint-disable-next-line no-control-regex -- matching them is the point
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F]/g;

const isAmount = (key: string) => key.endsWith("_paise") || key.endsWith("Paise");
const isRate = (key: string) => key.endsWith("_bps") || key.endsWith("Bps");

function scalarText(key: string, value: null | boolean | number | string, words: ValueWords): string {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? words.yes : words.no;
  if (typeof value === "number") {
    if (isAmount(key) && Number.isInteger(value)) return formatRupees(value);
    if (isRate(key)) return `${(value / 100).toFixed(2)}%`;
    return String(value);
  }
  if (TIMESTAMP.test(value)) return formatDateTimeIST(new Date(value), words.language);
  if (DATE.test(value)) return longDate(value, words.language);
  return value.replace(CONTROL, " ");
}

function valueText(key: string, value: JsonValue, words: ValueWords): string {
  if (value === null || typeof value !== "object") return scalarText(key, value, words);
  if (Array.isArray(value)) return value.map((v) => valueText(key, v, words)).join(", ");
  return Object.entries(value)
    .map(([k, v]) => (v !== null && typeof v === "object" ? `${k}: (${valueText(k, v, words)})` : `${k}: ${valueText(k, v, words)}`))
    .join("; ");
}

/** A value as the PDF shows it, at most `max` characters (the JSON file has it whole), read with `words`. */
export function cellText(column: string, value: JsonValue | undefined, max = 1500, words: ValueWords = ENGLISH_VALUE_WORDS): string {
  const text = valueText(column, value ?? null, words);
  return text.length <= max ? text : `${text.slice(0, max)}… ${words.shortened}`;
}
