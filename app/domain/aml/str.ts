/**
 * Suspicious-transaction reports to FIU-IND (docs/product.md "Suspicious-transaction reports"): when
 * one is due, how far off that is, where a report stands, and the grounds a confirmed sanctions match
 * starts from. Pure and browser-safe.
 */
import { todayIST } from "../india-date.ts";
import { addDays, addWorkingDays, type IsoDate, isWorkingDay } from "../loan-math.ts";
import { LIST_NAME, type ListSource } from "./types.ts";

/** A report is due this many working days after the India date of the suspicion (PML Rules, rule 8). */
export const STR_WITHIN_WORKING_DAYS = 7;

/** The grounds are at least this long: a reviewer and FIU-IND read why, not a word. */
export const MIN_GROUNDS = 50;
/** FIU-IND's GroundsOfSuspicion holds at most 4,000 characters (docs/decisions/0008-str-export-format.md). */
export const MAX_GROUNDS = 4000;

/** The India date a report is due: 7 working days (the lender's calendar) after the suspicion's India date. */
export const strDueOn = (suspectedAt: Date, holidays: readonly IsoDate[]): IsoDate =>
  addWorkingDays(todayIST(suspectedAt), STR_WITHIN_WORKING_DAYS, holidays);

/**
 * How the due date stands on `today`: the working days left after today up to and including the due
 * date (0 when it is due today), or late once the due date has passed.
 */
export function dueStanding(today: IsoDate, dueOn: IsoDate, holidays: readonly IsoDate[]): { late: true } | { late: false; left: number } {
  if (today > dueOn) return { late: true };
  let left = 0;
  for (let d = addDays(today, 1); d <= dueOn; d = addDays(d, 1)) if (isWorkingDay(d, holidays)) left++;
  return { late: false, left };
}

/** The due date in words for the list and the report: "3 working days left", "due today", "late". */
export function dueText(standing: ReturnType<typeof dueStanding>): string {
  if (standing.late) return "late";
  if (standing.left === 0) return "due today";
  return standing.left === 1 ? "1 working day left" : `${standing.left} working days left`;
}

export type StrStatus = "draft" | "reviewed" | "exported";

/** Where a report stands, as the list groups them. */
export type StrStage = "sent_back" | "awaiting_review" | "reviewed" | "exported";

export const STR_STAGE_LABEL: Readonly<Record<StrStage, string>> = {
  sent_back: "Drafts sent back for changes",
  awaiting_review: "Drafts awaiting review",
  reviewed: "Reviewed, not exported",
  exported: "Exported",
};

/**
 * A draft is awaiting review from when it is saved; sent back by a reviewer, it is the drafter's
 * again until it is next changed (then it awaits review once more).
 */
export function strStage(r: { status: StrStatus; reviewedAt: Date | string | null; updatedAt: Date | string }): StrStage {
  if (r.status !== "draft") return r.status;
  if (r.reviewedAt && new Date(r.reviewedAt).getTime() >= new Date(r.updatedAt).getTime()) return "sent_back";
  return "awaiting_review";
}

/** The grounds a confirmed sanctions match's report starts from: the list, its entry, the score and the decision. */
export function matchGrounds(m: {
  source: ListSource;
  ref: string;
  listedName: string;
  scoreMilli: number;
  borrowerName: string;
  confirmedOn: IsoDate;
  note: string;
}): string {
  return (
    `Sanctions screening: the borrower ${m.borrowerName} was confirmed on ${m.confirmedOn} as the person listed on the ` +
    `${LIST_NAME[m.source]}, entry ${m.ref} ("${m.listedName}"), screening score ${(m.scoreMilli / 1000).toFixed(3)}. ` +
    `Compliance's note on the confirmation: ${m.note}`
  ).slice(0, MAX_GROUNDS);
}

/** The ledger's entries that move money, how each moves it on the loan account, and its words. */
const MONEY_KINDS = {
  disbursal: { debitCredit: "D", what: "Disbursal to the borrower" },
  disbursal_reversal: { debitCredit: "C", what: "Disbursal returned by the bank" },
  payment: { debitCredit: "C", what: "Payment from the borrower" },
  payment_reversal: { debitCredit: "D", what: "Payment reversed" },
  refund: { debitCredit: "D", what: "Refund to the borrower" },
  refund_reversal: { debitCredit: "C", what: "Refund returned by the bank" },
} as const;

export const isMoneyMovement = (kind: string): kind is keyof typeof MONEY_KINDS => kind in MONEY_KINDS;

/** A ledger entry as the report reads it: the money moved, with what paid it or was paid. */
export interface LedgerMovement {
  entryNo: number;
  kind: string;
  businessDate: IsoDate;
  /** The account: the loan number, or the application's reference before one was given. */
  account: string;
  principalPaise: number;
  amountPaise: number;
  /** The payout that moved it (a disbursal, a refund), as sent. */
  payout: { amountPaise: number; utr: string | null } | null;
  /** The payment that moved it: its reference and, recorded by staff, how it came (OFFLINE_MODES). */
  payment: { reference: string; mode: string | null } | null;
}

export interface ReportedMovement {
  account: string;
  date: IsoDate;
  id: string;
  what: string;
  debitCredit: "D" | "C";
  amountPaise: number;
  mode: "A" | "C" | "E";
  remarks: string;
}

/**
 * The movements a report lists, oldest first: disbursals and refunds out, payments in, and the
 * reversals of each; penal charges, waivers and write-offs move no money and are left out. A
 * payout's amount is what was sent (a disbursal net of its fees).
 */
export function reportedMovements(entries: readonly LedgerMovement[]): ReportedMovement[] {
  return entries
    .filter((e) => isMoneyMovement(e.kind))
    .map((e) => {
      const kind = MONEY_KINDS[e.kind as keyof typeof MONEY_KINDS];
      const amountPaise = e.payout?.amountPaise ?? (e.kind.startsWith("disbursal") ? Math.abs(e.principalPaise) : e.amountPaise);
      const mode = e.payment?.mode === "cheque" ? "A" : e.payment?.mode === "cash" ? "C" : "E";
      const by = e.payout?.utr ? ` UTR ${e.payout.utr}` : e.payment ? ` ${e.payment.reference}` : "";
      return {
        account: e.account,
        date: e.businessDate,
        id: String(e.entryNo),
        what: kind.what,
        debitCredit: kind.debitCredit,
        amountPaise,
        mode,
        remarks: `${kind.what}${by}`,
      } satisfies ReportedMovement;
    })
    .sort((a, b) => a.date.localeCompare(b.date) || Number(a.id) - Number(b.id));
}
