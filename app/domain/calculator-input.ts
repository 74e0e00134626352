import { z } from "zod/mini";
import { parseRupeesToPaise } from "./money.ts";

// zod/mini (the same checks as the other forms' schemas, half the JavaScript). In the browser the
// calculator loads this module when it is first used (the server checks the first figures shown).
const isNumber = (v: string) => v.replace(/[,\s₹]/g, "") !== "" && !Number.isNaN(Number(v.replace(/[,\s₹]/g, "")));

const num = (label: string) =>
  z
    .string({ error: `${label} is missing.` })
    .check(z.trim(), z.minLength(1, `${label} is missing.`), z.refine(isNumber, { message: `${label} must be a number.`, path: [] }));

const toNumber = z.transform((v: string) => Number(v));

/**
 * The calculator's inputs (the /api/emi query and the /EmiCalculator form):
 * amount and fee in rupees with up to two decimals, annual rate in percent,
 * tenure in whole months.
 */
export const emiQuerySchema = z.pipe(
  z
    .object({
      amount: z.pipe(
        num("Amount"),
        z.transform((v: string, ctx) => {
          const paise = parseRupeesToPaise(v);
          if (paise === null) {
            ctx.issues.push({ code: "custom", message: "Amount must be a positive number of rupees with at most two decimals.", input: v });
            return z.NEVER;
          }
          if (paise <= 0) {
            ctx.issues.push({ code: "custom", message: "Amount must be more than zero.", input: v });
            return z.NEVER;
          }
          return paise;
        }),
      ),
      rate: z.pipe(num("Interest rate"), toNumber).check(
        z.refine((v: number) => v >= 0 && v <= 100, "Interest rate must be between 0% and 100% a year."),
        z.refine(
          (v: number) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9,
          "Interest rate can have at most two decimals.",
        ),
      ),
      months: z
        .pipe(num("Tenure"), toNumber)
        .check(
          z.refine((v: number) => Number.isInteger(v) && v >= 1 && v <= 480, "Tenure must be a whole number of months from 1 to 480."),
        ),
      fee: z.pipe(
        z.optional(z.string().check(z.trim())),
        z.transform((v: string | undefined, ctx) => {
          if (v === undefined || v === "") return 0;
          const paise = parseRupeesToPaise(v);
          if (paise === null) {
            ctx.issues.push({
              code: "custom",
              message: "Fee must be a number of rupees with at most two decimals, zero or more.",
              input: v,
            });
            return z.NEVER;
          }
          return paise;
        }),
      ),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.fee >= v.amount) ctx.addIssue({ code: "custom", path: ["fee"], message: "Fee must be less than the amount." });
      }),
    ),
  z.transform((v: { amount: number; rate: number; months: number; fee: number }) => ({
    amountPaise: v.amount,
    rateBps: Math.round(v.rate * 100),
    months: v.months,
    feePaise: v.fee,
  })),
);

export type EmiQuery = z.output<typeof emiQuerySchema>;

/** Parses a query (URLSearchParams) into inputs, or the first problem as { error, field }. */
export function parseCalculatorQuery(params: URLSearchParams) {
  const raw = {
    amount: params.get("amount") ?? undefined,
    rate: params.get("rate") ?? undefined,
    months: params.get("months") ?? undefined,
    fee: params.get("fee") ?? undefined,
  };
  const result = emiQuerySchema.safeParse(raw);
  if (result.success) return { ok: true as const, input: result.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "amount");
    fieldErrors[field] ??= issue.message;
  }
  const first = result.error.issues[0];
  return {
    ok: false as const,
    error: first?.message ?? "Invalid input.",
    field: String(first?.path[0] ?? "amount"),
    fieldErrors,
  };
}

/** The calculator's inputs checked: the inputs, or the problems by field. */
export type CalculatorCheck = ReturnType<typeof parseCalculatorQuery>;
