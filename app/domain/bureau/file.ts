/**
 * A bureau file read back (docs/decisions/0006-credit-bureau-format.md): the 146-character TUDF
 * header, each subject's tag-length-value segments up to its end marker `ES02**`, the `TRLR`
 * trailer. `parseFile` checks the structure and throws on anything malformed, naming the offset;
 * `fileProblems` checks every rule of the field rules on what it read. Pure and browser-safe.
 */
import { FIELD_PATTERNS, FIELD_RULES, type FieldRule, RECORD_SEGMENTS, segmentIdentifier } from "./codes.ts";

export interface ParsedSegment {
  tag: string;
  fields: Record<string, string>;
  /** A tag-length-value segment's identifier after its tag, as written ("03N01", "04T001"). */
  identifier?: string;
}
export interface ParsedFile {
  header: ParsedSegment;
  records: { accountNumber: string; segments: ParsedSegment[] }[];
  trailer: ParsedSegment | null;
}
export interface Problem {
  accountNumber: string | null;
  segment: string;
  field: string | null;
  message: string;
}

/** The header's fixed-width fields after "TUDF", in order, with their widths (146 characters in all). */
export const HEADER_LAYOUT = [
  ["01", 2],
  ["02", 30],
  ["03", 16],
  ["04", 2],
  ["05", 8],
  ["06", 30],
  ["07", 1],
  ["08", 5],
  ["09", 48],
] as const;
export const HEADER_LENGTH = 146;
export const END_OF_SUBJECT = "ES02**";
export const TRAILER = "TRLR";

const fail = (offset: number, what: string): never => {
  throw new Error(`Offset ${offset}: ${what}.`);
};

function readHeader(text: string): ParsedSegment {
  if (text.length < HEADER_LENGTH) fail(0, `the file is shorter than its ${HEADER_LENGTH}-character header`);
  if (!text.startsWith("TUDF")) fail(0, 'the file does not start with the header "TUDF"');
  const fields: Record<string, string> = {};
  let at = 4;
  for (const [tag, width] of HEADER_LAYOUT) {
    const value = text.slice(at, at + width).trimEnd();
    if (value !== "") fields[tag] = value;
    at += width;
  }
  return { tag: "TUDF", fields };
}

/** One tag-length-value field at `at`: the field tag, the value and where the next thing starts. */
function readField(text: string, at: number): { tag: string; value: string; next: number } {
  const head = text.slice(at, at + 4);
  if (!/^\d{4}$/.test(head)) fail(at, `a field's tag and length are not four digits ("${head}")`);
  const length = Number(head.slice(2));
  if (length === 0) fail(at + 2, `field ${head.slice(0, 2)} has length 00`);
  if (at + 4 + length > text.length) fail(at, `field ${head.slice(0, 2)} runs past the end of the file (truncated?)`);
  return { tag: head.slice(0, 2), value: text.slice(at + 4, at + 4 + length), next: at + 4 + length };
}

/** One segment at `at` (not the end marker): its tag, its identifier checked, its fields up to the next segment. */
function readSegment(text: string, at: number): { segment: ParsedSegment; next: number } {
  const tag = text.slice(at, at + 2);
  if (!/^[A-Z]{2}$/.test(tag)) fail(at, `expected a segment tag, found "${text.slice(at, at + 8)}"`);
  const length = text.slice(at + 2, at + 4);
  if (!/^\d{2}$/.test(length)) fail(at + 2, `segment ${tag}'s identifier length is not two digits`);
  const identifier = text.slice(at + 4, at + 4 + Number(length));
  if (!/^[A-Z]\d{2,3}$/.test(identifier) || identifier.length !== Number(length))
    fail(at + 4, `segment ${tag} has no valid identifier ("${identifier}")`);
  const fields: Record<string, string> = {};
  let next = at + 4 + identifier.length;
  while (next < text.length && /^\d$/.test(text.charAt(next))) {
    const field = readField(text, next);
    if (field.tag in fields) fail(next, `field ${field.tag} appears twice in segment ${tag}`);
    fields[field.tag] = field.value;
    next = field.next;
  }
  return { segment: { tag, fields, identifier: `${length}${identifier}` }, next };
}

/**
 * Reads a file strictly: printable ASCII only, no line breaks, the header, subjects each ending with
 * `ES02**`, then `TRLR` and nothing after it. A file that stops right after a subject has no
 * trailer (null: fileProblems reports it); anything else malformed throws an Error naming the offset.
 */
export function parseFile(text: string): ParsedFile {
  const bad = /[^\x20-\x7e]/.exec(text);
  if (bad) fail(bad.index, `a character outside printable ASCII (code ${bad[0].charCodeAt(0)})`);
  const header = readHeader(text);
  const records: ParsedFile["records"] = [];
  let at = HEADER_LENGTH;
  let segments: ParsedSegment[] = [];
  while (at < text.length) {
    if (segments.length === 0 && text.startsWith(TRAILER, at)) {
      if (at + TRAILER.length !== text.length) fail(at + TRAILER.length, "text after the trailer");
      return { header, records, trailer: { tag: TRAILER, fields: {} } };
    }
    if (text.startsWith("ES", at)) {
      if (!text.startsWith(END_OF_SUBJECT, at)) fail(at, `a malformed end of subject ("${text.slice(at, at + 6)}")`);
      if (segments.length === 0) fail(at, "an end of subject with no segments before it");
      segments.push({ tag: "ES", fields: {} });
      const tl = segments.find((s) => s.tag === "TL");
      records.push({ accountNumber: tl?.fields["03"] ?? "", segments });
      segments = [];
      at += END_OF_SUBJECT.length;
      continue;
    }
    const { segment, next } = readSegment(text, at);
    segments.push(segment);
    at = next;
  }
  if (segments.length > 0) fail(text.length, "the file ends inside a subject (truncated?)");
  return { header, records, trailer: null };
}

// ---- The rules on a parsed file -------------------------------------------------------------

const RULES_BY_SEGMENT = new Map<string, FieldRule[]>();
for (const r of FIELD_RULES) RULES_BY_SEGMENT.set(r.segment, [...(RULES_BY_SEGMENT.get(r.segment) ?? []), r]);

function validDdmmyyyy(value: string): boolean {
  const m = /^(\d{2})(\d{2})(\d{4})$/.exec(value);
  if (!m) return false;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** What is wrong with one field's value under its rule, or null. */
function valueProblem(rule: FieldRule, value: string): string | null {
  if (value.length > rule.maxLength) return `is ${value.length} characters, more than ${rule.maxLength}`;
  if (value !== value.trim() || value === "") return "has leading or trailing spaces, or is blank";
  if (rule.type === "numeric" && !/^\d+$/.test(value)) return `is not numeric ("${value}")`;
  if (rule.type === "date" && !validDdmmyyyy(value)) return `is not a date DDMMYYYY ("${value}")`;
  if (rule.codes && !rule.codes.includes(value)) return `"${value}" is not one of its codes`;
  const pattern = FIELD_PATTERNS[`${rule.segment} ${rule.field}`];
  if (pattern && !pattern.test(value)) return `"${value}" is not in its format`;
  return null;
}

/** Every field rule of a segment checked: unknown fields, mandatory fields missing, values. */
function segmentProblems(segment: ParsedSegment, accountNumber: string | null): Problem[] {
  const rules = RULES_BY_SEGMENT.get(segment.tag) ?? [];
  const problems: Problem[] = [];
  const add = (field: string | null, message: string) => problems.push({ accountNumber, segment: segment.tag, field, message });
  for (const tag of Object.keys(segment.fields)) {
    if (!rules.some((r) => r.field === tag)) add(tag, `field ${tag} is not a field of segment ${segment.tag}`);
  }
  for (const r of rules) {
    const value = segment.fields[r.field];
    if (value === undefined) {
      if (r.mandatory) add(r.field, `${r.name} (${segment.tag} ${r.field}) is missing`);
      continue;
    }
    const problem = valueProblem(r, value);
    if (problem) add(r.field, `${r.name} (${segment.tag} ${r.field}) ${problem}`);
  }
  return problems;
}

/** The order and counts of a record's segments, and each segment's identifier in sequence. */
function orderProblems(segments: readonly ParsedSegment[], accountNumber: string): Problem[] {
  const problems: Problem[] = [];
  const tags = segments.map((s) => s.tag);
  const expected = RECORD_SEGMENTS.map((s) => s.tag as string);
  const positions = tags.map((t) => expected.indexOf(t));
  if (positions.some((p, i) => p < 0 || (i > 0 && p < (positions[i - 1] ?? 0))))
    problems.push({ accountNumber, segment: "ES", field: null, message: `segments out of order or unknown: ${tags.join(" ")}` });
  for (const { tag, min, max } of RECORD_SEGMENTS) {
    const count = tags.filter((t) => t === tag).length;
    if (count < min || count > max)
      problems.push({ accountNumber, segment: tag, field: null, message: `${count} ${tag} segments where ${min} to ${max} may be` });
    let sequence = 0;
    for (const s of segments.filter((x) => x.tag === tag && tag !== "ES")) {
      if (s.identifier !== segmentIdentifier(tag, ++sequence))
        problems.push({
          accountNumber,
          segment: tag,
          field: null,
          message: `identifier ${s.identifier} where ${segmentIdentifier(tag, sequence)} is due`,
        });
    }
  }
  if (!tags.includes("ID") && !tags.includes("PT"))
    problems.push({ accountNumber, segment: "PT", field: null, message: "neither an ID nor a telephone segment" });
  return problems;
}

/** The account segment agrees with the header and within itself (a write-off carries its amounts). */
function accountProblems(header: ParsedSegment, tl: ParsedSegment, accountNumber: string): Problem[] {
  const f = tl.fields;
  const problems: Problem[] = [];
  const add = (field: string, message: string) => problems.push({ accountNumber, segment: "TL", field, message });
  if (f["01"] !== header.fields["02"]) add("01", "the member code is not the header's member id");
  if (f["02"] !== header.fields["03"]) add("02", "the member short name is not the header's");
  if (f["11"] !== header.fields["05"]) add("11", "the date reported is not the header's");
  if (["02", "04"].includes(f["22"] ?? "") && (f["41"] === undefined || f["42"] === undefined))
    add("41", "a written-off account without its written-off amounts");
  if (f["22"] === "04" && f["43"] === undefined) add("43", "a post write-off settlement without its settlement amount");
  return problems;
}

/** Every rule of the decision record checked on a parsed file; [] when it is valid. */
export function fileProblems(file: ParsedFile): Problem[] {
  const problems = segmentProblems(file.header, null);
  if (file.header.tag !== "TUDF") problems.push({ accountNumber: null, segment: "TUDF", field: null, message: "no TUDF header" });
  if (!file.trailer) problems.push({ accountNumber: null, segment: TRAILER, field: null, message: "no trailer (TRLR): truncated?" });
  const seen = new Set<string>();
  for (const record of file.records) {
    const account = record.accountNumber;
    if (seen.has(account)) problems.push({ accountNumber: account, segment: "TL", field: "03", message: "the account appears twice" });
    seen.add(account);
    problems.push(...orderProblems(record.segments, account));
    for (const s of record.segments) if (s.tag !== "ES") problems.push(...segmentProblems(s, account));
    const tl = record.segments.find((s) => s.tag === "TL");
    if (tl) problems.push(...accountProblems(file.header, tl, account));
  }
  return problems;
}
