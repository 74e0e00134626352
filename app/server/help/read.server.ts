// The read models of help tickets (docs/product.md "Help and grievances"): what the borrower's
// Help pages and the staff's queue and ticket page show. A borrower's reads carry their id and
// never show support's internal notes.
import { and, asc, desc, eq, isNotNull, isNull, lt, notInArray, or, type SQL, sql } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import {
  ANSWER_WITHIN_DAYS,
  answerLateIfRaisedBefore,
  RESOLVE_WITHIN_DAYS,
  type TicketCategory,
  type TicketView,
} from "../../domain/help.ts";
import { shortReference } from "../../domain/loans/application.ts";
import { borrowerProfiles, loanApplications, ticketMessages, tickets, users } from "../db/schema.ts";
import { stillOpen, takesTickets, ticketColumns } from "./rows.server.ts";

// ——— The borrower ———

/** The borrower's loans and applications a ticket may concern (newest first): value, and how a person names it. */
export async function ticketLoanChoices(services: Pick<AppServices, "db">, userId: string) {
  const rows = await services.db
    .select({ reference: loanApplications.reference, loanNumber: loanApplications.loanNumber, kind: loanApplications.product })
    .from(loanApplications)
    .where(and(eq(loanApplications.userId, userId), sql`${loanApplications.status} <> 'draft'`))
    .orderBy(desc(loanApplications.createdAt))
    .limit(50);
  // Named on the page, in its language (help.loanName): its kind, and its number or the application's short reference.
  return rows.map((r) => ({ value: r.reference, kind: r.kind, number: r.loanNumber ?? "none", reference: shortReference(r.reference) }));
}

/** A borrower's own tickets, most recently changed first. */
export function borrowerTickets(services: Pick<AppServices, "db">, userId: string) {
  return services.db.select(ticketColumns).from(tickets).where(eq(tickets.userId, userId)).orderBy(desc(tickets.updatedAt)).limit(100);
}

/** One of the borrower's tickets with what was said on it (never the internal notes), or null when it is not theirs. */
export async function borrowerTicket(services: Pick<AppServices, "db">, { userId, reference }: { userId: string; reference: string }) {
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

// ——— Staff ———

const PAGE = 30;

/** Tickets past their answer's due date at `now`, each against its own category's days (`answerDueBy`). */
function pastDueDate(now: Date): SQL {
  const own = Object.entries(ANSWER_WITHIN_DAYS) as [TicketCategory, number][];
  const late = (days: number) => lt(tickets.createdAt, answerLateIfRaisedBefore(now, days));
  return or(
    and(
      notInArray(
        tickets.category,
        own.map(([category]) => category),
      ),
      late(RESOLVE_WITHIN_DAYS),
    ),
    ...own.map(([category, days]) => and(eq(tickets.category, category), late(days))),
  )!;
}

/** The support queue: oldest first while open, newest first once resolved; with age and the due date. */
export async function ticketQueue(
  services: Pick<AppServices, "db" | "now">,
  { view, staffId, page }: { view: TicketView; staffId: string; page: number },
) {
  const pastDue = pastDueDate(services.now());
  const where = {
    open: stillOpen,
    mine: and(stillOpen, eq(tickets.assignedTo, staffId)),
    unassigned: and(stillOpen, isNull(tickets.assignedTo)),
    waiting: eq(tickets.status, "waiting"),
    overdue: and(stillOpen, pastDue),
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

/** The staff home's counts: tickets open, not assigned, past their due date, and answers the borrower did not accept. */
export async function ticketCounts(services: Pick<AppServices, "db" | "now">) {
  const pastDue = pastDueDate(services.now());
  const [row] = await services.db
    .select({
      open: sql<number>`count(*) filter (where ${stillOpen})`.mapWith(Number),
      unassigned: sql<number>`count(*) filter (where ${stillOpen} and ${tickets.assignedTo} is null)`.mapWith(Number),
      overdue: sql<number>`count(*) filter (where ${stillOpen} and ${pastDue})`.mapWith(Number),
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
    .where(takesTickets)
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
