/**
 * What a loan's ledger entries book (book-loan.server.ts), shared by the booking of one loan
 * (`bookLoan`) and of a page of loans together (`bookLoans`, book-loans.server.ts): where the loan
 * stands after its entries, the replay of them, the lines an entry states when that needs nothing
 * read, the entry that books it (what it states, then the loan's accounts taken to the replay's),
 * and the accrual basis kept as the replay has it.
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { feeAmortisation } from "../../domain/books/eir.ts";
import {
  balancedOn,
  basisOf,
  type BasisRow,
  type Line,
  type LoanBookFacts,
  type Positions,
  sameBasis,
  type Standing,
  targetsOf,
  towards,
  writeOffLines,
} from "../../domain/books/positions.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { type LoanState, type LoanTerms, replay, type ServicingEvent } from "../../domain/loans/servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { accrualBasis } from "../db/schema.ts";
import { type AccountRow, eventsFrom, type LedgerRow } from "../loan-account/account.server.ts";
import type { EntryInput } from "./journal.server.ts";

/** A ledger row as the books read it (with a payment's prepay choice and purpose). */
export type Row = LedgerRow & { prepay: boolean | null; purpose: string | null };

/** Ledger kinds booked as the exact reverse of the entry they undo. */
export const REVERSING: ReadonlySet<string> = new Set([
  "payment_reversal",
  "penal_reversal",
  "penal_waiver",
  "refund_reversal",
  "disbursal_reversal",
]);

/** A loan as its bookings read it: its account (with its book facts), terms, number, ledger rows and autopay debits in flight. */
export interface LoanContext {
  account: AccountRow;
  terms: LoanTerms;
  loanNumber: string;
  rows: Row[];
  pending: ServicingEvent[];
}

/** Where the loan stands in the books after `rows`: disbursed (and not reversed), written off, or neither. */
export function standingOf(rows: readonly Pick<Row, "kind">[]): Standing {
  let standing: Standing = "not_disbursed";
  for (const r of rows) {
    if (r.kind === "disbursal") standing = "open";
    else if (r.kind === "disbursal_reversal") standing = "not_disbursed";
    else if (r.kind === "write_off" && standing === "open") standing = "written_off";
  }
  return standing;
}

/** The replay of `rows` to `today` (none for a loan not disbursed). */
export const stateAfter = (ctx: LoanContext, rows: readonly Row[], standing: Standing, today: IsoDate) =>
  standing === "not_disbursed" ? null : replay(ctx.terms, [...eventsFrom(rows), ...ctx.pending], today);

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
export function reconcilingLines(
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

/** `positions` of loan `id` moved by `lines` (its own lines only: a line of no loan's moves none of its accounts). */
export function addLines(positions: Positions, lines: readonly Line[], id: string): Positions {
  const out = { ...positions };
  for (const l of lines) if (l.applicationId === id) out[l.purpose] = (out[l.purpose] ?? 0) + l.paise;
  return out;
}

/**
 * What a ledger entry states when that needs nothing read (a penal charge's two lines, nothing for a
 * closure or a reopening); null for the entries whose lines name a payment or a payout, and the
 * reversing ones.
 */
export function plainStatedLines(account: AccountRow, r: Row): Line[] | null {
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
export function described(r: Row, loanNumber: string, standing: Standing, state: LoanState | null): { kind: string; narration: string } {
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

/** The entry that books ledger entry `r` (not a reversing one): what it states, then the loan's accounts taken to the replay's. */
export function entryBooking(
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

/** The accrual basis a loan keeps after its bookings: the replay's while it is open and not settled, none once it no longer accrues. */
export const basisKept = (ctx: LoanContext, standing: Standing, state: LoanState | null) =>
  standing === "open" && state && !state.settlement ? basisFor(ctx.account, ctx.terms, state) : [];

/** Loans' accrual bases kept as the replay has them: read in one query, those changed replaced in two. */
export async function keepBases(
  services: Pick<AppServices, "db">,
  loans: readonly { applicationId: string; basis: readonly BasisRow[] }[],
) {
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
