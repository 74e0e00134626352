/**
 * What a bureau file says about each loan (docs/product.md "Credit bureau reporting"), read from the
 * loan account and the books as at the reporting date: every loan active at any time in the period,
 * and those ended (closed, cancelled after disbursal and reported as closed, settled) until reported closed; a loan
 * cancelled before its disbursal has no account and is never reported. The figures are the ledger's
 * replay to the reporting date, so a file made days later says what was true on that date.
 */
import { and, asc, eq, inArray, lte, min, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { AssetClass, Bureau, BureauAccount, BureauRecord, BureauSubject } from "../../domain/bureau/format.ts";
import { addDays, daysBetween, type IsoDate } from "../../domain/loan-math.ts";
import { type LoanState, type LoanTerms, replay, type ServicingEvent } from "../../domain/loans/servicing.ts";
import { decrypt } from "../crypto.server.ts";
import {
  borrowerAddresses,
  borrowerEmployment,
  borrowerProfiles,
  bureauRecords,
  bureauRuns,
  loanAccounts,
  loanApplications,
  loanLedger,
  users,
  writeOffSettlements,
} from "../db/schema.ts";
import { loansForReplay } from "../loan-account/account.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "keyring">;

/** A loan as the file reports it, with what the run keeps of it. */
export interface LoanRecord {
  applicationId: string;
  userId: string;
  record: BureauRecord;
}

/**
 * The loans a bureau's file as at `asOf` reports, in loan-number order: each disbursed on or before
 * the date and active or written off, and each that ended (closed, cancelled after disbursal,
 * settled after write-off) until a file to this bureau has reported it closed, so a record held back
 * or a file missed never leaves a loan shown open at the bureau.
 */
export async function loansToReport(services: Pick<AppServices, "db">, bureau: Bureau, asOf: IsoDate) {
  const reportedClosed = sql`exists (select 1 from ${bureauRecords} r join ${bureauRuns} u on u.id = r.run_id
    where r.application_id = ${loanApplications.id} and u.bureau = ${bureau} and not r.held_back and r.closed_on is not null)`;
  const rows = await services.db
    .select({ id: loanApplications.id })
    .from(loanAccounts)
    .innerJoin(loanApplications, eq(loanApplications.id, loanAccounts.applicationId))
    .leftJoin(writeOffSettlements, eq(writeOffSettlements.applicationId, loanAccounts.applicationId))
    .where(
      and(
        lte(loanAccounts.disbursalDate, asOf),
        sql`(${loanApplications.status} = 'active'
          or (${loanApplications.status} = 'written_off' and ${writeOffSettlements.applicationId} is null)
          or (${loanApplications.status} in ('closed', 'cancelled', 'written_off') and not ${reportedClosed}))`,
      ),
    )
    .orderBy(asc(loanApplications.loanNumber));
  return rows.map((r) => r.id);
}

/** The first loan's disbursal date: no reporting date before it has anything to report. */
export async function firstDisbursal({ db }: Pick<AppServices, "db">): Promise<IsoDate | null> {
  const [first] = await db.select({ on: min(loanAccounts.disbursalDate) }).from(loanAccounts);
  return (first?.on as IsoDate | null | undefined) ?? null;
}

/** Loans are read in parts of this many (each part's queries bind one parameter per loan). */
const PART = 1000;

/** The records of `applicationIds` as at `asOf`, in the order given. */
export async function recordsAsOf(services: Services, asOf: IsoDate, applicationIds: readonly string[]): Promise<LoanRecord[]> {
  const out: LoanRecord[] = [];
  for (let i = 0; i < applicationIds.length; i += PART)
    out.push(...(await recordsOfPart(services, asOf, applicationIds.slice(i, i + PART))));
  return out;
}

async function recordsOfPart(services: Services, asOf: IsoDate, ids: string[]): Promise<LoanRecord[]> {
  const loans = await loansForReplay(services, ids);
  const facts = await loanFacts(services, ids);
  const writeOffs = await writeOffsOf(services, ids, asOf);
  const subjects = await subjectsOf(services, [...new Set([...facts.values()].map((f) => f.userId))]);
  const out: LoanRecord[] = [];
  for (const id of ids) {
    const loan = loans.get(id);
    const fact = facts.get(id);
    if (!loan || !fact) continue;
    // A borrower whose identity cannot be read is reported with none: the record's problems hold it back, listed.
    const subject = subjects.get(fact.userId) ?? NO_SUBJECT;
    const account = accountAsOf(asOf, { ...loan, ...fact, writeOff: writeOffs.get(id) ?? null });
    out.push({ applicationId: id, userId: fact.userId, record: { subject, account } });
  }
  return out;
}

const NO_SUBJECT: BureauSubject = {
  name: "",
  dob: "" as IsoDate,
  gender: null,
  pan: null,
  mobile: "",
  email: null,
  addresses: [],
  employment: null,
  monthlyIncomePaise: null,
};

interface LoanFact {
  userId: string;
  loanNumber: string;
  status: string;
  npaSince: string | null;
  settledOn: string | null;
  settlement: { settledOn: string; amountPaise: number } | null;
}

async function loanFacts({ db }: Pick<AppServices, "db">, ids: string[]) {
  const rows = await db
    .select({
      id: loanApplications.id,
      userId: loanApplications.userId,
      loanNumber: loanApplications.loanNumber,
      status: loanApplications.status,
      npaSince: loanAccounts.npaSince,
      settledOn: loanAccounts.settledOn,
      woSettledOn: writeOffSettlements.settledOn,
      woAmountPaise: writeOffSettlements.amountPaise,
    })
    .from(loanApplications)
    .innerJoin(loanAccounts, eq(loanAccounts.applicationId, loanApplications.id))
    .leftJoin(writeOffSettlements, eq(writeOffSettlements.applicationId, loanApplications.id))
    .where(inArray(loanApplications.id, ids));
  return new Map<string, LoanFact>(
    rows.map((r) => [
      r.id,
      {
        userId: r.userId,
        loanNumber: r.loanNumber ?? "",
        status: r.status,
        npaSince: r.npaSince,
        settledOn: r.settledOn,
        settlement: r.woSettledOn && r.woAmountPaise !== null ? { settledOn: r.woSettledOn, amountPaise: r.woAmountPaise } : null,
      },
    ]),
  );
}

/** Each loan's write-off on or before `asOf` (its date and the principal written off). */
async function writeOffsOf({ db }: Pick<AppServices, "db">, ids: string[], asOf: IsoDate) {
  const rows = await db
    .select({ id: loanLedger.applicationId, on: loanLedger.businessDate, principalPaise: loanLedger.amountPaise })
    .from(loanLedger)
    .where(and(inArray(loanLedger.applicationId, ids), eq(loanLedger.kind, "write_off"), lte(loanLedger.businessDate, asOf)));
  return new Map(rows.map((r) => [r.id, { on: r.on as IsoDate, principalPaise: r.principalPaise }]));
}

/** What is owed as at the state's date: principal outstanding, interest billed and unpaid, penal charges unpaid. */
const owed = (state: LoanState, asOf: IsoDate) =>
  state.outstandingPrincipalPaise +
  state.instalments.filter((r) => r.dueDate <= asOf).reduce((s, r) => s + r.interestPaise - r.paidInterestPaise, 0) +
  state.penalDuePaise;

/** RBI's asset class as at `asOf` from the day the borrower became NPA (a written-off loan is a loss asset). */
export function assetClassAsOf(asOf: IsoDate, npaSince: string | null, writtenOff: boolean): AssetClass {
  if (writtenOff) return "loss";
  if (!npaSince || npaSince > asOf) return "standard";
  return daysBetween(npaSince, asOf) <= 365 ? "sub_standard" : "doubtful";
}

function accountAsOf(
  asOf: IsoDate,
  loan: LoanFact & { terms: LoanTerms; events: ServicingEvent[]; writeOff: { on: IsoDate; principalPaise: number } | null },
): BureauAccount {
  const events = loan.events.filter((e) => e.businessDate <= asOf);
  const state = replay(loan.terms, events, asOf);
  const payments = events.filter((e) => e.kind === "payment");
  const last = payments.at(-1) ?? null;
  const settled = loan.settlement && loan.settlement.settledOn <= asOf ? loan.settlement : null;
  const endedOn = loan.status === "closed" || loan.status === "cancelled" ? loan.settledOn : null;
  const closedOn = settled?.settledOn ?? (endedOn && endedOn <= asOf ? endedOn : null);
  const first = loan.terms.instalments[0];
  // The EMI: a regular instalment (the first may be a broken period's).
  const regular = loan.terms.instalments[1] ?? first;
  const writtenOff = loan.writeOff
    ? {
        status: settled ? ("post_write_off_settled" as const) : ("written_off" as const),
        totalPaise: owed(replay(loan.terms, events, loan.writeOff.on), loan.writeOff.on),
        principalPaise: loan.writeOff.principalPaise,
        settlementPaise: settled?.amountPaise ?? null,
      }
    : null;
  return {
    accountNumber: loan.loanNumber,
    kind: loan.terms.kind,
    openedOn: loan.terms.disbursalDate,
    lastPaymentOn: last?.businessDate ?? null,
    closedOn,
    sanctionedPaise: loan.terms.principalPaise,
    currentBalancePaise: closedOn ? 0 : owed(state, asOf),
    overduePaise: closedOn ? 0 : state.overduePaise + state.penalDuePaise,
    dpd: closedOn ? 0 : state.dpd,
    assetClass: assetClassAsOf(asOf, loan.npaSince, writtenOff !== null),
    writtenOff,
    rateBps: loan.terms.rateBps,
    tenure:
      loan.terms.kind === "emi"
        ? loan.terms.instalments.length
        : daysBetween(loan.terms.disbursalDate, first?.dueDate ?? addDays(loan.terms.disbursalDate, 0)),
    instalmentPaise: regular ? regular.principalPaise + regular.interestPaise : 0,
    lastPaymentPaise: last?.amountPaise ?? null,
  };
}

/** The borrowers' identity, contacts, addresses and employment, by user id. */
async function subjectsOf(services: Services, userIds: string[]) {
  const rows = await services.db
    .select({ user: users, profile: borrowerProfiles, address: borrowerAddresses, employment: borrowerEmployment })
    .from(users)
    .innerJoin(borrowerProfiles, eq(borrowerProfiles.userId, users.id))
    .leftJoin(borrowerAddresses, eq(borrowerAddresses.userId, users.id))
    .leftJoin(borrowerEmployment, eq(borrowerEmployment.userId, users.id))
    .where(inArray(users.id, userIds));
  const out = new Map<string, BureauSubject>();
  for (const { user, profile, address: a, employment } of rows) {
    const addresses: BureauSubject["addresses"] = [];
    if (a) {
      addresses.push({
        line1: a.currentLine1,
        line2: a.currentLine2,
        city: a.currentCity,
        district: a.currentDistrict,
        state: a.currentState,
        pin: a.currentPincode,
        category: "residence",
      });
      if (!a.permanentSame && a.permanentPincode && a.permanentCity && a.permanentState)
        addresses.push({
          line1: a.permanentLine1,
          line2: a.permanentLine2,
          city: a.permanentCity,
          district: a.permanentDistrict ?? a.permanentCity,
          state: a.permanentState,
          pin: a.permanentPincode,
          category: "permanent",
        });
    }
    out.set(user.id, {
      name: profile.fullName,
      dob: profile.dateOfBirth as IsoDate,
      gender: (profile.gender as BureauSubject["gender"]) ?? null,
      pan: decrypt(services.keyring, profile.panEnc),
      mobile: user.mobile ?? "",
      email: profile.email ?? user.email ?? null,
      addresses,
      employment: employment?.employmentType ?? null,
      monthlyIncomePaise: employment?.netMonthlyIncomePaise ?? null,
    });
  }
  return out;
}
