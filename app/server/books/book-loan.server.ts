/**
 * A loan's journals (docs/product.md "The lender's books"): every entry of its ledger booked once,
 * in order, in the transaction that wrote it, by the loan-account module. Each booking is one
 * balanced entry: the lines the event states (the cash, the charge, the fee and its GST), then
 * what takes the loan's accounts to what the replay says they hold (domain/books/positions.ts). A
 * reversal or waiver is the exact reverse of the entry it undoes; what it changes in how other
 * payments were allocated follows as a reallocation entry of its own. What an entry books is
 * figured in loan-entries.server.ts; a page of loans is booked together by `bookLoans`
 * (book-loans.server.ts).
 */
import { asc, eq, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { AccountPurpose } from "../../domain/books/chart.ts";
import { type BasisRow, gstParts, type Line, type Standing } from "../../domain/books/positions.ts";
import { todayIST } from "../../domain/india-date.ts";
import { processingFee, type IsoDate } from "../../domain/loan-math.ts";
import type { LoanState } from "../../domain/loans/servicing.ts";
import { borrowerAddresses, journalEntries, loanAccounts, loanApplications, loanLedger, payments, payouts } from "../db/schema.ts";
import { type AccountRow, instalmentsOf, ledgerOf, termsFrom } from "../loan-account/account.server.ts";
import { signedTerms } from "../loans/signed-terms.server.ts";
import { cashAccountOf } from "./cash.ts";
import { wasHeld } from "./held.server.ts";
import { postEntry, positionsOfLoan, reverseEntry } from "./journal.server.ts";
import {
  addLines,
  basisKept,
  described,
  entryBooking,
  keepBases,
  type LoanContext,
  plainStatedLines,
  REVERSING,
  reconcilingLines,
  type Row,
  standingOf,
  stateAfter,
} from "./loan-entries.server.ts";
import { frameworkInForce } from "./rules.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;

/**
 * The facts the books need that an account opened before them lacks: the fee and its GST (from the
 * signed terms), the GST split by the borrower's state against the lender's, the framework in force.
 */
async function withBookFacts(services: Services, account: AccountRow): Promise<AccountRow> {
  if (account.feePaise !== null && account.feeGstPaise !== null && account.gstSplit && account.framework && account.accruedThrough)
    return account;
  const { db } = services;
  const rule = await frameworkInForce(services);
  const [a] = await db.select().from(loanApplications).where(eq(loanApplications.id, account.applicationId));
  let fee = account.feePaise;
  let gst = account.feeGstPaise;
  if (fee === null || gst === null) {
    const signed = a ? await signedTerms(services, a) : null;
    const upfront = account.principalPaise - account.netDisbursedPaise;
    const f = signed?.input ? processingFee(signed.input.amountPaise, signed.input.fees) : null;
    if (f && f.totalUpfrontPaise === upfront) [fee, gst] = [f.feePaise, f.gstPaise];
    // No signed terms to read: the upfront amount split at 18% GST, the rate every product has charged.
    else [gst, fee] = [Math.round((upfront * 18) / 118), upfront - Math.round((upfront * 18) / 118)];
  }
  const [address] = a
    ? await db.select({ state: borrowerAddresses.currentState }).from(borrowerAddresses).where(eq(borrowerAddresses.userId, a.userId))
    : [];
  // Place of supply: the borrower's state; unknown, it is the lender's own (the supplier's location).
  const split =
    account.gstSplit ?? (address && address.state.trim().toLowerCase() !== rule.lenderState.trim().toLowerCase() ? "inter" : "intra");
  const facts = {
    feePaise: fee,
    feeGstPaise: gst,
    gstSplit: split,
    framework: account.framework ?? rule.framework,
    accruedThrough: account.accruedThrough ?? account.disbursalDate,
  };
  await db.update(loanAccounts).set(facts).where(eq(loanAccounts.applicationId, account.applicationId));
  return { ...account, ...facts };
}

/**
 * Where a reallocation balances: interest income on a loan on the books (the interest its
 * settlement or its payments' new allocation earns); the write-off's accounts on a written-off loan
 * (what a reversal takes back is more loss); suspense on a disbursal reversed after money was paid
 * on it (for finance to look at: the money is the borrower's).
 */
const reallocatedOn = (standing: Standing) =>
  standing === "written_off" ? "write_off" : standing === "not_disbursed" ? "books_suspense" : "interest_income";

/** What a ledger entry states in the books before the loan's accounts are brought to the replay. */
async function statedLines(services: Services, account: AccountRow, r: Row): Promise<Line[]> {
  const { db } = services;
  const id = account.applicationId;
  if (r.kind === "disbursal") {
    const [p] = r.payoutId ? await db.select({ ref: payouts.providerPayoutId }).from(payouts).where(eq(payouts.id, r.payoutId)) : [];
    const fee = account.feePaise ?? 0;
    const gst = gstParts(account.feeGstPaise ?? 0, account.gstSplit ?? "intra");
    return [
      { purpose: "loans_receivable", paise: r.principalPaise, applicationId: id },
      {
        purpose: "payout_account",
        paise: -(r.principalPaise - fee - (account.feeGstPaise ?? 0)),
        applicationId: id,
        providerRef: p?.ref ?? null,
      },
      { purpose: account.framework === "ind_as" ? "deferred_fee_income" : "processing_fee_income", paise: -fee, applicationId: id },
      ...Object.entries(gst).map(([purpose, paise]) => ({ purpose: purpose as AccountPurpose, paise: paise ?? 0, applicationId: id })),
    ];
  }
  if (r.kind === "payment" && r.paymentId) {
    const [p] = await db
      .select({ provider: payments.provider, ref: payments.providerPaymentId })
      .from(payments)
      .where(eq(payments.id, r.paymentId));
    // A payment held when it arrived was booked then (an unapplied receipt of no loan's): applied now, it comes from there.
    if (await wasHeld(services, r.paymentId)) return [{ purpose: "unapplied_receipts", paise: r.amountPaise, applicationId: null }];
    return [{ purpose: cashAccountOf(p?.provider ?? "offline"), paise: r.amountPaise, applicationId: id, providerRef: p?.ref ?? null }];
  }
  if (r.kind === "refund") {
    const [p] = r.payoutId ? await db.select({ ref: payouts.providerPayoutId }).from(payouts).where(eq(payouts.id, r.payoutId)) : [];
    return [{ purpose: "payout_account", paise: -r.amountPaise, applicationId: id, providerRef: p?.ref ?? null }];
  }
  return plainStatedLines(account, r) ?? [];
}

/** The entry a reversing ledger entry undoes: the booking of the entry it names (a disbursal's, by its payout). */
async function undoneEntry({ db }: Pick<Services, "db">, r: Row, rows: readonly Row[]) {
  const target =
    r.kind === "disbursal_reversal"
      ? rows.find((x) => x.kind === "disbursal" && x.payoutId === r.payoutId && x.entryNo < r.entryNo)?.id
      : r.refId;
  if (!target) return null;
  const [entry] = await db.select({ id: journalEntries.id }).from(journalEntries).where(eq(journalEntries.ledgerId, target));
  return entry ?? null;
}

/** The accrual basis kept as the replay has it (none once the loan no longer accrues). */
async function keepBasis(services: Pick<Services, "db">, applicationId: string, basis: readonly BasisRow[]) {
  await keepBases(services, [{ applicationId, basis }]);
}

async function contextOf(services: Services, applicationId: string): Promise<LoanContext | null> {
  const { db } = services;
  const [found] = await db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, applicationId)).for("update");
  if (!found) return null;
  const account = await withBookFacts(services, found);
  const [a] = await db
    .select({ loanNumber: loanApplications.loanNumber })
    .from(loanApplications)
    .where(eq(loanApplications.id, applicationId));
  const { rows, events } = await ledgerOf(services, applicationId);
  const terms = termsFrom(services, account, await instalmentsOf(services, applicationId));
  return {
    account,
    terms,
    loanNumber: a?.loanNumber ?? "the loan",
    rows,
    pending: events.filter((e) => e.kind === "debit_pending"),
  };
}

/**
 * Books every ledger entry of the loan not yet booked, in order, in the caller's transaction (the
 * loan locked): one entry each (a reversing one, then a reallocation where the reversal moved other
 * payments), then the accrual basis kept as the replay has it.
 */
export async function bookLoan(services: Services, { applicationId }: { applicationId: string }) {
  const [mark] = await services.db
    .select({ bookedThrough: loanAccounts.bookedThrough })
    .from(loanAccounts)
    .where(eq(loanAccounts.applicationId, applicationId));
  if (!mark) return;
  const [newest] = await services.db
    .select({ n: sql<number>`max(${loanLedger.entryNo})`.mapWith(Number) })
    .from(loanLedger)
    .where(eq(loanLedger.applicationId, applicationId));
  if (!newest?.n || newest.n <= mark.bookedThrough) return;
  const ctx = await contextOf(services, applicationId);
  if (!ctx) return;
  const today = todayIST(services.now());
  const id = applicationId;
  let positions = await positionsOfLoan(services, id);
  let state: LoanState | null = null;
  let standing: Standing = "not_disbursed";
  for (const r of ctx.rows) {
    if (r.entryNo <= ctx.account.bookedThrough) continue;
    const prefix = ctx.rows.filter((x) => x.entryNo <= r.entryNo);
    const before = standingOf(prefix.slice(0, -1));
    standing = standingOf(prefix);
    state = stateAfter(ctx, prefix, standing, today);
    const at = { businessDate: r.businessDate, applicationId: id, createdBy: r.actorUserId };
    if (REVERSING.has(r.kind)) {
      const original = await undoneEntry(services, r, ctx.rows);
      const what = described(r, ctx.loanNumber, standing, state);
      const posted = original ? await reverseEntry(services, original, { ...at, ...what, ledgerId: r.id }) : null;
      if (posted) positions = addLines(positions, posted.lines, id);
      const realloc = reconcilingLines(ctx.account, ctx.terms, state, standing, positions, [], reallocatedOn(standing));
      const moved = await postEntry(services, {
        ...at,
        kind: "reallocation",
        narration: `${ctx.loanNumber}: payments allocated again after the ${r.kind.replaceAll("_", " ")}`,
        lines: realloc,
      });
      if (moved) positions = addLines(positions, moved.lines, id);
      continue;
    }
    const stated = await statedLines(services, ctx.account, r);
    const posted = await postEntry(services, entryBooking(ctx, r, { before, standing, state }, positions, stated));
    if (posted) positions = addLines(positions, posted.lines, id);
  }
  const last = ctx.rows[ctx.rows.length - 1];
  await keepBasis(services, id, basisKept(ctx, standing, state));
  if (last) await services.db.update(loanAccounts).set({ bookedThrough: last.entryNo }).where(eq(loanAccounts.applicationId, id));
}

/**
 * Loans whose accounts a date (not a ledger entry) moved: an advance applied on a due date, a
 * borrower classified NPA or upgraded. Each gets one entry of `kind` on `businessDate` that takes
 * its accounts to the replay's, balanced on interest income; returns how many needed one.
 */
export async function reconcileLoans(
  services: Services,
  {
    applicationIds,
    kind,
    businessDate,
    narration,
  }: { applicationIds: readonly string[]; kind: string; businessDate: IsoDate; narration: (loanNumber: string) => string },
): Promise<number> {
  let posted = 0;
  const today = todayIST(services.now());
  for (const id of applicationIds) {
    await bookLoan(services, { applicationId: id });
    const ctx = await contextOf(services, id);
    if (!ctx) continue;
    const standing = standingOf(ctx.rows);
    const state = stateAfter(ctx, ctx.rows, standing, today);
    const positions = await positionsOfLoan(services, id);
    const lines = reconcilingLines(ctx.account, ctx.terms, state, standing, positions, [], reallocatedOn(standing));
    const entry = await postEntry(services, { kind, businessDate, narration: narration(ctx.loanNumber), applicationId: id, lines });
    if (entry) posted++;
    await keepBasis(services, id, basisKept(ctx, standing, state));
  }
  return posted;
}

/** Loans with ledger entries the journals have not booked (an installation that had no books, a booking that failed), by id after `after`. */
export async function loansToBook({ db }: Pick<Services, "db">, { after = "00000000-0000-0000-0000-000000000000", limit = 500 } = {}) {
  const rows = await db
    .select({ id: loanAccounts.applicationId })
    .from(loanAccounts)
    .where(
      sql`${loanAccounts.applicationId} > ${after} and exists (select 1 from ${loanLedger} l where l.application_id = ${loanAccounts.applicationId} and l.entry_no > ${loanAccounts.bookedThrough})`,
    )
    .orderBy(asc(loanAccounts.applicationId))
    .limit(limit);
  return rows.map((r) => r.id);
}
