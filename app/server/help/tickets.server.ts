// Help tickets (docs/product.md "Help and grievances"): raised by a signed-in borrower or through the
// public contact form, answered by support staff, reopened within 7 days of resolution. Every query
// of a borrower's ticket names its owner; every staff action is audited.
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { AppServices, Client } from "../../context.ts";
import type { contactSchema } from "../../domain/contact.ts";
import {
  canReopen,
  helpPath,
  lateIfRaisedBefore,
  reopenEndedIfResolvedBefore,
  OPEN_STATUSES,
  type TicketLimit,
  type TicketView,
  type raiseTicketSchema,
  RESOLVE_WITHIN_DAYS,
  TICKET_STATUS_LABEL,
  TICKET_STATUS_STAFF_LABEL,
  type TicketStatus,
  ticketReference,
} from "../../domain/help.ts";
import { loanName } from "../../domain/loans/application.ts";
import { rolesWith, type StaffRole } from "../../domain/roles.ts";
import { todayIST } from "../../domain/india-date.ts";
import { audit } from "../audit.server.ts";
import type { Db } from "../db/client.ts";
import { borrowerProfiles, loanApplications, ticketCounters, ticketMessages, tickets, users } from "../db/schema.ts";
import { messageLink } from "../../../server/config.ts";
import { notify } from "../notifications/notify.server.ts";
import { hitRateLimit, peekRateLimit, rateLimits } from "../rate-limit.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs" | "log">;

const stillOpen = inArray(tickets.status, [...OPEN_STATUSES]);

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

/** The borrower's loans and applications a ticket may concern (newest first): value, and how a person names it. */
export async function ticketLoanChoices(services: Pick<AppServices, "db">, userId: string) {
  const rows = await services.db
    .select({ reference: loanApplications.reference, loanNumber: loanApplications.loanNumber, kind: loanApplications.product })
    .from(loanApplications)
    .where(and(eq(loanApplications.userId, userId), sql`${loanApplications.status} <> 'draft'`))
    .orderBy(desc(loanApplications.createdAt))
    .limit(50);
  return rows.map((r) => ({ value: r.reference, label: loanName(r) }));
}

/**
 * A ticket and its first message, made once per form key: the same form sent again, or twice at
 * once (the key's lock makes the second wait, then find the first), is the ticket the key made, with
 * no reference number spent. A key someone else's ticket holds is not theirs to reuse: a new ticket
 * without it. Returns the ticket and whether this call made it.
 */
async function insertTicketOnce(
  tx: Db,
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
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`ticket:${key}`}))`);
    const [made] = await tx
      .select({ id: tickets.id, reference: tickets.reference, userId: tickets.userId })
      .from(tickets)
      .where(eq(tickets.onceKey, key));
    if (made && made.userId === owner) return { id: made.id, reference: made.reference, created: false };
    if (made) key = null;
  }
  const reference = await nextReference(tx, at);
  const [t] = await tx
    .insert(tickets)
    .values({ ...values, reference, userId: owner, onceKey: key, createdAt: at, updatedAt: at })
    .returning({ id: tickets.id });
  if (!t) throw new Error("no ticket");
  const [m] = await tx
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
  services: Services,
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
    const t = await insertTicketOnce(tx, {
      once: input.once,
      owner: userId,
      at,
      values: { source: "app", kind: input.kind, category: input.category, applicationId, subject: input.subject },
      message: input.message,
    });
    if (t.created)
      await notify(
        { ...services, db: tx },
        {
          userId,
          event: "ticket_raised",
          key: t.id,
          data: { reference: t.reference, path: helpPath(t.reference) },
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
  services: Services,
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
    const t = await insertTicketOnce(tx, {
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
    });
    // The acknowledgement goes to the address typed, a few times a day at most: the form must not
    // become a way to fill a stranger's mailbox. The message is taken all the same.
    if (!t.messageId) return { reference: t.reference, emailed: null };
    const mail = await hitRateLimit(
      { db: tx, now: services.now },
      { action: "contact_email", key: message.email.toLowerCase(), limit: rateLimits(services.config).contactEmail },
    );
    if (mail.allowed) await services.jobs.send("ticket-email", { messageId: t.messageId }, { db: tx });
    return { reference: t.reference, emailed: mail.allowed };
  });
  return { ok: true, reference, emailed };
}

/** The `ticket-email` job: a contact-form ticket's acknowledgement or a staff reply, e-mailed once. */
export async function sendTicketEmail(services: Pick<AppServices, "db" | "config" | "now" | "email">, messageId: string) {
  const [row] = await services.db
    .select({ message: ticketMessages, ticket: tickets })
    .from(ticketMessages)
    .innerJoin(tickets, eq(tickets.id, ticketMessages.ticketId))
    .where(eq(ticketMessages.id, messageId));
  const to = row?.ticket.contactEmail;
  if (!row || !to || row.message.emailedAt || row.message.internal) return;
  const { message, ticket } = row;
  const { config } = services;
  const brand = config.public.brandName;
  const officer = config.public.lender.grievanceOfficer;
  const acknowledgement = message.author === "borrower";
  const text = [
    `Dear ${ticket.contactName ?? "customer"},`,
    "",
    acknowledgement
      ? `We have your message. Its reference is ${ticket.reference}: quote it if you write or call us. We reply within two working days, and in any case within ${RESOLVE_WITHIN_DAYS} days.`
      : message.author === "system"
        ? `An update on your message ${ticket.reference}:`
        : `Our reply to your message ${ticket.reference}:`,
    "",
    // The acknowledgement never repeats what was typed: the form must not send a stranger's words under our name.
    ...(acknowledgement ? [] : [message.body, ""]),
    `To write to us again, use the contact form at ${messageLink(config, "/Contact-us")} and quote ${ticket.reference}.`,
    "",
    `${brand}, a service of ${config.public.lender.name}.`,
    `Grievance officer: ${officer.name}, ${officer.phone}, ${officer.email}.`,
    "We never ask for your OTP or PIN.",
  ].join("\n");
  await services.email.send({
    to,
    subject: acknowledgement ? `${brand}: we have your message ${ticket.reference}` : `${brand}: reply to your message ${ticket.reference}`,
    text,
    attachments: [],
    headers: { "X-Ticket-Reference": ticket.reference },
  });
  await services.db.update(ticketMessages).set({ emailedAt: services.now() }).where(eq(ticketMessages.id, message.id));
}

const ticketColumns = {
  id: tickets.id,
  reference: tickets.reference,
  kind: tickets.kind,
  category: tickets.category,
  subject: tickets.subject,
  status: tickets.status,
  createdAt: tickets.createdAt,
  updatedAt: tickets.updatedAt,
  resolvedAt: tickets.resolvedAt,
  notAcceptedAt: tickets.notAcceptedAt,
};

/** A borrower's own tickets, most recently changed first. */
export function borrowerTickets(services: Pick<AppServices, "db">, userId: string) {
  return services.db.select(ticketColumns).from(tickets).where(eq(tickets.userId, userId)).orderBy(desc(tickets.updatedAt)).limit(100);
}

/** One of the borrower's tickets with what was said on it (never the internal notes), or null when it is not theirs. */
export async function borrowerTicket(services: Pick<AppServices, "db">, userId: string, reference: string) {
  const [t] = await services.db
    .select({
      ...ticketColumns,
      loanNumber: loanApplications.loanNumber,
      applicationRef: loanApplications.reference,
      loanKind: loanApplications.product,
    })
    .from(tickets)
    .leftJoin(loanApplications, eq(loanApplications.id, tickets.applicationId))
    .where(and(eq(tickets.reference, reference), eq(tickets.userId, userId)));
  if (!t) return null;
  const messages = await services.db
    .select({ id: ticketMessages.id, author: ticketMessages.author, body: ticketMessages.body, createdAt: ticketMessages.createdAt })
    .from(ticketMessages)
    .where(and(eq(ticketMessages.ticketId, t.id), eq(ticketMessages.internal, false)))
    .orderBy(asc(ticketMessages.createdAt));
  return { ticket: t, messages };
}

export type TicketResult =
  { ok: true; message: string } | { ok: false; reason: "not_found" | "closed" | "resolved" | "not_resolved" | "too_late" | "bad_staff" };

async function lockTicket(tx: Db, where: ReturnType<typeof and>) {
  const [t] = await tx.select().from(tickets).where(where).for("update");
  return t ?? null;
}

/** The status after someone writes on a ticket waiting for them: back with support (assigned or not). */
const backWithSupport = (t: { assignedTo: string | null }): TicketStatus => (t.assignedTo ? "in_progress" : "open");

/** The borrower replies, reopens a resolved ticket (within 7 days), or does not accept the answer. */
export async function borrowerActs(
  services: Services,
  {
    userId,
    reference,
    act,
  }: {
    userId: string;
    reference: string;
    act: { intent: "reply" | "reopen"; once: string; message: string } | { intent: "not_accepted" };
  },
): Promise<TicketResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const t = await lockTicket(tx, and(eq(tickets.reference, reference), eq(tickets.userId, userId)));
    if (!t) return { ok: false, reason: "not_found" } as const;
    if (act.intent === "not_accepted") {
      if (t.status !== "resolved" && t.status !== "closed") return { ok: false, reason: "not_resolved" } as const;
      if (!t.notAcceptedAt) {
        await tx.update(tickets).set({ notAcceptedAt: at, updatedAt: at }).where(eq(tickets.id, t.id));
        await tx
          .insert(ticketMessages)
          .values({ ticketId: t.id, author: "system", body: "You said you do not accept this answer.", createdAt: at });
      }
      return { ok: true, message: "Noted. Below is how to take it to the RBI Ombudsman." } as const;
    }
    const [again] = await tx
      .select({ id: ticketMessages.id })
      .from(ticketMessages)
      .where(and(eq(ticketMessages.onceKey, act.once), eq(ticketMessages.ticketId, t.id)));
    // The same form sent twice (a double tap, a retry after a lost answer): the first did it.
    if (again)
      return { ok: true, message: act.intent === "reopen" ? `Ticket ${t.reference} is open again.` : "Your reply is sent." } as const;
    if (t.status === "closed") return { ok: false, reason: "closed" } as const;
    if (act.intent === "reopen" && !canReopen(t, at))
      return { ok: false, reason: t.status === "resolved" ? "too_late" : "not_resolved" } as const;
    if (act.intent === "reply" && t.status === "resolved") return { ok: false, reason: "resolved" } as const;
    await tx.insert(ticketMessages).values({ ticketId: t.id, author: "borrower", body: act.message, onceKey: act.once, createdAt: at });
    if (act.intent === "reopen") {
      await tx
        .update(tickets)
        .set({ status: backWithSupport(t), resolvedAt: null, notAcceptedAt: null, reopenedCount: t.reopenedCount + 1, updatedAt: at })
        .where(eq(tickets.id, t.id));
      return { ok: true, message: `Ticket ${t.reference} is open again.` } as const;
    }
    const status = t.status === "waiting" ? backWithSupport(t) : t.status;
    await tx.update(tickets).set({ status, updatedAt: at }).where(eq(tickets.id, t.id));
    return { ok: true, message: "Your reply is sent." } as const;
  });
}

// ——— Staff ———

const PAGE = 30;

/** The support queue: oldest first while open, newest first once resolved; with age and the 30-day due date. */
export async function ticketQueue(
  services: Pick<AppServices, "db" | "now">,
  { view, staffId, page }: { view: TicketView; staffId: string; page: number },
) {
  const overdueBefore = lateIfRaisedBefore(services.now());
  const where = {
    open: stillOpen,
    mine: and(stillOpen, eq(tickets.assignedTo, staffId)),
    unassigned: and(stillOpen, isNull(tickets.assignedTo)),
    waiting: eq(tickets.status, "waiting"),
    overdue: and(stillOpen, lt(tickets.createdAt, overdueBefore)),
    not_accepted: isNotNull(tickets.notAcceptedAt),
    resolved: eq(tickets.status, "resolved"),
    closed: eq(tickets.status, "closed"),
  }[view];
  const assignee = sql<string | null>`(select coalesce(s.name, s.email) from users s where s.id = ${tickets.assignedTo})`;
  const rows = await services.db
    .select({
      ...ticketColumns,
      source: tickets.source,
      assignee,
      name: sql<string | null>`coalesce(${borrowerProfiles.fullName}, ${tickets.contactName})`,
      mobile: sql<string | null>`coalesce(${users.mobile}, ${tickets.contactMobile})`,
    })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, tickets.userId))
    .where(where)
    .orderBy(view === "resolved" || view === "closed" ? desc(tickets.updatedAt) : asc(tickets.createdAt))
    .limit(PAGE + 1)
    .offset((page - 1) * PAGE);
  return { rows: rows.slice(0, PAGE), more: rows.length > PAGE };
}

/** The staff home's counts: tickets open, not assigned, past the 30 days, and answers the borrower did not accept. */
export async function ticketCounts(services: Pick<AppServices, "db" | "now">) {
  const overdueBefore = lateIfRaisedBefore(services.now());
  const [row] = await services.db
    .select({
      open: sql<number>`count(*) filter (where ${stillOpen})`.mapWith(Number),
      unassigned: sql<number>`count(*) filter (where ${stillOpen} and ${tickets.assignedTo} is null)`.mapWith(Number),
      overdue: sql<number>`count(*) filter (where ${stillOpen} and ${tickets.createdAt} < ${overdueBefore})`.mapWith(Number),
      notAccepted: sql<number>`count(*) filter (where ${tickets.notAcceptedAt} is not null)`.mapWith(Number),
    })
    .from(tickets)
    .where(or(stillOpen, isNotNull(tickets.notAcceptedAt)));
  return { open: row?.open ?? 0, unassigned: row?.unassigned ?? 0, overdue: row?.overdue ?? 0, notAccepted: row?.notAccepted ?? 0 };
}

/** Staff who may be given tickets (support and administrators, not disabled). */
export function ticketStaff(services: Pick<AppServices, "db">) {
  return services.db
    .select({ id: users.id, name: sql<string>`coalesce(${users.name}, ${users.email})` })
    .from(users)
    .where(and(inArray(users.role, [...rolesWith("tickets.manage")]), isNull(users.disabledAt)))
    .orderBy(asc(users.name));
}

/** A ticket for staff: everything said on it (internal notes too, with who wrote them), who raised it, the loan. */
export async function staffTicket(services: Pick<AppServices, "db">, reference: string) {
  const [t] = await services.db
    .select({
      ticket: tickets,
      name: borrowerProfiles.fullName,
      mobile: users.mobile,
      email: borrowerProfiles.email,
      loanNumber: loanApplications.loanNumber,
      applicationRef: loanApplications.reference,
      kindOfLoan: loanApplications.product,
    })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(borrowerProfiles, eq(borrowerProfiles.userId, tickets.userId))
    .leftJoin(loanApplications, eq(loanApplications.id, tickets.applicationId))
    .where(eq(tickets.reference, reference));
  if (!t) return null;
  const messages = await services.db
    .select({
      id: ticketMessages.id,
      author: ticketMessages.author,
      internal: ticketMessages.internal,
      body: ticketMessages.body,
      createdAt: ticketMessages.createdAt,
      emailedAt: ticketMessages.emailedAt,
      staffName: sql<string | null>`coalesce(${users.name}, ${users.email})`,
    })
    .from(ticketMessages)
    .leftJoin(users, eq(users.id, ticketMessages.staffUserId))
    .where(eq(ticketMessages.ticketId, t.ticket.id))
    .orderBy(asc(ticketMessages.createdAt));
  return { ...t, messages };
}

type StaffAct =
  | { intent: "reply"; once: string; message: string; then: "in_progress" | "waiting" | "resolved" }
  | { intent: "note"; once: string; message: string }
  | { intent: "assign"; staff: string }
  | { intent: "status"; status: TicketStatus };

/** Support acts on a ticket: a reply (the borrower is told), an internal note, assignment, a status change; each audited. */
export async function staffActs(
  services: Services,
  { staff, client, reference, act }: { staff: { id: string; role: StaffRole }; client: Client; reference: string; act: StaffAct },
): Promise<TicketResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const t = await lockTicket(tx, and(eq(tickets.reference, reference)));
    if (!t) return { ok: false, reason: "not_found" } as const;
    const ticket = { type: "ticket", id: t.reference };
    const statusChange = (status: TicketStatus) => ({
      status,
      resolvedAt: status === "resolved" ? at : status === "closed" ? (t.resolvedAt ?? at) : null,
      closedAt: status === "closed" ? at : null,
      // A new answer is a new chance to accept it.
      ...(status === "resolved" ? { notAcceptedAt: null } : {}),
    });
    switch (act.intent) {
      case "reply":
      case "note": {
        if (act.intent === "reply" && t.status === "closed") return { ok: false, reason: "closed" } as const;
        // The same form sent again (the ticket's row lock makes a second one at once wait for the first).
        const [again] = await tx
          .select({ ticketId: ticketMessages.ticketId })
          .from(ticketMessages)
          .where(eq(ticketMessages.onceKey, act.once));
        if (again?.ticketId === t.id) return { ok: true, message: "Already saved." } as const;
        const [m] = await tx
          .insert(ticketMessages)
          .values({
            ticketId: t.id,
            author: "staff",
            staffUserId: staff.id,
            internal: act.intent === "note",
            body: act.message,
            // A key another ticket's message holds (a page kept open too long) is not this one's.
            onceKey: again ? null : act.once,
            createdAt: at,
          })
          .returning({ id: ticketMessages.id });
        if (!m) throw new Error("no message");
        if (act.intent === "note") {
          await tx.update(tickets).set({ updatedAt: at }).where(eq(tickets.id, t.id));
          await audit({ db: tx }, { by: staff, client, at, action: "ticket.note", subject: ticket, details: { messageId: m.id } });
          return { ok: true, message: "Note saved (the borrower does not see it)." } as const;
        }
        await tx
          .update(tickets)
          .set({ ...statusChange(act.then), assignedTo: t.assignedTo ?? staff.id, updatedAt: at })
          .where(eq(tickets.id, t.id));
        if (t.userId)
          await notify(
            { ...services, db: tx },
            {
              userId: t.userId,
              event: "ticket_answered",
              key: m.id,
              data: { reference: t.reference, path: helpPath(t.reference), resolved: act.then === "resolved" },
            },
          );
        else await services.jobs.send("ticket-email", { messageId: m.id }, { db: tx });
        await audit(
          { db: tx },
          {
            by: staff,
            client,
            at,
            action: "ticket.reply",
            subject: ticket,
            details: {
              messageId: m.id,
              status: act.then,
              from: t.status,
              ...(t.assignedTo ? {} : { assignedTo: staff.id, assignedFrom: null }),
            },
          },
        );
        return {
          ok: true,
          message: t.userId ? "Reply sent. The borrower is told by SMS, e-mail and in the app." : "Reply sent by e-mail.",
        } as const;
      }
      case "assign": {
        const [who] = await tx
          .select({ id: users.id, name: sql<string>`coalesce(${users.name}, ${users.email})` })
          .from(users)
          .where(and(eq(users.id, act.staff), inArray(users.role, [...rolesWith("tickets.manage")]), isNull(users.disabledAt)));
        if (!who) return { ok: false, reason: "bad_staff" } as const;
        await tx
          .update(tickets)
          .set({ assignedTo: who.id, status: t.status === "open" ? "in_progress" : t.status, updatedAt: at })
          .where(eq(tickets.id, t.id));
        await tx.insert(ticketMessages).values({
          ticketId: t.id,
          author: "system",
          internal: true,
          staffUserId: staff.id,
          body: `Assigned to ${who.name}.`,
          createdAt: at,
        });
        await audit(
          { db: tx },
          { by: staff, client, at, action: "ticket.assign", subject: ticket, details: { to: who.id, from: t.assignedTo } },
        );
        return { ok: true, message: `Assigned to ${who.name}.` } as const;
      }
      case "status": {
        if (act.status === t.status) return { ok: true, message: "No change." } as const;
        await tx
          .update(tickets)
          .set({ ...statusChange(act.status), updatedAt: at })
          .where(eq(tickets.id, t.id));
        const [m] = await tx
          .insert(ticketMessages)
          .values({
            ticketId: t.id,
            author: "system",
            staffUserId: staff.id,
            body: `Status changed from ${TICKET_STATUS_LABEL[t.status]} to ${TICKET_STATUS_LABEL[act.status]}.`,
            createdAt: at,
          })
          .returning({ id: ticketMessages.id });
        // Resolved without a reply: the borrower is told all the same (and may reopen it within 7 days).
        if (m && act.status === "resolved") {
          if (t.userId)
            await notify(
              { ...services, db: tx },
              {
                userId: t.userId,
                event: "ticket_answered",
                key: m.id,
                data: { reference: t.reference, path: helpPath(t.reference), resolved: true },
              },
            );
          else await services.jobs.send("ticket-email", { messageId: m.id }, { db: tx });
        }
        await audit(
          { db: tx },
          { by: staff, client, at, action: "ticket.status", subject: ticket, details: { from: t.status, to: act.status } },
        );
        return { ok: true, message: `Now ${TICKET_STATUS_STAFF_LABEL[act.status]}.` } as const;
      }
    }
  });
}

/** Housekeeping: resolved tickets not reopened within 7 days are closed. */
export async function closeResolvedTickets({ db, now }: Pick<AppServices, "db" | "now">) {
  const at = now();
  const closed = await db
    .update(tickets)
    .set({ status: "closed", closedAt: at, updatedAt: at })
    .where(and(eq(tickets.status, "resolved"), lt(tickets.resolvedAt, reopenEndedIfResolvedBefore(at))))
    .returning({ id: tickets.id });
  return closed.length;
}
