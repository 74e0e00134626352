/**
 * Credit review and decision (docs/product.md "Credit review and decision"): the checklist, the
 * reasons for a rejection in staff and plain words, the bureau bands, the forms' schemas (one
 * schema for the browser and the server) and the age of an application in working hours.
 */
import { z } from "zod";
import { DOCUMENT_KINDS, type DocumentKind } from "./kyc/documents.ts";
import { istDayNumber, istDayNumberStart } from "./india-date.ts";
import { msg } from "../i18n/form-message.ts";
import type { IsoDate } from "./loan-math.ts";
import type { LoanStatus } from "./loans/lifecycle.ts";

// ---- The checklist ------------------------------------------------------------------------

export const CHECKLIST = {
  identity: "Identity matches the documents (name, date of birth, PAN, Aadhaar)",
  selfie: "Selfie matches the photo on the ID",
  bank: "Bank account verified in the borrower's name",
  income: "Income supported by the documents",
  bureau: "Credit bureau report acceptable",
} as const;
export type ChecklistItem = keyof typeof CHECKLIST;
export const CHECKLIST_ITEMS = Object.keys(CHECKLIST) as ChecklistItem[];

/** Approval needs every item ticked. */
export const checklistComplete = (ticked: ReadonlySet<string>) => CHECKLIST_ITEMS.every((item) => ticked.has(item));

// ---- Rejection ------------------------------------------------------------------------------

export const REJECTION_REASONS = {
  documents: {
    label: "Incomplete or unclear documents",
    borrower: "some of your documents were incomplete or could not be read clearly",
  },
  identity: {
    label: "Identity mismatch",
    borrower: "the details in your profile did not match your identity documents",
  },
  income: {
    label: "Income not supported",
    borrower: "we could not confirm your income from the documents you gave",
  },
  credit_history: {
    label: "Credit history",
    borrower: "your credit history does not meet our lending policy at present",
  },
  policy: {
    label: "Policy",
    borrower: "your application does not meet our lending policy at present",
  },
} as const;
export type RejectionReason = keyof typeof REJECTION_REASONS;
const REJECTION_CODES = Object.keys(REJECTION_REASONS) as [RejectionReason, ...RejectionReason[]];

/** What the borrower reads about a rejection: the reason in plain words and when they may apply again. */
export function rejectionText(reason: RejectionReason, reapplyFrom: string) {
  const words = REJECTION_REASONS[reason].borrower;
  return `We could not approve this application because ${words}. You can apply again from ${reapplyFrom}.`;
}

// ---- Forms ----------------------------------------------------------------------------------

const note = (what: string, min: number, max: number) =>
  z
    .string({ error: `Write ${what}.` })
    .trim()
    .min(min, `Write ${what} (at least ${min} characters).`)
    .max(max, `Keep it under ${max.toLocaleString("en-IN")} characters.`);

/** The checklist form: the items ticked (the others are unticked). */
export const checklistSchema = z.object({
  items: z
    .array(z.enum(CHECKLIST_ITEMS as [ChecklistItem, ...ChecklistItem[]], { error: "That is not an item of the checklist." }))
    .default([]),
});

/** The first approver's reason for a deviation from the credit policy (docs/product.md "Credit policy"). */
export const deviationSchema = z.object({
  deviationReason: note("why this deviation is acceptable: what supports the loan", 10, 1000),
});

export const rejectSchema = z.object({
  reason: z.enum(REJECTION_CODES, { error: "Choose the reason the borrower will be told." }),
  note: note("a note for the file: what you found", 10, 1000),
});

/** What an officer can ask to have uploaded again (the selfie too: the borrower retakes it in the Selfie section). */
export const ASKABLE_DOCUMENTS = Object.keys(DOCUMENT_KINDS) as DocumentKind[];

export const askSchema = z.object({
  documentKind: z
    .enum(["", ...ASKABLE_DOCUMENTS] as [string, ...string[]], { error: "Choose a document from the list." })
    .optional()
    .transform((v) => (v ? (v as DocumentKind) : null)),
  message: note("what you need from the borrower, in plain words", 10, 500),
});

/** The borrower's answer: required for a question; for a document, the new upload is the answer. */
export const answerSchema = z.object({
  request: z.string({ error: msg("dashboard.requests.notOpen") }).uuid(msg("dashboard.requests.notOpen")),
  answer: z
    .string()
    .trim()
    .max(1000, msg("dashboard.requests.tooLong"))
    .optional()
    .transform((v) => v ?? ""),
});

// ---- Credit checks (PAN verification and bureau; providers in app/server/credit) ---------------

export interface PanCheck {
  /** valid: an individual's PAN on record; invalid: no such PAN; not_individual: a company's or firm's PAN. */
  status: "valid" | "invalid" | "not_individual";
  nameOnRecord: string | null;
  /** 0–100: how closely the name on record matches the profile's. */
  nameMatch: number;
  dateOfBirthMatches: boolean;
  reference: string;
}

export interface BureauReport {
  /** 300–900; null: the borrower has no credit history ("new to credit"). */
  score: number | null;
  activeAccounts: number;
  overdueAccounts: number;
  enquiriesLast6Months: number;
  reference: string;
  /**
   * Monthly EMIs of the accounts reported, and the part on this lender's own accounts; whether an
   * account was written off or 90+ days past due in the last 12 months. Absent from reports pulled
   * before the credit policy: such a report is pulled again before it is used.
   */
  monthlyEmiPaise?: number;
  ourMonthlyEmiPaise?: number;
  seriousDelinquency?: boolean;
}

export type BureauBand = "excellent" | "good" | "fair" | "poor" | "no_history";
/** The bands a score is read in; what the policy makes of it is in the credit policy's table. */
export const BUREAU_BANDS: Record<BureauBand, { label: string; hint: string }> = {
  excellent: { label: "Excellent (750–900)", hint: "The credit policy's table below says what it allows." },
  good: { label: "Good (700–749)", hint: "The credit policy's table below says what it allows." },
  fair: { label: "Fair (650–699)", hint: "The credit policy's table below says what it allows." },
  poor: { label: "Poor (300–649)", hint: "The credit policy's table below says whether it stops the loan or needs a deviation." },
  no_history: { label: "No credit history", hint: "New to credit: the credit policy caps the amount (see its table below)." },
};

export function bureauBand(score: number | null): BureauBand {
  if (score === null) return "no_history";
  if (score >= 750) return "excellent";
  if (score >= 700) return "good";
  if (score >= 650) return "fair";
  return "poor";
}

// ---- The queue ----------------------------------------------------------------------------

/** The queue's views: what a credit officer filters by. */
export const QUEUE_VIEWS = {
  open: { label: "To review", statuses: ["signed", "under_review"] },
  signed: { label: "New, not taken", statuses: ["signed"] },
  under_review: { label: "Under review", statuses: ["under_review"] },
  approved: { label: "Approved, to disburse", statuses: ["approved"] },
  active: { label: "Disbursed", statuses: ["active"] },
  rejected: { label: "Rejected", statuses: ["rejected"] },
} as const satisfies Record<string, { label: string; statuses: readonly LoanStatus[] }>;
export type QueueView = keyof typeof QUEUE_VIEWS;
export const QUEUE_PAGE_SIZE = 25;

// ---- Age in working hours -----------------------------------------------------------------

/** Working hours: 09:30–18:30 India time on working days. */
export const WORKING_DAY_MINUTES = 9 * 60;
const OPENS_MIN = 9 * 60 + 30;
const CLOSES_MIN = 18 * 60 + 30;

/** Minutes of working time between two instants (0 when `to` is not after `from`). */
export function workingMinutesBetween(from: Date, to: Date, holidays: readonly IsoDate[] = []): number {
  if (to.getTime() <= from.getTime()) return 0;
  // Whole days as numbers (days since 1970-01-01 in India time): a year-old application costs a
  // few hundred additions, not a few hundred date strings.
  const DAY = 86_400_000;
  const startDay = istDayNumber(from);
  const endDay = istDayNumber(to);
  const closed = new Set(holidays.map((h) => Date.parse(`${h}T00:00:00Z`) / DAY));
  let total = 0;
  for (let day = startDay; day <= endDay; day++) {
    const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday (4); 0 is Sunday
    if (weekday === 0 || weekday === 6 || closed.has(day)) continue;
    const midnight = istDayNumberStart(day);
    const open = Math.max(from.getTime(), midnight + OPENS_MIN * 60_000);
    const close = Math.min(to.getTime(), midnight + CLOSES_MIN * 60_000);
    if (close > open) total += (close - open) / 60_000;
  }
  return Math.floor(total);
}

/** "2 h 15 min", "1 working day 3 h", "under a minute". */
export function formatWorkingAge(minutes: number): string {
  const days = Math.floor(minutes / WORKING_DAY_MINUTES);
  const rest = minutes - days * WORKING_DAY_MINUTES;
  const h = Math.floor(rest / 60);
  const m = rest % 60;
  const parts = [days ? `${days} working ${days === 1 ? "day" : "days"}` : "", h ? `${h} h` : "", m && !days ? `${m} min` : ""].filter(
    Boolean,
  );
  return parts.length ? parts.join(" ") : "under a minute";
}
