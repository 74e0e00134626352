import { z } from "zod/mini";
import { msg } from "../i18n/form-message.ts";
import { parseRupeesToPaise } from "./money.ts";

// zod/mini (the same checks as the other forms' schemas, half the JavaScript). In the browser the
// calculator loads this module when it is first used (the server checks the first figures shown).
// Its messages are keys of the "calculator" namespace (app/i18n/form-message.ts), said in the page's
// language by the calculator, and by /api/emi and the schedule's CSV in the request's.
const isNumber = (v: string) => v.replace(/[,\s₹]/g, "") !== "" && !Number.isNaN(Number(v.replace(/[,\s₹]/g, "")));

/** A figure typed: `missing` when there is none, `notNumber` when it is no number (message keys). */
const num = (missing: string, notNumber: string) =>
  z.string({ error: missing }).check(z.trim(), z.minLength(1, missing), z.refine(isNumber, { message: notNumber, path: [] }));

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
        num(msg("calculator.errors.amountMissing"), msg("calculator.errors.amountNotNumber")),
        z.transform((v: string, ctx) => {
          const paise = parseRupeesToPaise(v);
          if (paise === null) {
            ctx.issues.push({ code: "custom", message: msg("calculator.errors.amountFormat"), input: v });
            return z.NEVER;
          }
          if (paise <= 0) {
            ctx.issues.push({ code: "custom", message: msg("calculator.errors.amountZero"), input: v });
            return z.NEVER;
          }
          return paise;
        }),
      ),
      rate: z.pipe(num(msg("calculator.errors.rateMissing"), msg("calculator.errors.rateNotNumber")), toNumber).check(
        z.refine((v: number) => v >= 0 && v <= 100, msg("calculator.errors.rateRange")),
        z.refine(
          (v: number) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9,
          msg("calculator.errors.rateDecimals"),
        ),
      ),
      months: z
        .pipe(num(msg("calculator.errors.monthsMissing"), msg("calculator.errors.monthsNotNumber")), toNumber)
        .check(z.refine((v: number) => Number.isInteger(v) && v >= 1 && v <= 480, msg("calculator.errors.monthsRange"))),
      fee: z.pipe(
        z.optional(z.string().check(z.trim())),
        z.transform((v: string | undefined, ctx) => {
          if (v === undefined || v === "") return 0;
          const paise = parseRupeesToPaise(v);
          if (paise === null) {
            ctx.issues.push({
              code: "custom",
              message: msg("calculator.errors.feeFormat"),
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
        if (v.fee >= v.amount) ctx.addIssue({ code: "custom", path: ["fee"], message: msg("calculator.errors.feeTooHigh") });
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

/** Parses a query (URLSearchParams) into inputs, or the first problem as { error, field } (messages as keys). */
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
    error: first?.message ?? msg("calculator.errors.invalid"),
    field: String(first?.path[0] ?? "amount"),
    fieldErrors,
  };
}

/** The calculator's inputs checked: the inputs, or the problems by field. */
export type CalculatorCheck = ReturnType<typeof parseCalculatorQuery>;
