/**
 * Autopay mandates (docs/product.md "Autopay"): the terms of the mandate a loan asks its borrower
 * to authorise, and the words its statuses are shown in. Pure: no I/O, no clock.
 */
import { addMonths, type IsoDate } from "../loan-math.ts";

export const MANDATE_KINDS = ["upi_autopay", "enach"] as const;
export type MandateKind = (typeof MANDATE_KINDS)[number];
export const MANDATE_STATUSES = ["pending", "active", "rejected", "cancelled", "paused"] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];
/** A mandate that may still debit (at most one per loan); the others are history. */
export const LIVE_MANDATE_STATUSES = ["pending", "active", "paused"] as const satisfies readonly MandateStatus[];
export const isLiveMandate = (status: MandateStatus) => (LIVE_MANDATE_STATUSES as readonly MandateStatus[]).includes(status);

/** A UPI AutoPay debit above this needs the payer's PIN each time: a larger mandate is e-NACH. */
export const UPI_AUTOPAY_MAX_PAISE = 1_500_000;
/** The mandate's maximum is this many times the instalment (3/2: 1.5 ×). */
const MAX_TIMES = { num: 3, den: 2 } as const;
/** The mandate runs at least this many months past the last due date. */
export const MANDATE_MONTHS_AFTER_LAST_DUE = 3;

/**
 * The mandate for a loan whose largest instalment is `instalmentPaise` (a salary advance: its one
 * repayment) and whose last due date is `lastDueDate`: at most 1.5 × the instalment per debit (in
 * whole paise, rounded up), UPI AutoPay when that maximum is at most ₹15,000 and e-NACH otherwise,
 * from `today` until 3 months after the last due date.
 */
export function mandateTerms({ instalmentPaise, lastDueDate, today }: { instalmentPaise: number; lastDueDate: IsoDate; today: IsoDate }) {
  const maxAmountPaise = Math.ceil((instalmentPaise * MAX_TIMES.num) / MAX_TIMES.den);
  const kind: MandateKind = maxAmountPaise <= UPI_AUTOPAY_MAX_PAISE ? "upi_autopay" : "enach";
  return { kind, maxAmountPaise, startDate: today, endDate: addMonths(lastDueDate, MANDATE_MONTHS_AFTER_LAST_DUE) };
}

export const MANDATE_KIND_NAME: Record<MandateKind, string> = {
  upi_autopay: "UPI AutoPay",
  enach: "e-NACH (net banking or debit card)",
};

/** Each status as the borrower reads it. */
export const MANDATE_STATUS_TEXT: Record<MandateStatus, string> = {
  pending: "Waiting for your approval at your bank",
  active: "Active",
  rejected: "Not approved",
  cancelled: "Cancelled",
  paused: "Paused",
};

/** Each status as staff read it. */
export const MANDATE_STATUS_STAFF_TEXT: Record<MandateStatus, string> = {
  pending: "Waiting for the borrower's approval at their bank",
  active: "Active",
  rejected: "Not approved",
  cancelled: "Cancelled",
  paused: "Paused",
};
