/**
 * Form fields several forms share (one schema for the browser and the server), each with its
 * message next to the field. Staff forms take the English words; a borrower's form passes its
 * own messages (keys of the catalogue, app/i18n/form-message.ts).
 */
import { z } from "zod";
import { addDays } from "./loan-math.ts";
import { parseRupeesToPaise } from "./money.ts";

export interface RupeesFieldMessages {
  missing: string;
  invalid: string;
  tooLarge: string;
}

const RUPEES_FIELD_MESSAGES: RupeesFieldMessages = {
  missing: "Amount is missing.",
  invalid: "Amount must be rupees of at least ₹1, like 2500 or 2,500.50.",
  tooLarge: "Amount must be at most ₹1,00,00,000.",
};

/** An amount in rupees (₹1 to ₹1,00,00,000, up to paise), as paise. */
export const rupeesField = (messages: RupeesFieldMessages = RUPEES_FIELD_MESSAGES) =>
  z
    .string({ error: messages.missing })
    .trim()
    .transform((v, ctx) => {
      const paise = parseRupeesToPaise(v);
      if (paise === null || paise < 100) {
        ctx.addIssue({ code: "custom", message: messages.invalid });
        return z.NEVER;
      }
      if (paise > 1_00_00_000_00) {
        ctx.addIssue({ code: "custom", message: messages.tooLarge });
        return z.NEVER;
      }
      return paise;
    });

export interface DateFieldMessages {
  missing: string;
  invalid: string;
}

/** A calendar date (YYYY-MM-DD), named `label` in its messages (or with `messages` of its own). */
export const isoDateField = (
  label: string,
  messages: DateFieldMessages = { missing: `${label} is missing.`, invalid: `${label} must be a date (YYYY-MM-DD).` },
) =>
  z
    .string({ error: messages.missing })
    .trim()
    .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && addDays(v, 0) === v, messages.invalid);
