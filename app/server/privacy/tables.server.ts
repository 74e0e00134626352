// Every table of the schema, classified once (docs/product.md "Protecting data and the service"):
// the rows each holds about one borrower and how to reach them, what legal retention keeps them after
// the relationship ends, what is never exported, and where stored files are. "Download my data"
// reads the borrower tables; an erasure erases what no retention keeps. tests/unit/privacy-tables
// fails when a table of the schema is in neither list, or in both.
//
// Left out of the download on purpose (NOT_BORROWER_TABLES), besides the lender's own settings and
// reference data: sanctions screening (the lists, the screenings, the possible matches) and
// suspicious-transaction reports. The law keeps them confidential (PMLA s. 12(2); the RBI's KYC
// direction forbids tipping the customer off) and the DPDP Act's rights do not reach processing to
// prevent or detect offences (s. 17(1)(c)). No table holds fraud notes. Staff's own notes are
// exported: collections contact notes, the credit officer's decision note, deviations, the review
// checklist and the internal notes on tickets: they are about the borrower and no exemption covers them.
//
// Files an erasure must also reach (`files`): the documents and selfie in storage, the KFS, signed
// agreement and revised KFS PDFs in storage (their keys in the rows), and those still kept in rows
// from before they moved to storage (deleted with them). Not here: a bureau file in storage holds every borrower's record of
// its date (bureau_runs keeps it, as the lender's report), and the CKYC stand-in's file is the registry's.
import { eq, getTableName, is, type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DataItemId } from "../../domain/privacy/notice.ts";
import { SECTION_TITLES, type SectionTable } from "../../domain/privacy/export-text.ts";
import * as schema from "../db/schema.ts";

/** Which retention keeps a table's rows after the relationship ends (RETENTION_YEARS: KYC 5 years, loan records 8), or none. */
export type Keep = "kyc" | "loan" | "none";

/** Where a table keeps files about the borrower: in storage (the column holds the key), or in the row itself (a bytea column). */
export interface StoredFiles {
  column: string;
  in: "storage" | "row";
}

export interface BorrowerTable {
  table: PgTable;
  /** The section's title, as the borrower reads it (SECTION_TITLES). */
  label: string;
  /** The privacy notice's item the rows are collected under. */
  item: DataItemId;
  keep: Keep;
  /** The rows about the borrower, reached in SQL (never filtered afterwards). */
  where: (userId: string) => SQL;
  /** Database columns never exported: secrets' hashes, encrypted values (a masked column beside them is), file bytes. */
  omit?: readonly string[];
  files?: readonly StoredFiles[];
}

export interface NotBorrowerTable {
  table: PgTable;
  why: string;
}

const s = schema;

// The borrower's applications (and the loans they became), cases, notices and tickets, as subqueries.
const applicationsOf = (userId: string) =>
  sql`(select ${s.loanApplications.id} from ${s.loanApplications} where ${s.loanApplications.userId} = ${userId})`;
const byUser = (column: AnyPgColumn) => (userId: string) => eq(column, userId);
const byApplication = (column: AnyPgColumn) => (userId: string) => sql`${column} in ${applicationsOf(userId)}`;
const through = (column: AnyPgColumn, parent: PgTable & { id: AnyPgColumn; userId: AnyPgColumn }) => (userId: string) =>
  sql`${column} in (select ${parent.id} from ${parent} where ${parent.userId} = ${userId})`;
const mobileOf = (userId: string) => sql`(select ${s.users.mobile} from ${s.users} where ${s.users.id} = ${userId})`;

const entry = (
  table: PgTable,
  item: DataItemId,
  keep: Keep,
  where: (userId: string) => SQL,
  more: Pick<BorrowerTable, "omit" | "files"> = {},
): BorrowerTable => ({ table, label: SECTION_TITLES[getTableName(table) as SectionTable], item, keep, where, ...more });

/**
 * The tables with rows about a borrower, in the order the download lists them. `keep`: "kyc" for the
 * identity record (the account and its mobile, the profile, address, documents and selfie, the CKYC
 * record) and the consent log, kept with it as the proof that each use was lawful; "loan" for the
 * credit file and everything about a loan (applications, credit checks and policy judgements, KFS,
 * signatures, payouts, schedule, ledger, payments, autopay, collections, bureau reporting, the books
 * and reconciliation of its money, tickets, the notices sent and how each went, the borrower's own
 * actions in the audit log), and for the income and the bank account the credit decision and the
 * payout rested on; "none" for what serves only while the account is used (references, sessions,
 * codes, the quick start, data-rights requests, nominees and breach listings; an erasure keeps the
 * requests and the breach listings, erase.server.ts).
 */
export const BORROWER_TABLES: readonly BorrowerTable[] = [
  entry(s.users, "mobile", "kyc", (userId) => eq(s.users.id, userId), { omit: ["password_hash", "totp_secret_enc"] }),
  entry(s.borrowerProfiles, "identity", "kyc", byUser(s.borrowerProfiles.userId), { omit: ["pan_enc", "pan_hmac"] }),
  entry(s.consents, "device", "kyc", byUser(s.consents.userId)),
  entry(s.borrowerAddresses, "address", "kyc", byUser(s.borrowerAddresses.userId)),
  entry(s.borrowerEmployment, "employment", "loan", byUser(s.borrowerEmployment.userId)),
  entry(s.borrowerBankAccounts, "bank", "loan", byUser(s.borrowerBankAccounts.userId), { omit: ["account_number_enc"] }),
  entry(s.borrowerReferences, "references", "none", byUser(s.borrowerReferences.userId)),
  entry(s.borrowerDocuments, "documents", "kyc", byUser(s.borrowerDocuments.userId), {
    files: [{ column: "storage_key", in: "storage" }],
  }),
  entry(s.ckycRecords, "identity", "kyc", byUser(s.ckycRecords.userId)),
  entry(s.quickStarts, "loans", "none", byUser(s.quickStarts.userId)),
  entry(s.funnelEvents, "loans", "none", byUser(s.funnelEvents.userId)),
  entry(s.creditChecks, "credit_report", "loan", byUser(s.creditChecks.userId)),
  entry(s.policyEvaluations, "credit_report", "loan", byUser(s.policyEvaluations.userId)),
  entry(s.loanApplications, "loans", "loan", byUser(s.loanApplications.userId)),
  entry(s.applicationRequests, "loans", "loan", byApplication(s.applicationRequests.applicationId)),
  entry(s.reviewChecklist, "loans", "loan", byApplication(s.reviewChecklist.applicationId)),
  entry(s.applicationDeviations, "loans", "loan", byApplication(s.applicationDeviations.applicationId)),
  entry(s.loanDocuments, "loans", "loan", byApplication(s.loanDocuments.applicationId), {
    omit: ["pdf"],
    files: [
      { column: "pdf_key", in: "storage" },
      { column: "pdf", in: "row" },
    ],
  }),
  entry(s.loanSignatures, "loans", "loan", byApplication(s.loanSignatures.applicationId), {
    omit: ["signed_pdf"],
    files: [
      { column: "signed_pdf_key", in: "storage" },
      { column: "signed_pdf", in: "row" },
    ],
  }),
  entry(s.revisedKfs, "loans", "loan", byApplication(s.revisedKfs.applicationId), {
    omit: ["pdf"],
    files: [
      { column: "pdf_key", in: "storage" },
      { column: "pdf", in: "row" },
    ],
  }),
  entry(s.payouts, "bank", "loan", byApplication(s.payouts.applicationId), { omit: ["account_number_enc"] }),
  entry(s.loanAccounts, "loans", "loan", byApplication(s.loanAccounts.applicationId)),
  entry(s.loanInstalments, "loans", "loan", byApplication(s.loanInstalments.applicationId)),
  entry(s.loanLedger, "loans", "loan", byApplication(s.loanLedger.applicationId)),
  entry(s.payments, "loans", "loan", byUser(s.payments.userId)),
  entry(s.mandates, "bank", "loan", byUser(s.mandates.userId)),
  entry(s.mandateDebits, "loans", "loan", byUser(s.mandateDebits.userId)),
  entry(s.collectionCases, "loans", "loan", byUser(s.collectionCases.userId)),
  entry(s.collectionNotes, "loans", "loan", byApplication(s.collectionNotes.applicationId)),
  entry(s.promisesToPay, "loans", "loan", byApplication(s.promisesToPay.applicationId)),
  entry(s.dunningSends, "loans", "loan", byUser(s.dunningSends.userId)),
  entry(s.collectionTasks, "loans", "loan", through(s.collectionTasks.caseId, s.collectionCases)),
  entry(s.writeOffSettlements, "loans", "loan", byApplication(s.writeOffSettlements.applicationId)),
  entry(s.bureauRecords, "loans", "loan", byUser(s.bureauRecords.userId)),
  entry(s.bureauRejections, "loans", "loan", byApplication(s.bureauRejections.applicationId)),
  entry(s.bureauAlerts, "loans", "loan", byApplication(s.bureauAlerts.applicationId)),
  entry(s.journalEntries, "loans", "loan", byApplication(s.journalEntries.applicationId)),
  entry(s.journalLines, "loans", "loan", byApplication(s.journalLines.applicationId)),
  entry(s.bookPositions, "loans", "loan", byApplication(s.bookPositions.applicationId)),
  entry(s.accrualBasis, "loans", "loan", byApplication(s.accrualBasis.applicationId)),
  entry(s.monthEndClasses, "loans", "loan", byApplication(s.monthEndClasses.applicationId)),
  // A provider's statement line about the borrower's money: its reference is one the journals booked for their loans.
  entry(s.statementLines, "loans", "loan", (userId) => {
    const j = s.journalLines;
    return sql`${s.statementLines.providerRef} in (select ${j.providerRef} from ${j} where ${j.applicationId} in ${applicationsOf(userId)} and ${j.providerRef} is not null)`;
  }),
  entry(s.reconExceptions, "loans", "loan", byApplication(s.reconExceptions.applicationId)),
  entry(s.tickets, "loans", "loan", byUser(s.tickets.userId)),
  entry(s.ticketMessages, "loans", "loan", through(s.ticketMessages.ticketId, s.tickets)),
  // Kept with the loan: the proof that what the law or the loan requires was told (autopay's pre-debit notices, bureau reporting, the agreement).
  entry(s.notifications, "mobile", "loan", byUser(s.notifications.userId)),
  entry(s.notificationDeliveries, "mobile", "loan", through(s.notificationDeliveries.notificationId, s.notifications)),
  entry(s.pushSubscriptions, "device", "none", byUser(s.pushSubscriptions.userId), { omit: ["p256dh", "auth"] }),
  entry(s.sessions, "device", "none", byUser(s.sessions.userId), { omit: ["token_hash"] }),
  entry(s.presenceConnections, "device", "none", byUser(s.presenceConnections.userId)),
  // One-time codes are kept by the number they went to: the account's mobile.
  entry(s.verifications, "mobile", "none", (userId) => sql`${s.verifications.target} = ${mobileOf(userId)}`, { omit: ["code_hash"] }),
  entry(s.verificationSends, "mobile", "none", (userId) => sql`${s.verificationSends.target} = ${mobileOf(userId)}`),
  // The borrower's own actions (what staff and the system did is in the tables above, and stays the lender's log).
  entry(s.auditLog, "device", "loan", byUser(s.auditLog.actorUserId)),
  entry(s.dataRequests, "loans", "none", byUser(s.dataRequests.userId)),
  entry(s.dataNominees, "references", "none", byUser(s.dataNominees.userId)),
  // Each row is exported with the breach's own description (data_breaches, the register, is not borrower data).
  entry(s.dataBreachBorrowers, "identity", "none", byUser(s.dataBreachBorrowers.userId)),
];

const OURS = "the lender's own settings or reference data, about no borrower";

/** The tables with no rows about a borrower, or whose rows the download leaves out, and why. */
export const NOT_BORROWER_TABLES: readonly NotBorrowerTable[] = [
  { table: s.feedback, why: "published testimonials, entered by staff under a first name and city, linked to no account" },
  {
    table: s.contactMessages,
    why: "the public contact form's messages from before tickets, linked to no account (anyone may type any number); migration 0018 copied them into tickets, and nothing writes here",
  },
  { table: s.rateLimitCounters, why: "counts of attempts in a time window, removed when it ends: a mechanism, not a record" },
  { table: s.products, why: OURS },
  { table: s.riskBands, why: OURS },
  { table: s.creditPolicies, why: OURS },
  { table: s.dunningRules, why: OURS },
  { table: s.productVersions, why: OURS },
  { table: s.holidays, why: OURS },
  { table: s.settings, why: OURS },
  { table: s.booksRules, why: OURS },
  { table: s.accountingPeriods, why: OURS },
  { table: s.servicingRuns, why: "the daily run's counts for all loans" },
  { table: s.ticketCounters, why: "the last ticket number of each year" },
  { table: s.statementImports, why: "a provider's statement file for every borrower; its lines about this borrower are exported" },
  { table: s.bureauRuns, why: "a bureau file for every borrower; this borrower's records in it are exported (bureau_records)" },
  { table: s.bureauRejectionImports, why: "a bureau's rejection file for every borrower; this borrower's rejections are exported" },
  { table: s.sanctionsLists, why: "sanctions screening: the published lists, not about borrowers, and screening is never disclosed" },
  { table: s.amlScreenings, why: "sanctions screening: the law forbids disclosing screening to the person (PMLA, tipping off)" },
  { table: s.amlMatches, why: "sanctions screening: the law forbids disclosing screening to the person (PMLA, tipping off)" },
  {
    table: s.suspiciousReports,
    why: "suspicious-transaction reports to FIU-IND: the law forbids disclosing them (PMLA s. 12, tipping off)",
  },
  { table: s.dataBreaches, why: "the breach register; the breaches that affected the borrower are exported with data_breach_borrowers" },
];

/** Every table the schema module exports. */
export const SCHEMA_TABLES: readonly PgTable[] = (Object.values(schema) as unknown[]).filter((value): value is PgTable =>
  is(value, PgTable),
);
