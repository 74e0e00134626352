/**
 * The collections desk (docs/product.md "Collections"): cases, promises to pay, contacts, dunning
 * rules and the fair-practice hours, as pure functions and the forms' schemas (one schema for the
 * browser and the server). Every borrower-facing sentence here is whole, to be translated as it stands.
 */
import { z } from "zod";
import { addDays, daysBetween, type IsoDate } from "./loan-math.ts";
import { istHour, longDate, todayIST } from "./india-date.ts";
import { type DateFieldMessages, isoDateField, type RupeesFieldMessages, rupeesField } from "./form-fields.ts";
import { msg } from "../i18n/form-message.ts";
import type { Language } from "../i18n/languages.ts";

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
/** After this many broken promises on a case, a promise no longer holds its reminders. */
export const PROMISES_BROKEN_BEFORE_NO_HOLD = 2;
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
  cancelled: "Replaced, or ended with the case",
};

/** Which dates a promise may take, as its error says it (the payoff quote's words). */
export const promiseDatesText = (today: IsoDate) =>
  `Choose a date from today to ${PROMISE_MAX_DAYS} days ahead (${longDate(today)} to ${longDate(addDays(today, PROMISE_MAX_DAYS))}).`;

/** What a promise's form says of a wrong amount or date. */
interface PromiseMessages {
  amount?: RupeesFieldMessages;
  date?: DateFieldMessages;
  dates: string;
}

/**
 * A promise to pay (staff after a call, in English; the borrower's page uses `borrowerPromiseSchema`):
 * an amount and a date from today to 7 days ahead. `today` is the India date the form is judged on.
 */
export const promiseSchema = (today: IsoDate, messages: PromiseMessages = { dates: promiseDatesText(today) }) =>
  z.object({
    intent: z.literal("promise"),
    amount: rupeesField(messages.amount),
    dueOn: isoDateField("The date", messages.date).refine((v) => v >= today && v <= addDays(today, PROMISE_MAX_DAYS), messages.dates),
  });

/** The dates a borrower's promise may take, as its error says it in the page's language (a message key). */
export const promiseDatesMessage = (today: IsoDate, language: Language) =>
  msg("loanPay.errors.datesAhead", {
    days: String(PROMISE_MAX_DAYS),
    from: longDate(today, language),
    to: longDate(addDays(today, PROMISE_MAX_DAYS), language),
  });

const borrowerPromiseSchemas = new Map<string, ReturnType<typeof promiseSchema>>();

/**
 * The borrower's promise to pay on the loan page: the same rules, its messages as keys said in the
 * page's language. One schema per day and language (the loan page renders it on every request).
 */
export function borrowerPromiseSchema(today: IsoDate, language: Language) {
  const key = `${today}:${language}`;
  let schema = borrowerPromiseSchemas.get(key);
  if (!schema) {
    if (borrowerPromiseSchemas.size >= 8) borrowerPromiseSchemas.clear();
    schema = makeBorrowerPromiseSchema(today, language);
    borrowerPromiseSchemas.set(key, schema);
  }
  return schema;
}

const makeBorrowerPromiseSchema = (today: IsoDate, language: Language) =>
  promiseSchema(today, {
    amount: {
      missing: msg("loanPay.errors.amountMissing"),
      invalid: msg("loanPay.errors.amountRupees"),
      tooLarge: msg("loanPay.errors.amountTooLarge"),
    },
    date: { missing: msg("loanPay.errors.dateMissing"), invalid: msg("loanPay.errors.dateFormat") },
    dates: promiseDatesMessage(today, language),
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
/** How many steps the rules may have. */
export const DUNNING_MAX_STEPS = 20;
/** The rules: steps by days past due, each day once; a step with no channel and no call task does nothing and is refused. */
export const dunningRulesSchema = z
  .array(dunningStepSchema)
  .min(1, "Keep at least one step.")
  .max(DUNNING_MAX_STEPS, `At most ${DUNNING_MAX_STEPS} steps.`)
  .refine((steps) => new Set(steps.map((s) => s.dpd)).size === steps.length, "Each day past due may have one step only.")
  .refine((steps) => steps.every((s) => s.channels.length > 0 || s.callTask), "Each step sends a message or makes a call task.")
  .refine(
    (steps) => steps.every((s) => s.channels.includes("letter") === (s.tone === "letter")),
    "A letter (PDF) goes with the letter tone, and the letter tone only with a letter.",
  );

/** The rows the administrator's form can send: every step possible, and two blank rows to add one. */
export const DUNNING_FORM_ROWS = DUNNING_MAX_STEPS + 2;

/** A channel as the form's checkbox names it, and as a step's sentence says it. */
export const DUNNING_CHANNEL_LABEL: Record<DunningChannel, string> = { sms: "SMS", push: "Push", email: "E-mail", letter: "Letter (PDF)" };
const CHANNEL_WORDS: Record<DunningChannel, string> = { sms: "SMS", push: "push", email: "e-mail", letter: "letter" };
/** A tone as the form's select names it, and as a step's sentence says it. */
export const DUNNING_TONE_LABEL: Record<DunningTone, string> = { gentle: "Gentle", firm: "Firm", letter: "Letter (formal)" };
const TONE_WORDS: Record<DunningTone, string> = { gentle: "gentle", firm: "firm", letter: "formal" };

/** A step in words, for the staff page: "Day 7: e-mail, firm, and a call task". */
export function dunningStepText(step: DunningStep): string {
  const ordered = DUNNING_CHANNELS.filter((c) => step.channels.includes(c));
  const channels = new Intl.ListFormat("en-IN", { type: "conjunction" }).format(ordered.map((c) => CHANNEL_WORDS[c]));
  const tone = TONE_WORDS[step.tone];
  if (ordered.length === 0) return `Day ${step.dpd}: a call task only, no message`;
  if (step.callTask) return `Day ${step.dpd}: ${channels}, ${tone}, and a call task`;
  return `Day ${step.dpd}: ${channels}, ${tone}`;
}

/** Whether two sets of steps are the same rules (whatever the order of the steps and of their channels). */
export function dunningStepsEqual(a: readonly DunningStep[], b: readonly DunningStep[]): boolean {
  const key = (steps: readonly DunningStep[]) =>
    JSON.stringify(
      [...steps]
        .sort((x, y) => x.dpd - y.dpd)
        .map((s) => [s.dpd, DUNNING_CHANNELS.filter((c) => s.channels.includes(c)), s.tone, s.callTask]),
    );
  return key(a) === key(b);
}

/** A checkbox of the form: "on" when ticked, absent when not. */
const ticked = z
  .string()
  .optional()
  .transform((v) => v === "on");
const optionalText = z.string().trim().optional();

/** The form's flat field names of row `i` (dpd0, sms0, …): one step each. */
export const dunningRowFields = (i: number) => ({
  dpd: `dpd${i}` as const,
  sms: `sms${i}` as const,
  push: `push${i}` as const,
  email: `email${i}` as const,
  letter: `letter${i}` as const,
  tone: `tone${i}` as const,
  call: `call${i}` as const,
  remove: `remove${i}` as const,
});
type RowField = ReturnType<typeof dunningRowFields>;
type TextName = RowField["dpd" | "tone"];
type TickName = RowField["sms" | "push" | "email" | "letter" | "call" | "remove"];

const rowShape = {} as Record<TextName, typeof optionalText> & Record<TickName, typeof ticked>;
for (let i = 0; i < DUNNING_FORM_ROWS; i++) {
  const f = dunningRowFields(i);
  rowShape[f.dpd] = optionalText;
  rowShape[f.tone] = optionalText;
  for (const name of [f.sms, f.push, f.email, f.letter, f.call, f.remove]) rowShape[name] = ticked;
}

/** The form's values of `steps` (the rows beyond them blank), for the form's default values. */
export function dunningFormValues(steps: readonly DunningStep[]): Record<string, string> {
  const values: Record<string, string> = { reason: "" };
  steps.forEach((step, i) => {
    const f = dunningRowFields(i);
    values[f.dpd] = String(step.dpd);
    values[f.tone] = step.tone;
    for (const c of DUNNING_CHANNELS) if (step.channels.includes(c)) values[f[c]] = "on";
    if (step.callTask) values[f.call] = "on";
  });
  return values;
}

const rulesReason = z
  .string({ error: "Say why it changes." })
  .trim()
  .min(5, "Say why it changes (at least 5 characters): it is kept with the version.")
  .max(300, "At most 300 characters.");
/** What the form sends: every field text, a ticked checkbox "on". */
export type DunningFormInput = { reason?: string } & Partial<Record<TextName | TickName, string>>;
/**
 * The administrator's form for a new version of the rules: one row per step (dpd0, sms0, push0,
 * email0, letter0, tone0, call0, remove0, …), a row with no day (or ticked "Remove") being no step,
 * and why it changes. Each problem is put on its row's field (the day, or the tone); no step at
 * all, or too many, is the form's. What passes is what dunningRulesSchema accepts.
 */
export const dunningFormSchema: z.ZodType<{ reason: string; steps: DunningStep[] }, DunningFormInput> = z
  .object({ reason: optionalText, ...rowShape })
  .transform((v, ctx) => {
    const values = v as Record<string, string | boolean | undefined>;
    const steps: DunningStep[] = [];
    /** The row each step came from, and the row each day is on. */
    const rowOf: number[] = [];
    const dayRow = new Map<number, number>();
    /** Whether every row is a step as it stands. */
    let ok = true;
    const problem = (path: string, message: string) => {
      ok = false;
      ctx.addIssue({ code: "custom", path: [path], message });
    };
    // Checked with the rows, so that every problem shows at once.
    const why = rulesReason.safeParse(v.reason);
    if (!why.success) for (const issue of why.error.issues) ctx.addIssue({ code: "custom", path: ["reason"], message: issue.message });
    for (let i = 0; i < DUNNING_FORM_ROWS; i++) {
      const f = dunningRowFields(i);
      const day = values[f.dpd];
      if (values[f.remove] === true || typeof day !== "string" || day === "") continue;
      if (!/^\d{1,3}$/.test(day) || Number(day) < 1 || Number(day) > 720) {
        problem(f.dpd, "The day past due must be a whole number from 1 to 720.");
        continue;
      }
      const dpd = Number(day);
      const channels = DUNNING_CHANNELS.filter((c) => values[f[c]] === true);
      const callTask = values[f.call] === true;
      const tone = values[f.tone];
      const earlier = dayRow.get(dpd);
      if (earlier !== undefined) problem(f.dpd, `Step ${earlier + 1} is already on day ${dpd}: each day has one step.`);
      else dayRow.set(dpd, i);
      if (channels.length === 0 && !callTask)
        problem(f.dpd, "This step sends no message and makes no call task: tick a channel or the call task, or remove the step.");
      if (!(DUNNING_TONES as readonly unknown[]).includes(tone)) {
        problem(f.tone, "Choose the tone of the message.");
        continue;
      }
      steps.push({ dpd, channels, tone: tone as DunningTone, callTask });
      rowOf.push(i);
    }
    if (!ok) return z.NEVER;
    // The rules as a whole (at least one step, at most 20, …): the same check as the stored rules.
    const rules = dunningRulesSchema.safeParse(steps);
    if (!rules.success)
      for (const issue of rules.error.issues) {
        const row = typeof issue.path[0] === "number" ? rowOf[issue.path[0]] : undefined;
        ctx.addIssue({ code: "custom", path: row === undefined ? [] : [dunningRowFields(row).dpd], message: issue.message });
      }
    if (!rules.success || !why.success) return z.NEVER;
    return { reason: why.data, steps: [...rules.data].sort((a, b) => a.dpd - b.dpd) };
  });

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
