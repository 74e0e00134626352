// The `ticket-email` job (docs/product.md "Help and grievances"): a ticket raised through the
// contact form has no account, so its acknowledgement and support's answers go by e-mail, in the
// language of the page it was raised on (the acknowledgement), else the language of the account
// with the contact's mobile number, else English. Support's own words go as they typed them.
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { RESOLVE_WITHIN_DAYS } from "../../domain/help.ts";
import type { Language } from "../../i18n/languages.ts";
import { plainTranslator } from "../../i18n/plain-format.ts";
import { messageLink } from "../../../server/config.ts";
import { ticketMessages, tickets, users } from "../db/schema.ts";

/** The `ticket-email` job: a contact-form ticket's acknowledgement or a staff reply, e-mailed once. */
export async function sendTicketEmail(
  services: Pick<AppServices, "db" | "config" | "now" | "email">,
  messageId: string,
  language?: Language,
) {
  const [row] = await services.db
    .select({ message: ticketMessages, ticket: tickets, accountLanguage: users.language })
    .from(ticketMessages)
    .innerJoin(tickets, eq(tickets.id, ticketMessages.ticketId))
    .leftJoin(users, eq(users.mobile, tickets.contactMobile))
    .where(eq(ticketMessages.id, messageId));
  const to = row?.ticket.contactEmail;
  if (!row || !to || row.message.emailedAt || row.message.internal) return;
  const { message, ticket } = row;
  const { config } = services;
  const t = plainTranslator(language ?? row.accountLanguage ?? "en", "notices");
  const brand = config.public.brandName;
  const officer = config.public.lender.grievanceOfficer;
  const acknowledgement = message.author === "borrower";
  const ref = ticket.reference;
  const text = [
    ticket.contactName ? t("ticketEmail.greeting", { name: ticket.contactName }) : t("ticketEmail.greetingNoName"),
    "",
    acknowledgement
      ? t("ticketEmail.acknowledgement", { ref, days: RESOLVE_WITHIN_DAYS })
      : message.author === "system"
        ? t("ticketEmail.update", { ref })
        : t("ticketEmail.reply", { ref }),
    "",
    // The acknowledgement never repeats what was typed: the form must not send a stranger's words under our name.
    ...(acknowledgement ? [] : [message.body, ""]),
    t("ticketEmail.again", { link: messageLink(config, "/Contact-us"), ref }),
    "",
    t("ticketEmail.sender", { brand, lender: config.public.lender.name }),
    t("ticketEmail.grievance", officer),
    t("ticketEmail.never"),
  ].join("\n");
  await services.email.send({
    to,
    subject: acknowledgement ? t("ticketEmail.acknowledgementSubject", { brand, ref }) : t("ticketEmail.replySubject", { brand, ref }),
    text,
    attachments: [],
    headers: { "X-Ticket-Reference": ticket.reference },
  });
  await services.db.update(ticketMessages).set({ emailedAt: services.now() }).where(eq(ticketMessages.id, message.id));
}
