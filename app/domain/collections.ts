/**
 * The collections desk (docs/product.md "Collections"): cases, promises to pay, contacts, dunning
 * rules and the fair-practice hours, as pure functions and the forms' schemas (one schema for the
 * browser and the server). Every borrower-facing sentence here is whole, to be translated as it stands.
 */
import { z } from "zod";
import { addDays, daysBetween, type IsoDate } from "./loan-math.ts";
import { istHour, longDate, todayIST } from "./india-date.ts";
import { formatRupees } from "./money.ts";
import { isoDateField, rupeesField } from "./form-fields.ts";

/** Why a case closed: back to 0 days past due, the loan closed (or cancelled), or written off. */
export const CASE_CLOSED = ["cured", "closed", "written_off"] as const;
export type CaseClosed = (typeof CASE_CLOSED)[number];

/** What the case should do given the loan's days past due and status (`open`: whether a case is open now). */
export function caseChange({ open, dpd, loanActive }: { open: boolean; dpd: number; loanActive: boolean }): "open" | "close" | "keep" {
  if (open) return !loanActive || dpd <= 0 ? "close" : "keep";
  return loanActive && dpd > 0 ? "open" : "keep";
}

// ─── Promises to pay ────────────────────────────────────────────────────────

export const PROMISE_STATUSES = ["open", "kept", "broken", "cancelled"] as const;
export type PromiseStatus = (typeof PROMISE_STATUSES)[number];
/** A borrower may promise a payment at most this many days ahead. */
export const PROMISE_MAX_DAYS = 7;

/**
 * A promise judged from the ledger on `today`: kept when the payments dated from the day it was
 * made to its date add up to its amount (a payment confirmed late counts on its own date), broken
 * once its date has passed without that, open until then. A cancelled promise stays cancelled.
 */
export function promiseOutcome(
  promise: { amountPaise: number; madeOn: IsoDate; dueOn: IsoDate; status: PromiseStatus },
  payments: readonly { amountPaise: number; businessDate: IsoDate }[],
  today: IsoDate,
): PromiseStatus {
  if (promise.status === "cancelled") return "cancelled";
  const paid = payments
    .filter((p) => p.businessDate >= promise.madeOn && p.businessDate <= promise.dueOn)
    .reduce((sum, p) => sum + p.amountPaise, 0);
  if (paid >= promise.amountPaise) return "kept";
  return today > promise.dueOn ? "broken" : "open";
}

export const PROMISE_STATUS_TEXT: Record<PromiseStatus, string> = {
  open: "Open",
  kept: "Kept",
  broken: "Broken",
  cancelled: "Replaced",
};

/** A promise as the borrower's loan page says it, a whole sentence for each state. */
export function promiseText(promise: { amountPaise: number; dueOn: IsoDate; status: PromiseStatus }): string {
  const p = { amountPaise: formatRupees(promise.amountPaise), dueOn: longDate(promise.dueOn) };
  switch (promise.status) {
    case "open":
      return `You promised to pay ${p.amountPaise} by ${p.dueOn}. We will not send you reminders about this loan until then.`;
    case "kept":
      return `You promised to pay ${p.amountPaise} by ${p.dueOn}, and you did. Thank you.`;
    case "broken":
      return `You promised to pay ${p.amountPaise} by ${p.dueOn}, and we have not received it. Please pay now, or call us if you cannot.`;
    case "cancelled":
      return `Your promise to pay ${p.amountPaise} by ${p.dueOn} was replaced by a later one.`;
  }
}

/**
 * A promise to pay (the borrower on the loan page, or staff after a call): an amount and a date
 * from today to 7 days ahead. `today` is the India date the form is judged on.
 */
export const promiseSchema = (today: IsoDate) =>
  z.object({
    intent: z.literal("promise"),
    amount: rupeesField(),
    dueOn: isoDateField("The date").refine(
      (v) => v >= today && v <= addDays(today, PROMISE_MAX_DAYS),
      `Choose a date from today to ${PROMISE_MAX_DAYS} days ahead.`,
    ),
  });

// ─── Contacts ───────────────────────────────────────────────────────────────

export const CONTACT_CHANNELS = {
  call_out: "Call to the borrower",
  call_in: "Call from the borrower",
  sms: "SMS",
  email: "E-mail",
  whatsapp: "WhatsApp",
  visit: "Visit",
  letter: "Letter",
} as const;
export type ContactChannel = keyof typeof CONTACT_CHANNELS;
/** Contacts the lender starts (a call, a message, a visit): only between 08:00 and 19:00 India time. */
export const OUTBOUND_CHANNELS: readonly ContactChannel[] = ["call_out", "sms", "email", "whatsapp", "visit", "letter"];

/** The hours a borrower may be contacted about dues (RBI fair practices): 08:00 to 19:00 India time. */
export const CONTACT_FROM_HOUR = 8;
export const CONTACT_UNTIL_HOUR = 19;
export const CONTACT_HOURS =
  "Borrowers are contacted only between 08:00 and 19:00 India time; a call from the borrower may be logged at any hour.";
export const inContactHours = (at: Date) => istHour(at) >= CONTACT_FROM_HOUR && istHour(at) < CONTACT_UNTIL_HOUR;

// ─── Pauses ─────────────────────────────────────────────────────────────────

export const PAUSE_KINDS = { hardship: "Hardship", dispute: "Dispute" } as const;
export type PauseKind = keyof typeof PAUSE_KINDS;
const reason = z
  .string({ error: "Give the reason." })
  .trim()
  .min(5, "Give the reason in a few words.")
  .max(500, "Keep the reason under 500 characters.");
export const pauseSchema = z.object({
  intent: z.literal("pause_dunning"),
  kind: z.enum(Object.keys(PAUSE_KINDS) as [PauseKind, ...PauseKind[]], { error: "Choose why reminders stop." }),
  reason,
});
export const assignSchema = z.object({
  intent: z.literal("assign_case"),
  assignee: z.uuid({ error: "Choose who works the case." }),
});

// ─── Dunning rules ──────────────────────────────────────────────────────────

export const DUNNING_CHANNELS = ["sms", "push", "email", "letter"] as const;
export type DunningChannel = (typeof DUNNING_CHANNELS)[number];
/** The reminder's words: gentle early on, firmer later, a letter (PDF) at the end. */
export const DUNNING_TONES = ["gentle", "firm", "letter"] as const;
export type DunningTone = (typeof DUNNING_TONES)[number];

export interface DunningStep {
  /** Sent when the case reaches this many days past due. */
  dpd: number;
  channels: DunningChannel[];
  tone: DunningTone;
  /** A call task for the case's staff member. */
  callTask: boolean;
}

export const dunningStepSchema = z.object({
  dpd: z.number().int().min(1, "Days past due start at 1.").max(720, "At most 720 days past due."),
  channels: z.array(z.enum(DUNNING_CHANNELS)).max(4),
  tone: z.enum(DUNNING_TONES),
  callTask: z.boolean(),
});
/** The rules: steps by days past due, each day once; a step with no channel and no call task does nothing and is refused. */
export const dunningRulesSchema = z
  .array(dunningStepSchema)
  .min(1, "Keep at least one step.")
  .max(20, "At most 20 steps.")
  .refine((steps) => new Set(steps.map((s) => s.dpd)).size === steps.length, "Each day past due may have one step only.")
  .refine((steps) => steps.every((s) => s.channels.length > 0 || s.callTask), "Each step sends a message or makes a call task.");

/** The installation's first rules (docs/product.md "Collections"). */
export const DEFAULT_DUNNING_STEPS: DunningStep[] = [
  { dpd: 1, channels: ["sms", "push"], tone: "gentle", callTask: false },
  { dpd: 3, channels: ["sms"], tone: "gentle", callTask: false },
  { dpd: 7, channels: ["email"], tone: "firm", callTask: true },
  { dpd: 15, channels: [], tone: "firm", callTask: true },
  { dpd: 30, channels: ["letter"], tone: "letter", callTask: false },
];

/** The step due for a case at `dpd` days past due: the latest reached and not yet sent (earlier ones missed are skipped, never sent in a burst). */
export function dueStep(steps: readonly DunningStep[], dpd: number, sent: ReadonlySet<number>): DunningStep | null {
  const reached = steps.filter((s) => s.dpd <= dpd).sort((a, b) => b.dpd - a.dpd)[0];
  return reached && !sent.has(reached.dpd) ? reached : null;
}

/** Why nothing is sent to a case today (null: something may be). */
export function dunningHeld(c: {
  paused: boolean;
  debitInProgress: boolean;
  /** An open promise whose date has not passed. */
  promiseOpen: boolean;
  /** The borrower was sent a reminder on the day it would go out. */
  sentThatDay: boolean;
}): "paused" | "debit_in_progress" | "promise_open" | "sent_today" | null {
  if (c.paused) return "paused";
  if (c.debitInProgress) return "debit_in_progress";
  if (c.promiseOpen) return "promise_open";
  if (c.sentThatDay) return "sent_today";
  return null;
}

/** The India day a reminder made at `at` goes out on (made at night, it waits for 08:00). */
export const reminderDay = (goesOutAt: Date): IsoDate => todayIST(goesOutAt);

/** How long a case has been open, in days. */
export const caseAge = (openedOn: IsoDate, today: IsoDate) => daysBetween(openedOn, today);

/** Where a borrower reads how to complain (every reminder names it). */
export const GRIEVANCE_PATH = "/grievance-policy";

/** The notice a step's tone sends, and the channels a step's channels mean (a letter goes by e-mail, with an SMS saying so). */
export const DUNNING_EVENT = { gentle: "dunning_gentle", firm: "dunning_firm", letter: "dunning_letter" } as const;
export function noticeChannels(channels: readonly DunningChannel[]): ("sms" | "email" | "push")[] {
  const out = new Set<"sms" | "email" | "push">();
  for (const c of channels) {
    if (c === "letter") {
      out.add("email");
      out.add("sms");
    } else out.add(c);
  }
  return [...out];
}

/** The queue's filters by the latest promise, and its orders. */
export const PROMISE_FILTERS = ["any", "open", "broken", "kept", "none"] as const;
export type PromiseFilter = (typeof PROMISE_FILTERS)[number];
export const CASE_SORTS = ["dpd", "age", "priority"] as const;
export type CaseSort = (typeof CASE_SORTS)[number];
