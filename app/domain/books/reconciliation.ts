/**
 * Reconciliation's rules (docs/product.md "The lender's books"; the files' columns in
 * docs/decisions/0005-reconciliation-formats.md): how a statement line finds its journal line, why
 * one does not, how old an item is, and the forms finance sends. Pure and browser-safe.
 */
import { z } from "zod";
import { daysBetween, type IsoDate } from "../loan-math.ts";
import { formatRupees } from "../money.ts";
import { longDate } from "../india-date.ts";
import type { MatchKey, StatementKind } from "./statements.ts";

export { STATEMENT_KINDS, type StatementKind } from "./statements.ts";

/** What each statement is, as the upload form names it. */
export const STATEMENT_KIND_LABEL: Record<StatementKind, string> = {
  gateway_settlement: "Payment gateway settlement report (Razorpay settlement recon CSV)",
  payout_statement: "Payout account statement (RazorpayX account statement CSV)",
};
/** Short names, for tables. */
export const STATEMENT_KIND_SHORT: Record<StatementKind, string> = {
  gateway_settlement: "Gateway settlement",
  payout_statement: "Payout statement",
};

/** The journal entries reconciliation itself posts: their lines are the statements' side, never an item waiting for one. */
export const RECONCILIATION_ENTRY_KINDS = ["gateway_settlement", "payout_fees"] as const;

/** The largest statement file taken (a day or a week of a busy lender's report fits many times over). */
export const MAX_STATEMENT_BYTES = 2 * 1024 * 1024;
export const STATEMENT_TOO_LARGE = "The file is larger than 2 MB: export a shorter period and import each file.";

/** The upload form (the browser checks it before sending; the action checks it again with the file as received). */
export const uploadStatementSchema = z.object({
  kind: z.enum(["gateway_settlement", "payout_statement"], { message: "Choose which statement this is" }),
  file: z
    .file({ message: "Choose the CSV file to import" })
    .max(MAX_STATEMENT_BYTES, STATEMENT_TOO_LARGE)
    .refine((f) => /\.csv$/i.test(f.name), "Choose a .csv file (export the report as CSV first)"),
});

/** Resolving an exception: why, in words (kept with the exception and in the audit log, never changed). */
export const resolveExceptionSchema = z.object({
  exception: z.uuid({ message: "No such exception" }),
  note: z
    .string({ message: "Say how it was resolved" })
    .trim()
    .min(10, "Say how it was resolved, in at least 10 characters")
    .max(1000, "Keep the note under 1,000 characters"),
});

// ---- Matching --------------------------------------------------------------------------------

/** A journal line a statement line may stand for: on the clearing or payout account, with the provider's id. */
export interface JournalCandidate {
  id: number;
  purpose: MatchKey["purpose"];
  ref: string;
  side: MatchKey["side"];
  /** The line's amount (never negative). */
  paise: number;
  /** Its entry's business date (the event's own date). */
  businessDate: IsoDate;
  applicationId: string | null;
}

export const EXCEPTION_REASONS = ["not_in_books", "amount_differs", "booked_later", "other_kind", "not_on_statement"] as const;
export type ExceptionReason = (typeof EXCEPTION_REASONS)[number];

export type MatchOutcome =
  | { state: "matched"; journalLineId: number; applicationId: string | null }
  | {
      state: "unmatched";
      reason: Exclude<ExceptionReason, "not_on_statement">;
      /** What the books hold for it, when they hold something under its id. */
      expectedPaise: number | null;
      bookedOn: IsoDate | null;
      applicationId: string | null;
    };

/**
 * The journal line a statement line matches: on its account and side, with its provider id, the
 * same amount, dated on or before the statement's date, and not matched by another statement line
 * (`taken`). Otherwise why not: the books date it later, hold another amount, or hold nothing under
 * that id; a line that stands for no journal line (money added to the payout account, a gateway
 * adjustment) is of another kind.
 */
export function matchLine(
  line: { match: MatchKey | null; grossPaise: number; valueDate: IsoDate | null },
  candidates: readonly JournalCandidate[],
  taken: ReadonlySet<number>,
): MatchOutcome {
  const key = line.match;
  if (!key) return { state: "unmatched", reason: "other_kind", expectedPaise: null, bookedOn: null, applicationId: null };
  const same = candidates
    .filter((c) => c.purpose === key.purpose && c.ref === key.ref && c.side === key.side && !taken.has(c.id))
    .sort((a, b) => (a.businessDate < b.businessDate ? -1 : a.businessDate > b.businessDate ? 1 : a.id - b.id));
  const sameAmount = same.filter((c) => c.paise === line.grossPaise);
  const inTime = sameAmount.find((c) => line.valueDate === null || c.businessDate <= line.valueDate);
  if (inTime) return { state: "matched", journalLineId: inTime.id, applicationId: inTime.applicationId };
  // The same amount dated after the statement, else another amount under the same id.
  const near = sameAmount[0] ?? same[0];
  if (near)
    return {
      state: "unmatched",
      reason: sameAmount[0] ? "booked_later" : "amount_differs",
      expectedPaise: near.paise,
      bookedOn: near.businessDate,
      applicationId: near.applicationId,
    };
  return { state: "unmatched", reason: "not_in_books", expectedPaise: null, bookedOn: null, applicationId: null };
}

/** What a statement line's money is, in words. */
export const moneyWord = (kind: StatementKind, lineType: string) =>
  kind === "gateway_settlement"
    ? lineType === "payment"
      ? "payment"
      : lineType.replaceAll("_", " ")
    : lineType === "payout"
      ? "payout"
      : lineType.replaceAll("_", " ");

/** Why an exception was raised, in words. */
export function exceptionText(e: {
  kind: StatementKind;
  reason: ExceptionReason;
  lineType: string | null;
  amountPaise: number;
  expectedPaise: number | null;
  bookedOn: IsoDate | null;
  eventDate: IsoDate | null;
}): string {
  const what = moneyWord(e.kind, e.lineType ?? (e.kind === "gateway_settlement" ? "payment" : "payout"));
  switch (e.reason) {
    case "not_in_books":
      return `The statement has a ${what} of ${formatRupees(e.amountPaise)} that the books do not hold under this id.`;
    case "amount_differs":
      return `The statement says ${formatRupees(e.amountPaise)}; the books hold ${formatRupees(e.expectedPaise ?? 0)} for this id${e.bookedOn ? ` (${longDate(e.bookedOn)})` : ""}.`;
    case "booked_later":
      return `The books date this ${what} ${e.bookedOn ? longDate(e.bookedOn) : "later"}, after the statement's ${e.eventDate ? longDate(e.eventDate) : "date"}.`;
    case "other_kind":
      return e.kind === "gateway_settlement"
        ? `A ${what} line of ${formatRupees(e.amountPaise)}: nothing in the books is of this kind, so the settlement entry put it in suspense.`
        : `A ${what} line of ${formatRupees(e.amountPaise)}: not a payout or reversal this application made.`;
    case "not_on_statement": {
      const on = e.eventDate ? longDate(e.eventDate) : "";
      const amount = formatRupees(e.amountPaise);
      switch (e.lineType) {
        case "payment_reversal":
          return `Reversed in the books ${on} (${amount}), and no refund or dispute of it on any settlement report since.`;
        case "payout_reversal":
          return `Returned to the payout account in the books ${on} (${amount}), and no reversal of it on any payout statement since.`;
        case "payout":
          return `Paid out ${on} for ${amount}, and on no payout statement since.`;
        default:
          return `Captured ${on} for ${amount}, and on no settlement report since.`;
      }
    }
  }
}

export const REASON_LABEL: Record<ExceptionReason, string> = {
  not_in_books: "Not in the books",
  amount_differs: "Amount differs",
  booked_later: "Booked after the statement",
  other_kind: "Not a line the books hold",
  not_on_statement: "Not on any statement",
};

/** Which statement lines the page lists. */
export const LINE_FILTERS = ["all", "matched", "unmatched"] as const;
export type LineFilter = (typeof LINE_FILTERS)[number];

// ---- Ageing ----------------------------------------------------------------------------------

export const AGE_BUCKETS = [
  { key: "0-2", label: "0–2 days", max: 2 },
  { key: "3-7", label: "3–7 days", max: 7 },
  { key: "8-30", label: "8–30 days", max: 30 },
  { key: "31+", label: "Over 30 days", max: Infinity },
] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number]["key"];

/** The age bucket of an item dated `date` on `today`. */
export function ageBucket(date: IsoDate, today: IsoDate): AgeBucket {
  const days = Math.max(0, daysBetween(date, today));
  return (AGE_BUCKETS.find((b) => days <= b.max) ?? AGE_BUCKETS[3]).key;
}

/** Days since `date` in words ("today", "1 day", "12 days"). */
export function ageText(date: IsoDate, today: IsoDate): string {
  const days = Math.max(0, daysBetween(date, today));
  return days === 0 ? "today" : days === 1 ? "1 day" : `${days} days`;
}
