/**
 * A loan's journals (docs/product.md "The lender's books"): every entry of its ledger booked once,
 * in order, in the transaction that wrote it, by the loan-account module. Each booking is one
 * balanced entry: the lines the event states (the cash, the charge, the fee and its GST), then
 * what takes the loan's accounts to what the replay says they hold (domain/books/positions.ts). A
 * reversal or waiver is the exact reverse of the entry it undoes; what it changes in how other
 * payments were allocated follows as a reallocation entry of its own.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import type { AccountPurpose } from "../../domain/books/chart.ts";
import { feeAmortisation } from "../../domain/books/eir.ts";
import {
  balancedOn,
  basisOf,
  type BasisRow,
  gstParts,
  type Line,
  netted,
  type LoanBookFacts,
  type Positions,
  sameBasis,
  type Standing,
  targetsOf,
  towards,
  writeOffLines,
} from "../../domain/books/positions.ts";
import { todayIST } from "../../domain/india-date.ts";
import { processingFee, type IsoDate } from "../../domain/loan-math.ts";
import { type LoanState, type LoanTerms, replay, type ServicingEvent } from "../../domain/loans/servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import {
  accrualBasis,
  borrowerAddresses,
  journalEntries,
  loanAccounts,
  loanApplications,
  loanLedger,
  payments,
  payouts,
} from "../db/schema.ts";
import {
  type AccountRow,
  eventsFrom,
  instalmentsOf,
  type LedgerRow,
  ledgerOf,
  loansForReplay,
  termsFrom,
} from "../loan-account/account.server.ts";
import { signedTerms } from "../loans/signed-terms.server.ts";
import { cashAccountOf } from "./cash.ts";
import { wasHeld } from "./held.server.ts";
import { type EntryInput, postEntries, postEntry, positionsOfLoan, positionsOfLoans, reverseEntry } from "./journal.server.ts";
import { frameworkInForce } from "./rules.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;
type Row = LedgerRow & { prepay: boolean | null; purpose: string | null };

/** Ledger kinds booked as the exact reverse of the entry they undo. */
const REVERSING: ReadonlySet<string> = new Set([
  "payment_reversal",
  "penal_reversal",
  "penal_waiver",
  "refund_reversal",
  "disbursal_reversal",
]);

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

/** Where the loan stands in the books after `rows`: disbursed (and not reversed), written off, or neither. */
function standingOf(rows: readonly Pick<Row, "kind">[]): Standing {
  let standing: Standing = "not_disbursed";
  for (const r of rows) {
    if (r.kind === "disbursal") standing = "open";
    else if (r.kind === "disbursal_reversal") standing = "not_disbursed";
    else if (r.kind === "write_off" && standing === "open") standing = "written_off";
  }
  return standing;
}

const factsOf = (account: AccountRow, standing: Standing): LoanBookFacts => ({
  standing,
  framework: account.framework ?? "indian_gaap",
  npa: account.npaSince !== null,
  accruedThrough: account.accruedThrough ?? account.disbursalDate,
  feePaise: account.feePaise ?? 0,
  gstPaise: account.feeGstPaise ?? 0,
  gstSplit: account.gstSplit ?? "intra",
});

/** The accrual basis of the loan as the replay now has it (the fee's amortisation under Ind AS). */
const basisFor = (account: AccountRow, terms: LoanTerms, state: LoanState | null): BasisRow[] =>
  state
    ? basisOf(
        state.instalments,
        terms.disbursalDate,
        account.framework === "ind_as" ? feeAmortisation(terms.instalments, terms.principalPaise, account.feePaise ?? 0) : undefined,
      )
    : [];

/** The lines that take the loan's accounts to what `state` says, balanced on the account the entry's kind names. */
function reconcilingLines(
  account: AccountRow,
  terms: LoanTerms,
  state: LoanState | null,
  standing: Standing,
  positions: Positions,
  stated: readonly Line[],
  balanceOn: "interest_income" | "recoveries" | "write_off" | "books_suspense",
): Line[] {
  const id = account.applicationId;
  const target = targetsOf(state, basisFor(account, terms, state), factsOf(account, standing));
  const after = addLines(positions, stated, id);
  const lines = [...stated, ...towards(after, target, id)];
  if (balanceOn === "write_off") return writeOffLines(lines, -(positions.loan_loss_provision ?? 0), id);
  return balancedOn(lines, balanceOn, id);
}

/**
 * Where a reallocation balances: interest income on a loan on the books (the interest its
 * settlement or its payments' new allocation earns); the write-off's accounts on a written-off loan
 * (what a reversal takes back is more loss); suspense on a disbursal reversed after money was paid
 * on it (for finance to look at: the money is the borrower's).
 */
const reallocatedOn = (standing: Standing) =>
  standing === "written_off" ? "write_off" : standing === "not_disbursed" ? "books_suspense" : "interest_income";

/** `positions` of loan `id` moved by `lines` (its own lines only: a line of no loan's moves none of its accounts). */
function addLines(positions: Positions, lines: readonly Line[], id: string): Positions {
  const out = { ...positions };
  for (const l of lines) if (l.applicationId === id) out[l.purpose] = (out[l.purpose] ?? 0) + l.paise;
  return out;
}

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

/**
 * What a ledger entry states when that needs nothing read (a penal charge's two lines, nothing for a
 * closure or a reopening); null for the entries whose lines name a payment or a payout, and the
 * reversing ones.
 */
function plainStatedLines(account: AccountRow, r: Row): Line[] | null {
  if (REVERSING.has(r.kind) || r.kind === "disbursal" || r.kind === "refund" || (r.kind === "payment" && r.paymentId)) return null;
  const id = account.applicationId;
  if (r.kind === "penal")
    return [
      { purpose: "penal_receivable", paise: r.amountPaise, applicationId: id },
      { purpose: "penal_income", paise: -r.amountPaise, applicationId: id },
    ];
  return [];
}

/** The entry's kind and narration for a ledger entry, by what it did to the loan. */
function described(r: Row, loanNumber: string, standing: Standing, state: LoanState | null): { kind: string; narration: string } {
  const amount = formatRupees(r.kind === "disbursal" ? r.principalPaise : r.amountPaise);
  const settledByIt = state?.settlement && r.paymentId && state.settlement.byPaymentId === r.paymentId ? state.settlement.how : null;
  switch (r.kind) {
    case "disbursal":
      return { kind: "disbursal", narration: `Disbursal of ${loanNumber}: principal ${amount}, less the processing fee and its GST` };
    case "payment":
      if (standing === "written_off") return { kind: "recovery", narration: `Recovery of ${amount} on ${loanNumber}, written off` };
      if (settledByIt === "cooling_off")
        return {
          kind: "cooling_off",
          narration: `Cooling-off exit of ${loanNumber} (${amount}): the processing fee reversed, GST credit note for its GST`,
        };
      if (settledByIt === "foreclosed") return { kind: "foreclosure", narration: `Foreclosure of ${loanNumber}: ${amount} received` };
      return { kind: "payment", narration: `Payment of ${amount} on ${loanNumber}` };
    case "refund":
      return { kind: "refund", narration: `Refund of ${amount} to the borrower of ${loanNumber}` };
    case "penal":
      return {
        kind: "penal",
        narration: `Penal charge of ${amount} on ${loanNumber}, instalment ${r.seq ?? ""} (no GST on penal charges)`,
      };
    case "write_off":
      return { kind: "write_off", narration: `Write-off of ${loanNumber}: against the provision held, the rest to expense` };
    case "closure":
      return { kind: "closure", narration: `${loanNumber} settled` };
    case "reopening":
      return { kind: "reopening", narration: `${loanNumber} open again` };
    default:
      return { kind: r.kind, narration: `${r.kind.replaceAll("_", " ")} on ${loanNumber}` };
  }
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

/** Several loans' accrual bases kept as `keepBasis` keeps one: read in one query, those changed replaced in two. */
async function keepBases(services: Pick<Services, "db">, loans: readonly { applicationId: string; basis: readonly BasisRow[] }[]) {
  if (loans.length === 0) return;
  const { db } = services;
  const ids = loans.map((l) => l.applicationId);
  const rows = await db
    .select({
      applicationId: accrualBasis.applicationId,
      seq: accrualBasis.seq,
      fromDate: accrualBasis.fromDate,
      dueDate: accrualBasis.dueDate,
      interestPaise: accrualBasis.interestPaise,
      feePaise: accrualBasis.feePaise,
    })
    .from(accrualBasis)
    .where(ids.length === 1 ? eq(accrualBasis.applicationId, ids[0] ?? "") : inArray(accrualBasis.applicationId, ids))
    .orderBy(asc(accrualBasis.applicationId), asc(accrualBasis.seq));
  const stored = Map.groupBy(rows, (r) => r.applicationId);
  const changed = loans.filter((l) => !sameBasis(stored.get(l.applicationId) ?? [], l.basis));
  if (changed.length === 0) return;
  const changedIds = changed.map((l) => l.applicationId);
  await db
    .delete(accrualBasis)
    .where(changedIds.length === 1 ? eq(accrualBasis.applicationId, changedIds[0] ?? "") : inArray(accrualBasis.applicationId, changedIds));
  const basis = changed.flatMap((l) => l.basis.map((b) => ({ applicationId: l.applicationId, ...b })));
  if (basis.length) await db.insert(accrualBasis).values(basis);
}

interface LoanContext {
  account: AccountRow;
  terms: LoanTerms;
  loanNumber: string;
  rows: Row[];
  pending: ServicingEvent[];
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

/** The replay of `rows` to `today` (none for a loan not disbursed). */
const stateAfter = (ctx: LoanContext, rows: readonly Row[], standing: Standing, today: IsoDate) =>
  standing === "not_disbursed" ? null : replay(ctx.terms, [...eventsFrom(rows), ...ctx.pending], today);

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

/** The accrual basis a loan keeps after its bookings: the replay's while it is open and not settled, none once it no longer accrues. */
const basisKept = (ctx: LoanContext, standing: Standing, state: LoanState | null) =>
  standing === "open" && state && !state.settlement ? basisFor(ctx.account, ctx.terms, state) : [];

/** The entry that books ledger entry `r` (not a reversing one): what it states, then the loan's accounts taken to the replay's. */
function entryBooking(
  ctx: LoanContext,
  r: Row,
  { before, standing, state }: { before: Standing; standing: Standing; state: LoanState | null },
  positions: Positions,
  stated: readonly Line[],
): EntryInput {
  const balanceOn = r.kind === "write_off" ? "write_off" : before === "written_off" ? "recoveries" : "interest_income";
  return {
    businessDate: r.businessDate,
    applicationId: ctx.account.applicationId,
    createdBy: r.actorUserId,
    ...described(r, ctx.loanNumber, before, state),
    ledgerId: r.id,
    lines: reconcilingLines(ctx.account, ctx.terms, state, standing, positions, stated, balanceOn),
  };
}

/**
 * `bookLoan` for several loans at once, in the caller's transaction (the daily run's page of loans
 * it charged): a loan whose entries not yet booked all state their lines without a read (penal
 * charges) and whose book facts are complete is booked with the others in a few statements (the
 * accounts locked together, the ledgers, schedules, positions and bases read together, the entries
 * posted together), to the same entries, lines, positions and basis `bookLoan` gives it; any other
 * loan is booked by `bookLoan`.
 */
export async function bookLoans(services: Services, { applicationIds }: { applicationIds: readonly string[] }) {
  if (applicationIds.length === 0) return;
  const { db } = services;
  const ids = [...applicationIds];
  await db.select({ id: loanAccounts.applicationId }).from(loanAccounts).where(inArray(loanAccounts.applicationId, ids)).for("update");
  const loans = await loansForReplay(services, ids);
  const numbers = new Map(
    (
      await db
        .select({ id: loanApplications.id, loanNumber: loanApplications.loanNumber })
        .from(loanApplications)
        .where(inArray(loanApplications.id, ids))
    ).map((a) => [a.id, a.loanNumber] as const),
  );
  const today = todayIST(services.now());
  const alone: string[] = [];
  const together: { ctx: LoanContext; standing: Standing; state: LoanState | null; entries: EntryInput[] }[] = [];
  const positionsOf = await positionsOfLoans(services, ids);
  for (const id of ids) {
    const loan = loans.get(id);
    if (!loan) continue;
    const { account, terms, rows, events } = loan;
    const unbooked = rows.filter((r) => r.entryNo > account.bookedThrough);
    if (unbooked.length === 0) continue;
    const complete =
      account.feePaise !== null && account.feeGstPaise !== null && account.gstSplit && account.framework && account.accruedThrough;
    const stated = unbooked.map((r) => plainStatedLines(account, r));
    if (!complete || stated.some((l) => l === null)) {
      alone.push(id);
      continue;
    }
    const ctx: LoanContext = {
      account,
      terms,
      loanNumber: numbers.get(id) ?? "the loan",
      rows,
      pending: events.filter((e) => e.kind === "debit_pending"),
    };
    let positions = positionsOf.get(id) ?? {};
    let standing: Standing = "not_disbursed";
    let state: LoanState | null = null;
    const entries: EntryInput[] = [];
    unbooked.forEach((r, i) => {
      const prefix = rows.filter((x) => x.entryNo <= r.entryNo);
      const before = standingOf(prefix.slice(0, -1));
      standing = standingOf(prefix);
      state = stateAfter(ctx, prefix, standing, today);
      const entry = entryBooking(ctx, r, { before, standing, state }, positions, stated[i] ?? []);
      entries.push(entry);
      positions = addLines(positions, netted(entry.lines), id);
    });
    together.push({ ctx, standing, state, entries });
  }
  await postEntries(
    services,
    together.flatMap((t) => t.entries),
  );
  await keepBases(
    services,
    together.map((t) => ({ applicationId: t.ctx.account.applicationId, basis: basisKept(t.ctx, t.standing, t.state) })),
  );
  const marks = together.flatMap((t) => {
    const last = t.ctx.rows[t.ctx.rows.length - 1];
    return last ? [sql`(${t.ctx.account.applicationId}::uuid, ${last.entryNo}::bigint)`] : [];
  });
  if (marks.length)
    await db.execute(sql`
      update loan_accounts c set booked_through = v.booked_through
      from (values ${sql.join(marks, sql`, `)}) as v(id, booked_through) where c.application_id = v.id`);
  for (const id of alone) await bookLoan(services, { applicationId: id });
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
    await keepBasis(services, id, standing === "open" && state && !state.settlement ? basisFor(ctx.account, ctx.terms, state) : []);
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
