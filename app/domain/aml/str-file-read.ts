/**
 * Reads a suspicious-transaction report file (str-file.ts) back into what was written: the tests'
 * proof that what compliance sends FIU-IND says what the page shows, hostile text included. Strict:
 * a missing element throws an Error naming it. Pure and browser-safe.
 */
import { parseXml, type XmlElement } from "./xml.ts";
import type { StrAccount, StrAddress, StrBatchFile, StrPerson, StrTransaction } from "./str-file.ts";

function child(e: XmlElement, name: string): XmlElement {
  const found = e.children.find((c) => c.name === name);
  if (!found) throw new Error(`<${e.name}> on line ${e.line} has no <${name}>.`);
  return found;
}
/** An element's text exactly as written (entities decoded, not trimmed). */
const text = (e: XmlElement, name: string) => child(e, name).text;
const optional = (e: XmlElement, name: string) => e.children.find((c) => c.name === name)?.text ?? null;
const all = (e: XmlElement, name: string) => e.children.filter((c) => c.name === name);
/** One of the codes a field allows (the type says which). */
const code = <T extends string>(e: XmlElement, name: string) => text(e, name) as T;

/** Rupees with two decimals ("1234.05") as paise. */
function paise(value: string): number {
  const m = /^(\d+)\.(\d{2})$/.exec(value);
  if (!m) throw new Error(`"${value}" is not an amount in rupees with two decimals.`);
  return Number(m[1]) * 100 + Number(m[2]);
}

const address = (e: XmlElement): StrAddress => ({
  address: text(e, "Address"),
  city: text(e, "City"),
  stateCode: text(e, "StateCode"),
  pinCode: text(e, "PinCode"),
  countryCode: text(e, "CountryCode"),
});

function person(e: XmlElement): StrPerson {
  const individual = child(e, "Individual");
  return {
    name: text(e, "PersonName"),
    customerId: text(e, "CustomerId"),
    relation: code(e, "RelationFlag"),
    address: address(child(e, "CommunicationAddress")),
    mobile: text(child(e, "Phone"), "Mobile"),
    email: text(e, "Email"),
    pan: text(e, "PAN"),
    gender: code(individual, "Gender"),
    dateOfBirth: optional(individual, "DateOfBirth"),
    nationality: text(individual, "Nationality"),
  };
}

const transaction = (e: XmlElement): StrTransaction => ({
  date: text(e, "DateOfTransaction"),
  id: text(e, "TransactionID"),
  mode: code(e, "TransactionMode"),
  debitCredit: code(e, "DebitCredit"),
  amountPaise: paise(text(e, "Amount")),
  remarks: text(e, "Remarks"),
});

function account(e: XmlElement): StrAccount {
  const d = child(e, "AccountDetails");
  return {
    number: text(d, "AccountNumber"),
    type: code(d, "AccountType"),
    holderName: text(d, "HolderName"),
    status: code(d, "AccountStatus"),
    openedOn: optional(d, "DateOfOpening"),
    riskRating: code(d, "RiskRating"),
    persons: all(e, "PersonDetails").map(person),
    transactions: all(e, "Transaction").map(transaction),
  };
}

/** The file as written; throws an Error naming what is missing or malformed. */
export function readStrXml(xml: string): StrBatchFile {
  const batch = parseXml(xml);
  if (batch.name !== "Batch" || text(batch, "ReportType") !== "STR" || text(batch, "ReportFormatType") !== "ARF")
    throw new Error("This is not an STR batch in the account-based format.");
  const entity = child(batch, "ReportingEntity");
  const officer = child(batch, "PrincipalOfficer");
  const details = child(batch, "BatchDetails");
  const reports = all(batch, "Report");
  if (reports.length !== 1) throw new Error(`The batch holds ${reports.length} reports, not one.`);
  const report = reports[0] as XmlElement;
  const suspicion = child(report, "SuspicionDetails");
  const accounts = all(report, "Account");
  const branch = accounts[0] ? child(accounts[0], "Branch") : null;
  const branchDetails = branch ? child(branch, "BranchDetails") : null;
  return {
    batchNumber: text(details, "BatchNumber"),
    batchDate: text(details, "BatchDate"),
    operationalMode: code(details, "OperationalMode"),
    entity: {
      name: text(entity, "ReportingEntityName"),
      category: text(entity, "ReportingEntityCategory"),
      registration: text(entity, "RERegistrationNumber"),
      fiuReId: text(entity, "FIUREID"),
    },
    officer: {
      name: text(officer, "POName"),
      designation: text(officer, "PODesignation"),
      address: address(child(officer, "POAddress")),
      telephone: text(child(officer, "POPhone"), "Telephone"),
      email: text(officer, "POEmail"),
    },
    branch: {
      refNumType: "S",
      refNum: branch ? text(branch, "BranchRefNum") : "",
      name: branchDetails ? text(branchDetails, "BranchName") : "",
      address: branchDetails
        ? address(child(branchDetails, "BranchAddress"))
        : { address: "", city: "", stateCode: "", pinCode: "", countryCode: "" },
    },
    report: {
      mainPersonName: text(report, "MainPersonName"),
      sourceOfAlert: code(suspicion, "SourceOfAlert"),
      alertIndicators: all(suspicion, "AlertIndicator").map((a) => a.text),
      terrorism: code(suspicion, "SuspicionOfFinancingOfTerrorism"),
      grounds: text(suspicion, "GroundsOfSuspicion"),
      priority: code(suspicion, "PriorityRating"),
      accounts: accounts.map(account),
    },
  };
}
