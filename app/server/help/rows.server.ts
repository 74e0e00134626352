// What the help-ticket operations and reads share (docs/product.md "Help and grievances"): which
// tickets are still open, the columns a list of tickets shows, who may be given tickets, a ticket
// locked for a change, and where a ticket goes when someone writes on it.
import { and, inArray, isNull, type SQL } from "drizzle-orm";
import { OPEN_STATUSES, type TicketStatus } from "../../domain/help.ts";
import { rolesWith } from "../../domain/roles.ts";
import type { Db } from "../db/client.ts";
import { tickets, users } from "../db/schema.ts";

export type Ticket = typeof tickets.$inferSelect;

/** Tickets not yet resolved or closed. */
export const stillOpen = inArray(tickets.status, [...OPEN_STATUSES]);

/** Staff who may be given tickets: support and administrators, not disabled. */
export const takesTickets = and(inArray(users.role, [...rolesWith("tickets.manage")]), isNull(users.disabledAt));

/** What a list of tickets shows of each. */
export const ticketColumns = {
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

/** The ticket `where` finds, locked until the transaction ends (so changes to it queue); null when there is none. */
export async function lockTicket(tx: Db, where: SQL | undefined): Promise<Ticket | null> {
  const [t] = await tx.select().from(tickets).where(where).for("update");
  return t ?? null;
}

/** The status after someone writes on a ticket waiting for them: back with support (assigned or not). */
export const backWithSupport = (t: { assignedTo: string | null }): TicketStatus => (t.assignedTo ? "in_progress" : "open");
