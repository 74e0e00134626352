/**
 * Names, addresses and amounts as the bureau file writes them (docs/decisions/0006-credit-bureau-format.md,
 * "Values"): upper-case printable ASCII, split into the format's fixed-size fields; paise as whole rupees.
 */
import { divHalfUp, type IsoDate } from "../loan-math.ts";

/** Latin letters without their accents ("É" is "E"); other scripts are left for the caller to refuse. */
const withoutAccents = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");

/** Words into lines of at most `width` characters (a longer word is cut), or null when more than `lines` are needed. */
export function wrap(words: readonly string[], width: number, lines: number): string[] | null {
  const out: string[] = [];
  let line = "";
  for (let word of words) {
    while (word.length > width) {
      if (line) out.push(line);
      out.push(word.slice(0, width));
      word = word.slice(width);
      line = "";
    }
    if (!word) continue;
    if (line && line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      if (line) out.push(line);
      line = word;
    }
  }
  if (line) out.push(line);
  return out.length <= lines ? out : null;
}

export type Cleaned = { ok: true; words: string[] } | { ok: false; reason: string };

/**
 * A person's name as the file has it: accents dropped, upper case, apostrophes removed ("D'Souza"
 * is "DSOUZA"), dots, hyphens and commas as spaces, runs of spaces as one. Refused: digits, letters
 * of other scripts, any other character.
 */
export function cleanName(name: string): Cleaned {
  const s = withoutAccents(name).toUpperCase().replace(/['’`]/g, "").replace(/[.,-]/g, " ");
  if (/\d/.test(s)) return { ok: false, reason: "has digits" };
  const other = /[^A-Z\s]/.exec(s);
  if (other) return { ok: false, reason: `has a character the file cannot carry ("${other[0]}")` };
  const words = s.split(/\s+/).filter(Boolean);
  return words.length ? { ok: true, words } : { ok: false, reason: "is empty" };
}

const ADDRESS_MARKS: Readonly<Record<string, string>> = { "–": "-", "—": "-", "‘": "'", "’": "'", "“": " ", "”": " ", '"': " " };

/**
 * An address as the file has it: accents dropped, upper case, letters, digits, spaces and
 * , . / - # & ( ) : ' kept; other marks as spaces. Refused: letters of other scripts.
 */
export function cleanAddress(parts: readonly string[]): Cleaned {
  const s = withoutAccents(parts.join(", "))
    .toUpperCase()
    .replace(/[–—‘’“”"]/g, (c) => ADDRESS_MARKS[c] ?? " ");
  const foreign = [...s].find((c) => c > "\x7e" && /\p{L}/u.test(c));
  if (foreign) return { ok: false, reason: `has a letter the file cannot carry ("${foreign}")` };
  const words = s
    .replace(/[^A-Z0-9,./\-#&():' ]/g, " ")
    .split(/\s+/)
    .filter((w) => w !== "" && w !== ",");
  return words.length ? { ok: true, words } : { ok: false, reason: "is empty" };
}

/** Paise as whole rupees, half-up (₹10.50 is 11, ₹10.49 is 10). */
export const rupees = (paise: number) => String(divHalfUp(paise, 100));

/** An ISO date as the file's DDMMYYYY. */
export const ddmmyyyy = (date: IsoDate) => `${date.slice(8, 10)}${date.slice(5, 7)}${date.slice(0, 4)}`;

/** Basis points of a yearly rate as the file's percentage with two decimals (1800 is "18.00"). */
export const percent = (bps: number) => `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, "0")}`;

/** A valid calendar date "YYYY-MM-DD". */
export function isIsoDate(value: unknown): value is IsoDate {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === value;
}
