/**
 * Form fields several forms share (one schema for the browser and the server), each with its
 * message next to the field.
 */
import { z } from "zod";
import { addDays } from "./loan-math.ts";
import { parseRupeesToPaise } from "./money.ts";

/** An amount in rupees (₹1 to ₹1,00,00,000, up to paise), as paise. */
export const rupeesField = () =>
  z
    .string({ error: "Amount is missing." })
    .trim()
    .transform((v, ctx) => {
      const paise = parseRupeesToPaise(v);
      if (paise === null || paise < 100) {
        ctx.addIssue({ code: "custom", message: "Amount must be rupees of at least ₹1, like 2500 or 2,500.50." });
        return z.NEVER;
      }
      if (paise > 1_00_00_000_00) {
        ctx.addIssue({ code: "custom", message: "Amount must be at most ₹1,00,00,000." });
        return z.NEVER;
      }
      return paise;
    });

/** A calendar date (YYYY-MM-DD), named `label` in its messages. */
export const isoDateField = (label: string) =>
  z
    .string({ error: `${label} is missing.` })
    .trim()
    .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && addDays(v, 0) === v, `${label} must be a date (YYYY-MM-DD).`);
