// Help and grievances (docs/product.md "Help and grievances"): the questions
// borrowers ask, and the ticket (a complaint or a request) with its reference, status, reopening
// and the escalation to the RBI Integrated Ombudsman. One schema per form, for the browser and
// the server.
import { z } from "zod";
import type { HomeFacts } from "./home.ts";
import { formatRupees } from "./money.ts";
import { istDayNumber, istDayNumberStart, istDayStart, todayIST } from "./india-date.ts";
import { addDays, type IsoDate } from "./loan-math.ts";
import { coolingOffRule } from "./loans/cooling-off.ts";

export const TICKET_STATUSES = ["open", "in_progress", "waiting", "resolved", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** How each status reads to the borrower (their Help pages, and the status lines in their ticket's thread). */
export const TICKET_STATUS_LABEL: Record<TicketStatus, string> = {
  open: "Open",
  in_progress: "In progress",
  waiting: "Waiting for you",
  resolved: "Resolved",
  closed: "Closed",
};

/** How each status reads to staff, on every staff page (one word per status). */
export const TICKET_STATUS_STAFF_LABEL: Record<TicketStatus, string> = {
  ...TICKET_STATUS_LABEL,
  waiting: "Waiting for the borrower",
};

/** Statuses a ticket is still being worked in. */
export const OPEN_STATUSES: readonly TicketStatus[] = ["open", "in_progress", "waiting"];

export const TICKET_KINDS = { complaint: "A complaint", request: "A question or request" } as const;
export type TicketKind = keyof typeof TICKET_KINDS;

export const TICKET_CATEGORIES = {
  applying: "Applying for a loan",
  kyc: "KYC and documents",
  repayment: "Repayments and payments",
  charges: "Interest and charges",
  recovery: "Recovery calls or visits",
  data: "My account and data",
  credit_information: "My credit report (credit bureau information)",
  other: "Something else",
} as const;
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

const message = (min: number, what: string) =>
  z
    .string({ error: `Write ${what}.` })
    .trim()
    .min(min, `Write at least ${min} characters so we can help.`)
    .max(2000, "Keep it under 2,000 characters.");

/** A borrower raises a ticket from Help. `loan` is one of their applications' references, or empty. */
export const raiseTicketSchema = z.object({
  once,
  kind: z.enum(Object.keys(TICKET_KINDS) as [TicketKind, ...TicketKind[]], { error: "Choose a complaint or a question." }),
  category: z.enum(Object.keys(TICKET_CATEGORIES) as [TicketCategory, ...TicketCategory[]], { error: "Choose what it is about." }),
  loan: z
    .string()
    .trim()
    .max(40)
    .regex(/^[0-9A-Za-z]*$/, "Choose a loan from the list.")
    .optional(),
  subject: z
    .string({ error: "Give it a short title." })
    .trim()
    .min(5, "Give it a short title (at least 5 characters).")
    .max(120, "Keep the title under 120 characters."),
  message: message(10, "what happened or what you need"),
});

/**
 * At the limit of new tickets (too many open at once, or raised today), what the borrower writes
 * is added to one of their open tickets: a complaint is never turned away.
 */
export const addToTicketSchema = z.object({
  intent: z.literal("add"),
  once,
  ticket: z.string({ error: "Choose the ticket to add it to." }).trim().regex(TICKET_REFERENCE, "Choose the ticket to add it to."),
  message: message(10, "what happened or what you need"),
});

/** Said under the categories on the new-ticket form. */
export const CREDIT_INFORMATION_NOTE = `If what we reported about you to a credit bureau (such as CIBIL) is wrong, choose “${TICKET_CATEGORIES.credit_information}”: we answer it within ${answerWithinDays("credit_information")} days.`;

/** Why a borrower cannot raise a new ticket now: too many open at once, or too many raised in a day. */
export type TicketLimit = { kind: "open"; limit: number } | { kind: "day"; limit: number; resetAt: Date };

/** What the new-ticket page says, whole, at a limit (`when`: the time a new one may be raised, as shown). */
export const TICKET_LIMIT_TEXT = {
  open: (limit: number) =>
    `You already have ${limit} tickets open with us, which is as many as one account can have at once. We never turn a complaint away: add what you want to tell us to one of them below, and we will read it there just as we would a new ticket.`,
  day: (limit: number, when: string) =>
    `You have raised ${limit} tickets in a day, which is as many as one account can raise; you can raise a new one after ${when}. We never turn a complaint away: add what you want to tell us to one of your open tickets below, and we will read it there just as we would a new ticket.`,
  added: (reference: string) => `Added to ticket ${reference}`,
  addedDescription: "We read it there as we would a new ticket. Nothing else is sent to your mobile.",
  notOpen: "That ticket is no longer open. Choose one of your open tickets.",
} as const;

/** The borrower's reply, reopening (with why), or "I do not accept this answer". */
export const borrowerTicketSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reply"), once, message: message(2, "your reply") }),
  z.object({ intent: z.literal("reopen"), once, message: message(10, "why it is not solved") }),
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

/** What the borrower copies into the RBI's complaint form. */
export function escalationText(t: {
  reference: string;
  subject: string;
  createdAt: Date;
  resolvedAt: Date | null;
  lenderName: string;
  formatDate: (d: Date) => string;
}): string {
  return [
    `Regulated entity: ${t.lenderName}`,
    `Complaint reference: ${t.reference}`,
    `Subject: ${t.subject}`,
    `Complaint raised on: ${t.formatDate(t.createdAt)}`,
    t.resolvedAt ? `Answer given on: ${t.formatDate(t.resolvedAt)}` : `No final answer by: ${t.formatDate(ombudsmanFrom(t.createdAt))}`,
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

/** Frequently asked questions, in sections (docs/product.md "Help and grievances"); amounts and charges from the live products. */
export function faqSections(f: HomeFacts): FaqSection[] {
  const rs = formatRupees;
  return [
    {
      id: "applying",
      title: "Applying",
      items: [
        {
          q: "Which loans can I apply for?",
          a: `An EMI loan of ${rs(f.emi.minAmountPaise)} to ${rs(f.emi.maxAmountPaise)} repaid in ${f.emi.minTenureMonths} to ${f.emi.maxTenureMonths} monthly instalments, or a salary advance of ${rs(f.salaryAdvance.minAmountPaise)} to ${rs(f.salaryAdvance.maxAmountPaise)} (at most ${f.salaryAdvance.salaryCapPercent}% of your net monthly salary) repaid in one payment on your next salary date.`,
        },
        {
          q: "How long does a decision take?",
          a: "A credit officer reviews a signed application within one working day. If they need something more, you get an SMS and a notice, and the question is on your dashboard.",
        },
        {
          q: "Can I change or cancel an application?",
          a: `Before you sign, you can change any step or cancel it from your dashboard. After the money reaches you: ${coolingOffRule(f.coolingOffDays)}`,
        },
        {
          q: "Why was my application not approved?",
          a: "The reason, in plain words, and the date from which you may apply again are on the application's status page.",
        },
      ],
    },
    {
      id: "kyc",
      title: "KYC and documents",
      items: [
        {
          q: "What do I need to complete my profile?",
          a: "Seven sections: your profile (name, date of birth, PAN and Aadhaar), address, employment, bank account, two references, documents and a selfie. Your profile page shows what is still missing.",
        },
        {
          q: "Which files can I upload?",
          a: "Photos (JPG or PNG) or PDF files up to the size shown beside each document. A photo taken with your phone's camera is fine if every word is readable.",
        },
        {
          q: "Why do you need my bank account?",
          a: "The loan is sent only to a bank account in your own name, and it is where we take repayments from if you set up automatic payment.",
        },
      ],
    },
    {
      id: "repayment",
      title: "Repayment",
      items: [
        {
          q: "How do I pay an instalment?",
          a: "Open the loan under Loans and choose Pay now. You can pay the amount due, the overdue amount, the full payoff amount or any amount in between.",
        },
        {
          q: "Can I repay my loan early?",
          a: "Yes, at any time and with no charge. The loan page shows the payoff amount for the date you choose; for a salary advance you pay interest only for the days used.",
        },
        {
          q: "I paid but the app does not show it.",
          a: "Most payments show within minutes. If your bank took the money but the loan page does not show it after a working day, raise a ticket with the bank's reference; we will trace it.",
        },
      ],
    },
    {
      id: "charges",
      title: "Charges",
      items: [
        {
          q: "What are the charges?",
          a: `Interest, a processing fee (${f.emi.feePercent}% of an EMI loan, at least ${rs(f.emi.minFeePaise)}; ${f.salaryAdvance.feePercent}% of a salary advance) with ${f.gstPercent}% GST taken from the amount sent to you, and a flat penal charge if an instalment is missed. Every charge and the annual percentage rate (APR) is in your Key Fact Statement before you sign. There is no charge that is not in it.`,
        },
        {
          q: "What is a penal charge?",
          a: `A flat ${rs(f.penalChargePaise)} for each missed instalment (less if less was unpaid). It is shown as its own line, never earns interest and is never added to your principal.`,
        },
        {
          q: "Why is the APR higher than the interest rate?",
          a: "The APR counts the processing fee as well as the interest, over the time you have the money, so it shows the full yearly cost of the loan.",
        },
      ],
    },
    {
      id: "account",
      title: "Account and data",
      items: [
        {
          q: "Why was I signed out with “Someone else logged in!”?",
          a: "Your account can be open on one device at a time. Signing in on another phone or browser ends the older session. If it was not you, sign in again and raise a ticket.",
        },
        {
          q: "How do you protect my data?",
          a: "Your documents and identity numbers are encrypted where they are stored, only the staff who review your application can see them, every look is recorded, and we never share them except as the law requires or you agree.",
        },
        {
          q: "How do I change my mobile number or e-mail?",
          a: "Your e-mail is in the Profile section of your KYC profile. Your mobile number is how you sign in: raise a ticket and we will change it after checking it is you.",
        },
        {
          q: "Will you ever ask for my OTP?",
          a: "Never. Our staff will not ask for a one-time code, PIN or password by phone, SMS or e-mail. Do not share them with anyone.",
        },
      ],
    },
  ];
}

/** The questions whose words contain every word of `query` (case and accents aside). */
export function searchFaq(sections: FaqSection[], query: string) {
  const words = query
    .toLowerCase()
    .normalize("NFKD")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);
  if (!words.length) return sections;
  const matches = (f: Faq) => {
    const text = `${f.q} ${f.a}`.toLowerCase().normalize("NFKD");
    return words.every((w) => text.includes(w));
  };
  return sections.map((s) => ({ ...s, items: s.items.filter(matches) })).filter((s) => s.items.length);
}
