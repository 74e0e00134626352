// Every notice a borrower can get and what each carries (docs/product.md "Notifications"). Its words
// on each channel are in the catalogue (app/i18n/messages/{en,hi}/notices.ts), written out in the
// borrower's language by app/server/notifications/render.server.ts. An SMS is a template registered
// under India's DLT rules: fixed words with variables, never free text; its template id comes from
// configuration, one per event and language.
import { z } from "zod";
import { addDays, type IsoDate } from "./loan-math.ts";
import { indiaTime, istHour, todayIST } from "./india-date.ts";
import type { LoanKind } from "./loans/application.ts";
import type { MandateKind } from "./loans/mandate.ts";
import type { BreachFacts } from "./privacy/breach-drafts.ts";

export const NOTIFICATION_EVENTS = [
  "application_signed",
  "application_asked",
  "application_approved",
  "application_rejected",
  "loan_disbursed",
  "disbursal_utr",
  "disbursal_reversed",
  "revised_kfs",
  "due_soon",
  "due_today",
  "payment_received",
  "penal_charged",
  "loan_closed",
  "loan_cancelled",
  "loan_reopened",
  "refund_processed",
  "staff_notice",
  "ticket_raised",
  "ticket_answered",
  "credit_report_ready",
  "application_returned",
  "autopay_notice",
  "autopay_bounced",
  "autopay_excess",
  "dunning_gentle",
  "dunning_firm",
  "dunning_letter",
  "bureau_reported",
  "data_request_received",
  "data_request_answered",
  "data_breach",
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const CHANNELS = ["sms", "email", "push"] as const;
export type Channel = (typeof CHANNELS)[number];

/** A PDF sent with the e-mail, fetched when the e-mail goes (never stored twice). */
export type AttachmentRef =
  | { kind: "signed_agreement"; applicationId: string }
  | { kind: "revised_kfs"; applicationId: string }
  | { kind: "closure_letter"; loanNumber: string }
  | { kind: "reminder_letter"; loanNumber: string; sendId: string };

/** What a collections reminder names: the loan, the amount, how to pay and how to complain. */
export interface DunningNotice {
  loanNumber: string;
  loanPath: string;
  amountPaise: number;
  dpd: number;
  grievancePath: string;
  grievancePhone: string;
}

/** What each event carries. */
export interface NoticeData {
  application_signed: { applicationId: string; reference: string; agreementRef: string };
  application_asked: { reference: string };
  /** `autopayPath`: the product pays out only once autopay is active, and it is not yet (the application's page). */
  application_approved: {
    reference: string;
    product: LoanKind;
    amountPaise: number;
    /** null: the application names no account (the one on file). */
    accountMasked: string | null;
    autopayPath?: string | null;
  };
  application_rejected: { reference: string; statusPath: string };
  loan_disbursed: {
    applicationId: string;
    amountPaise: number;
    accountMasked: string;
    utr: string | null;
    loanNumber: string;
    firstDuePaise: number;
    firstDueDate: IsoDate;
    loanPath: string;
  };
  disbursal_utr: { amountPaise: number; utr: string; loanNumber: string; loanPath: string };
  disbursal_reversed: { amountPaise: number; accountMasked: string; loanNumber: string };
  revised_kfs: { applicationId: string; loanNumber: string; loanPath: string };
  due_soon: { loanNumber: string; loanPath: string; amountPaise: number; dueDate: IsoDate };
  /** The pre-debit notice: at least 24 hours before the debit. */
  autopay_notice: {
    loanNumber: string;
    loanPath: string;
    amountPaise: number;
    presentOn: IsoDate;
    mandate: MandateKind;
    accountMasked: string;
  };
  /** A debit the bank returned; `again` is its one re-presentation (null: none follows). */
  autopay_bounced: {
    loanNumber: string;
    loanPath: string;
    amountPaise: number;
    presentOn: IsoDate;
    reason: string;
    again: { amountPaise: number; presentOn: IsoDate } | null;
  };
  /** A debit that paid an instalment already paid: refunded on `refundOn` unless kept as an advance. */
  autopay_excess: {
    loanNumber: string;
    loanPath: string;
    amountPaise: number;
    presentOn: IsoDate;
    refundOn: IsoDate;
    accountMasked: string;
  };
  /**
   * A collections reminder (docs/product.md "Collections"), by tone: what is overdue on the loan and
   * for how many days, how to pay (the loan's page) and how to complain (`grievancePath`, `grievancePhone`).
   */
  dunning_gentle: DunningNotice;
  dunning_firm: DunningNotice;
  dunning_letter: DunningNotice & { sendId: string };
  due_today: { loanNumber: string; loanPath: string; amountPaise: number; dueDate: IsoDate };
  /** `paid`: what it paid (null: not known); `next`: what comes next on the loan. */
  payment_received: { amountPaise: number; loanNumber: string; loanPath: string; on: IsoDate; paid: PaidParts | null; next: PaymentNext };
  penal_charged: { amountPaise: number; loanNumber: string; loanPath: string; seq: number; dueDate: IsoDate; duePaise: number };
  loan_closed: { loanNumber: string; loanPath: string; on: IsoDate };
  loan_cancelled: { loanNumber: string; loanPath: string; on: IsoDate };
  loan_reopened: { loanNumber: string; loanPath: string };
  refund_processed: { amountPaise: number; loanNumber: string; loanPath: string; accountMasked: string; utr: string | null };
  staff_notice: { title: string; message: string; urgent: boolean };
  /** `withinDays`: when the answer is due (30 days; 21 for a dispute of credit information). */
  ticket_raised: { reference: string; path: string; withinDays?: number };
  ticket_answered: { reference: string; path: string; resolved: boolean };
  /** A correction or an erasure asked for (docs/product.md "Data rights"), answered by `dueOn`. */
  data_request_received: { reference: string; kind: "correction" | "erasure"; dueOn: IsoDate; path: string };
  data_request_answered: { reference: string; done: boolean; path: string };
  /** The bureau answered after the page stopped waiting: `path` is where the offer is shown. */
  credit_report_ready: { path: string };
  /** The credit policy now allows less than was signed: the amount is chosen again and a fresh KFS signed. */
  application_returned: { reference: string; maxAmountPaise: number; path: string };
  /** Days past due, or a write-off, reported to the credit bureaus as at `asOf` (told once per loan and date). */
  bureau_reported: {
    loanNumber: string;
    loanPath: string;
    asOf: IsoDate;
    dpd: number;
    overduePaise: number;
    reported: "past_due" | "written_off" | "settled";
  };
  /** A personal data breach that affected the borrower (DPDP Rules, 2025, rule 7(1)): the record's facts, who sends it and who answers. */
  data_breach: BreachFacts & { lender: string; contact: { name: string; phone: string; email: string } };
}

/** What comes next on a loan after a payment: an overdue amount left, the next instalment, or nothing. */
export type PaymentNext =
  | { kind: "overdue"; amountPaise: number }
  | { kind: "due"; dueDate: IsoDate; instalmentPaise: number; coveredPaise: number; amountPaise: number }
  | { kind: "done" };

/** A notice written out for every channel. */
export interface RenderedNotice {
  /** In-app, push and the e-mail's subject. */
  title: string;
  /** In-app, push and the e-mail's text. */
  body: string;
  /** The page the notice is about (a path of this site). */
  path: string;
  /** The SMS, or null when this notice sends none. */
  sms: string | null;
  attachments: AttachmentRef[];
  /** Reminders and overdue notices go out only between 08:00 and 19:00 India time. */
  daytimeOnly: boolean;
}

/** Reminders, overdue and autopay notices: only between 08:00 and 19:00 India time. */
export const DAYTIME_ONLY: ReadonlySet<NotificationEvent> = new Set([
  "due_soon",
  "due_today",
  "penal_charged",
  "autopay_notice",
  "autopay_bounced",
  "dunning_gentle",
  "dunning_firm",
  "dunning_letter",
  "bureau_reported",
]);

/** `at`, or 08:00 India time when `at` falls between 19:00 and 08:00 (the next morning's window). */
export function daytime(at: Date): Date {
  const hour = istHour(at);
  if (hour >= 8 && hour < 19) return at;
  const day = todayIST(at);
  const morning = hour < 8 ? day : addDays(day, 1);
  return indiaTime(morning, "08:00");
}

/** A staff notice (support): a short title and the message, marked urgent or not; `once` makes a double send one notice. */
export const staffNoticeSchema = z.object({
  intent: z.literal("notice"),
  once: z.uuid({ error: "Reload the page and write the notice again." }),
  title: z
    .string({ error: "Give the notice a title." })
    .trim()
    .min(3, "Give the notice a title.")
    .max(80, "Keep the title under 80 characters."),
  message: z
    .string({ error: "Write the message." })
    .trim()
    .min(3, "Write the message.")
    .max(1000, "Keep the message under 1,000 characters."),
  urgent: z.boolean().optional(),
});

type Paid = {
  interestPaidPaise: number;
  principalRepaidPaise: number;
  penalPaidPaise: number;
  advancePaise: number;
  feeReturnedPaise?: number;
};

/** What a payment paid, part by part (paise; 0: none of that part): the loan's figures before it and after it. */
export interface PaidParts {
  interestPaise: number;
  principalPaise: number;
  penalPaise: number;
  /** Kept as an advance for the next instalment. */
  keptPaise: number;
  /** The processing fee and its GST returned under the cooling-off rule (principal repaid that was not paid). */
  returnedPaise: number;
}

/** What a payment paid: the loan's figures before it and after it (put in words in the borrower's language when told). */
export function whatItPaid(before: Paid, after: Paid): PaidParts {
  // A cooling-off exit repays principal partly by returning the processing fee and its GST: that part was not paid.
  const returned = (after.feeReturnedPaise ?? 0) - (before.feeReturnedPaise ?? 0);
  const positive = (paise: number) => Math.max(0, paise);
  return {
    interestPaise: positive(after.interestPaidPaise - before.interestPaidPaise),
    principalPaise: positive(after.principalRepaidPaise - before.principalRepaidPaise - returned),
    penalPaise: positive(after.penalPaidPaise - before.penalPaidPaise),
    keptPaise: positive(after.advancePaise - before.advancePaise),
    returnedPaise: positive(returned),
  };
}
