// Suspicious-transaction reports as compliance reads them (docs/product.md "Suspicious-transaction
// reports"): the list, one report with its borrower and the money movements it covers, and the file
// for FIU-IND (docs/decisions/0008-str-export-format.md), its PAN decrypted for the file alone.
import { and, asc, desc, eq, gte, inArray, isNotNull, lte, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { type LedgerMovement, reportedMovements } from "../../domain/aml/str.ts";
import { type StrAccount, type StrBatchFile, stateCode, writeStrXml } from "../../domain/aml/str-file.ts";
import { todayIST } from "../../domain/india-date.ts";
import { decrypt, sha256 } from "../crypto.server.ts";
import {
  amlMatches,
  borrowerAddresses,
  borrowerProfiles,
  loanApplications,
  loanLedger,
  payments,
  payouts,
  suspiciousReports,
  users,
} from "../db/schema.ts";

type Db = Pick<AppServices, "db">;
export type ReportRow = typeof suspiciousReports.$inferSelect;

const drafter = alias(users, "drafter");
const reviewer = alias(users, "reviewer");
const exporter = alias(users, "exporter");

/**
 * A draft's version as an editor saw it: when it last changed and what it then said (two changes in
 * the same millisecond still differ). An edit made from an older version is refused.
 */
export const strVersion = (r: Pick<ReportRow, "updatedAt" | "suspectedAt" | "periodFrom" | "periodTo" | "grounds" | "reviewedAt">) =>
  `${r.updatedAt.toISOString()}.${sha256(
    JSON.stringify([r.suspectedAt.getTime(), r.periodFrom, r.periodTo, r.grounds, r.reviewedAt?.getTime() ?? null]),
  ).slice(0, 16)}`;

/** What the list shows at most (the newest); the list says when there are more. */
const SHOWN = 500;

/** Every report, newest first, with its borrower and who drafted and reviewed it. */
export async function strList({ db }: Db) {
  return db
    .select({
      reference: suspiciousReports.reference,
      status: suspiciousReports.status,
      dueOn: suspiciousReports.dueOn,
      suspectedAt: suspiciousReports.suspectedAt,
      reviewedAt: suspiciousReports.reviewedAt,
      updatedAt: suspiciousReports.updatedAt,
      exportedAt: suspiciousReports.exportedAt,
      fiuReference: suspiciousReports.fiuReference,
      fromMatch: isNotNull(suspiciousReports.matchId),
      borrower: borrowerProfiles.fullName,
      draftedBy: drafter.name,
      reviewedBy: reviewer.name,
    })
    .from(suspiciousReports)
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, suspiciousReports.userId))
    .leftJoin(drafter, eq(drafter.id, suspiciousReports.draftedBy))
    .leftJoin(reviewer, eq(reviewer.id, suspiciousReports.reviewedBy))
    .orderBy(desc(suspiciousReports.draftedAt))
    .limit(SHOWN);
}

/** One report by its reference with its borrower, the people on it and the match it came from; null when there is none. */
export async function strByReference({ db }: Db, reference: string) {
  if (!/^STR-[0-9A-Z]{8}$/.test(reference)) return null;
  const [row] = await db
    .select({
      report: suspiciousReports,
      borrower: {
        id: users.id,
        mobile: users.mobile,
        name: borrowerProfiles.fullName,
        dateOfBirth: borrowerProfiles.dateOfBirth,
        panMasked: borrowerProfiles.panMasked,
      },
      draftedBy: drafter.name,
      reviewedBy: reviewer.name,
      exportedBy: exporter.name,
      match: { source: amlMatches.source, ref: amlMatches.ref, listedName: amlMatches.listedName },
    })
    .from(suspiciousReports)
    .innerJoin(users, eq(users.id, suspiciousReports.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, suspiciousReports.userId))
    .leftJoin(drafter, eq(drafter.id, suspiciousReports.draftedBy))
    .leftJoin(reviewer, eq(reviewer.id, suspiciousReports.reviewedBy))
    .leftJoin(exporter, eq(exporter.id, suspiciousReports.exportedBy))
    .leftJoin(amlMatches, eq(amlMatches.id, suspiciousReports.matchId))
    .where(eq(suspiciousReports.reference, reference));
  return row ?? null;
}

/** The borrower's applications that reached signing, oldest first: the accounts a report names. */
const accountsOf = ({ db }: Db, userId: string) =>
  db
    .select({
      id: loanApplications.id,
      reference: loanApplications.reference,
      loanNumber: loanApplications.loanNumber,
      status: loanApplications.status,
      signedAt: loanApplications.signedAt,
      disbursalDate: loanApplications.disbursalDate,
    })
    .from(loanApplications)
    .where(and(eq(loanApplications.userId, userId), or(isNotNull(loanApplications.signedAt), isNotNull(loanApplications.loanNumber))))
    .orderBy(asc(loanApplications.createdAt));

/** The borrower's money movements between two India dates (both included), from their loans' ledgers. */
export async function strMovements({ db }: Db, userId: string, from: string, to: string) {
  const rows = await db
    .select({
      entryNo: loanLedger.entryNo,
      kind: loanLedger.kind,
      businessDate: loanLedger.businessDate,
      principalPaise: loanLedger.principalPaise,
      amountPaise: loanLedger.amountPaise,
      loanNumber: loanApplications.loanNumber,
      reference: loanApplications.reference,
      payoutPaise: payouts.amountPaise,
      utr: payouts.utr,
      paymentReference: payments.reference,
      paymentMode: payments.mode,
    })
    .from(loanLedger)
    .innerJoin(loanApplications, eq(loanApplications.id, loanLedger.applicationId))
    .leftJoin(payouts, eq(payouts.id, loanLedger.payoutId))
    .leftJoin(payments, eq(payments.id, loanLedger.paymentId))
    .where(
      and(
        eq(loanApplications.userId, userId),
        gte(loanLedger.businessDate, from),
        lte(loanLedger.businessDate, to),
        inArray(loanLedger.kind, ["disbursal", "disbursal_reversal", "payment", "payment_reversal", "refund", "refund_reversal"]),
      ),
    )
    .orderBy(asc(loanLedger.businessDate), asc(loanLedger.entryNo));
  return reportedMovements(
    rows.map((r): LedgerMovement => ({
      entryNo: r.entryNo,
      kind: r.kind,
      businessDate: r.businessDate,
      account: r.loanNumber ?? r.reference,
      principalPaise: r.principalPaise,
      amountPaise: r.amountPaise,
      payout: r.payoutPaise === null ? null : { amountPaise: r.payoutPaise, utr: r.utr },
      payment: r.paymentReference === null ? null : { reference: r.paymentReference, mode: r.paymentMode },
    })),
  );
}

/** The lender's single office as FIU-IND's Address: the configured address in one line, its PIN code read out of it. */
const lenderAddress = (address: string) => ({
  address,
  city: "",
  stateCode: "XX",
  pinCode: /\b\d{6}\b/.exec(address)?.[0] ?? "",
  countryCode: "IN",
});

const ACCOUNT_STATUS: Record<string, StrAccount["status"]> = { active: "A", closed: "C", written_off: "Z", rejected: "C", cancelled: "C" };

/**
 * The report's file, made from the database as it is now: the lender and its principal officer from
 * configuration, the borrower (their PAN decrypted here, for the file alone), each account and the
 * money movements of the report's period. `batchDate` is the India date of the export.
 */
export async function strFile(services: Pick<AppServices, "db" | "keyring" | "config">, report: ReportRow, batchDate: string) {
  const { db, config } = services;
  const lender = config.public.lender;
  const [person] = await db
    .select({
      mobile: users.mobile,
      name: borrowerProfiles.fullName,
      dateOfBirth: borrowerProfiles.dateOfBirth,
      gender: borrowerProfiles.gender,
      email: borrowerProfiles.email,
      panEnc: borrowerProfiles.panEnc,
      address: borrowerAddresses,
    })
    .from(users)
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
    .leftJoin(borrowerAddresses, eq(borrowerAddresses.userId, users.id))
    .where(eq(users.id, report.userId));
  if (!person) throw new Error("the report's borrower is gone");
  const a = person.address;
  const frozen = await db
    .select({ id: amlMatches.id })
    .from(amlMatches)
    .where(and(eq(amlMatches.userId, report.userId), eq(amlMatches.status, "confirmed")))
    .limit(1);
  const borrower = {
    name: person.name ?? "",
    customerId: report.userId.replaceAll("-", "").slice(0, 10).toUpperCase(),
    relation: "A" as const,
    address: {
      address: a ? [a.currentLine1, a.currentLine2, a.currentDistrict].filter(Boolean).join(", ") : "",
      city: a?.currentCity ?? "",
      stateCode: stateCode(a?.currentState),
      pinCode: a?.currentPincode ?? "",
      countryCode: "IN",
    },
    mobile: person.mobile ? `+91${person.mobile}` : "",
    email: person.email ?? "",
    pan: person.panEnc ? decrypt(services.keyring, person.panEnc) : "",
    gender: person.gender === "male" ? ("M" as const) : person.gender === "female" ? ("F" as const) : ("X" as const),
    dateOfBirth: person.dateOfBirth,
    nationality: "IN",
  };
  const movements = await strMovements(services, report.userId, report.periodFrom, report.periodTo);
  const applications = await accountsOf(services, report.userId);
  const accounts: StrAccount[] = applications.map((app) => {
    const number = app.loanNumber ?? app.reference;
    const status = ACCOUNT_STATUS[app.status] ?? "I";
    return {
      number,
      type: app.loanNumber ? "BL" : "ZZ",
      holderName: borrower.name,
      status: frozen.length && status === "A" ? "F" : status,
      openedOn: app.disbursalDate ?? (app.signedAt ? todayIST(app.signedAt) : null),
      riskRating: frozen.length ? "A1" : "XX",
      persons: [borrower],
      transactions: movements
        .filter((m) => m.account === number)
        .map(({ date, id, mode, debitCredit, amountPaise, remarks }) => ({
          date,
          id,
          mode,
          debitCredit,
          amountPaise,
          remarks,
        })),
    };
  });
  if (accounts.length === 0)
    accounts.push({
      number: borrower.customerId,
      type: "ZZ",
      holderName: borrower.name,
      status: "I",
      openedOn: null,
      riskRating: frozen.length ? "A1" : "XX",
      persons: [borrower],
      transactions: [],
    });
  const office = lenderAddress(lender.address);
  const file: StrBatchFile = {
    batchNumber: report.reference.slice(4),
    batchDate,
    operationalMode: config.isProduction ? "P" : "T",
    entity: { name: lender.name, category: "FINBN", registration: lender.rbiRegistration, fiuReId: "XXXXXNNNNN" },
    officer: {
      name: lender.grievanceOfficer.name,
      designation: "Grievance Redressal Officer",
      address: office,
      telephone: lender.grievanceOfficer.phone,
      email: lender.grievanceOfficer.email,
    },
    branch: { refNumType: "S", refNum: "HO", name: `${lender.name}, head office`, address: office },
    report: {
      mainPersonName: borrower.name,
      sourceOfAlert: report.matchId ? "WL" : "EI",
      alertIndicators: report.matchId ? ["Sanctions list match confirmed"] : [],
      terrorism: report.matchId ? "Y" : "X",
      grounds: report.grounds,
      priority: report.matchId ? "P1" : "XX",
      accounts,
    },
  };
  const xml = writeStrXml(file);
  return { name: `${report.reference}.xml`, xml, sha256: sha256(xml), movements: movements.length };
}
