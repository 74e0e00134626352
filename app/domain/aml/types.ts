/**
 * The sanctions lists as data (docs/decisions/0007-sanctions-screening.md, "The lists"): every list,
 * whatever its file, becomes the same `ListedPerson`s, which the screening index is built from.
 * Pure and browser-safe.
 */

/** The lists every borrower is screened against. */
export type ListSource = "un_consolidated" | "uapa_51a" | "wmd_12a";

export const LIST_SOURCES: readonly ListSource[] = ["un_consolidated", "uapa_51a", "wmd_12a"];

/** Each list's name as compliance reads it. */
export const LIST_NAME: Readonly<Record<ListSource, string>> = {
  un_consolidated: "UN Security Council consolidated list",
  uapa_51a: "UAPA section 51A list",
  wmd_12a: "WMD Act section 12A list",
};

/**
 * A date of birth as a list gives it: a full date, a year and month, a year alone (`month` and `day`
 * null), or a range of years (the UN list's BETWEEN, and a year it calls approximate).
 */
export type ListedDob = { year: number; month: number | null; day: number | null } | { fromYear: number; toYear: number };

/** A person or an entity on a list: its names (the primary first, then its aliases), dates of birth and listing. */
export interface ListedPerson {
  source: ListSource;
  /** The list's own reference: the UN's permanent reference number (QDi.335), the national list's entry. */
  ref: string;
  kind: "individual" | "entity";
  /** The primary name first, then the aliases; never empty, no two the same but for case. */
  names: string[];
  /** Individuals only; empty when the list gives none. */
  dobs: ListedDob[];
  /** YYYY-MM-DD, when the list gives it. */
  listedOn: string | null;
  /** As the list writes it; several joined with "; ". */
  nationality: string | null;
  /** The list's own grouping: the UN's list type (Al-Qaida, Taliban, DPRK…), the national list's notification. */
  program: string | null;
}

/** The earliest and latest year a date of birth allows. */
export const MIN_BIRTH_YEAR = 1850;
export const MAX_BIRTH_YEAR = 2100;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether year, month and day make a calendar date (the year within the bounds above). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || year < MIN_BIRTH_YEAR || year > MAX_BIRTH_YEAR) return false;
  if (!Number.isInteger(month) || month < 1 || month > 12) return false;
  const last = month === 2 && isLeap(year) ? 29 : (DAYS[month - 1] as number);
  return Number.isInteger(day) && day >= 1 && day <= last;
}

/** A date of birth as compliance reads it: "1972-03-14", "1972-03", "1972", "1958 to 1960". */
export function dobText(dob: ListedDob): string {
  if ("fromYear" in dob) return `${dob.fromYear} to ${dob.toYear}`;
  const mm = dob.month === null ? "" : `-${String(dob.month).padStart(2, "0")}`;
  const dd = dob.day === null ? "" : `-${String(dob.day).padStart(2, "0")}`;
  return `${dob.year}${mm}${dd}`;
}

/**
 * What identifies a listed entry for a decision about it: its names (primary and aliases) and dates
 * of birth, in one canonical text (case, spacing and order do not count). A match cleared against
 * one text is asked about again when its entry's text changes in a later version of the list.
 */
export function entryFacts(person: Pick<ListedPerson, "names" | "dobs">): string {
  const names = [...new Set(person.names.map((n) => n.trim().replace(/\s+/g, " ").toLowerCase()))].sort();
  const dobs = [...new Set(person.dobs.map(dobText))].sort();
  return JSON.stringify({ names, dobs });
}
