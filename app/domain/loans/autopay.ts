/**
 * Autopay debits (docs/product.md "Autopay"): when an instalment's debit is announced and
 * presented, for how much, when a bounce is presented again and when an unanswered debit is asked
 * about, and the words each state is shown in. Pure: no I/O, no clock.
 */
import { addDays, addWorkingDays, type IsoDate, isWorkingDay, nextWorkingDay } from "../loan-math.ts";
import { indiaTime, longDate } from "../india-date.ts";
import { formatRupees } from "../money.ts";
import type { MandateKind } from "./mandate.ts";

export const DEBIT_STATUSES = ["notified", "presenting", "in_progress", "succeeded", "bounced", "cancelled"] as const;
/**
 * `notified`: the pre-debit notice is out and the debit waits for its date; `presenting`: being
 * sent to the provider (the provider may hold it already); `in_progress`: presented, no answer yet;
 * `succeeded` / `bounced`: the provider's answer; `cancelled`: never presented (paid before, the
 * mandate or the loan ended).
 */
export type DebitStatus = (typeof DEBIT_STATUSES)[number];

/** A debit that may have moved money and has no answer yet: the instalment is not past due while it lasts. */
export const DEBIT_IN_FLIGHT: readonly DebitStatus[] = ["presenting", "in_progress"];

/** The pre-debit notice goes out this many days before the presentation date (from 08:00 India time: at least 24 hours before). */
export const NOTICE_DAYS_BEFORE = 2;
/** A notice must be out this long before its debit is presented. */
export const NOTICE_MIN_HOURS = 24;
/** A bounced debit is presented once more this many working days later. */
export const REPRESENT_AFTER_WORKING_DAYS = 3;
/** A debit with no answer this many working days after its presentation is asked about. */
export const ASK_AFTER_WORKING_DAYS = 3;

/**
 * The day an instalment due on `dueDate` is presented: UPI AutoPay on the due date; e-NACH, which
 * the banks clear on working days only, on the next working day when the due date is not one.
 */
export function presentationDate(dueDate: IsoDate, kind: MandateKind, holidays: readonly IsoDate[]): IsoDate {
  if (kind === "upi_autopay" || isWorkingDay(dueDate, holidays)) return dueDate;
  return nextWorkingDay(dueDate, holidays);
}

/** The day the pre-debit notice of a debit presented on `presentOn` is sent. */
export const noticeDay = (presentOn: IsoDate): IsoDate => addDays(presentOn, -NOTICE_DAYS_BEFORE);

/** The re-presentation of a debit that bounced on `bouncedOn`: 3 working days later, on a working day. */
export const representationDate = (bouncedOn: IsoDate, holidays: readonly IsoDate[]): IsoDate =>
  addWorkingDays(bouncedOn, REPRESENT_AFTER_WORKING_DAYS, holidays);

/** The day an unanswered debit presented on `presentOn` is asked about. */
export const askDate = (presentOn: IsoDate, holidays: readonly IsoDate[]): IsoDate =>
  addWorkingDays(presentOn, ASK_AFTER_WORKING_DAYS, holidays);

/**
 * What a debit takes: what is then unpaid of the instalments due by its date, never more than the
 * pre-debit notice said or than the mandate's maximum; 0 when nothing is left (paid before it).
 */
export const debitAmount = ({ duePaise, noticePaise, maxAmountPaise }: { duePaise: number; noticePaise: number; maxAmountPaise: number }) =>
  Math.max(0, Math.min(duePaise, noticePaise, maxAmountPaise));

/**
 * Whether a notice that goes out at `noticeAt` is at least 24 hours before a debit presented on
 * `presentOn` (at the start of that India day, before the daily run presents it).
 */
export const noticeIsInTime = (noticeAt: Date, presentOn: IsoDate) =>
  indiaTime(presentOn, "00:00").getTime() - noticeAt.getTime() >= NOTICE_MIN_HOURS * 3_600_000;

/** A debit that paid an instalment already paid is refunded this many working days after it succeeded, unless kept. */
export const EXCESS_REFUND_AFTER_WORKING_DAYS = 1;

/** The day the excess of a debit that succeeded on `answeredOn` is refunded (within 2 working days). */
export const excessRefundDate = (answeredOn: IsoDate, holidays: readonly IsoDate[]): IsoDate =>
  addWorkingDays(answeredOn, EXCESS_REFUND_AFTER_WORKING_DAYS, holidays);

/** What happens to a debit's excess, as the borrower's loan page says it (a whole sentence each); null when it has none. */
export function excessText(d: {
  excessPaise: number;
  excessChoice: "keep" | "refund" | "none" | null;
  excessRefundOn: IsoDate | null;
  presentOn: IsoDate;
}): string | null {
  if (d.excessPaise <= 0) return null;
  const amount = formatRupees(d.excessPaise);
  const on = longDate(d.presentOn);
  switch (d.excessChoice) {
    case null:
      return `The debit of ${on} paid ${amount} for an instalment you had already paid. We will refund ${amount} to your bank account on ${longDate(d.excessRefundOn ?? d.presentOn)}, unless you keep it as an advance towards your next instalments.`;
    case "keep":
      return `You kept ${amount} of the debit of ${on} as an advance: it pays your next instalments as they fall due.`;
    case "refund":
      return `${amount} of the debit of ${on} paid an instalment you had already paid, and is being refunded to your bank account.`;
    case "none":
      return `${amount} of the debit of ${on} paid an instalment you had already paid; it has since been used for what the loan owed.`;
  }
}

/** What the next debit of an active mandate will be, before its notice (`nextDebit`). */
export type NextDebit =
  /** Nothing is debited: the advance held pays the instalment due on `due`. */
  | { case: "advance"; due: IsoDate }
  /** Too close for the notice: the instalment due on `due` is not debited. */
  | { case: "tooClose"; due: IsoDate }
  /** The mandate's maximum, `amountPaise`, on `on`; `restPaise` to pay with Pay now. */
  | { case: "capped"; due: IsoDate; on: IsoDate; amountPaise: number; restPaise: number }
  /** The whole `amountPaise` on `on`. */
  | { case: "full"; due: IsoDate; on: IsoDate; amountPaise: number };

/**
 * The next debit an active mandate will make, before its notice: the next instalment's amount
 * left to pay after the advance held, at most the mandate's maximum, on its presentation date.
 */
export function nextDebit({
  next,
  kind,
  maxAmountPaise,
  holidays,
  noticeAt,
}: {
  next: { dueDate: IsoDate; amountPaise: number };
  kind: MandateKind;
  maxAmountPaise: number;
  holidays: readonly IsoDate[];
  /** When a notice made now would go out (the daytime window's next moment). */
  noticeAt: Date;
}): NextDebit {
  const due = next.dueDate;
  const on = presentationDate(next.dueDate, kind, holidays);
  if (next.amountPaise <= 0) return { case: "advance", due };
  if (!noticeIsInTime(noticeAt, on)) return { case: "tooClose", due };
  if (next.amountPaise > maxAmountPaise)
    return { case: "capped", due, on, amountPaise: maxAmountPaise, restPaise: next.amountPaise - maxAmountPaise };
  return { case: "full", due, on, amountPaise: next.amountPaise };
}

/** The next debit (`nextDebit`) in English words, a whole sentence each (the borrower's page says it from the catalogue). */
export function nextDebitText(args: Parameters<typeof nextDebit>[0]): string {
  const d = nextDebit(args);
  const due = longDate(d.due);
  switch (d.case) {
    case "advance":
      return `Nothing will be debited for the instalment due on ${due}: your advance payment pays it.`;
    case "tooClose":
      return `The instalment due on ${due} is too close for autopay's notice, so it will not be debited: pay it with Pay now. Autopay debits the instalments after it.`;
    case "capped":
      return `Next debit: ${formatRupees(d.amountPaise)}, the mandate's maximum, on ${longDate(d.on)} for the instalment due on ${due}. Pay the other ${formatRupees(d.restPaise)} with Pay now. You get a notice two days before.`;
    case "full":
      return `Next debit: ${formatRupees(d.amountPaise)} on ${longDate(d.on)} for the instalment due on ${due}. You get a notice two days before.`;
  }
}

/** Each status as staff read it. */
export const DEBIT_STATUS_STAFF_TEXT: Record<DebitStatus, string> = {
  notified: "Notice sent, waiting for its date",
  presenting: "Being presented",
  in_progress: "Presented, no answer yet",
  succeeded: "Debited",
  bounced: "Bounced",
  cancelled: "Not presented",
};

/** Why a debit was not presented, as the borrower and staff read it. */
export const DEBIT_CANCELLED = {
  paid: "the instalment was paid before the debit date.",
  mandateEnded: "autopay ended before the debit date.",
  loanEnded: "the loan ended before the debit date.",
} as const;
