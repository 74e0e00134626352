/**
 * Loan servicing (docs/product.md "Loan servicing"): what a loan owes, derived by replaying its
 * ledger over the schedule fixed at disbursal. Nothing here is stored: the ledger is the record,
 * and every figure a page, PDF, API or job shows comes from `replay`. Pure: no I/O, no clock.
 *
 * The rules, in the order the replay applies them on each date:
 * 1. an instalment falls due at the start of its due date, and any advance pays it (interest, then
 *    principal); an advance kept for "prepay principal" then goes to principal, shortening the loan
 *    with the EMI unchanged;
 * 2. penal charges recorded for that date are added (an advance pays them);
 * 3. payments of that date, in the order they were recorded: a cooling-off exit, a payment at or
 *    above the payoff quote (foreclosure at the quote, the rest to refund), or an allocation to
 *    instalments due (oldest first, interest then principal), then unpaid penal charges, then the
 *    advance;
 * 4. grace: an instalment's unpaid part at the end of its grace date (the due date, or the next
 *    working day when it falls on a non-working day) decides whether a penal charge is warranted.
 *
 * One file on purpose (longer than the ~400 lines other files keep to): the replay's rules act on
 * each other's state within one date, and read in the order they apply.
 */
import {
  addDays,
  aprPercent,
  daysBetween,
  divHalfUp,
  type IsoDate,
  monthlyInterestPaise,
  nextWorkingDay,
  isWorkingDay,
  singlePaymentAprPercent,
} from "../loan-math.ts";
import type { LoanKind } from "./application.ts";
import type { Instalment } from "./disbursal.ts";

export interface LoanTerms {
  kind: LoanKind;
  principalPaise: number;
  /** What the borrower received: the principal less the processing fee and its GST. */
  netDisbursedPaise: number;
  /** EMI loan: annual rate; salary advance: rate per day (basis points). */
  rateBps: number;
  disbursalDate: IsoDate;
  /** The schedule fixed at disbursal. */
  instalments: readonly Instalment[];
  /** The flat penal charge per missed instalment (at most the unpaid part). */
  penalPaise: number;
  /** An unpaid part at or below this at the end of the grace date draws no penal charge. */
  penalTolerancePaise: number;
  coolingOffDays: number;
  holidays: readonly IsoDate[];
}

/** Ledger entries that move what is owed; reversed payments and reversed or waived penal charges are left out before the replay. */
export type ServicingEvent =
  | {
      kind: "payment";
      id: string;
      amountPaise: number;
      businessDate: IsoDate;
      /** Keep what is left over for principal on the next due date (the loan shortens). */
      prepay?: boolean;
      /** The borrower asked to exit within the cooling-off period. */
      coolingOff?: boolean;
    }
  | {
      kind: "penal";
      id: string;
      seq: number;
      amountPaise: number;
      businessDate: IsoDate;
      /** Reversed or waived: owes nothing, but the instalment's charge was levied (never again). */
      undone?: boolean;
    }
  | {
      kind: "refund";
      id: string;
      amountPaise: number;
      businessDate: IsoDate;
      /**
       * Out of the advance held, not of an excess: an autopay debit that paid an instalment already
       * paid, refunded instead of kept (docs/product.md "Autopay"). The advance no longer pays the
       * next instalments; a refund beyond the advance then held is owed back like any refund sent
       * beyond what was overpaid.
       */
      fromAdvance?: boolean;
    }
  | {
      /**
       * An autopay debit presented for instalment `seq` on `businessDate` (its presentation date)
       * and not yet answered (docs/product.md "Autopay"): no money has moved, but while it lasts
       * the instalment is not past due (no days past due, no penal charge). A debit that succeeds
       * becomes a payment of its presentation date; one that bounces leaves the instalment as it was.
       */
      kind: "debit_pending";
      id: string;
      seq: number;
      amountPaise: number;
      businessDate: IsoDate;
    };

export type InstalmentStatus = "upcoming" | "due" | "debit_in_progress" | "paid" | "partly_paid" | "overdue" | "closed_early";

export interface InstalmentState {
  seq: number;
  dueDate: IsoDate;
  /** After a grace date that falls on a holiday or weekend: the last day to pay on time. */
  graceDate: IsoDate;
  principalPaise: number;
  interestPaise: number;
  paidPrincipalPaise: number;
  paidInterestPaise: number;
  /** What was unpaid at the end of the grace date; null while it has not passed. */
  unpaidAtGracePaise: number | null;
  status: InstalmentStatus;
}

export interface Allocation {
  interestPaise: number;
  principalPaise: number;
  penalPaise: number;
  /** Kept to pay the next instalments as they fall due. */
  advancePaise: number;
  /** The foreclosure's interest for the days since the last due date. */
  accruedInterestPaise: number;
  /** More than was owed: to be refunded. */
  excessPaise: number;
  /** Paying back a refund sent beyond what was overpaid. */
  owedBackPaise: number;
}

export interface PenalState {
  id: string;
  seq: number;
  amountPaise: number;
  paidPaise: number;
  businessDate: IsoDate;
}

export interface AdvanceApplied {
  on: IsoDate;
  seq: number | null;
  interestPaise: number;
  principalPaise: number;
}

export type Settlement = { on: IsoDate; how: "repaid" | "foreclosed" | "cooling_off"; byPaymentId: string | null };

export interface PayoffQuote {
  on: IsoDate;
  principalPaise: number;
  interestPaise: number;
  overduePaise: number;
  penalPaise: number;
  totalPaise: number;
}

export interface LoanState {
  asOf: IsoDate;
  instalments: InstalmentState[];
  penals: PenalState[];
  /** Each applied payment's allocation, by payment id. */
  allocations: Map<string, Allocation>;
  /** The advance paying an instalment on its due date (seq), or prepaying principal (seq null). */
  advanceApplied: AdvanceApplied[];
  advancePaise: number;
  /** The advance is kept for principal: after paying the next instalment, the rest shortens the loan. */
  advanceForPrincipal: boolean;
  /** Interest paid (instalments' and a foreclosure's accrued interest) and penal charges paid. */
  interestPaidPaise: number;
  penalPaidPaise: number;
  /** Principal repaid so far, every way (instalments, foreclosure, prepayment, a cooling-off exit's fee returned). */
  principalRepaidPaise: number;
  /** Of it, the processing fee and its GST a cooling-off exit returned (principal not paid back in money). */
  feeReturnedPaise: number;
  outstandingPrincipalPaise: number;
  /** Unpaid interest and principal of instalments whose due date is before `asOf` (none with an autopay debit in progress). */
  overduePaise: number;
  /** What is unpaid of instalments whose autopay debit is in progress (not past due while it lasts). */
  debitInProgressPaise: number;
  penalDuePaise: number;
  dpd: number;
  settlement: Settlement | null;
  refundDuePaise: number;
  /** Penal charges the rules warrant by `asOf` that are not recorded (the daily job levies them). */
  penalsWarranted: { seq: number; amountPaise: number; unpaidPaise: number; levyDate: IsoDate }[];
  /** Recorded penal charges the rules no longer warrant (a payment on time arrived late): to reverse. */
  penalsUnwarranted: string[];
}

const emptyAllocation = (): Allocation => ({
  interestPaise: 0,
  principalPaise: 0,
  penalPaise: 0,
  advancePaise: 0,
  accruedInterestPaise: 0,
  excessPaise: 0,
  owedBackPaise: 0,
});

/** The last day an instalment due on `dueDate` is paid on time: the next working day when it is not one. */
export const graceDate = (dueDate: IsoDate, holidays: readonly IsoDate[]) =>
  isWorkingDay(dueDate, holidays) ? dueDate : nextWorkingDay(dueDate, holidays);

/** Interest on `principalPaise` for `days` days: EMI loan at the annual rate, actual/365; salary advance at its daily rate. */
export function interestForDays(terms: Pick<LoanTerms, "kind" | "rateBps">, principalPaise: number, days: number): number {
  if (days <= 0 || principalPaise <= 0) return 0;
  return terms.kind === "emi"
    ? divHalfUp(principalPaise * terms.rateBps * days, 365 * 10_000)
    : divHalfUp(principalPaise * terms.rateBps * days, 10_000);
}

/** The RBI buckets staff see: SMA-0 1–30 days past due, SMA-1 31–60, SMA-2 61–90, NPA over 90. */
export type Bucket = "current" | "SMA-0" | "SMA-1" | "SMA-2" | "NPA";
export const BUCKETS: readonly Bucket[] = ["current", "SMA-0", "SMA-1", "SMA-2", "NPA"];
export function bucketOf(dpd: number): Bucket {
  if (dpd <= 0) return "current";
  if (dpd <= 30) return "SMA-0";
  if (dpd <= 60) return "SMA-1";
  if (dpd <= 90) return "SMA-2";
  return "NPA";
}

interface Working {
  terms: LoanTerms;
  rows: InstalmentState[];
  penals: PenalState[];
  allocations: Map<string, Allocation>;
  advanceApplied: AdvanceApplied[];
  /** Instalments whose penal charge was ever levied (even if since reversed or waived). */
  levied: Set<number>;
  advance: number;
  /** The advance is kept for principal at the next due date. */
  prepayPending: boolean;
  prepaidPrincipal: number;
  /** The interest of a foreclosure or cooling-off exit (not part of any instalment). */
  accruedPaid: number;
  /** Principal a cooling-off exit did not ask back: the processing fee and its GST, returned. */
  feeReturned: number;
  settlement: Settlement | null;
  excess: number;
  refunded: number;
  /** Autopay debits not yet answered: the presentation date by instalment. */
  pending: Map<number, IsoDate>;
}

const unpaidOf = (r: InstalmentState) => r.principalPaise + r.interestPaise - r.paidPrincipalPaise - r.paidInterestPaise;

/** Pays instalment `r` from `amount` (interest, then principal); returns what is left. */
function payInstalment(r: InstalmentState, amount: number, into: Allocation | null): number {
  const interest = Math.min(amount, r.interestPaise - r.paidInterestPaise);
  r.paidInterestPaise += interest;
  amount -= interest;
  const principal = Math.min(amount, r.principalPaise - r.paidPrincipalPaise);
  r.paidPrincipalPaise += principal;
  amount -= principal;
  if (into) {
    into.interestPaise += interest;
    into.principalPaise += principal;
  }
  return amount;
}

function payPenals(w: Working, on: IsoDate, amount: number, into: Allocation | null): number {
  for (const p of w.penals) {
    if (amount <= 0) break;
    if (p.businessDate > on) continue;
    const part = Math.min(amount, p.amountPaise - p.paidPaise);
    p.paidPaise += part;
    amount -= part;
    if (into) into.penalPaise += part;
  }
  return amount;
}

/** The principal of instalments not yet due on `on` (nothing of them is paid before they fall due). */
const principalNotDue = (w: Working, on: IsoDate) =>
  w.rows.filter((r) => r.dueDate > on).reduce((s, r) => s + r.principalPaise - r.paidPrincipalPaise, 0);

/**
 * The EMI loan's remaining schedule after `afterSeq` recomputed on a lower balance with the same
 * EMI (the loan shortens; the last instalment clears the balance); instalments no longer needed go.
 */
function shorten(w: Working, afterSeq: number, prepay: number) {
  const keep = w.rows.filter((r) => r.seq <= afterSeq);
  const later = w.rows.filter((r) => r.seq > afterSeq);
  if (later.length === 0) return;
  const first = w.terms.instalments[0];
  const emi = first ? first.principalPaise + first.interestPaise : 0;
  let balance = later.reduce((s, r) => s + r.principalPaise, 0) - prepay;
  const rebuilt: InstalmentState[] = [];
  for (const r of later) {
    if (balance <= 0) break;
    const interest = monthlyInterestPaise(balance, w.terms.rateBps);
    const last = r === later[later.length - 1] || emi - interest >= balance;
    const principal = last ? balance : emi - interest;
    rebuilt.push({ ...r, principalPaise: principal, interestPaise: interest, paidPrincipalPaise: 0, paidInterestPaise: 0 });
    balance -= principal;
  }
  w.rows = [...keep, ...rebuilt];
}

/** What repaying everything on `on` costs before the advance held: its parts, the gross quote. */
function grossQuote(w: Working, on: IsoDate) {
  const due = w.rows.filter((r) => r.dueDate <= on);
  // Refunds sent beyond what was overpaid (a reversed payment had made the excess) are owed back, with the dues.
  const overdue = due.reduce((s, r) => s + unpaidOf(r), 0) + owedBack(w);
  const penal = w.penals.filter((p) => p.businessDate <= on).reduce((s, p) => s + p.amountPaise - p.paidPaise, 0);
  let principal: number;
  let interest: number;
  if (w.terms.kind === "emi") {
    principal = principalNotDue(w, on);
    const last = due.length ? (due[due.length - 1] as InstalmentState).dueDate : w.terms.disbursalDate;
    interest = interestForDays(w.terms, principal, daysBetween(last, on));
  } else {
    const r = w.rows[0] as InstalmentState;
    principal = r.dueDate <= on ? 0 : r.principalPaise - r.paidPrincipalPaise;
    interest = r.dueDate <= on ? 0 : interestForDays(w.terms, principal, daysBetween(w.terms.disbursalDate, on));
  }
  return { principal, interest, overdue, penal, total: principal + interest + overdue + penal };
}

/**
 * The quote of docs/product.md: principal not yet due, interest on it since the last due date,
 * what is due and unpaid, unpaid penal charges. An advance held is money already paid: it is taken
 * off the parts in that order (interest still accrues on the principal until the advance is applied).
 */
function quoteOf(w: Working, on: IsoDate): PayoffQuote {
  return netOfAdvance(w, on, grossQuote(w, on));
}

/** The parts owed less the advance held, taken off them in the order principal, interest, overdue, penal. */
function netOfAdvance(w: Working, on: IsoDate, g: { principal: number; interest: number; overdue: number; penal: number }): PayoffQuote {
  let advance = w.advance;
  const net = (x: number) => {
    const taken = Math.min(advance, x);
    advance -= taken;
    return x - taken;
  };
  const principal = net(g.principal);
  const interest = net(g.interest);
  const overdue = net(g.overdue);
  const penal = net(g.penal);
  return {
    on,
    principalPaise: principal,
    interestPaise: interest,
    overduePaise: overdue,
    penalPaise: penal,
    totalPaise: principal + interest + overdue + penal,
  };
}

/**
 * The loan's APR in basis points, as the Key Fact Statement works it out (docs/product.md "Money,
 * dates and the loan math") from the net amount received and the schedule fixed at disbursal.
 */
export function loanAprBps(terms: Pick<LoanTerms, "kind" | "netDisbursedPaise" | "rateBps" | "instalments" | "disbursalDate">): number {
  const payments = terms.instalments.map((i) => i.principalPaise + i.interestPaise);
  if (terms.kind === "emi") return Math.round(aprPercent(terms.netDisbursedPaise, payments, terms.rateBps) * 100);
  const last = terms.instalments[terms.instalments.length - 1];
  if (!last) return 0;
  return Math.round(
    singlePaymentAprPercent(
      payments.reduce((a, b) => a + b, 0),
      terms.netDisbursedPaise,
      daysBetween(terms.disbursalDate, last.dueDate),
    ) * 100,
  );
}

/**
 * The cooling-off exit on `on` before the advance held (docs/product.md "Loan servicing"): the net
 * amount received and its cost for the days used at the APR (net × APR × days ÷ 365, half-up; 0
 * days on the disbursal day). Null when the payoff quote is no more, or an instalment has fallen
 * due: then the exit costs the payoff.
 */
function coolingOffGross(w: Working, on: IsoDate) {
  const g = grossQuote(w, on);
  if (w.rows.some((r) => r.dueDate <= on)) return null;
  const days = Math.max(0, daysBetween(w.terms.disbursalDate, on));
  const cost = divHalfUp(w.terms.netDisbursedPaise * loanAprBps(w.terms) * days, 365 * 10_000);
  const exit = { principal: w.terms.netDisbursedPaise, interest: cost, overdue: g.overdue, penal: g.penal };
  return exit.principal + exit.interest + exit.overdue + exit.penal < g.total ? exit : null;
}

/** Refunds sent beyond the excess (a payment reversed after its excess was refunded). */
const owedBack = (w: Working) => Math.max(0, w.refunded - w.excess);

/**
 * Settles everything owed on `on` (a foreclosure, or a cooling-off exit): every part paid, the rest
 * of `amount` is excess. A cooling-off exit cheaper than the payoff (`exit`) takes back the net
 * amount received as principal and its cost as interest; the rest of the principal (the fee and its
 * GST) is returned.
 */
function settle(
  w: Working,
  on: IsoDate,
  amount: number,
  into: Allocation,
  how: Settlement["how"],
  paymentId: string | null,
  exit: ReturnType<typeof coolingOffGross> = null,
) {
  const gross = exit ?? grossQuote(w, on);
  let pool = amount + w.advance;
  // The advance held is used first: the payment's allocation shows it drawn (a negative advance).
  into.advancePaise -= w.advance;
  w.advance = 0;
  for (const r of w.rows) if (r.dueDate <= on) pool = payInstalment(r, pool, into);
  pool = payPenals(w, on, pool, into);
  const back = owedBack(w);
  w.excess += back;
  pool -= back;
  into.owedBackPaise += back;
  let notYetDue = 0;
  for (const r of w.rows) {
    if (r.dueDate <= on) continue;
    // Principal not yet due is repaid now; the scheduled interest of those months is never owed.
    notYetDue += r.principalPaise - r.paidPrincipalPaise;
    r.paidPrincipalPaise = r.principalPaise;
    r.interestPaise = r.paidInterestPaise;
  }
  const asked = exit ? Math.min(exit.principal, notYetDue) : notYetDue;
  w.feeReturned += notYetDue - asked;
  into.principalPaise += asked;
  pool -= asked;
  into.accruedInterestPaise += gross.interest;
  w.accruedPaid += gross.interest;
  pool -= gross.interest;
  // The advance that was used is the payment's as well: what it brought in beyond the quote is excess.
  into.excessPaise += Math.max(0, pool);
  w.excess += Math.max(0, pool);
  w.settlement = { on, how, byPaymentId: paymentId };
}

const allRepaid = (w: Working) =>
  w.rows.every((r) => unpaidOf(r) === 0) && w.penals.every((p) => p.paidPaise === p.amountPaise) && owedBack(w) === 0;

/** The day-by-day replay to the end of `asOf`, as working state. */
function simulate(terms: LoanTerms, events: readonly ServicingEvent[], asOf: IsoDate): Working {
  const w: Working = {
    terms,
    rows: terms.instalments.map((i) => ({
      ...i,
      graceDate: graceDate(i.dueDate, terms.holidays),
      paidPrincipalPaise: 0,
      paidInterestPaise: 0,
      unpaidAtGracePaise: null,
      status: "upcoming",
    })),
    penals: [],
    allocations: new Map(),
    advanceApplied: [],
    levied: new Set(),
    advance: 0,
    prepayPending: false,
    prepaidPrincipal: 0,
    accruedPaid: 0,
    feeReturned: 0,
    settlement: null,
    excess: 0,
    refunded: 0,
    pending: new Map(),
  };
  for (const e of events) if (e.kind === "debit_pending" && e.businessDate <= asOf) w.pending.set(e.seq, e.businessDate);
  const byDate = new Map<IsoDate, ServicingEvent[]>();
  for (const e of events) {
    if (e.businessDate > asOf) continue;
    const list = byDate.get(e.businessDate) ?? [];
    list.push(e);
    byDate.set(e.businessDate, list);
  }
  const dates = new Set<IsoDate>([...byDate.keys()]);
  for (const r of w.rows) {
    if (r.dueDate <= asOf) dates.add(r.dueDate);
    if (r.graceDate <= asOf) dates.add(r.graceDate);
  }
  const settledIfRepaid = (day: IsoDate) => {
    if (w.settlement || !allRepaid(w) || w.rows.some((r) => r.dueDate > day)) return;
    w.settlement = { on: day, how: "repaid", byPaymentId: null };
    w.excess += w.advance;
    w.advance = 0;
  };

  for (const day of [...dates].sort()) {
    // 1. Instalments falling due today take the advance; a prepayment asked for goes to principal after them.
    if (!w.settlement) {
      for (const r of w.rows) {
        if (r.dueDate !== day || w.advance === 0) continue;
        const used = emptyAllocation();
        w.advance = payInstalment(r, w.advance, used);
        w.advanceApplied.push({ on: day, seq: r.seq, interestPaise: used.interestPaise, principalPaise: used.principalPaise });
        if (w.prepayPending && w.terms.kind === "emi") {
          const prepay = Math.min(w.advance, principalNotDue(w, day));
          if (prepay > 0) {
            shorten(w, r.seq, prepay);
            w.prepaidPrincipal += prepay;
            w.advance -= prepay;
            w.advanceApplied.push({ on: day, seq: null, interestPaise: 0, principalPaise: prepay });
          }
          w.prepayPending = false;
        }
      }
    }
    const todays = byDate.get(day) ?? [];
    // 2. Penal charges recorded today; an advance pays them.
    for (const e of todays) {
      if (e.kind !== "penal") continue;
      w.levied.add(e.seq);
      if (e.undone) continue;
      w.penals.push({ id: e.id, seq: e.seq, amountPaise: e.amountPaise, paidPaise: 0, businessDate: e.businessDate });
      if (w.advance > 0 && !w.settlement) w.advance = payPenals(w, day, w.advance, null);
    }
    settledIfRepaid(day);
    // 3. Payments and refunds, in the order recorded.
    for (const e of todays) {
      if (e.kind === "refund") {
        if (e.fromAdvance && !w.settlement) {
          const taken = Math.min(e.amountPaise, w.advance);
          w.advance -= taken;
          w.excess += taken;
        }
        w.refunded += e.amountPaise;
        continue;
      }
      if (e.kind !== "payment") continue;
      const into = emptyAllocation();
      w.allocations.set(e.id, into);
      if (w.settlement) {
        into.excessPaise = e.amountPaise;
        w.excess += e.amountPaise;
        continue;
      }
      if (e.coolingOff && inCoolingOff(terms, day)) {
        const exit = coolingOffGross(w, day);
        if (exit && e.amountPaise >= netOfAdvance(w, day, exit).totalPaise) {
          settle(w, day, e.amountPaise, into, "cooling_off", e.id, exit);
          continue;
        }
        if (!exit && e.amountPaise >= quoteOf(w, day).totalPaise) {
          settle(w, day, e.amountPaise, into, "cooling_off", e.id);
          continue;
        }
      }
      const payoff = quoteOf(w, day);
      if (e.amountPaise >= payoff.totalPaise) {
        settle(w, day, e.amountPaise, into, "foreclosed", e.id);
        continue;
      }
      let left = e.amountPaise;
      for (const r of w.rows) if (r.dueDate <= day) left = payInstalment(r, left, into);
      left = payPenals(w, day, left, into);
      const back = Math.min(left, owedBack(w));
      w.excess += back;
      into.owedBackPaise += back;
      left -= back;
      into.advancePaise = left;
      w.advance += left;
      if (e.prepay && left > 0) w.prepayPending = true;
    }
    // An advance that covers everything owed today settles the loan (the rest is refunded).
    if (!w.settlement && w.advance > 0 && w.advance >= grossQuote(w, day).total) settle(w, day, 0, emptyAllocation(), "foreclosed", null);
    // 4. Grace: what is unpaid at the end of an instalment's last day on time; not judged while an
    // autopay debit presented by then is unanswered (it is judged again once the debit is answered).
    for (const r of w.rows) {
      if (r.graceDate !== day || r.unpaidAtGracePaise !== null) continue;
      const presented = w.pending.get(r.seq);
      if (presented && presented <= day && !w.settlement) continue;
      r.unpaidAtGracePaise = w.settlement ? 0 : unpaidOf(r);
    }
  }
  return w;
}

/** Replays the ledger to `asOf`: the state of the loan at the end of that date. */
export function replay(terms: LoanTerms, events: readonly ServicingEvent[], asOf: IsoDate): LoanState {
  const w = simulate(terms, events, asOf);
  // Instalments the borrower no longer owes after a settlement show as closed early.
  for (const r of w.rows) {
    const unpaid = unpaidOf(r);
    const paid = r.paidPrincipalPaise + r.paidInterestPaise;
    if (w.settlement && r.dueDate > w.settlement.on) r.status = "closed_early";
    else if (unpaid === 0) r.status = "paid";
    else if (w.pending.has(r.seq) && r.dueDate <= asOf) r.status = "debit_in_progress";
    else if (r.dueDate > asOf) r.status = "upcoming";
    else if (r.graceDate >= asOf) r.status = "due";
    else r.status = paid > 0 ? "partly_paid" : "overdue";
  }
  // Overdue: past its due date; an instalment due today is due, not overdue (it is the next due).
  // An instalment with an autopay debit in progress is not past due while it lasts.
  const pastDue = (r: InstalmentState) => r.dueDate < asOf && !w.pending.has(r.seq);
  const overdue = w.rows.filter(pastDue).reduce((s, r) => s + unpaidOf(r), 0);
  const oldestUnpaid = w.rows.find((r) => pastDue(r) && unpaidOf(r) > 0);
  const principalPaid = w.rows.reduce((s, r) => s + r.paidPrincipalPaise, 0) + w.prepaidPrincipal;
  const levied = w.levied;
  // A charge is levied at the start of the day after the grace date, before that day's payments:
  // a loan settled that day or later still owes it (the settlement then takes it into account).
  const warranted = w.rows
    .filter((r) => r.unpaidAtGracePaise !== null && r.unpaidAtGracePaise > terms.penalTolerancePaise && !levied.has(r.seq))
    .map((r) => ({
      seq: r.seq,
      amountPaise: Math.min(terms.penalPaise, r.unpaidAtGracePaise as number),
      unpaidPaise: r.unpaidAtGracePaise as number,
      levyDate: addDays(r.graceDate, 1),
    }))
    .filter((p) => p.levyDate <= asOf && (!w.settlement || p.levyDate <= w.settlement.on));
  const graceBySeq = new Map(w.rows.map((r) => [r.seq, r.unpaidAtGracePaise]));
  const unwarranted = w.penals
    .filter((p) => {
      const unpaid = graceBySeq.get(p.seq);
      return unpaid === undefined || (unpaid !== null && unpaid <= terms.penalTolerancePaise);
    })
    .map((p) => p.id);
  return {
    asOf,
    instalments: w.rows,
    penals: w.penals,
    allocations: w.allocations,
    advanceApplied: w.advanceApplied,
    advancePaise: w.advance,
    advanceForPrincipal: w.prepayPending && !w.settlement,
    principalRepaidPaise: principalPaid,
    interestPaidPaise: w.rows.reduce((s, r) => s + r.paidInterestPaise, 0) + w.accruedPaid,
    penalPaidPaise: w.penals.reduce((s, p) => s + p.paidPaise, 0),
    outstandingPrincipalPaise: terms.principalPaise - principalPaid,
    feeReturnedPaise: w.feeReturned,
    overduePaise: w.settlement ? 0 : overdue,
    debitInProgressPaise: w.settlement ? 0 : w.rows.filter((r) => r.status === "debit_in_progress").reduce((s, r) => s + unpaidOf(r), 0),
    penalDuePaise: w.penals.reduce((s, p) => s + p.amountPaise - p.paidPaise, 0),
    dpd: w.settlement || !oldestUnpaid ? 0 : daysBetween(oldestUnpaid.dueDate, asOf),
    settlement: w.settlement,
    refundDuePaise: w.excess - w.refunded,
    penalsWarranted: warranted,
    penalsUnwarranted: unwarranted,
  };
}

/**
 * How much of each instalment not yet due the advance held will pay on its due date, by seq, in
 * due-date order (interest and principal; penal charges levied meanwhile would take it first). An
 * advance kept for principal covers only the next instalment: the rest shortens the loan.
 */
export function advanceCover(state: Pick<LoanState, "instalments" | "advancePaise" | "advanceForPrincipal" | "asOf" | "settlement">) {
  const cover = new Map<number, number>();
  if (state.settlement) return cover;
  let advance = state.advancePaise;
  for (const r of state.instalments) {
    if (advance <= 0) break;
    if (r.dueDate <= state.asOf || r.status !== "upcoming") continue;
    const covered = Math.min(advance, unpaidOf(r));
    cover.set(r.seq, covered);
    advance -= covered;
    if (state.advanceForPrincipal) break;
  }
  return cover;
}

/**
 * The next instalment (due today or later): all of it unpaid (`instalmentPaise`), the part the
 * advance held already covers, and what is left to pay (`amountPaise`). Null when none is.
 */
export function nextDue(
  state: Pick<LoanState, "instalments" | "advancePaise" | "advanceForPrincipal" | "asOf" | "settlement">,
): { dueDate: IsoDate; seq: number; instalmentPaise: number; coveredPaise: number; amountPaise: number } | null {
  if (state.settlement) return null;
  const next = state.instalments.find((r) => (r.status === "upcoming" || r.status === "due") && r.dueDate >= state.asOf);
  if (!next) return null;
  const unpaid = unpaidOf(next);
  const covered = advanceCover(state).get(next.seq) ?? 0;
  return { dueDate: next.dueDate, seq: next.seq, instalmentPaise: unpaid, coveredPaise: covered, amountPaise: unpaid - covered };
}

/** Whether `on` is within the cooling-off period (disbursal day to disbursal + cooling-off days). */
export const inCoolingOff = (terms: Pick<LoanTerms, "disbursalDate" | "coolingOffDays">, on: IsoDate) =>
  on >= terms.disbursalDate && on <= addDays(terms.disbursalDate, terms.coolingOffDays);

/** The ledger's events with the penal charges the daily job will have levied by `on` (assuming no other payment). */
function withProjectedPenals(terms: LoanTerms, events: readonly ServicingEvent[], on: IsoDate): ServicingEvent[] {
  let all = [...events];
  // Each pass can only add charges for instalments whose grace date has passed: at most one pass per instalment.
  for (let i = 0; i <= terms.instalments.length; i++) {
    const warranted = replay(terms, all, on).penalsWarranted;
    if (warranted.length === 0) break;
    all = [
      ...all,
      ...warranted.map((p): ServicingEvent => ({
        kind: "penal",
        id: `projected-${p.seq}`,
        seq: p.seq,
        amountPaise: p.amountPaise,
        businessDate: p.levyDate,
      })),
    ];
  }
  return all;
}

const settledQuote = (on: IsoDate): PayoffQuote => ({
  on,
  principalPaise: 0,
  interestPaise: 0,
  overduePaise: 0,
  penalPaise: 0,
  totalPaise: 0,
});

/**
 * The payoff quote for `on` (docs/product.md "Loan servicing"): the ledger replayed to that date,
 * with the penal charges the daily job will have levied by then, assuming no other payment.
 */
export function payoffQuote(terms: LoanTerms, events: readonly ServicingEvent[], on: IsoDate): PayoffQuote {
  return payoffWithAdvance(terms, events, on).quote;
}

/**
 * The payoff quote for `on` and the advance held that day, which its parts are already net of
 * (taken off the principal not yet due first): what a page shows beside the quote so that the
 * principal outstanding, the advance and the principal in the quote add up.
 */
export function payoffWithAdvance(terms: LoanTerms, events: readonly ServicingEvent[], on: IsoDate) {
  const w = simulate(terms, withProjectedPenals(terms, events, on), on);
  return w.settlement ? { quote: settledQuote(on), advancePaise: 0 } : { quote: quoteOf(w, on), advancePaise: w.advance };
}

/**
 * The cooling-off exit amount on `on`: the net amount received and its cost for the days used at
 * the APR, never more than the payoff quote for that date (the principal is then the net amount,
 * the interest that cost).
 */
export function coolingOffQuote(terms: LoanTerms, events: readonly ServicingEvent[], on: IsoDate): PayoffQuote {
  const w = simulate(terms, withProjectedPenals(terms, events, on), on);
  if (w.settlement) return settledQuote(on);
  const exit = coolingOffGross(w, on);
  return exit ? netOfAdvance(w, on, exit) : quoteOf(w, on);
}

export const INSTALMENT_STATUS_LABEL: Record<InstalmentStatus, string> = {
  upcoming: "Upcoming",
  due: "Due",
  debit_in_progress: "Autopay debit in progress",
  paid: "Paid",
  partly_paid: "Part paid, overdue",
  overdue: "Overdue",
  closed_early: "Closed early",
};

/** `/User/Loans/Emi/{loanNumber}` or `/User/Loans/SalaryAdvance/{loanNumber}`. */
export const loanPath = (kind: LoanKind, loanNumber: string) => `/User/Loans/${kind === "emi" ? "Emi" : "SalaryAdvance"}/${loanNumber}`;

/** How far ahead a payoff quote may be asked for. */
export const PAYOFF_DAYS_AHEAD = 30;

/** A real calendar date written YYYY-MM-DD. */
export const isIsoDate = (value: string): value is IsoDate => /^\d{4}-\d{2}-\d{2}$/.test(value) && addDays(value, 0) === value;

/** The statement of account's period: from the disbursal to today, the first on or before the second; else what is wrong. */
export function statementRange(
  from: string,
  to: string,
  disbursalDate: IsoDate,
  today: IsoDate,
): { ok: true; from: IsoDate; to: IsoDate } | { ok: false; reason: "dates" | "range"; message: string } {
  if (!isIsoDate(from) || !isIsoDate(to)) return { ok: false, reason: "dates", message: "Choose both dates." };
  if (from < disbursalDate || to > today || from > to)
    return { ok: false, reason: "range", message: `Choose dates from the disbursal to today, the first on or before the second.` };
  return { ok: true, from, to };
}
