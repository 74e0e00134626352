import { z } from "zod";
import { msg } from "../i18n/form-message.ts";
import { indianMobileField } from "./validators/mobile-field.ts";

/** The public contact form (it raises a ticket without an account): one schema for the browser and the server. */
export const contactSchema = z.object({
  /** Sent twice (a double tap, a retry), it is one ticket. */
  once: z.uuid({ error: "Reload the page and send it again." }).optional(),
  name: z
    .string({ error: "Enter your name." })
    .trim()
    .min(2, "Enter your name (at least 2 letters).")
    .max(100, "Keep your name under 100 characters.")
    .regex(/^[\p{L} .'-]+$/u, "Use letters and spaces only in your name."),
  mobile: indianMobileField(msg("validation.mobile.yours")),
  email: z.email({
    error: (issue) => (issue.input ? "Enter a valid e-mail address, like name@example.com." : "Enter your e-mail address."),
  }),
  message: z
    .string({ error: "Write your message." })
    .trim()
    .min(10, "Write at least 10 characters so we can help.")
    .max(2000, "Keep your message under 2,000 characters."),
  /** Honeypot: hidden from people; bots fill it in. */
  website: z.string().optional(),
});
