/**
 * What the borrower reads about their loans (scoped to the owner in every query): the loans list,
 * one loan's page (replayed live from the ledger), the payoff quote and the statement.
 */
import { and, eq, isNotNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { type LoanKind } from "../../domain/loans/application.ts";
import type { LoanStatus } from "../../domain/loans/lifecycle.ts";
import {
  type Allocation,
  bucketOf,
  coolingOffQuote,
  inCoolingOff,
  isIsoDate,
  type LoanState,
  type LoanTerms,
  nextDue,
  PAYOFF_DAYS_AHEAD,
  type PayoffQuote,
  payoffQuote,
  payoffWithAdvance,
  advanceCover,
  replay,
} from "../../domain/loans/servicing.ts";
import { preparedQuery } from "../db/prepared.ts";
import { jsonColumns, userColumnsReader } from "../db/json-rows.ts";
import { loanAccounts, loanApplications, payments, type PaymentStatus, type PaymentPurpose } from "../db/schema.ts";
import { type AccountRow, businessToday, type LedgerRow, ledgerOf, replayColumns, replayFromJson, termsOf } from "./account.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;

export interface PenalLine {
  id: string;
  seq: number;
  businessDate: IsoDate;
  amountPaise: number;
  paidPaise: number;
  status: "unpaid" | "part_paid" | "paid" | "waived" | "reversed";
  reason: string | null;
}

export interface PaymentLine {
  reference: string;
  amountPaise: number;
  status: PaymentStatus;
  purpose: PaymentPurpose;
  provider: string;
  mode: string | null;
  businessDate: IsoDate | null;
  createdAt: string;
  reversed: boolean;
  allocation: Allocation | null;
}

/** Penal charges with what became of each: paid, waived by staff, reversed (an on-time payment arrived late). */
export function penalLines(rows: readonly LedgerRow[], state: LoanState): PenalLine[] {
  const undone = new Map(
    rows.filter((r) => r.refId && (r.kind === "penal_reversal" || r.kind === "penal_waiver")).map((r) => [r.refId, r]),
  );
  const live = new Map(state.penals.map((p) => [p.id, p]));
  return rows
    .filter((r) => r.kind === "penal" && r.seq !== null)
    .map((r) => {
      const u = undone.get(r.id);
      const p = live.get(r.id);
      const paid = p?.paidPaise ?? 0;
      const status: PenalLine["status"] = u
        ? u.kind === "penal_waiver"
          ? "waived"
          : "reversed"
        : paid >= r.amountPaise
          ? "paid"
          : paid > 0
            ? "part_paid"
            : "unpaid";
      return {
        id: r.id,
        seq: r.seq as number,
        businessDate: r.businessDate,
        amountPaise: r.amountPaise,
        paidPaise: paid,
        status,
        reason: u ? String(u.details.reason ?? "") || null : null,
      };
    });
}

function paymentLines(list: readonly PaymentRow[], rows: readonly LedgerRow[], state: LoanState): PaymentLine[] {
  const reversed = new Set(rows.filter((r) => r.kind === "payment_reversal").map((r) => r.paymentId));
  return list.map((p) => ({
    reference: p.reference,
    amountPaise: p.receivedPaise ?? p.amountPaise,
    status: p.status,
    purpose: p.purpose,
    provider: p.provider,
    mode: p.mode,
    businessDate: p.businessDate,
    createdAt: p.createdAt.toISOString(),
    reversed: reversed.has(p.id),
    allocation: state.allocations.get(p.id) ?? null,
  }));
}
const paymentJson = jsonColumns(payments, "p", [
  "id",
  "reference",
  "amountPaise",
  "receivedPaise",
  "status",
  "purpose",
  "provider",
  "mode",
  "businessDate",
  "createdAt",
]);
type PaymentRow = ReturnType<typeof paymentJson.decode>;

export interface LoanSummary {
  loanNumber: string;
  reference: string;
  kind: LoanKind;
  status: LoanStatus;
  principalPaise: number;
  disbursalDate: IsoDate;
  outstandingPrincipalPaise: number;
  overduePaise: number;
  penalDuePaise: number;
  dpd: number;
  nextDue: ReturnType<typeof nextDue>;
  closedOn: IsoDate | null;
}

function summary(a: typeof loanApplications.$inferSelect, terms: LoanTerms, state: LoanState): LoanSummary {
  return {
    loanNumber: a.loanNumber as string,
    reference: a.reference,
    kind: a.product,
    status: a.status,
    principalPaise: terms.principalPaise,
    disbursalDate: terms.disbursalDate,
    outstandingPrincipalPaise: state.outstandingPrincipalPaise,
    overduePaise: state.overduePaise,
    penalDuePaise: state.penalDuePaise,
    dpd: state.dpd,
    nextDue: nextDue(state),
    closedOn: state.settlement?.on ?? null,
  };
}

/** The borrower's loans (disbursed ones, newest first), each replayed to today. */
export async function borrowerLoans(services: Services, userId: string): Promise<LoanSummary[]> {
  const row = await loansOfUser(services.db, userId);
  return borrowerLoansFromJson(services, row?.loans ?? []);
}
const loansOfUser = userColumnsReader("loans_of_user", (userId) => ({ loans: borrowerLoansColumn(userId) }));

/**
 * The borrower's disbursed loans, newest first, each with its account and all the replay reads, as
 * JSON (a subquery on `userId`, the owner's id: a parameter, or the user's column in a statement
 * that joins other tables): the dashboard reads them in its one statement. `borrowerLoansFromJson`
 * reads them.
 */
export function borrowerLoansColumn(userId: SQLWrapper) {
  const replayRows = replayColumns(sql.raw("a.id"));
  return sql<
    unknown[]
  >`(select coalesce(json_agg(json_build_object('application', ${applicationJson.sql}, 'account', case when c.application_id is null then null else ${accountJson.sql} end, 'schedule', ${replayRows.schedule}, 'ledger', ${replayRows.ledger}, 'debits', ${replayRows.debits}) order by a.disbursal_date desc), '[]') from loan_applications a left join loan_accounts c on c.application_id = a.id where a.user_id = ${userId} and a.disbursal_date is not null and a.loan_number is not null)`;
}
const applicationJson = jsonColumns(loanApplications, "a");
const accountJson = jsonColumns(loanAccounts, "c");

/** The loans of `borrowerLoansColumn`, each replayed to today. */
export async function borrowerLoansFromJson(services: Services, json: unknown): Promise<LoanSummary[]> {
  const today = businessToday(services);
  const out: LoanSummary[] = [];
  for (const loan of json as {
    application: Record<string, unknown>;
    account: Record<string, unknown> | null;
    schedule: unknown[];
    ledger: unknown[];
    debits: unknown[];
  }[]) {
    const read = await loanOfRow(services, {
      ...loan,
      application: applicationJson.decode(loan.application),
      account: loan.account ? accountJson.decode(loan.account) : null,
    });
    if (read) out.push(summary(read.application, read.terms, replay(read.terms, read.events, today)));
  }
  return out;
}

/** The next instalment due across the borrower's active loans (the dashboard's line). */
export function nextDueAcross(loans: readonly LoanSummary[]) {
  const active = loans.filter((l) => l.status === "active");
  const overdue = active.filter((l) => l.overduePaise > 0).reduce((s, l) => s + l.overduePaise + l.penalDuePaise, 0);
  const next = active.filter((l) => l.nextDue).sort((x, y) => ((x.nextDue?.dueDate ?? "") < (y.nextDue?.dueDate ?? "") ? -1 : 1))[0];
  return {
    overduePaise: overdue,
    next: next ? { loanNumber: next.loanNumber, kind: next.kind, ...(next.nextDue as NonNullable<LoanSummary["nextDue"]>) } : null,
  };
}

/** One of the borrower's own loans by its number, with its terms and ledger; null for anyone else's. */
export async function ownLoanLedger(services: Services, { userId, loanNumber }: { userId: string; loanNumber: string }) {
  const [row] = await ownLoan(services.db, { userId, loanNumber });
  return row ? loanOfRow(services, row) : null;
}

/**
 * The loan of a row read with `replayColumns`: its terms and ledger. A loan activated before
 * accounts existed gets its account on the way (`termsOf`).
 */
async function loanOfRow(
  services: Services,
  {
    application: a,
    account,
    ...replayRows
  }: { application: typeof loanApplications.$inferSelect; account: AccountRow | null } & Parameters<typeof replayFromJson>[2],
) {
  const read = replayFromJson(services, account, replayRows);
  if (read) return { application: a, terms: read.terms, rows: read.rows, events: read.events };
  const found = await termsOf(services, a.id);
  if (!found) return null;
  const ledger = await ledgerOf(services, a.id);
  return { application: a, terms: found.terms, ...ledger };
}

const ownLoanWhere = and(
  eq(loanApplications.loanNumber, sql.placeholder("loanNumber")),
  eq(loanApplications.userId, sql.placeholder("userId")),
  isNotNull(loanApplications.disbursalDate),
);
/** One of the borrower's own disbursed loans by its number, with its account and all the replay reads (one statement). */
const ownLoan = preparedQuery("own_loan", (db, name) =>
  db
    .select({ application: loanApplications, account: loanAccounts, ...replayColumns(loanApplications.id) })
    .from(loanApplications)
    .leftJoin(loanAccounts, eq(loanAccounts.applicationId, loanApplications.id))
    .where(ownLoanWhere)
    .prepare(name),
);

/**
 * `ownLoan` with what the loan's page shows beside its money: the signed agreement's reference,
 * whether a revised KFS is current, and its payments (newest first; an order the borrower never
 * paid, when they came back without paying, is not a payment).
 */
const pageColumns = {
  application: loanApplications,
  account: loanAccounts,
  ...replayColumns(loanApplications.id),
  agreementRef: sql<
    string | null
  >`(select s.agreement_ref from loan_signatures s where s.application_id = ${loanApplications.id} and s.superseded_at is null)`,
  revisedKfs: sql<boolean>`exists (select 1 from revised_kfs r where r.application_id = ${loanApplications.id} and r.superseded_at is null)`,
  payments: sql<
    unknown[]
  >`(select coalesce(json_agg(${paymentJson.sql} order by p.created_at desc), '[]') from payments p where p.application_id = ${loanApplications.id} and p.status <> 'created')`,
};

/**
 * What the loan offers to pay today (the Pay now form's amounts), from the ledger replayed now.
 * `known`: the same ledger already replayed to today and its payoff quote for today (the loan's
 * page has both), not worked out again.
 */
export function payableToday(
  kind: "emi" | "salary_advance",
  terms: LoanTerms,
  events: Parameters<typeof payoffQuote>[1],
  today: IsoDate,
  known?: { state: LoanState; payoff: PayoffQuote },
) {
  const state = known?.state ?? replay(terms, events, today);
  const next = nextDue(state);
  const first = terms.instalments[0];
  return {
    state,
    payable: {
      overduePaise: state.overduePaise,
      penalDuePaise: state.penalDuePaise,
      nextDuePaise: next?.amountPaise ?? null,
      payoffPaise: (known?.payoff ?? payoffQuote(terms, events, today)).totalPaise,
      coolingOffPaise: inCoolingOff(terms, today) ? coolingOffQuote(terms, events, today).totalPaise : null,
      emiPaise: kind === "emi" && first ? first.principalPaise + first.interestPaise : null,
    },
  };
}

/**
 * The reader of the full page of one of the borrower's loans (null for anyone else's), in one statement with `besides`: what
 * other modules show on the page about the same loan, each a subquery on the loan's id (the owner is
 * in the statement's condition), given back undecoded for its module to read. `name` names the
 * prepared statement (unique in the process).
 */
export function loanPageReader<B extends Record<string, SQL>>(name: string, besides: (applicationId: AnyPgColumn) => B) {
  const query = preparedQuery(name, (db, statement) =>
    db
      .select({ ...pageColumns, ...(besides(loanApplications.id) as Record<string, SQL<unknown>>) })
      .from(loanApplications)
      .leftJoin(loanAccounts, eq(loanAccounts.applicationId, loanApplications.id))
      .where(ownLoanWhere)
      .prepare(statement),
  );
  return async (services: Services, { userId, loanNumber }: { userId: string; loanNumber: string }) => {
    const [row] = await query(services.db, { userId, loanNumber });
    const page = row ? await pageOf(services, row) : null;
    return page && { ...page, besides: row as unknown as Record<keyof B, unknown> };
  };
}

async function pageOf(
  services: Services,
  row: Parameters<typeof loanOfRow>[1] & { agreementRef: string | null; revisedKfs: boolean; payments: unknown[] },
) {
  const loan = await loanOfRow(services, row);
  if (!loan) return null;
  const { application: a, terms, rows, events } = loan;
  const today = businessToday(services);
  const state = replay(terms, events, today);
  const open = a.status === "active";
  const payoff = open ? payoffWithAdvance(terms, events, today) : null;
  return {
    today,
    summary: summary(a, terms, state),
    rateBps: terms.rateBps,
    tenure: terms.instalments.length,
    penalPaise: terms.penalPaise,
    coolingOffDays: terms.coolingOffDays,
    bucket: bucketOf(state.dpd),
    advancePaise: state.advancePaise,
    refundDuePaise: state.refundDuePaise,
    settlement: state.settlement,
    instalments: state.instalments,
    penals: penalLines(rows, state),
    payments: paymentLines((row.payments as Record<string, unknown>[]).map(paymentJson.decode), rows, state),
    agreementRef: row.agreementRef ?? null,
    revisedKfs: Boolean(row.revisedKfs),
    /** Each instalment not yet due that the advance held will pay (part or all of), by seq. */
    covered: Object.fromEntries(advanceCover(state)),
    payoff,
    payable: payoff ? payableToday(a.product, terms, events, today, { state, payoff: payoff.quote }).payable : null,
    coolingOff:
      open && inCoolingOff(terms, today)
        ? { until: addDays(terms.disbursalDate, terms.coolingOffDays), quote: coolingOffQuote(terms, events, today) }
        : null,
  };
}
export type LoanPage = NonNullable<Awaited<ReturnType<typeof pageOf>>>;

/** Whether `on` may be quoted: today to PAYOFF_DAYS_AHEAD days ahead. */
export const quotable = (today: IsoDate, on: IsoDate) => on >= today && on <= addDays(today, PAYOFF_DAYS_AHEAD);

/**
 * The payoff contract (docs/product.md "Loan servicing"): the owner's loan only ("not_found"
 * otherwise, the same as a missing one); a date outside today to 30 days ahead is "bad_date".
 */
export async function payoffFor(
  services: Services,
  { userId, loanNumber, on }: { userId: string; loanNumber: string; on: string },
): Promise<{ ok: true; quote: PayoffQuote; advancePaise: number } | { ok: false; reason: "not_found" | "bad_date" }> {
  const loan = await ownLoanLedger(services, { userId, loanNumber });
  if (!loan || loan.application.status !== "active") return { ok: false, reason: "not_found" };
  const today = businessToday(services);
  if (!isIsoDate(on) || !quotable(today, on)) return { ok: false, reason: "bad_date" };
  return { ok: true, ...payoffWithAdvance(loan.terms, loan.events, on) };
}
