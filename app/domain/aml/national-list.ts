/**
 * The national lists as one CSV of ours (docs/decisions/0007-sanctions-screening.md, "The national
 * lists"): the Ministry of Home Affairs publishes the UAPA lists (the Fourth Schedule's individuals,
 * the First Schedule's organisations, orders under section 51A) as web pages and PDFs, and the
 * designated list under section 12A of the WMD Act is kept on the FIU-IND portal; neither is a file a
 * program can read. Compliance copies each into this CSV (*assumed*, our own format): UTF-8 (a
 * byte-order mark allowed), RFC 4180, a header row naming the columns (any order and case):
 *
 *   ref           required  the entry's reference, unique in the file (e.g. "UAPA-IV-54", "WMD-12A-7")
 *   kind          required  individual | entity
 *   name          required  the primary name, as the notification writes it
 *   aliases                 other names, separated by ";" (the MHA writes them after "@")
 *   dob                     dates of birth separated by ";": YYYY-MM-DD, YYYY-MM, YYYY or YYYY-YYYY (a range)
 *   nationality             as the notification writes it
 *   listed_on               YYYY-MM-DD, the notification's date
 *   notification            the gazette notification (e.g. "S.O. 739(E)")
 *
 * Anything else is refused whole with the row and column named. Pure and browser-safe.
 */
import { parseCsv } from "../csv.ts";
import { hasControlCharacter } from "../validators/text.ts";
import { isCalendarDate, type ListedDob, type ListedPerson, MAX_BIRTH_YEAR, MIN_BIRTH_YEAR } from "./types.ts";

export const NATIONAL_COLUMNS = ["ref", "kind", "name", "aliases", "dob", "nationality", "listed_on", "notification"] as const;
type Column = (typeof NATIONAL_COLUMNS)[number];
const REQUIRED: readonly Column[] = ["ref", "kind", "name"];

/** The most rows a national list may have (the real ones have under a hundred). */
export const MAX_NATIONAL_ROWS = 10_000;

const year = (s: string) => {
  const y = Number(s);
  return y >= MIN_BIRTH_YEAR && y <= MAX_BIRTH_YEAR ? y : null;
};

/** One date of birth of the dob column, or null when it is not one of the four forms. */
export function parseDob(text: string): ListedDob | null {
  const range = /^(\d{4})-(\d{4})$/.exec(text);
  if (range) {
    const [from, to] = [year(range[1] as string), year(range[2] as string)];
    return from !== null && to !== null && from <= to ? { fromYear: from, toYear: to } : null;
  }
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  if (!m) return null;
  const y = year(m[1] as string);
  const month = m[2] === undefined ? null : Number(m[2]);
  const day = m[3] === undefined ? null : Number(m[3]);
  if (y === null || !isCalendarDate(y, month ?? 1, day ?? 1)) return null;
  return { year: y, month, day };
}

function headerIndex(header: readonly string[]): Map<Column, number> {
  const index = new Map<Column, number>();
  for (const [i, raw] of header.entries()) {
    const name = raw.trim().toLowerCase();
    if (!(NATIONAL_COLUMNS as readonly string[]).includes(name))
      throw new Error(`Row 1, column ${i + 1}: "${raw.slice(0, 40)}" is not a column of the list (${NATIONAL_COLUMNS.join(", ")}).`);
    if (index.has(name as Column)) throw new Error(`Row 1, column ${i + 1}: the column ${name} appears twice.`);
    index.set(name as Column, i);
  }
  const missing = REQUIRED.filter((c) => !index.has(c));
  if (missing.length) throw new Error(`Row 1: the header has no ${missing.join(", ")} column.`);
  return index;
}

/**
 * Reads a national list (UAPA section 51A or WMD Act section 12A) in the CSV above. Throws on a file
 * with no entries: an empty file is a mistake, never a list that was emptied.
 */
export function parseNationalList(csv: string, source: "uapa_51a" | "wmd_12a"): ListedPerson[] {
  if (hasControlCharacter(csv)) throw new Error("The list is not a CSV text file (it holds control characters).");
  const parsed = parseCsv(csv, { maxRows: MAX_NATIONAL_ROWS });
  if (!parsed.ok) throw new Error(parsed.message);
  const [header, ...body] = parsed.rows;
  if (!header) throw new Error("The list is empty: it has no header row.");
  const index = headerIndex(header);
  const seen = new Set<string>();
  const persons = body.map((values, i): ListedPerson => {
    const row = i + 2;
    if (values.length !== index.size) throw new Error(`Row ${row} has ${values.length} values where the header has ${index.size} columns.`);
    const read = (column: Column) => {
      const at = index.get(column);
      return at === undefined ? "" : (values[at] ?? "").replace(/\s+/g, " ").trim();
    };
    const fail = (column: Column, what: string): never => {
      throw new Error(`Row ${row}, column ${column}: "${read(column).slice(0, 40)}" ${what}.`);
    };
    const ref = read("ref");
    if (!/^[\w./() -]{1,40}$/.test(ref)) fail("ref", "is not a reference (1 to 40 letters, digits, spaces and . / ( ) - _)");
    if (seen.has(ref)) fail("ref", "is the reference of an earlier row");
    seen.add(ref);
    const kind = read("kind").toLowerCase();
    if (kind !== "individual" && kind !== "entity") fail("kind", "is neither individual nor entity");
    const name = read("name");
    if (!/\p{L}/u.test(name)) fail("name", "is not a name");
    const names = [name];
    for (const alias of read("aliases")
      .split(";")
      .map((a) => a.trim()))
      if (alias !== "" && !names.some((n) => n.toLowerCase() === alias.toLowerCase())) names.push(alias);
    const dobs = read("dob")
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => parseDob(d) ?? fail("dob", "is not a list of dates of birth (YYYY-MM-DD, YYYY-MM, YYYY or YYYY-YYYY, separated by ;)"));
    if (kind === "entity" && dobs.length) fail("dob", "is a date of birth for an entity");
    const listedOn = read("listed_on");
    const listed = listedOn === "" ? null : parseDob(listedOn);
    if (listedOn !== "" && (listed === null || "fromYear" in listed || listed.day === null))
      fail("listed_on", "is not a date (YYYY-MM-DD)");
    return {
      source,
      ref,
      kind: kind as "individual" | "entity",
      names,
      dobs,
      listedOn: listedOn === "" ? null : listedOn,
      nationality: read("nationality") || null,
      program: read("notification") || null,
    };
  });
  if (persons.length === 0) throw new Error("The list has a header and no entries.");
  return persons;
}
