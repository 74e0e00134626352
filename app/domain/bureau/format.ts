/**
 * The file a lender sends each credit bureau every fortnight: the CICs' uniform consumer format,
 * TransUnion CIBIL's TUDF (docs/decisions/0006-credit-bureau-format.md). One 146-character header,
 * then per loan the subject's segments PN, ID, PT, EC, PA and the account's TL, each field
 * tag + length + value, ended by `ES02**`; the trailer `TRLR`. One physical line of printable ASCII.
 * Pure and browser-safe; the reader (`parseFile`, `fileProblems`) and the rejection CSV live beside it.
 */
import {
  ACCOUNT_TYPE,
  ADDRESS_CATEGORY_CODES,
  ASSET_CLASS_CODES,
  GENDER_CODES,
  INDIVIDUAL_OWNERSHIP,
  MOBILE_PHONE_TYPE,
  OCCUPATION_CODES,
  PAN_ID_TYPE,
  PAYMENT_FREQUENCY,
  segmentIdentifier,
  stateCodeOf,
  WRITTEN_OFF_STATUS,
} from "./codes.ts";
import { END_OF_SUBJECT, HEADER_LAYOUT, TRAILER } from "./file.ts";
import {
  addressParts,
  type BureauAccount,
  type BureauHeader,
  type BureauRecord,
  type BureauSubject,
  BUREAUS,
  MAX_REPORTED_DPD,
  recordProblems,
  yearlyRateBps,
} from "./record.ts";
import { cleanAddress, cleanName, ddmmyyyy, isIsoDate, percent, rupees, wrap } from "./text.ts";

export { FIELD_PATTERNS, FIELD_RULES, STATE_CODES, stateCodeOf } from "./codes.ts";
export { fileProblems, parseFile, type ParsedFile, type ParsedSegment, type Problem } from "./file.ts";
export {
  type AssetClass,
  type Bureau,
  type BureauAccount,
  type BureauAddress,
  type BureauHeader,
  type BureauRecord,
  type BureauSubject,
  BUREAU_NAME,
  BUREAUS,
  recordProblems,
} from "./record.ts";
export { parseRejections, type Rejection, REJECTION_COLUMNS, rejectionCsv } from "./rejections.ts";

type Fields = readonly (readonly [string, string | null])[];

/** One tag-length-value field: the tag, the value's length in two digits, the value. */
const field = (tag: string, value: string) => `${tag}${String(value.length).padStart(2, "0")}${value}`;

/** A segment: its tag, its identifier for the `sequence`-th occurrence, its fields with a value. */
const segment = (tag: string, sequence: number, fields: Fields) =>
  `${tag}${segmentIdentifier(tag, sequence)}${fields.map(([t, v]) => (v === null ? "" : field(t, v))).join("")}`;

/** Lines (names, addresses) as the fields 01, 02, …. */
const lineFields = (lines: readonly string[]): Fields => lines.map((line, i) => [`0${i + 1}`, line] as const);

const lastDayOfMonth = (date: string) => new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate();

/** What is wrong with a header, as sentences ([] when it is right). */
export function headerProblems(header: BureauHeader): string[] {
  const problems: string[] = [];
  if (!BUREAUS.includes(header.bureau)) problems.push(`"${header.bureau}" is not a bureau.`);
  if (!/^[A-Z0-9]{10}$/.test(header.memberId)) problems.push(`The member id "${header.memberId}" is not 10 upper-case letters and digits.`);
  if (!/^[A-Z0-9](?:[A-Z0-9 ]{0,14}[A-Z0-9])?$/.test(header.memberShortName))
    problems.push(`The member short name "${header.memberShortName}" is not 1 to 16 upper-case letters, digits and spaces.`);
  if (!isIsoDate(header.reportedOn)) problems.push(`The date reported "${header.reportedOn}" is not a date.`);
  else if (![15, lastDayOfMonth(header.reportedOn)].includes(Number(header.reportedOn.slice(8))))
    problems.push(`The date reported ${header.reportedOn} is neither the 15th nor the month's last day.`);
  if (!isIsoDate(header.createdOn) || header.createdOn < header.reportedOn)
    problems.push(`The creation date "${header.createdOn}" is not a date on or after the date reported.`);
  return problems;
}

/** The 146-character header: version 12, the member id and short name, no cycle, the date reported, no password, login ("L"). */
function encodeHeader(header: BureauHeader): string {
  const values: Record<string, string> = {
    "01": "12",
    "02": header.memberId,
    "03": header.memberShortName,
    "05": ddmmyyyy(header.reportedOn),
    "07": "L",
    "08": "00000",
  };
  return `TUDF${HEADER_LAYOUT.map(([tag, width]) => (values[tag] ?? "").padEnd(width, " ")).join("")}`;
}

/** Checked before: a name and addresses that do not fit are problems of the record, never cut here. */
const fitted = (lines: string[] | null) => {
  if (!lines) throw new Error("A record with problems reached the encoder.");
  return lines;
};

function subjectSegments(s: BureauSubject): string {
  const name = cleanName(s.name);
  const out = [
    segment("PN", 1, [
      ...lineFields(fitted(name.ok ? wrap(name.words, 26, 5) : null)),
      ["07", ddmmyyyy(s.dob)],
      ["08", s.gender ? GENDER_CODES[s.gender] : null],
    ]),
  ];
  if (s.pan !== null)
    out.push(
      segment("ID", 1, [
        ["01", PAN_ID_TYPE],
        ["02", s.pan.trim().toUpperCase()],
      ]),
    );
  out.push(
    segment("PT", 1, [
      ["01", s.mobile],
      ["03", MOBILE_PHONE_TYPE],
    ]),
  );
  if (s.email !== null) out.push(segment("EC", 1, [["01", s.email.trim()]]));
  for (const [i, a] of s.addresses.entries()) {
    const text = cleanAddress(addressParts(a));
    out.push(
      segment("PA", i + 1, [
        ...lineFields(fitted(text.ok ? wrap(text.words, 40, 5) : null)),
        ["06", stateCodeOf(a.state, a.pin, a.district)],
        ["07", a.pin],
        ["08", ADDRESS_CATEGORY_CODES[a.category]],
      ]),
    );
  }
  return out.join("");
}

/** The account segment's fields (docs/decisions/0006-credit-bureau-format.md, "The account segment"). */
function accountFields(header: BureauHeader, a: BureauAccount, s: BureauSubject): Fields {
  const w = a.writtenOff;
  const amount = (paise: number | null | undefined) => (paise === null || paise === undefined ? null : rupees(paise));
  return [
    ["01", header.memberId],
    ["02", header.memberShortName],
    ["03", a.accountNumber],
    ["04", ACCOUNT_TYPE[a.kind]],
    ["05", INDIVIDUAL_OWNERSHIP],
    ["08", ddmmyyyy(a.openedOn)],
    ["09", a.lastPaymentOn === null ? null : ddmmyyyy(a.lastPaymentOn)],
    ["10", a.closedOn === null ? null : ddmmyyyy(a.closedOn)],
    ["11", ddmmyyyy(header.reportedOn)],
    ["12", rupees(a.sanctionedPaise)],
    ["13", rupees(a.currentBalancePaise)],
    ["14", rupees(a.overduePaise)],
    ["15", String(Math.min(a.dpd, MAX_REPORTED_DPD))],
    ["22", w ? WRITTEN_OFF_STATUS[w.status] : null],
    ["26", ASSET_CLASS_CODES[a.assetClass]],
    ["38", percent(yearlyRateBps(a))],
    ["39", String(a.kind === "emi" ? a.tenure : 1)],
    ["40", rupees(a.instalmentPaise)],
    ["41", amount(w?.totalPaise)],
    ["42", amount(w?.principalPaise)],
    ["43", amount(w?.settlementPaise)],
    ["44", PAYMENT_FREQUENCY[a.kind]],
    ["45", amount(a.lastPaymentPaise)],
    ["46", s.employment ? OCCUPATION_CODES[s.employment] : null],
    ["47", amount(s.monthlyIncomePaise)],
    ["48", s.monthlyIncomePaise === null ? null : "N"],
    ["49", s.monthlyIncomePaise === null ? null : "M"],
  ];
}

/** One record: the subject's segments, the account segment, the end of subject. */
export const encodeRecord = (header: BureauHeader, r: BureauRecord) =>
  `${subjectSegments(r.subject)}${segment("TL", 1, accountFields(header, r.account, r.subject))}${END_OF_SUBJECT}`;

/**
 * The file: header, one block of segments per record, trailer; one physical line of printable ASCII
 * (no line breaks). Throws when the header is wrong, an account appears twice or a record has problems
 * (hold those back with `recordProblems` first).
 */
export function encodeFile(header: BureauHeader, records: readonly BureauRecord[]): string {
  const wrong = headerProblems(header);
  if (wrong.length) throw new Error(`The header is wrong: ${wrong.join(" ")}`);
  const seen = new Set<string>();
  for (const record of records) {
    const number = record.account.accountNumber;
    const problems = recordProblems(record, header.reportedOn);
    if (problems.length) throw new Error(`Record ${number} has problems: ${problems.map((p) => p.message).join(" ")}`);
    if (seen.has(number)) throw new Error(`Record ${number} appears twice.`);
    seen.add(number);
  }
  return `${encodeHeader(header)}${records.map((r) => encodeRecord(header, r)).join("")}${TRAILER}`;
}

/**
 * The file's name: the member id, the date reported and the creation date (DDMMYYYY), REG for the
 * fortnight's file or COR for a correction, ".txt": "NB12340001_15032026_16032026_REG.txt".
 */
export function fileName(header: BureauHeader, kind: "regular" | "correction"): string {
  return `${header.memberId}_${ddmmyyyy(header.reportedOn)}_${ddmmyyyy(header.createdOn)}_${kind === "regular" ? "REG" : "COR"}.txt`;
}
