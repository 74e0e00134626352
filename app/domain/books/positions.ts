/**
 * A loan's place in the books (docs/product.md "The lender's books"), pure: what each of its
 * accounts should hold given the replay's state, how interest accrues day by day, and the lines of
 * an entry that brings the books to it. Amounts are signed paise: a debit positive, a credit negative.
 *
 * Every entry about a loan is worked out the same way: the lines the event itself states (the cash
 * that moved, the charge levied), then for each loan account the difference between what the
 * replay says it should hold and what the books hold, then the one line that balances the entry,
 * on the account the event's kind names (interest income for the interest a settlement or a
 * reallocation earns, recoveries after a write-off, the provision and write-off expense for a
 * write-off). So the books never drift from the ledger, even when a late or reversed event changes
 * how earlier payments were allocated.
 */
import { addDays, daysBetween, type IsoDate } from "../loan-math.ts";
import type { LoanState } from "../loans/servicing.ts";
import type { AccountPurpose, Framework } from "./chart.ts";

export type Positions = Partial<Record<AccountPurpose, number>>;

export interface Line {
  purpose: AccountPurpose;
  /** Debit positive, credit negative. */
  paise: number;
  /** The loan the line is about (its subledger); null for an aggregate line. */
  applicationId: string | null;
  /** The provider's id for the money (gateway payment, payout): what reconciliation matches on. */
  providerRef?: string | null;
}

/** One instalment's period as accrual reads it: its interest (and, under Ind AS, its fee) spread over (from, due]. */
export interface BasisRow {
  seq: number;
  fromDate: IsoDate;
  dueDate: IsoDate;
  interestPaise: number;
  feePaise: number;
}

/**
 * What of `amount`, spread evenly over the days after `from` up to `due`, has accrued by the end of
 * `through`: the same whole paise each day, the remainder on the due date (the SQL of the daily
 * accrual computes exactly this; a test holds them equal).
 */
export function accruedBy(amount: number, from: IsoDate, due: IsoDate, through: IsoDate): number {
  if (through <= from) return 0;
  if (through >= due) return amount;
  const days = daysBetween(from, due);
  return Math.floor(amount / days) * daysBetween(from, through);
}

/** The accrual basis of a loan from the replay's instalments (after any shortening), in due order. */
export function basisOf(
  instalments: readonly { seq: number; dueDate: IsoDate; interestPaise: number }[],
  disbursalDate: IsoDate,
  feeBySeq: ReadonlyMap<number, number> = new Map(),
): BasisRow[] {
  const rows: BasisRow[] = [];
  let from = disbursalDate;
  for (const r of [...instalments].sort((a, b) => a.seq - b.seq)) {
    rows.push({ seq: r.seq, fromDate: from, dueDate: r.dueDate, interestPaise: r.interestPaise, feePaise: feeBySeq.get(r.seq) ?? 0 });
    from = r.dueDate;
  }
  return rows;
}

export const sameBasis = (a: readonly BasisRow[], b: readonly BasisRow[]) =>
  a.length === b.length &&
  a.every((r, i) => {
    const o = b[i];
    return (
      o !== undefined &&
      o.seq === r.seq &&
      o.fromDate === r.fromDate &&
      o.dueDate === r.dueDate &&
      o.interestPaise === r.interestPaise &&
      o.feePaise === r.feePaise
    );
  });

/** Interest accrued by the end of `through` over the basis (what the daily accrual has posted once it has run to that day). */
export const interestAccrued = (basis: readonly BasisRow[], through: IsoDate) =>
  basis.reduce((s, r) => s + accruedBy(r.interestPaise, r.fromDate, r.dueDate, through), 0);

/** Fee amortised by the end of `through` (Ind AS). */
export const feeAmortised = (basis: readonly BasisRow[], through: IsoDate) =>
  basis.reduce((s, r) => s + accruedBy(r.feePaise, r.fromDate, r.dueDate, through), 0);

/** Whether the loan is on the books, and how. */
export type Standing = "open" | "written_off" | "not_disbursed";

export interface LoanBookFacts {
  standing: Standing;
  framework: Framework;
  /** Non-performing (its borrower has a loan over 90 days past due): unpaid interest is held in suspense. */
  npa: boolean;
  /** The last day whose accrual the books hold. */
  accruedThrough: IsoDate;
  feePaise: number;
  gstPaise: number;
  /** Intra-state (CGST and SGST) or inter-state (IGST), by the borrower's state against the lender's. */
  gstSplit: "intra" | "inter";
}

/** The fee's GST by component: CGST and SGST halves within the lender's state (CGST takes an odd paisa), IGST across states. */
export function gstParts(gstPaise: number, split: "intra" | "inter"): Positions {
  if (split === "inter") return { igst_payable: -gstPaise };
  const sgst = Math.floor(gstPaise / 2);
  return { cgst_payable: -(gstPaise - sgst), sgst_payable: -sgst };
}

/** The accounts whose per-loan balance the replay decides (the rest move only by their events' own lines). */
export const TARGETED: readonly AccountPurpose[] = [
  "loans_receivable",
  "interest_receivable",
  "penal_receivable",
  "unapplied_receipts",
  "refunds_payable",
  "interest_suspense",
  "processing_fee_income",
  "deferred_fee_income",
  "cgst_payable",
  "sgst_payable",
  "igst_payable",
];

/**
 * What each of the loan's targeted accounts should hold (debit positive): principal outstanding;
 * interest accrued by `accruedThrough` less interest paid (every instalment's, so billed and unpaid
 * plus accrued and not billed); penal charges unpaid; the advance held and the refund due as
 * liabilities; under NPA, the interest receivable held in suspense; the fee and its GST, until a
 * cooling-off exit returns them (and, under Ind AS, the fee not yet amortised). A written-off loan
 * holds no receivable; a disbursal reversed holds nothing.
 */
export function targetsOf(state: LoanState | null, basis: readonly BasisRow[], facts: LoanBookFacts): Positions {
  const zero: Positions = Object.fromEntries(TARGETED.map((p) => [p, 0]));
  if (facts.standing === "not_disbursed" || !state) return zero;
  const settled = state.settlement;
  const coolingOff = settled?.how === "cooling_off";
  const writtenOff = facts.standing === "written_off";
  const paidInterest = state.instalments.reduce((s, r) => s + r.paidInterestPaise, 0);
  const receivable = writtenOff || settled ? 0 : interestAccrued(basis, facts.accruedThrough) - paidInterest;
  const t: Positions = {
    ...zero,
    loans_receivable: writtenOff ? 0 : state.outstandingPrincipalPaise,
    interest_receivable: receivable,
    penal_receivable: writtenOff ? 0 : state.penalDuePaise,
    unapplied_receipts: -state.advancePaise,
    refunds_payable: -state.refundDuePaise,
    interest_suspense: facts.npa && !writtenOff && !settled ? -Math.max(0, receivable) : 0,
  };
  if (!coolingOff) Object.assign(t, gstParts(facts.gstPaise, facts.gstSplit));
  if (facts.framework === "indian_gaap") t.processing_fee_income = coolingOff ? 0 : -facts.feePaise;
  else t.deferred_fee_income = settled || writtenOff ? 0 : -(facts.feePaise - feeAmortised(basis, facts.accruedThrough));
  return t;
}

/** The lines that take the books' `current` balances of the targeted accounts to `target`. */
export function towards(current: Positions, target: Positions, applicationId: string): Line[] {
  const lines: Line[] = [];
  for (const purpose of TARGETED) {
    const delta = (target[purpose] ?? 0) - (current[purpose] ?? 0);
    if (delta !== 0) lines.push({ purpose, paise: delta, applicationId });
  }
  return lines;
}

/** What the lines leave unbalanced (debit positive): the amount the balancing line must credit. */
export const imbalance = (lines: readonly Line[]) => lines.reduce((s, l) => s + l.paise, 0);

/** The lines with one more that balances them, on `purpose`. */
export function balancedOn(lines: readonly Line[], purpose: AccountPurpose, applicationId: string | null): Line[] {
  const rest = imbalance(lines);
  return rest === 0 ? [...lines] : [...lines, { purpose, paise: -rest, applicationId }];
}

/**
 * A write-off's balancing lines: what the loan's receivables lose is charged to the provision held
 * for the loan first (`provisionHeld`, a credit balance as a positive amount), the rest to write-off expense.
 */
export function writeOffLines(lines: readonly Line[], provisionHeld: number, applicationId: string): Line[] {
  const loss = -imbalance(lines);
  if (loss <= 0) return balancedOn(lines, "write_off_expense", applicationId);
  const fromProvision = Math.min(loss, Math.max(0, provisionHeld));
  const out = [...lines];
  if (fromProvision > 0) out.push({ purpose: "loan_loss_provision", paise: fromProvision, applicationId });
  if (loss > fromProvision) out.push({ purpose: "write_off_expense", paise: loss - fromProvision, applicationId });
  return out;
}

/** Lines netted by account and loan (zero lines dropped), in a stable order. */
export function netted(lines: readonly Line[]): Line[] {
  const by = new Map<string, Line>();
  for (const l of lines) {
    const key = `${l.purpose}|${l.applicationId ?? ""}|${l.providerRef ?? ""}`;
    const had = by.get(key);
    by.set(key, had ? { ...had, paise: had.paise + l.paise } : { ...l });
  }
  return [...by.values()].filter((l) => l.paise !== 0);
}

/** The sum of lines by account: what an entry (or many) does to balances. */
export function positionsOf(lines: readonly Pick<Line, "purpose" | "paise">[]): Positions {
  const p: Positions = {};
  for (const l of lines) p[l.purpose] = (p[l.purpose] ?? 0) + l.paise;
  return p;
}

/** The first day of the month after `month` (YYYY-MM). */
export const dayAfterMonth = (month: string): IsoDate => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
};

/** The last day of `date`'s month. */
export const monthEnd = (date: IsoDate): IsoDate => addDays(dayAfterMonth(date.slice(0, 7)), -1);

/**
 * The date an entry for an event of `businessDate` is journalled on: that date, unless its month is
 * closed, then the first open day (closed months are a prefix: each closes after the one before).
 */
export function entryDateFor(businessDate: IsoDate, lastClosedMonth: string | null): IsoDate {
  if (!lastClosedMonth || businessDate.slice(0, 7) > lastClosedMonth) return businessDate;
  return dayAfterMonth(lastClosedMonth);
}
