/**
 * Staff servicing (docs/product.md "Loan servicing"): the forms of the staff loan page and the
 * collections queue (one schema for the browser and the server), and their words. Pure.
 */
import { z } from "zod";
import { formatRupees } from "../money.ts";
import { isoDateField, rupeesField } from "../form-fields.ts";
import type { IsoDate } from "../loan-math.ts";
import { CONTACT_CHANNELS, type ContactChannel } from "../collections.ts";

export const OFFLINE_MODES = { NEFT: "NEFT", IMPS: "IMPS", UPI: "UPI", RTGS: "RTGS", cheque: "Cheque", cash: "Cash at a branch" } as const;
export type OfflineMode = keyof typeof OFFLINE_MODES;

const isoDate = isoDateField;
const reason = z
  .string({ error: "Give the reason." })
  .trim()
  .min(5, "Give the reason in a few words.")
  .max(500, "Keep the reason under 500 characters.");

export const recordPaymentSchema = z.object({
  intent: z.literal("record_payment"),
  amount: rupeesField(),
  date: isoDate("Date received"),
  mode: z.enum(Object.keys(OFFLINE_MODES) as [OfflineMode, ...OfflineMode[]], { error: "Choose how it was received." }),
  reference: z
    .string({ error: "The bank's or receipt's reference is missing." })
    .trim()
    .min(4, "The bank's or receipt's reference is missing.")
    .max(40, "The reference is at most 40 characters.")
    .regex(/^[\w/-]+$/, "Letters, digits, / and - only."),
});

export const reversalSchema = z.object({
  intent: z.enum(["request_reversal", "confirm_reversal", "cancel_reversal"]),
  payment: z.string().regex(/^pm_[a-z2-7]{24}$/, "Not a payment of this loan."),
  reason: reason.optional(),
});

export const waiveSchema = z.object({ intent: z.literal("waive"), penal: z.uuid("Not a penal charge of this loan."), reason });
export const releaseSchema = z.object({
  intent: z.literal("release"),
  payment: z.string().regex(/^pm_[a-z2-7]{24}$/, "Not a payment of this loan."),
});
export const writeOffSchema = z.object({ intent: z.literal("write_off"), reason });
/** Operations cancel a loan's autopay on the borrower's request, saying how it was asked. */
export const cancelMandateSchema = z.object({ intent: z.literal("cancel_mandate"), reason });

export const CONTACT_OUTCOMES = {
  promised: "Promised to pay",
  no_answer: "No answer",
  wrong_number: "Wrong number",
  disputes: "Disputes the dues",
  hardship: "In hardship",
  paid: "Says paid already",
  other: "Other",
} as const;
export type ContactOutcome = keyof typeof CONTACT_OUTCOMES;

export const noteSchema = z.object({
  intent: z.literal("note"),
  channel: z.enum(Object.keys(CONTACT_CHANNELS) as [ContactChannel, ...ContactChannel[]], { error: "Choose how the contact was made." }),
  outcome: z.enum(Object.keys(CONTACT_OUTCOMES) as [ContactOutcome, ...ContactOutcome[]], { error: "Choose what came of the contact." }),
  note: z
    .string({ error: "Write what was said." })
    .trim()
    .min(3, "Write what was said.")
    .max(1000, "Keep the note under 1,000 characters."),
  followUpOn: isoDate("Follow up on").optional(),
});

/** A loan may be written off by an administrator only this many days past due. */
export const WRITE_OFF_AFTER_DPD = 180;

/** A date an offline payment may carry: from the disbursal to today. */
export const receivableOn = (date: IsoDate, disbursalDate: IsoDate, today: IsoDate) => date >= disbursalDate && date <= today;

/** A penal charge's state as staff read it on the loan page. */
export function penalStatusText(p: {
  status: "unpaid" | "part_paid" | "paid" | "waived" | "reversed";
  paidPaise: number;
  reason: string | null;
}): string {
  switch (p.status) {
    case "unpaid":
      return "Unpaid";
    case "part_paid":
      return `Part paid (${formatRupees(p.paidPaise)})`;
    case "paid":
      return "Paid";
    case "waived":
      return p.reason ? `Waived: ${p.reason}` : "Waived";
    case "reversed":
      return "Reversed: the payment was on time";
  }
}

/** What a staff servicing action answers: done (with the toast's words), or refused for a reason the page words. */
export type StaffResult = { ok: true; message?: string } | { ok: false; reason: string };
