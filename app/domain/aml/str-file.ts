/**
 * The suspicious-transaction report as FIU-IND takes it through FINnet: one XML batch of report type
 * STR in the account-based reporting format (ARF), as docs/decisions/0008-str-export-format.md pins
 * it (the elements, their order, the codes, what is assumed). `writeStrXml` writes one report; every
 * text passes through `xmlText` (escaped, characters XML cannot hold dropped) and is cut to its
 * element's length. Pure and browser-safe; `readStrXml` (str-file-read.ts) reads a file back.
 */
import { rupeesText } from "../books/reports.ts";
import type { IsoDate } from "../loan-math.ts";
import { xmlText } from "../xml-text.ts";

/** A postal address as FIU-IND's Address type holds it. */
export interface StrAddress {
  /** The address lines (at most 225 characters). */
  address: string;
  city: string;
  /** FIU-IND's two-letter state code (`stateCode`); "XX" when not applicable. */
  stateCode: string;
  pinCode: string;
  /** ISO 3166 two letters. */
  countryCode: string;
}

export interface StrPerson {
  name: string;
  /** Our reference for the customer (at most 10 characters). */
  customerId: string;
  /** "A": the account holder. */
  relation: "A";
  address: StrAddress;
  mobile: string;
  email: string;
  pan: string;
  gender: "M" | "F" | "X";
  dateOfBirth: IsoDate | null;
  nationality: string;
}

export interface StrTransaction {
  date: IsoDate;
  /** Our id of the money movement (at most 20 characters). */
  id: string;
  /** A cheque, C cash, E electronic fund transfer, Z others. */
  mode: "A" | "C" | "E" | "Z";
  /** Of the loan account: D a debit (money out to the borrower), C a credit (money in). */
  debitCredit: "D" | "C";
  amountPaise: number;
  /** What it was (at most 50 characters). */
  remarks: string;
}

export interface StrAccount {
  /** The loan number (at most 20 characters). */
  number: string;
  /** BL a loan account; ZZ others (an application never paid out). */
  type: "BL" | "ZZ";
  holderName: string;
  /** A active, C closed, F frozen, I inactive, Z others. */
  status: "A" | "C" | "F" | "I" | "Z";
  openedOn: IsoDate | null;
  /** A1 high, A2 medium, A3 low, XX not categorised. */
  riskRating: "A1" | "A2" | "A3" | "XX";
  persons: StrPerson[];
  transactions: StrTransaction[];
}

export interface StrBatchFile {
  batchNumber: string;
  batchDate: IsoDate;
  /** P production, T test. */
  operationalMode: "P" | "T";
  entity: { name: string; category: string; registration: string; fiuReId: string };
  officer: { name: string; designation: string; address: StrAddress; telephone: string; email: string };
  /** The branch every account is kept at (an online lender has one office). */
  branch: { refNumType: "S"; refNum: string; name: string; address: StrAddress };
  report: {
    mainPersonName: string;
    /** WL watch list, EI employee initiated. */
    sourceOfAlert: "WL" | "EI";
    alertIndicators: string[];
    /** Y, N or X (not categorised). */
    terrorism: "Y" | "N" | "X";
    grounds: string;
    /** P1 very high, P2 high, P3 normal, XX not categorised. */
    priority: "P1" | "P2" | "P3" | "XX";
    accounts: StrAccount[];
  };
}

/** The lengths FIU-IND's schema allows (docs/decisions/0008-str-export-format.md). */
export const STR_LIMITS = {
  name: 80,
  designation: 80,
  address: 225,
  city: 50,
  pinCode: 10,
  telephone: 30,
  email: 50,
  registration: 12,
  customerId: 10,
  pan: 10,
  accountNumber: 20,
  branchRef: 20,
  transactionId: 20,
  remarks: 50,
  alertIndicator: 100,
  grounds: 4000,
  batchNumber: 11,
} as const;

/** At most `max` characters (whole code points: a Devanagari letter or an emoji is never cut in half). */
export const cut = (value: string, max: number) => [...value].slice(0, max).join("");

/** FIU-IND's state codes by the state's name as our PIN data writes it (lower case); a state the list lacks is "ZZ" (others). */
const STATE_CODES: Readonly<Record<string, string>> = {
  "andaman and nicobar islands": "AN",
  "andhra pradesh": "AP",
  "arunachal pradesh": "AR",
  assam: "AS",
  bihar: "BR",
  chandigarh: "CH",
  chhattisgarh: "CG",
  chattisgarh: "CG",
  "dadra and nagar haveli": "DN",
  "daman and diu": "DD",
  delhi: "DL",
  goa: "GA",
  gujarat: "GJ",
  haryana: "HR",
  "himachal pradesh": "HP",
  "jammu and kashmir": "JK",
  jharkhand: "JH",
  karnataka: "KA",
  kerala: "KL",
  lakshadweep: "LD",
  "madhya pradesh": "MP",
  maharashtra: "MH",
  manipur: "MN",
  meghalaya: "ML",
  mizoram: "MZ",
  nagaland: "NL",
  odisha: "OR",
  orissa: "OR",
  puducherry: "PY",
  pondicherry: "PY",
  punjab: "PB",
  rajasthan: "RJ",
  sikkim: "SK",
  "tamil nadu": "TN",
  tripura: "TR",
  "uttar pradesh": "UP",
  uttarakhand: "UA",
  uttaranchal: "UA",
  "west bengal": "WB",
};

/** FIU-IND's code of a state named as our PIN data names it; "ZZ" for one its list lacks (Telangana, Ladakh), "XX" for none. */
export function stateCode(state: string | null | undefined): string {
  const name = (state ?? "").trim().toLowerCase().replaceAll("&", " and ").replace(/\s+/g, " ");
  if (!name) return "XX";
  return STATE_CODES[name] ?? STATE_CODES[name.replace(/^nct of /, "")] ?? "ZZ";
}

/** Element text on one line: escaped, and line ends as character references (the indenting below never touches text). */
const oneLine = (value: string) => xmlText(value).replaceAll("\r", "&#13;").replaceAll("\n", "&#10;");

/** One element with its text, or with its children when `content` is an array of lines. */
function el(name: string, content: string | readonly string[], max?: number): string {
  if (typeof content === "string") return `<${name}>${oneLine(max ? cut(content, max) : content)}</${name}>`;
  return `<${name}>\n${content.map((line) => `  ${line}`).join("\n")}\n</${name}>`;
}

const address = (name: string, a: StrAddress) =>
  el(name, [
    el("Address", a.address, STR_LIMITS.address),
    el("City", a.city, STR_LIMITS.city),
    el("StateCode", a.stateCode),
    el("PinCode", a.pinCode, STR_LIMITS.pinCode),
    el("CountryCode", a.countryCode),
  ]).split("\n");

const phone = (name: string, telephone: string, mobile: string) =>
  el(name, [el("Telephone", telephone, STR_LIMITS.telephone), el("Mobile", mobile, STR_LIMITS.telephone), el("Fax", "")]).split("\n");

function person(p: StrPerson): string[] {
  return el("PersonDetails", [
    el("PersonName", p.name, STR_LIMITS.name),
    el("CustomerId", p.customerId, STR_LIMITS.customerId),
    el("RelationFlag", p.relation),
    ...address("CommunicationAddress", p.address),
    ...phone("Phone", "", p.mobile),
    el("Email", p.email, STR_LIMITS.email),
    el("PAN", p.pan, STR_LIMITS.pan),
    ...el("Individual", [
      el("Gender", p.gender),
      ...(p.dateOfBirth ? [el("DateOfBirth", p.dateOfBirth)] : []),
      // C: the PAN card, the identity document our KYC verifies.
      el("IdentificationType", p.pan ? "C" : "Z"),
      el("IdentificationNumber", p.pan, STR_LIMITS.pan),
      el("Nationality", p.nationality),
    ]).split("\n"),
  ]).split("\n");
}

function transaction(t: StrTransaction): string[] {
  return el("Transaction", [
    el("DateOfTransaction", t.date),
    el("TransactionID", t.id, STR_LIMITS.transactionId),
    el("TransactionMode", t.mode),
    el("DebitCredit", t.debitCredit),
    el("Amount", rupeesText(t.amountPaise)),
    el("Currency", "INR"),
    el("Remarks", t.remarks, STR_LIMITS.remarks),
  ]).split("\n");
}

function account(a: StrAccount, f: StrBatchFile): string[] {
  return el("Account", [
    ...el("AccountDetails", [
      el("AccountNumber", a.number, STR_LIMITS.accountNumber),
      el("AccountType", a.type),
      el("HolderName", a.holderName, STR_LIMITS.name),
      // A: a resident individual, the only borrower this lender takes.
      el("AccountHolderType", "A"),
      el("AccountStatus", a.status),
      ...(a.openedOn ? [el("DateOfOpening", a.openedOn)] : []),
      el("RiskRating", a.riskRating),
      el("NoTransactionsTobeReported", a.transactions.length ? "N" : "Y"),
    ]).split("\n"),
    ...el("Branch", [
      el("BranchRefNumType", f.branch.refNumType),
      el("BranchRefNum", f.branch.refNum, STR_LIMITS.branchRef),
      ...el("BranchDetails", [el("BranchName", f.branch.name, STR_LIMITS.name), ...address("BranchAddress", f.branch.address)]).split("\n"),
    ]).split("\n"),
    ...a.persons.flatMap(person),
    ...a.transactions.flatMap(transaction),
  ]).split("\n");
}

/** The batch as one XML document (UTF-8, LF line ends), one report in it. */
export function writeStrXml(f: StrBatchFile): string {
  const r = f.report;
  const batch = el("Batch", [
    el("ReportType", "STR"),
    el("ReportFormatType", "ARF"),
    ...el("BatchHeader", [el("DataStructureVersion", "2"), el("DataSource", "xml")]).split("\n"),
    ...el("ReportingEntity", [
      el("ReportingEntityName", f.entity.name, STR_LIMITS.name),
      el("ReportingEntityCategory", f.entity.category),
      el("RERegistrationNumber", f.entity.registration, STR_LIMITS.registration),
      el("FIUREID", f.entity.fiuReId),
    ]).split("\n"),
    ...el("PrincipalOfficer", [
      el("POName", f.officer.name, STR_LIMITS.name),
      el("PODesignation", f.officer.designation, STR_LIMITS.designation),
      ...address("POAddress", f.officer.address),
      ...phone("POPhone", f.officer.telephone, ""),
      el("POEmail", f.officer.email, STR_LIMITS.email),
    ]).split("\n"),
    ...el("BatchDetails", [
      el("BatchNumber", f.batchNumber, STR_LIMITS.batchNumber),
      el("BatchDate", f.batchDate),
      el("MonthOfReport", "NA"),
      el("YearOfReport", "NA"),
      el("OperationalMode", f.operationalMode),
      el("BatchType", "N"),
      el("OriginalBatchID", "0"),
      el("ReasonOfRevision", "N"),
    ]).split("\n"),
    ...el("Report", [
      el("ReportSerialNum", "1"),
      el("OriginalReportSerialNum", "0"),
      el("MainPersonName", r.mainPersonName, STR_LIMITS.name),
      ...el("SuspicionDetails", [
        el("SourceOfAlert", r.sourceOfAlert),
        ...r.alertIndicators.map((a) => el("AlertIndicator", a, STR_LIMITS.alertIndicator)),
        el("SuspicionDueToProceedsOfCrime", "X"),
        el("SuspicionDueToComplexTrans", "X"),
        el("SuspicionDueToNoEcoRationale", "X"),
        el("SuspicionOfFinancingOfTerrorism", r.terrorism),
        el("AttemptedTransaction", "X"),
        el("GroundsOfSuspicion", r.grounds, STR_LIMITS.grounds),
        el("LEAInformed", "X"),
        el("PriorityRating", r.priority),
        el("ReportCoverage", "C"),
        el("AdditionalDocuments", "N"),
      ]).split("\n"),
      ...r.accounts.flatMap((a) => account(a, f)),
    ]).split("\n"),
  ]);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${batch}\n`;
}
