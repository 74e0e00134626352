// What support does on a ticket (docs/product.md "Help and grievances"): a reply (the borrower is
// told, or the contact form's sender e-mailed), an internal note, assignment, a status change.
// Each is done under the ticket's row lock and audited.
import { and, eq, sql } from "drizzle-orm";
import type { AppServices, Client } from "../../context.ts";
import { helpPath, TICKET_STATUS_LABEL, TICKET_STATUS_STAFF_LABEL, type TicketStatus } from "../../domain/help.ts";
import type { StaffRole } from "../../domain/roles.ts";
import { audit } from "../audit.server.ts";
import { ticketMessages, tickets, users } from "../db/schema.ts";
import { notify } from "../notifications/notify.server.ts";
import { lockTicket, takesTickets, type Ticket } from "./rows.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now" | "jobs">;

type StaffAct =
  | { intent: "reply"; once: string; message: string; then: "in_progress" | "waiting" | "resolved" }
  | { intent: "note"; once: string; message: string }
  | { intent: "assign"; staff: string }
  | { intent: "status"; status: TicketStatus };

export type StaffActResult = { ok: true; message: string } | { ok: false; reason: "not_found" | "closed" | "bad_staff" };

/** What each act is given: who acts, from where, when, and the ticket locked for it. */
interface Acting<A extends StaffAct> {
  staff: { id: string; role: StaffRole };
  client: Client;
  at: Date;
  t: Ticket;
  act: A;
}

/** Support acts on a ticket: a reply (the borrower is told), an internal note, assignment, a status change; each audited. */
export async function staffActs(
  services: Services,
  { staff, client, reference, act }: { staff: { id: string; role: StaffRole }; client: Client; reference: string; act: StaffAct },
): Promise<StaffActResult> {
  const at = services.now();
  return services.db.transaction(async (tx) => {
    const t = await lockTicket(tx, eq(tickets.reference, reference));
    if (!t) return { ok: false, reason: "not_found" } as const;
    const inTx = { ...services, db: tx };
    switch (act.intent) {
      case "reply":
      case "note":
        return writeMessage(inTx, { staff, client, at, t, act });
      case "assign":
        return assign(inTx, { staff, client, at, t, act });
      case "status":
        return setStatus(inTx, { staff, client, at, t, act });
    }
  });
}

/** The ticket's columns for a move to `status`: when it was resolved and closed, and a new chance to accept an answer. */
function statusChange(t: Ticket, status: TicketStatus, at: Date) {
  return {
    status,
    resolvedAt: status === "resolved" ? at : status === "closed" ? (t.resolvedAt ?? at) : null,
    closedAt: status === "closed" ? at : null,
    // A new answer is a new chance to accept it.
    ...(status === "resolved" ? { notAcceptedAt: null } : {}),
  };
}

/** The act's audit row: who acted, from where, when, on which ticket. */
function auditAct(services: Services, { staff, client, at, t }: Acting<StaffAct>, action: string, details: Record<string, unknown>) {
  return audit(services, { by: staff, client, at, action, subject: { type: "ticket", id: t.reference }, details });
}

/** The one who raised the ticket hears of an answer: a borrower by notice, a contact-form sender by e-mail. */
async function tellRaiser(services: Services, { t, messageId, resolved }: { t: Ticket; messageId: string; resolved: boolean }) {
  if (t.userId)
    await notify(services, {
      userId: t.userId,
      event: "ticket_answered",
      key: messageId,
      data: { reference: t.reference, path: helpPath(t.reference), resolved },
    });
  else await services.jobs.send("ticket-email", { messageId }, { db: services.db });
}

/** A reply (the ticket moves to the status chosen, and is given to the one replying if nobody had it) or an internal note. */
async function writeMessage(services: Services, acting: Acting<Extract<StaffAct, { intent: "reply" | "note" }>>): Promise<StaffActResult> {
  const { db } = services;
  const { staff, at, t, act } = acting;
  if (act.intent === "reply" && t.status === "closed") return { ok: false, reason: "closed" };
  // The same form sent again (the ticket's row lock makes a second one at once wait for the first).
  const [again] = await db.select({ ticketId: ticketMessages.ticketId }).from(ticketMessages).where(eq(ticketMessages.onceKey, act.once));
  if (again?.ticketId === t.id) return { ok: true, message: "Already saved." };
  const [m] = await db
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
    await db.update(tickets).set({ updatedAt: at }).where(eq(tickets.id, t.id));
    await auditAct(services, acting, "ticket.note", { messageId: m.id });
    return { ok: true, message: "Note saved (the borrower does not see it)." };
  }
  await db
    .update(tickets)
    .set({ ...statusChange(t, act.then, at), assignedTo: t.assignedTo ?? staff.id, updatedAt: at })
    .where(eq(tickets.id, t.id));
  await tellRaiser(services, { t, messageId: m.id, resolved: act.then === "resolved" });
  await auditAct(services, acting, "ticket.reply", {
    messageId: m.id,
    status: act.then,
    from: t.status,
    ...(t.assignedTo ? {} : { assignedTo: staff.id, assignedFrom: null }),
  });
  return {
    ok: true,
    message: t.userId ? "Reply sent. The borrower is told by SMS, e-mail and in the app." : "Reply sent by e-mail.",
  };
}

/** The ticket given to a colleague who may take tickets (an open one is then in progress), with a note on it. */
async function assign(services: Services, acting: Acting<Extract<StaffAct, { intent: "assign" }>>): Promise<StaffActResult> {
  const { db } = services;
  const { staff, at, t, act } = acting;
  const [who] = await db
    .select({ id: users.id, name: sql<string>`coalesce(${users.name}, ${users.email})` })
    .from(users)
    .where(and(eq(users.id, act.staff), takesTickets));
  if (!who) return { ok: false, reason: "bad_staff" };
  await db
    .update(tickets)
    .set({ assignedTo: who.id, status: t.status === "open" ? "in_progress" : t.status, updatedAt: at })
    .where(eq(tickets.id, t.id));
  await db.insert(ticketMessages).values({
    ticketId: t.id,
    author: "system",
    internal: true,
    staffUserId: staff.id,
    body: `Assigned to ${who.name}.`,
    createdAt: at,
  });
  await auditAct(services, acting, "ticket.assign", { to: who.id, from: t.assignedTo });
  return { ok: true, message: `Assigned to ${who.name}.` };
}

/** A status change, said on the ticket; resolved without a reply, the one who raised it is told all the same. */
async function setStatus(services: Services, acting: Acting<Extract<StaffAct, { intent: "status" }>>): Promise<StaffActResult> {
  const { db } = services;
  const { staff, at, t, act } = acting;
  if (act.status === t.status) return { ok: true, message: "No change." };
  await db
    .update(tickets)
    .set({ ...statusChange(t, act.status, at), updatedAt: at })
    .where(eq(tickets.id, t.id));
  const [m] = await db
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
  if (m && act.status === "resolved") await tellRaiser(services, { t, messageId: m.id, resolved: true });
  await auditAct(services, acting, "ticket.status", { from: t.status, to: act.status });
  return { ok: true, message: `Now ${TICKET_STATUS_STAFF_LABEL[act.status]}.` };
}
