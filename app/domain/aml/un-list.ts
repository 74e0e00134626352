/**
 * The UN Security Council consolidated list read as the UN publishes it
 * (https://scsanctions.un.org/resources/xml/en/consolidated.xml; docs/decisions/0007-sanctions-screening.md,
 * "The UN list"): CONSOLIDATED_LIST, its INDIVIDUALS and ENTITIES. What screening needs is kept
 * (names, aliases, dates of birth, listing); addresses, documents and comments are not. A file that is
 * not the list, or an entry that cannot be screened, throws an Error naming the entry and what is wrong.
 * Pure and browser-safe.
 */
import { isCalendarDate, type ListedDob, type ListedPerson, MAX_BIRTH_YEAR, MIN_BIRTH_YEAR } from "./types.ts";
import { childrenNamed, childText, parseXml, type XmlElement } from "./xml.ts";

/** The four parts of a listed name, in order; FIRST_NAME is required. */
const NAME_PARTS = ["FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME"] as const;

/** A date as the list writes it: YYYY-MM-DD, sometimes with a time or a zone after it ("1960-01-01-05:00"). */
const LIST_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T[\d:.]+)?(?:Z|[+-]\d{2}:\d{2})?$/;

/** Collapses runs of white space (names in the list are sometimes split over lines). */
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

function entryError(element: XmlElement, id: string | null, what: string): Error {
  return new Error(`${element.name} on line ${element.line}${id ? ` (DATAID ${id})` : ""}: ${what}.`);
}

/** A YYYY-MM-DD date of the list, as year, month and day; null when it is not one. */
function listDate(text: string): { year: number; month: number; day: number } | null {
  const m = LIST_DATE.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return isCalendarDate(year, month, day) ? { year, month, day } : null;
}

const listYear = (text: string | null) =>
  text !== null && /^\d{4}$/.test(text) && Number(text) >= MIN_BIRTH_YEAR && Number(text) <= MAX_BIRTH_YEAR ? Number(text) : null;

/**
 * One INDIVIDUAL_DATE_OF_BIRTH: DATE, YEAR, or FROM_YEAR and TO_YEAR, by its TYPE_OF_DATE (EXACT,
 * APPROXIMATELY, BETWEEN). An approximate date or year is the years either side of it (*assumed*:
 * the list does not say how approximate). An element with no date at all is no date of birth.
 */
function dateOfBirth(node: XmlElement, fail: (what: string) => never): ListedDob | null {
  const type = (childText(node, "TYPE_OF_DATE") ?? "").toUpperCase();
  const date = childText(node, "DATE");
  const year = childText(node, "YEAR");
  const from = childText(node, "FROM_YEAR");
  const to = childText(node, "TO_YEAR");
  if (type !== "" && !["EXACT", "APPROXIMATELY", "BETWEEN"].includes(type))
    fail(`a date of birth of an unknown TYPE_OF_DATE "${type}" (EXACT, APPROXIMATELY or BETWEEN)`);
  if (from !== null || to !== null || type === "BETWEEN") {
    const [f, t] = [listYear(from), listYear(to)];
    if (f === null || t === null || f > t) fail(`a date of birth between "${from ?? ""}" and "${to ?? ""}", which is not a range of years`);
    return { fromYear: f as number, toYear: t as number };
  }
  let exact: ListedDob | null = null;
  if (date !== null) {
    const d = listDate(date);
    if (!d) fail(`a date of birth "${date}" that is not a date (YYYY-MM-DD)`);
    exact = d;
  } else if (year !== null) {
    const y = listYear(year);
    if (y === null) fail(`a year of birth "${year}" that is not a year`);
    exact = { year: y as number, month: null, day: null };
  }
  if (exact === null || "fromYear" in exact) return exact;
  return type === "APPROXIMATELY" ? { fromYear: exact.year - 1, toYear: exact.year + 1 } : exact;
}

/** The aliases of an entry: each ALIAS_NAME, split where the list puts several in one ("; "), empty ones left out. */
function aliasesOf(element: XmlElement, tag: string): string[] {
  return childrenNamed(element, tag)
    .flatMap((alias) => (childText(alias, "ALIAS_NAME") ?? "").split(";"))
    .map(squash)
    .filter((name) => name !== "");
}

function entry(element: XmlElement, kind: "individual" | "entity"): ListedPerson {
  const id = childText(element, "DATAID");
  const fail = (what: string): never => {
    throw entryError(element, id, what);
  };
  if (id === null || !/^\d+$/.test(id)) fail("no DATAID, or one that is not a number");
  const ref = childText(element, "REFERENCE_NUMBER");
  if (ref === null) fail("no REFERENCE_NUMBER");
  const primary = squash(
    NAME_PARTS.map((part) => childText(element, part) ?? "")
      .filter(Boolean)
      .join(" "),
  );
  if (childText(element, "FIRST_NAME") === null || primary === "") fail("no FIRST_NAME");
  const names: string[] = [];
  for (const name of [primary, ...aliasesOf(element, kind === "individual" ? "INDIVIDUAL_ALIAS" : "ENTITY_ALIAS")])
    if (!names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
  const listed = childText(element, "LISTED_ON");
  const listedDate = listed === null ? null : listDate(listed);
  if (listed !== null && !listedDate) fail(`a LISTED_ON "${listed}" that is not a date`);
  const nationality = childrenNamed(element, "NATIONALITY")
    .flatMap((n) => childrenNamed(n, "VALUE"))
    .map((v) => squash(v.text))
    .filter(Boolean);
  const dobs =
    kind === "individual"
      ? childrenNamed(element, "INDIVIDUAL_DATE_OF_BIRTH")
          .map((node) => dateOfBirth(node, fail))
          .filter((d): d is ListedDob => d !== null)
      : [];
  return {
    source: "un_consolidated",
    ref: ref as string,
    kind,
    names,
    dobs,
    listedOn: listed === null ? null : (listed.slice(0, 10) as string),
    nationality: nationality.length ? nationality.join("; ") : null,
    program: childText(element, "UN_LIST_TYPE"),
  };
}

/**
 * Reads the UN consolidated list: the root CONSOLIDATED_LIST with one INDIVIDUALS and one ENTITIES,
 * each entry with a DATAID, a REFERENCE_NUMBER and a FIRST_NAME. Throws on anything else, on two
 * entries with one reference, and on a list with no one on it (an empty download is not a list).
 */
export function parseUnList(xml: string): ListedPerson[] {
  const root = parseXml(xml);
  if (root.name !== "CONSOLIDATED_LIST") throw new Error(`The root element is <${root.name}>, not the UN list's <CONSOLIDATED_LIST>.`);
  const persons: ListedPerson[] = [];
  for (const [group, member, kind] of [
    ["INDIVIDUALS", "INDIVIDUAL", "individual"],
    ["ENTITIES", "ENTITY", "entity"],
  ] as const) {
    const groups = childrenNamed(root, group);
    if (groups.length !== 1) throw new Error(`The list has ${groups.length} <${group}> elements where it has one.`);
    for (const element of (groups[0] as XmlElement).children) {
      if (element.name !== member)
        throw new Error(`Line ${element.line}: <${element.name}> inside <${group}>, where only <${member}> belongs.`);
      persons.push(entry(element, kind));
    }
  }
  const seen = new Set<string>();
  for (const p of persons) {
    if (seen.has(p.ref)) throw new Error(`The reference ${p.ref} is on the list twice.`);
    seen.add(p.ref);
  }
  if (persons.length === 0) throw new Error("The list names no individual and no entity.");
  return persons;
}
