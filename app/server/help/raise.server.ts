// Raising a help ticket (docs/product.md "Help and grievances"): by a signed-in borrower, within
// the limits of open tickets and tickets a day, or through the public contact form, answered by
// e-mail. A ticket and its first message are made once per form key.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import type { AppServices, Client } from "../../context.ts";
import type { contactSchema } from "../../domain/contact.ts";
import { answerWithinDays, helpPath, type raiseTicketSchema, type TicketLimit, ticketReference } from "../../domain/help.ts";
import { todayIST } from "../../domain/india-date.ts";
import type { Db } from "../db/client.ts";
import { loanApplications, ticketCounters, ticketMessages, tickets } from "../db/schema.ts";
import { notify } from "../notifications/notify.server.ts";
import { hitRateLimit, peekRateLimit, rateLimits } from "../rate-limit.server.ts";
import { stillOpen } from "./rows.server.ts";

/** The next reference of the year (India time): one counter row per year, taken under its row lock. */
async function nextReference(tx: Db, at: Date): Promise<string> {
  const year = Number(todayIST(at).slice(0, 4));
  const [row] = await tx
    .insert(ticketCounters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: ticketCounters.year, set: { last: sql`${ticketCounters.last} + 1` } })
    .returning({ last: ticketCounters.last });
  if (!row) throw new Error("no ticket number");
  return ticketReference(year, row.last);
}

/**
 * A ticket and its first message, made once per form key: the same form sent again, or twice at
 * once (the key's lock makes the second wait, then find the first), is the ticket the key made, with
 * no reference number spent. A key someone else's ticket holds is not theirs to reuse: a new ticket
 * without it. Returns the ticket and whether this call made it. `db` is the caller's transaction.
 */
async function insertTicketOnce(
  { db }: Pick<AppServices, "db">,
  {
    once,
    owner,
    at,
    values,
    message,
  }: {
    once: string | null;
    owner: string | null;
    at: Date;
    values: Omit<typeof tickets.$inferInsert, "reference" | "userId" | "onceKey" | "createdAt" | "updatedAt">;
    message: string;
  },
) {
  let key = once;
  if (key) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`ticket:${key}`}))`);
    const [made] = await db
      .select({ id: tickets.id, reference: tickets.reference, userId: tickets.userId })
      .from(tickets)
      .where(eq(tickets.onceKey, key));
    if (made && made.userId === owner) return { id: made.id, reference: made.reference, created: false };
    if (made) key = null;
  }
  const reference = await nextReference(db, at);
  const [t] = await db
    .insert(tickets)
    .values({ ...values, reference, userId: owner, onceKey: key, createdAt: at, updatedAt: at })
    .returning({ id: tickets.id });
  if (!t) throw new Error("no ticket");
  const [m] = await db
    .insert(ticketMessages)
    .values({ ticketId: t.id, author: "borrower", body: message, createdAt: at })
    .returning({ id: ticketMessages.id });
  if (!m) throw new Error("no message");
  return { id: t.id, reference, created: true, messageId: m.id };
}

/** A borrower's open tickets, most recently changed first: what a message may be added to at a limit. */
export function openTicketsOf(services: Pick<AppServices, "db">, userId: string) {
  return services.db
    .select({ reference: tickets.reference, subject: tickets.subject, status: tickets.status })
    .from(tickets)
    .where(and(eq(tickets.userId, userId), stillOpen))
    .orderBy(desc(tickets.updatedAt));
}

export type OpenTicket = Awaited<ReturnType<typeof openTicketsOf>>[number];

/**
 * Whether the borrower is at a limit of new tickets now (as many open as allowed, or as many
 * raised today as allowed while one is open to add to), and their open tickets; counts nothing.
 */
export async function ticketLimitNow(
  services: Pick<AppServices, "db" | "config" | "now">,
  userId: string,
): Promise<{ limit: TicketLimit | null; open: OpenTicket[] }> {
  const open = await openTicketsOf(services, userId);
  const { openTicketsPerBorrower } = services.config.limits;
  if (open.length >= openTicketsPerBorrower) return { limit: { kind: "open", limit: openTicketsPerBorrower }, open };
  const day = rateLimits(services.config).ticket;
  const today = await peekRateLimit(services, { action: "ticket", key: userId, limit: day });
  if (!today.allowed && open.length) return { limit: { kind: "day", limit: day.limit, resetAt: today.resetAt }, open };
  return { limit: null, open };
}

export type RaiseResult =
  | { ok: true; reference: string }
  | { ok: false; reason: "bad_loan" }
  | { ok: false; reason: "at_limit"; limit: TicketLimit; open: OpenTicket[] };

/**
 * A borrower raises a ticket: the reference on screen, in Help and by SMS (the same form twice is
 * one ticket). At most `openTicketsPerBorrower` open at once and `ticket` (rateLimits) a day: at
 * either, while they have an open ticket, the answer is the open tickets to add it to instead
 * (so no new SMS); a borrower with none open is never turned away. One borrower's tickets are
 * raised one at a time (a lock on them), so requests at once cannot pass the limit together.
 */
export async function raiseTicket(
  services: Pick<AppServices, "db" | "config" | "now" | "jobs">,
  { userId, input }: { userId: string; input: z.output<typeof raiseTicketSchema> },
): Promise<RaiseResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`tickets-of:${userId}`}))`);
    // The same form sent again: the ticket it made, whatever the limits say now.
    const [made] = await tx
      .select({ reference: tickets.reference })
      .from(tickets)
      .where(and(eq(tickets.onceKey, input.once), eq(tickets.userId, userId)));
    if (made) return { ok: true, reference: made.reference } as const;
    const open = await openTicketsOf({ db: tx }, userId);
    const { openTicketsPerBorrower } = services.config.limits;
    if (open.length >= openTicketsPerBorrower)
      return { ok: false, reason: "at_limit", limit: { kind: "open", limit: openTicketsPerBorrower }, open } as const;
    const day = rateLimits(services.config).ticket;
    const today = await hitRateLimit({ db: tx, now: services.now }, { action: "ticket", key: userId, limit: day });
    if (!today.allowed && open.length)
      return { ok: false, reason: "at_limit", limit: { kind: "day", limit: day.limit, resetAt: today.resetAt }, open } as const;
    let applicationId: string | null = null;
    if (input.loan) {
      const [a] = await tx
        .select({ id: loanApplications.id })
        .from(loanApplications)
        .where(and(eq(loanApplications.userId, userId), eq(loanApplications.reference, input.loan.toLowerCase())));
      if (!a) return { ok: false, reason: "bad_loan" } as const;
      applicationId = a.id;
    }
    const t = await insertTicketOnce(
      { db: tx },
      {
        once: input.once,
        owner: userId,
        at,
        values: { source: "app", kind: input.kind, category: input.category, applicationId, subject: input.subject },
        message: input.message,
      },
    );
    if (t.created)
      await notify(
        { ...services, db: tx },
        {
          userId,
          event: "ticket_raised",
          key: t.id,
          data: { reference: t.reference, path: helpPath(t.reference), withinDays: answerWithinDays(input.category) },
        },
      );
    return { ok: true, reference: t.reference } as const;
  });
}

/** `emailed`: whether the acknowledgement goes to the address given (null: a form sent again, answered as the first was). */
export type ContactResult =
  { ok: true; reference: string | null; emailed: boolean | null } | { ok: false; reason: "too_many"; resetAt: Date };

/**
 * The public contact form raises a ticket without an account (answered by e-mail), at most
 * CONTACT_LIMIT_PER_HOUR per client address. A filled honeypot field is a bot: it is told the
 * message arrived (with no reference), and nothing is stored.
 */
export async function raiseContactTicket(
  services: Pick<AppServices, "db" | "config" | "now" | "jobs" | "log">,
  { input, client }: { input: z.output<typeof contactSchema>; client: Client },
): Promise<ContactResult> {
  const { website, once, ...message } = input;
  if (website) {
    services.log.info({ ip: client.ip }, "contact form honeypot filled; message dropped");
    return { ok: true, reference: null, emailed: null };
  }
  // A resend of a form already taken is answered with its ticket, without counting against the limit.
  if (once) {
    const [again] = await services.db
      .select({ reference: tickets.reference })
      .from(tickets)
      .where(and(eq(tickets.onceKey, once), isNull(tickets.userId)));
    if (again) return { ok: true, reference: again.reference, emailed: null };
  }
  const limit = await hitRateLimit(services, { action: "contact", key: client.ip, limit: rateLimits(services.config).contact });
  if (!limit.allowed) return { ok: false, reason: "too_many", resetAt: limit.resetAt };
  const at = services.now();
  const { reference, emailed } = await services.db.transaction(async (tx) => {
    const t = await insertTicketOnce(
      { db: tx },
      {
        once: once ?? null,
        owner: null,
        at,
        values: {
          source: "contact",
          kind: "request",
          category: "other",
          subject: "Message from the contact form",
          contactName: message.name,
          contactMobile: message.mobile,
          contactEmail: message.email,
        },
        message: message.message,
      },
    );
    // The acknowledgement goes to the address typed, a few times a day at most: the form must not
    // become a way to fill a stranger's mailbox. The message is taken all the same.
    if (!t.messageId) return { reference: t.reference, emailed: null };
    const mail = await hitRateLimit(
      { db: tx, now: services.now },
      { action: "contact_email", key: message.email.toLowerCase(), limit: rateLimits(services.config).contactEmail },
    );
    if (mail.allowed)
      await services.jobs.send(
        "ticket-email",
        { messageId: t.messageId, ...(client.language ? { language: client.language } : {}) },
        { db: tx },
      );
    return { reference: t.reference, emailed: mail.allowed };
  });
  return { ok: true, reference, emailed };
}
