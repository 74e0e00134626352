// The `ticket-email` job (docs/product.md "Help and grievances"): a ticket raised through the
// contact form has no account, so its acknowledgement and support's answers go by e-mail.
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { RESOLVE_WITHIN_DAYS } from "../../domain/help.ts";
import { messageLink } from "../../../server/config.ts";
import { ticketMessages, tickets } from "../db/schema.ts";

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
