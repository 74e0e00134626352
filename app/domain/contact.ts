import { z } from "zod";
import { msg } from "../i18n/form-message.ts";
import { indianMobileField } from "./validators/mobile-field.ts";

/** The public contact form (it raises a ticket without an account): one schema for the browser and the server. */
export const contactSchema = z.object({
  /** Sent twice (a double tap, a retry), it is one ticket. */
  once: z.uuid({ error: msg("contact.errors.reload") }).optional(),
  name: z
    .string({ error: msg("contact.errors.nameMissing") })
    .trim()
    .min(2, msg("contact.errors.nameShort"))
    .max(100, msg("contact.errors.nameLong"))
    .regex(/^[\p{L} .'-]+$/u, msg("contact.errors.nameLetters")),
  mobile: indianMobileField(msg("validation.mobile.yours")),
  email: z.email({
    error: (issue) => (issue.input ? msg("contact.errors.emailInvalid") : msg("contact.errors.emailMissing")),
  }),
  message: z
    .string({ error: msg("contact.errors.messageMissing") })
    .trim()
    .min(10, msg("contact.errors.messageShort"))
    .max(2000, msg("contact.errors.messageLong")),
  /** Honeypot: hidden from people; bots fill it in. */
  website: z.string().optional(),
});
