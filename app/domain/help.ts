// Help and grievances (docs/product.md "Help and grievances"): the questions
// borrowers ask, and the ticket (a complaint or a request) with its reference, status, reopening
// and the escalation to the RBI Integrated Ombudsman. One schema per form, for the browser and
// the server.
import { z } from "zod";
import type { HomeFacts } from "./home.ts";
import { formatRupees } from "./money.ts";
import { istDayNumber, istDayNumberStart, istDayStart, todayIST } from "./india-date.ts";
import { addDays, type IsoDate } from "./loan-math.ts";
import { msg } from "../i18n/form-message.ts";
import enHelp from "../i18n/messages/en/help.ts";

export const TICKET_STATUSES = ["open", "in_progress", "waiting", "resolved", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * How each status reads to the borrower in English (the status lines stored in a ticket's thread; their
 * Help pages say it in the page's language, help.status).
 */
export const TICKET_STATUS_LABEL: Record<TicketStatus, string> = enHelp.status;

/** How each status reads to staff, on every staff page (one word per status). */
export const TICKET_STATUS_STAFF_LABEL: Record<TicketStatus, string> = {
  ...TICKET_STATUS_LABEL,
  waiting: "Waiting for the borrower",
};

/** Statuses a ticket is still being worked in. */
export const OPEN_STATUSES: readonly TicketStatus[] = ["open", "in_progress", "waiting"];

/** The kinds and categories of a ticket, in English (staff pages; the borrower's are said in the page's language, help.kinds and help.categories). */
export const TICKET_KINDS = enHelp.kinds;
export type TicketKind = keyof typeof TICKET_KINDS;

export const TICKET_CATEGORIES = enHelp.categories;
export type TicketCategory = keyof typeof TICKET_CATEGORIES;

/** The source of a ticket: a signed-in borrower's Help page, or the public contact form. */
export type TicketSource = "app" | "contact";

/**
 * A ticket is answered (resolved) within this many days, unless its category has its own
 * (`ANSWER_WITHIN_DAYS`); and a complaint not resolved within them, of whatever category, may go
 * to the RBI Integrated Ombudsman.
 */
export const RESOLVE_WITHIN_DAYS = 30;
/**
 * Categories answered within fewer days than `RESOLVE_WITHIN_DAYS`: a dispute of what we reported
 * to the credit bureaus within 21 (RBI, Credit Information Companies rules).
 */
export const ANSWER_WITHIN_DAYS: Partial<Record<TicketCategory, number>> = { credit_information: 21 };
/** What the borrower is owed for each India day the answer to a credit-information dispute is late: ₹100. */
export const CREDIT_INFORMATION_PAISE_PER_DAY_LATE = 10_000;
/** A resolved ticket may be reopened this many days; after that it is closed. */
export const REOPEN_WITHIN_DAYS = 7;
export const OMBUDSMAN_URL = "https://cms.rbi.org.in";

const DAY_MS = 86_400_000;

/** A ticket's page in the borrower's Help. */
export const helpPath = (reference: string) => `/User/Help/${reference}`;

export type TicketView = "open" | "mine" | "unassigned" | "waiting" | "overdue" | "not_accepted" | "resolved" | "closed";
export const TICKET_VIEWS: Record<TicketView, string> = {
  open: "Open",
  mine: "Mine",
  unassigned: "Not assigned",
  waiting: "Waiting for the borrower",
  overdue: "Past the due date",
  not_accepted: "Answer not accepted",
  resolved: "Resolved",
  closed: "Closed",
};

/** `GRV-` + year + 6 digits (docs/product.md "Help and grievances"): short enough to read out over the phone. */
export function ticketReference(year: number, seq: number): string {
  return `GRV-${year}${String(seq).padStart(6, "0")}`;
}

export const TICKET_REFERENCE = /^GRV-\d{10}$/;

/** A reference as typed or read from a link: spaces, case and a dash after the year forgiven; null when it cannot be one. */
export function parseTicketReference(input: string): string | null {
  const compact = input.toUpperCase().replace(/[\s-]/g, "");
  const m = /^GRV(\d{10})$/.exec(compact);
  return m ? `GRV-${m[1]}` : null;
}

/** Within how many days a ticket of `category` is answered (resolved). */
export const answerWithinDays = (category: TicketCategory): number => ANSWER_WITHIN_DAYS[category] ?? RESOLVE_WITHIN_DAYS;

/**
 * The India date by which a ticket's answer (its resolution) is due: the India day it was raised
 * plus its category's days. Answered any time on that day, it is on time; from the next, late.
 */
export const answerDueBy = (t: { category: TicketCategory; createdAt: Date }): IsoDate =>
  addDays(todayIST(t.createdAt), answerWithinDays(t.category));

/**
 * Tickets answered within `days` and raised before this moment are past their answer's due date
 * at `now` (the SQL that finds late tickets: one cut-off for each number of days).
 */
export const answerLateIfRaisedBefore = (now: Date, days: number) => new Date(istDayNumberStart(istDayNumber(now) - days));

/**
 * How late a ticket's answer is at `now`: whole India days from its due date to its resolution (to
 * today while it is still open), and for a credit-information dispute the compensation the lender
 * owes the borrower, ₹100 (`CREDIT_INFORMATION_PAISE_PER_DAY_LATE`) for each of them.
 */
export function answerLateness(
  t: { category: TicketCategory; status: TicketStatus; createdAt: Date; resolvedAt: Date | null },
  now: Date,
): { daysLate: number; compensationPaise: number } {
  const answeredAt = OPEN_STATUSES.includes(t.status) ? now : (t.resolvedAt ?? now);
  const dueDay = istDayNumber(t.createdAt) + answerWithinDays(t.category);
  const daysLate = Math.max(0, istDayNumber(answeredAt) - dueDay);
  return { daysLate, compensationPaise: t.category === "credit_information" ? daysLate * CREDIT_INFORMATION_PAISE_PER_DAY_LATE : 0 };
}

/** How a late answer reads to staff: "3 days late · ₹300 owed" (the amount where compensation is owed); null when on time. */
export function latenessText({ daysLate, compensationPaise }: { daysLate: number; compensationPaise: number }): string | null {
  if (daysLate <= 0) return null;
  const late = `${daysLate} ${daysLate === 1 ? "day" : "days"} late`;
  return compensationPaise > 0 ? `${late} · ${formatRupees(compensationPaise)} owed` : late;
}

/** From this moment a complaint not resolved may go to the RBI Integrated Ombudsman (30 days, whatever its category). */
export const ombudsmanFrom = (createdAt: Date) => new Date(createdAt.getTime() + RESOLVE_WITHIN_DAYS * DAY_MS);

/** Tickets resolved before this moment can no longer be reopened (housekeeping closes them). */
export const reopenEndedIfResolvedBefore = (now: Date) => new Date(now.getTime() - REOPEN_WITHIN_DAYS * DAY_MS);

/** Until when a ticket resolved at `resolvedAt` may be reopened. */
export const reopenUntil = (resolvedAt: Date) => new Date(resolvedAt.getTime() + REOPEN_WITHIN_DAYS * DAY_MS);

/** Whole days since `from`. */
export const daysSince = (from: Date, now: Date) => Math.max(0, Math.floor((now.getTime() - from.getTime()) / DAY_MS));

/** A ticket as a page shows it at `now`: its words, its age in days, when its answer is due, and whether that is past while it is open. */
export function ticketSummary(
  t: {
    reference: string;
    subject: string;
    kind: TicketKind;
    category: TicketCategory;
    status: TicketStatus;
    createdAt: Date;
    resolvedAt: Date | null;
  },
  now: Date,
) {
  return {
    reference: t.reference,
    subject: t.subject,
    kind: TICKET_KINDS[t.kind],
    category: TICKET_CATEGORIES[t.category],
    status: t.status,
    createdAt: t.createdAt.toISOString(),
    ageDays: daysSince(t.createdAt, now),
    // The due India day, as the instant it starts: shown as its date.
    dueBy: istDayStart(answerDueBy(t)).toISOString(),
    late: OPEN_STATUSES.includes(t.status) && answerLateness(t, now).daysLate > 0,
  };
}

interface TicketFacts {
  kind: TicketKind;
  status: TicketStatus;
  createdAt: Date;
  resolvedAt: Date | null;
  notAcceptedAt: Date | null;
}

/** Whether the borrower may still reopen a resolved ticket. */
export function canReopen(t: Pick<TicketFacts, "status" | "resolvedAt">, now: Date): boolean {
  return t.status === "resolved" && t.resolvedAt !== null && now <= reopenUntil(t.resolvedAt);
}

/**
 * Why a complaint may now go to the RBI Integrated Ombudsman, or null: it is 30 days old and not
 * resolved (or was resolved only after 30 days), or the borrower did not accept the answer.
 */
export function escalation(t: TicketFacts, now: Date): "late" | "not_accepted" | null {
  if (t.notAcceptedAt) return "not_accepted";
  if (t.kind !== "complaint") return null;
  const due = ombudsmanFrom(t.createdAt).getTime();
  const endedAt = t.resolvedAt && !OPEN_STATUSES.includes(t.status) ? t.resolvedAt.getTime() : now.getTime();
  return endedAt > due ? "late" : null;
}

const once = z.uuid({ error: "Reload the page and send it again." });
/** The same for the borrower's forms: their words are message keys, said in the page's language. */
const borrowerOnce = z.uuid({ error: msg("help.errors.reload") });

/** What the borrower writes, at least `min` characters (`missing`: the message when nothing is written). */
const borrowerMessage = (min: number, missing: ReturnType<typeof msg>) =>
  z.string({ error: missing }).trim().min(min, msg("help.errors.messageShort", { min })).max(2000, msg("help.errors.messageLong"));

/** Staff pages (English). */
const message = (min: number, what: string) =>
  z
    .string({ error: `Write ${what}.` })
    .trim()
    .min(min, `Write at least ${min} characters so we can help.`)
    .max(2000, "Keep it under 2,000 characters.");

/** A borrower raises a ticket from Help. `loan` is one of their applications' references, or empty. */
export const raiseTicketSchema = z.object({
  once: borrowerOnce,
  kind: z.enum(Object.keys(TICKET_KINDS) as [TicketKind, ...TicketKind[]], { error: msg("help.errors.kind") }),
  category: z.enum(Object.keys(TICKET_CATEGORIES) as [TicketCategory, ...TicketCategory[]], { error: msg("help.errors.category") }),
  loan: z
    .string()
    .trim()
    .max(40)
    .regex(/^[0-9A-Za-z]*$/, msg("help.errors.loan"))
    .optional(),
  subject: z
    .string({ error: msg("help.errors.subjectMissing") })
    .trim()
    .min(5, msg("help.errors.subjectShort"))
    .max(120, msg("help.errors.subjectLong")),
  message: borrowerMessage(10, msg("help.errors.writeWhat")),
});

/**
 * At the limit of new tickets (too many open at once, or raised today), what the borrower writes
 * is added to one of their open tickets: a complaint is never turned away.
 */
export const addToTicketSchema = z.object({
  intent: z.literal("add"),
  once: borrowerOnce,
  ticket: z
    .string({ error: msg("help.errors.chooseTicket") })
    .trim()
    .regex(TICKET_REFERENCE, msg("help.errors.chooseTicket")),
  message: borrowerMessage(10, msg("help.errors.writeWhat")),
});

/** Why a borrower cannot raise a new ticket now: too many open at once, or too many raised in a day. */
export type TicketLimit = { kind: "open"; limit: number } | { kind: "day"; limit: number; resetAt: Date };

/** The borrower's reply, reopening (with why), or "I do not accept this answer". */
export const borrowerTicketSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reply"), once: borrowerOnce, message: borrowerMessage(2, msg("help.errors.writeReply")) }),
  z.object({ intent: z.literal("reopen"), once: borrowerOnce, message: borrowerMessage(10, msg("help.errors.writeWhy")) }),
  z.object({ intent: z.literal("not_accepted") }),
]);

/** Staff on a ticket: reply (and the status after it), an internal note, assignment, a status change. */
export const staffReplySchema = z.object({
  intent: z.literal("reply"),
  once,
  message: message(2, "the reply"),
  then: z.enum(["in_progress", "waiting", "resolved"], { error: "Choose what the ticket becomes." }),
});
export const staffNoteSchema = z.object({ intent: z.literal("note"), once, message: message(2, "the note") });
export const assignSchema = z.object({ intent: z.literal("assign"), staff: z.uuid({ error: "Choose who takes it." }) });
export const statusSchema = z.object({
  intent: z.literal("status"),
  status: z.enum(TICKET_STATUSES, { error: "Choose a status." }),
});

/** The lines of the text the borrower copies into the RBI's complaint form (help.escalation.lines), each in the page's language. */
export type EscalationLine = "entity" | "reference" | "subject" | "raisedOn" | "answeredOn" | "noAnswerBy";

/** What the borrower copies into the RBI's complaint form: `line` words each line. */
export function escalationText(
  t: {
    reference: string;
    subject: string;
    createdAt: Date;
    resolvedAt: Date | null;
    lenderName: string;
    formatDate: (d: Date) => string;
  },
  line: (key: EscalationLine, values: Record<string, string>) => string,
): string {
  return [
    line("entity", { lender: t.lenderName }),
    line("reference", { reference: t.reference }),
    line("subject", { subject: t.subject }),
    line("raisedOn", { date: t.formatDate(t.createdAt) }),
    t.resolvedAt
      ? line("answeredOn", { date: t.formatDate(t.resolvedAt) })
      : line("noAnswerBy", { date: t.formatDate(ombudsmanFrom(t.createdAt)) }),
  ].join("\n");
}

export interface Faq {
  q: string;
  a: string;
}

export interface FaqSection {
  id: string;
  title: string;
  items: Faq[];
}

/** The questions' sections and each section's questions, by their keys in the help namespace (help.faq.sections). */
const FAQ = {
  applying: ["which", "decision", "change", "rejected"],
  kyc: ["complete", "files", "bank"],
  repayment: ["pay", "early", "notShown"],
  charges: ["what", "penal", "apr"],
  account: ["signedOut", "protect", "change", "otp"],
} as const;

/**
 * Frequently asked questions, in sections (docs/product.md "Help and grievances"), in the words `say`
 * gives for a key of help.faq.sections (the page's language); amounts and charges from the live products.
 */
export function faqSections(f: HomeFacts, say: (key: string, values: Record<string, string | number>) => string): FaqSection[] {
  const rs = formatRupees;
  const values: Record<string, string | number> = {
    emiMin: rs(f.emi.minAmountPaise),
    emiMax: rs(f.emi.maxAmountPaise),
    minMonths: f.emi.minTenureMonths,
    maxMonths: f.emi.maxTenureMonths,
    saMin: rs(f.salaryAdvance.minAmountPaise),
    saMax: rs(f.salaryAdvance.maxAmountPaise),
    cap: f.salaryAdvance.salaryCapPercent,
    days: f.coolingOffDays,
    emiFee: f.emi.feePercent,
    minFee: rs(f.emi.minFeePaise),
    saFee: f.salaryAdvance.feePercent,
    gst: f.gstPercent,
    penal: rs(f.penalChargePaise),
  };
  return Object.entries(FAQ).map(([id, items]) => ({
    id,
    title: say(`${id}.title`, values),
    items: items.map((item) => ({ q: say(`${id}.${item}.q`, values), a: say(`${id}.${item}.a`, values) })),
  }));
}

/** The questions whose words contain every word of `query` (case and accents aside). */
export function searchFaq(sections: FaqSection[], query: string) {
  const words = query
    .toLowerCase()
    .normalize("NFKD")
    // Letters with their marks (a Hindi word's vowel signs are marks) and digits make a word.
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w.length > 1);
  if (!words.length) return sections;
  const matches = (f: Faq) => {
    const text = `${f.q} ${f.a}`.toLowerCase().normalize("NFKD");
    return words.every((w) => text.includes(w));
  };
  return sections.map((s) => ({ ...s, items: s.items.filter(matches) })).filter((s) => s.items.length);
}
