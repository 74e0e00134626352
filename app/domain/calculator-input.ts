import { z } from "zod";

/** Rupees with up to two decimals, as typed ("1,00,000.50" is accepted) → integer paise. */
export function parseRupeesToPaise(input: string): number | null {
  const s = input.replace(/[,\s₹]/g, "");
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const rupees = Number(m[1]);
  const paise = Number(((m[2] ?? "") + "00").slice(0, 2));
  return rupees * 100 + paise;
}

const num = (field: string, label: string) =>
  z
    .string({ error: `${label} is missing.` })
    .trim()
    .min(1, `${label} is missing.`)
    .refine((v) => v.replace(/[,\s₹]/g, "") !== "" && !Number.isNaN(Number(v.replace(/[,\s₹]/g, ""))), {
      message: `${label} must be a number.`,
      path: [],
    })
    .describe(field);

/**
 * The calculator's inputs (the /api/emi query and the /EmiCalculator form):
 * amount and fee in rupees with up to two decimals, annual rate in percent,
 * tenure in whole months.
 */
export const emiQuerySchema = z
  .object({
    amount: num("amount", "Amount").transform((v, ctx) => {
      const paise = parseRupeesToPaise(v);
      if (paise === null) {
        ctx.addIssue({ code: "custom", message: "Amount must be a positive number of rupees with at most two decimals." });
        return z.NEVER;
      }
      if (paise <= 0) {
        ctx.addIssue({ code: "custom", message: "Amount must be more than zero." });
        return z.NEVER;
      }
      return paise;
    }),
    rate: num("rate", "Interest rate")
      .transform((v) => Number(v))
      .refine((v) => v >= 0 && v <= 100, "Interest rate must be between 0% and 100% a year.")
      .refine(
        (v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9,
        "Interest rate can have at most two decimals.",
      ),
    months: num("months", "Tenure")
      .transform((v) => Number(v))
      .refine((v) => Number.isInteger(v) && v >= 1 && v <= 480, "Tenure must be a whole number of months from 1 to 480."),
    fee: z
      .string()
      .trim()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === "") return 0;
        const paise = parseRupeesToPaise(v);
        if (paise === null) {
          ctx.addIssue({ code: "custom", message: "Fee must be a number of rupees with at most two decimals, zero or more." });
          return z.NEVER;
        }
        return paise;
      }),
  })
  .superRefine((v, ctx) => {
    if (v.fee >= v.amount) ctx.addIssue({ code: "custom", path: ["fee"], message: "Fee must be less than the amount." });
  })
  .transform((v) => ({ amountPaise: v.amount, rateBps: Math.round(v.rate * 100), months: v.months, feePaise: v.fee }));

export type EmiQuery = z.output<typeof emiQuerySchema>;
