/**
 * The loan account: a loan's servicing terms, schedule and ledger as the pure replay reads them
 * (domain/loans/servicing.ts), and the cache of today's figures on `loan_accounts` that lists,
 * queues and reports read. Payments, payouts, staff servicing and the daily run read and change a
 * loan's money only through this module (app/server/loan-account/), never through each other.
 */
import { syncCases } from "../collections/cases.server.ts";
import { and, asc, eq, type SQLWrapper, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { AppServices } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { type LoanState, type LoanTerms, nextDue, replay, type ServicingEvent } from "../../domain/loans/servicing.ts";
import { todayIST } from "../../domain/india-date.ts";
import { jsonColumns } from "../db/json-rows.ts";
import { preparedQuery } from "../db/prepared.ts";
import { loanAccounts, loanApplications, loanInstalments, loanLedger, mandateDebits, payments } from "../db/schema.ts";
import type { Application } from "../loans/rows.server.ts";
import { signedTerms } from "../loans/signed-terms.server.ts";
import { openAccount } from "./open.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;
export type LedgerRow = typeof loanLedger.$inferSelect;
export type AccountRow = typeof loanAccounts.$inferSelect;

/** The business date now: the India date. */
export const businessToday = (services: Pick<AppServices, "now">): IsoDate => todayIST(services.now());

/** The loan's terms for the replay; a loan activated before accounts existed gets its account from the signed terms. */
export async function termsOf(services: Services, applicationId: string): Promise<{ terms: LoanTerms; account: AccountRow } | null> {
  const tx = services.db;
  let [account] = await accountsOf(tx, { ids: [applicationId] });
  if (!account) {
    const [a] = await tx.select().from(loanApplications).where(eq(loanApplications.id, applicationId));
    if (!a?.disbursalDate) return null;
    const signed = await signedTerms(services, a);
    if (!signed?.input) return null;
    await openAccount(services, { applicationId, input: signed.input, disbursalDate: a.disbursalDate, at: services.now() });
    [account] = await tx.select().from(loanAccounts).where(eq(loanAccounts.applicationId, applicationId));
    if (!account) return null;
  }
  const instalments = await instalmentsOf(services, applicationId);
  return { account, terms: termsFrom(services, account, instalments) };
}

/** The schedule fixed at disbursal, in instalment order. */
export async function instalmentsOf({ db }: Pick<AppServices, "db">, applicationId: string) {
  return scheduleOf(db, { applicationId });
}
const scheduleOf = preparedQuery("loan_schedule", (db, name) =>
  db
    .select({
      seq: loanInstalments.seq,
      dueDate: loanInstalments.dueDate,
      principalPaise: loanInstalments.principalPaise,
      interestPaise: loanInstalments.interestPaise,
    })
    .from(loanInstalments)
    .where(eq(loanInstalments.applicationId, sql.placeholder("applicationId")))
    .orderBy(asc(loanInstalments.seq))
    .prepare(name),
);

/** One of the loan's payments by its reference, locked for the rest of the caller's transaction. */
export async function lockPayment(
  { db }: Pick<AppServices, "db">,
  { applicationId, reference }: { applicationId: string; reference: string },
) {
  const [p] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.applicationId, applicationId)))
    .for("update");
  return p ?? null;
}

/** A disbursed loan by its number, locked for the rest of the caller's transaction; null when there is none. */
export async function lockLoan({ db }: Pick<AppServices, "db">, loanNumber: string): Promise<Application | null> {
  const [a] = await db.select().from(loanApplications).where(eq(loanApplications.loanNumber, loanNumber)).for("update");
  return a?.disbursalDate ? a : null;
}

/**
 * Several loans as the replay and the books read them (the daily run's batch, autopay's notices and
 * presentations, the bureau's records): accounts, instalments and ledgers (rows and events) in three
 * queries, one after another (a transaction is one connection), by application id. A loan without
 * an account yet is left out. (A borrower's pages read theirs in one statement: `replayColumns`.)
 */
export async function loansForReplay(services: Services, applicationIds: readonly string[]) {
  const tx = services.db;
  const out = new Map<string, { account: AccountRow; terms: LoanTerms; events: ServicingEvent[]; rows: LedgerRows }>();
  if (applicationIds.length === 0) return out;
  const ids = [...applicationIds];
  const accounts = await accountsOf(tx, { ids });
  const instalments = await schedulesOf(tx, { ids });
  const ledgers = await ledgersOf(services, ids);
  const schedules = Map.groupBy(instalments, (i) => i.applicationId);
  for (const account of accounts) {
    const id = account.applicationId;
    const own = (schedules.get(id) ?? []).map((i) => ({
      seq: i.seq,
      dueDate: i.dueDate,
      principalPaise: i.principalPaise,
      interestPaise: i.interestPaise,
    }));
    const ledger = ledgers.get(id);
    out.set(id, { account, terms: termsFrom(services, account, own), events: ledger?.events ?? [], rows: ledger?.rows ?? [] });
  }
  return out;
}

/** `column` is one of the ids (an array parameter: one prepared statement for any number of them). */
const anyOf = (column: AnyPgColumn) => sql`${column} = any(${sql.placeholder("ids")})`;

const accountsOf = preparedQuery("loan_accounts_of", (db, name) =>
  db.select().from(loanAccounts).where(anyOf(loanAccounts.applicationId)).prepare(name),
);

const schedulesOf = preparedQuery("loan_schedules_of", (db, name) =>
  db
    .select({
      applicationId: loanInstalments.applicationId,
      seq: loanInstalments.seq,
      dueDate: loanInstalments.dueDate,
      principalPaise: loanInstalments.principalPaise,
      interestPaise: loanInstalments.interestPaise,
    })
    .from(loanInstalments)
    .where(anyOf(loanInstalments.applicationId))
    .orderBy(asc(loanInstalments.applicationId), asc(loanInstalments.seq))
    .prepare(name),
);

const ledgerRowsOf = preparedQuery("loan_ledgers_of", (db, name) =>
  db
    .select({ entry: loanLedger, prepay: payments.prepay, purpose: payments.purpose })
    .from(loanLedger)
    .leftJoin(payments, eq(payments.id, loanLedger.paymentId))
    .where(anyOf(loanLedger.applicationId))
    .orderBy(asc(loanLedger.applicationId), asc(loanLedger.entryNo))
    .prepare(name),
);

/** Autopay debits that may have moved money and have no answer yet (presenting, in progress): the replay's pending debits. */
const debitsInFlightOf = preparedQuery("loan_debits_in_flight_of", (db, name) =>
  db
    .select({
      id: mandateDebits.id,
      applicationId: mandateDebits.applicationId,
      seq: mandateDebits.seq,
      amountPaise: mandateDebits.amountPaise,
      noticePaise: mandateDebits.noticePaise,
      presentOn: mandateDebits.presentOn,
    })
    .from(mandateDebits)
    .where(and(anyOf(mandateDebits.applicationId), sql`${mandateDebits.status} in ('presenting', 'in_progress')`))
    .prepare(name),
);

/** An autopay debit in flight as the replay reads it (docs/product.md "Autopay"): its instalment is not past due while it lasts. */
export const pendingDebitEvent = (d: {
  id: string;
  seq: number;
  amountPaise: number | null;
  noticePaise: number;
  presentOn: string;
}): ServicingEvent => ({
  kind: "debit_pending",
  id: d.id,
  seq: d.seq,
  amountPaise: d.amountPaise ?? d.noticePaise,
  businessDate: d.presentOn,
});

/** The replay's terms from a loan's account row and its instalments. */
export const termsFrom = (services: Pick<Services, "config">, account: AccountRow, instalments: LoanTerms["instalments"]): LoanTerms => ({
  kind: account.kind,
  principalPaise: account.principalPaise,
  netDisbursedPaise: account.netDisbursedPaise,
  rateBps: account.rateBps,
  disbursalDate: account.disbursalDate,
  instalments,
  penalPaise: account.penalPaise,
  penalTolerancePaise: services.config.servicing.penalTolerancePaise,
  coolingOffDays: account.coolingOffDays,
  holidays: services.config.holidays,
});

/** Entries that undo another (named by `ref_id`). */
const UNDOING = new Set(["payment_reversal", "penal_reversal", "penal_waiver", "refund_reversal"]);

/**
 * The ledger as replay events (with `ledgersOf`'s autopay debits in flight beside them): payments (with the borrower's choices on Pay now), penal charges
 * and refunds, each left out once reversed or waived. Payments are keyed by their payment id.
 */
export function eventsFrom(rows: readonly (LedgerRow & { prepay: boolean | null; purpose: string | null })[]): ServicingEvent[] {
  const undone = new Set(rows.filter((r) => UNDOING.has(r.kind) && r.refId).map((r) => r.refId));
  const events: ServicingEvent[] = [];
  for (const r of rows) {
    if (undone.has(r.id)) {
      // A charge reversed or waived owes nothing, but its instalment's charge was levied: never again.
      if (r.kind === "penal" && r.seq !== null)
        events.push({ kind: "penal", id: r.id, seq: r.seq, amountPaise: r.amountPaise, businessDate: r.businessDate, undone: true });
      continue;
    }
    if (r.kind === "payment" && r.paymentId)
      events.push({
        kind: "payment",
        id: r.paymentId,
        amountPaise: r.amountPaise,
        businessDate: r.businessDate,
        prepay: r.prepay ?? false,
        coolingOff: r.purpose === "cooling_off",
      });
    else if (r.kind === "penal" && r.seq !== null)
      events.push({ kind: "penal", id: r.id, seq: r.seq, amountPaise: r.amountPaise, businessDate: r.businessDate });
    else if (r.kind === "refund")
      events.push({
        kind: "refund",
        id: r.id,
        amountPaise: r.amountPaise,
        businessDate: r.businessDate,
        ...(r.details.fromAdvance === true ? { fromAdvance: true } : {}),
      });
  }
  return events;
}

/**
 * A loan's schedule, ledger and autopay debits in flight (what `loansForReplay` reads in three
 * queries) as three JSON columns beside its application's row: one statement reads a borrower's
 * loans, or one loan, with all the replay needs. `applicationId` is the outer row's column.
 * `replayFromJson` reads them back.
 */
export function replayColumns(applicationId: SQLWrapper) {
  return {
    schedule: sql<
      unknown[]
    >`(select coalesce(json_agg(${scheduleJson.sql} order by i.seq), '[]') from loan_instalments i where i.application_id = ${applicationId})`,
    ledger: sql<
      unknown[]
    >`(select coalesce(json_agg(json_build_object('entry', ${ledgerJson.sql}, 'prepay', p.prepay, 'purpose', p.purpose) order by l.entry_no), '[]') from loan_ledger l left join payments p on p.id = l.payment_id where l.application_id = ${applicationId})`,
    debits: sql<
      unknown[]
    >`(select coalesce(json_agg(${debitJson.sql}), '[]') from mandate_debits d where d.application_id = ${applicationId} and d.status in ('presenting', 'in_progress'))`,
  };
}
const scheduleJson = jsonColumns(loanInstalments, "i", ["seq", "dueDate", "principalPaise", "interestPaise"]);
const ledgerJson = jsonColumns(loanLedger, "l");
const debitJson = jsonColumns(mandateDebits, "d", ["id", "applicationId", "seq", "amountPaise", "noticePaise", "presentOn"]);

/**
 * A loan as the replay reads it from `replayColumns` and its account's row: its terms, its ledger's
 * rows and the replay's events (as `termsOf` and `ledgerOf` give them). Null without an account
 * (a loan activated before accounts existed: `termsOf` opens it).
 */
export function replayFromJson(
  services: Pick<Services, "config">,
  account: AccountRow | null,
  { schedule, ledger, debits }: { schedule: unknown[]; ledger: unknown[]; debits: unknown[] },
) {
  if (!account) return null;
  const instalments = (schedule as Record<string, unknown>[]).map(scheduleJson.decode);
  const rows = (ledger as { entry: Record<string, unknown>; prepay: boolean | null; purpose: string | null }[]).map((r) => ({
    ...ledgerJson.decode(r.entry),
    prepay: r.prepay,
    purpose: r.purpose,
  }));
  return {
    account,
    terms: termsFrom(services, account, instalments),
    ...ledgerFrom(rows, (debits as Record<string, unknown>[]).map(debitJson.decode)),
  };
}

/** A loan's ledger rows (entry order) and debits in flight as the replay's events. */
function ledgerFrom(
  rows: (LedgerRow & { prepay: boolean | null; purpose: string | null })[],
  inFlight: readonly Parameters<typeof pendingDebitEvent>[0][],
) {
  return { rows, events: [...eventsFrom(rows), ...inFlight.map(pendingDebitEvent)] };
}

/** One loan's ledger: its rows in entry order and the replay's events. */
export async function ledgerOf(services: Pick<AppServices, "db">, applicationId: string) {
  return (await ledgersOf(services, [applicationId])).get(applicationId) ?? { rows: [], events: [] };
}

/** A loan's ledger rows as the books read them (with a payment's prepay choice and purpose). */
type LedgerRows = (LedgerRow & { prepay: boolean | null; purpose: string | null })[];

/** The ledgers of several loans in two queries (the ledger rows and the debits in flight), by application id. */
export async function ledgersOf({ db }: Pick<AppServices, "db">, applicationIds: readonly string[]) {
  const out = new Map<string, { rows: LedgerRows; events: ServicingEvent[] }>();
  if (applicationIds.length === 0) return out;
  const rows = await ledgerRowsOf(db, { ids: [...applicationIds] });
  const inFlight = await debitsInFlightOf(db, { ids: [...applicationIds] });
  const byLoan = Map.groupBy(rows, (r) => r.entry.applicationId);
  const debitsByLoan = Map.groupBy(inFlight, (d) => d.applicationId);
  for (const id of applicationIds) {
    const flat = (byLoan.get(id) ?? []).map((r) => ({ ...r.entry, prepay: r.prepay, purpose: r.purpose }));
    out.set(id, ledgerFrom(flat, debitsByLoan.get(id) ?? []));
  }
  return out;
}

/** The figures of `state` written to the account's cache. */
export async function cacheState(
  services: Pick<Services, "db" | "now">,
  { applicationId, state }: { applicationId: string; state: LoanState },
) {
  const next = nextDue(state);
  await services.db
    .update(loanAccounts)
    .set({
      asOf: state.asOf,
      outstandingPrincipalPaise: state.outstandingPrincipalPaise,
      overduePaise: state.overduePaise,
      penalDuePaise: state.penalDuePaise,
      dpd: state.dpd,
      nextDueDate: next?.dueDate ?? null,
      nextDuePaise: next?.amountPaise ?? null,
      advancePaise: state.advancePaise,
      refundDuePaise: state.refundDuePaise,
      settledOn: state.settlement?.on ?? null,
      updatedAt: services.now(),
    })
    .where(eq(loanAccounts.applicationId, applicationId));
  await syncCases(services, { today: state.asOf, applicationIds: [applicationId] });
}

/** The figures of several loans' states written to their accounts' cache in one statement (as `cacheState` writes one). */
export async function cacheStates(services: Pick<Services, "db" | "now">, states: readonly { applicationId: string; state: LoanState }[]) {
  if (states.length === 0) return;
  const values = sql.join(
    states.map(({ applicationId, state }) => {
      const next = nextDue(state);
      return sql`(${applicationId}::uuid, ${state.asOf}, ${state.outstandingPrincipalPaise}::int, ${state.overduePaise}::int, ${state.penalDuePaise}::int, ${state.dpd}::int, ${next?.dueDate ?? null}::text, ${next?.amountPaise ?? null}::int, ${state.advancePaise}::int, ${state.refundDuePaise}::int, ${state.settlement?.on ?? null}::text)`;
    }),
    sql`, `,
  );
  await services.db.execute(sql`
    update loan_accounts c set as_of = v.as_of, outstanding_principal_paise = v.outstanding, overdue_paise = v.overdue,
      penal_due_paise = v.penal, dpd = v.dpd, next_due_date = v.next_due_date, next_due_paise = v.next_due_paise,
      advance_paise = v.advance, refund_due_paise = v.refund, settled_on = v.settled_on, updated_at = ${services.now().toISOString()}::timestamptz
    from (values ${values}) as v(id, as_of, outstanding, overdue, penal, dpd, next_due_date, next_due_paise, advance, refund, settled_on)
    where c.application_id = v.id`);
  await syncCases(services, { today: states[0]?.state.asOf ?? "", applicationIds: states.map((s) => s.applicationId) });
}

/** Today's figures replayed from the ledger, written to the account's cache. */
export async function refreshAccount(
  services: Services,
  { applicationId, asOf = businessToday(services) }: { applicationId: string; asOf?: IsoDate },
) {
  const found = await termsOf(services, applicationId);
  if (!found) return null;
  const { events, rows } = await ledgerOf(services, applicationId);
  const state = replay(found.terms, events, asOf);
  await cacheState(services, { applicationId, state });
  return { ...found, state, rows, events };
}
