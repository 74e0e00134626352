/**
 * Editing the loan products (docs/product.md "Products"): the administrator's forms in rupees,
 * percent and whole numbers, turned into the stored paise and basis points. The same schemas check
 * the form in the browser and on the server.
 */
import { z } from "zod";
import { parseRupeesToPaise } from "./money.ts";

/** "18", "18.5" or "0.10" percent → basis points (1800, 1850, 10); null when it is not such a number. */
export function parsePercentToBps(input: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(input.replace(/[\s%]/g, ""));
  if (!m) return null;
  return Number(m[1]) * 100 + Number(((m[2] ?? "") + "00").slice(0, 2));
}
export const bpsToPercentText = (bps: number) => (bps / 100).toFixed(2).replace(/\.?0+$/, "");
export const paiseToRupeesText = (paise: number) => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));

const rupees = (label: string, { min = 0, max = 1_00_00_000_00 }: { min?: number; max?: number } = {}) =>
  z
    .string({ error: `${label} is missing.` })
    .trim()
    .min(1, `${label} is missing.`)
    .transform((v, ctx) => {
      const paise = parseRupeesToPaise(v);
      if (paise === null) {
        ctx.addIssue({ code: "custom", message: `${label} must be an amount in rupees, like 5000 or 5,000.50.` });
        return z.NEVER;
      }
      if (paise < min || paise > max) {
        ctx.addIssue({ code: "custom", message: `${label} must be between ₹${min / 100} and ₹${max / 100}.` });
        return z.NEVER;
      }
      return paise;
    });

const percent = (label: string, maxBps: number, { minBps = 0 }: { minBps?: number } = {}) =>
  z
    .string({ error: `${label} is missing.` })
    .trim()
    .min(1, `${label} is missing.`)
    .transform((v, ctx) => {
      const bps = parsePercentToBps(v);
      if (bps === null) {
        ctx.addIssue({ code: "custom", message: `${label} must be a percentage with at most two decimals, like 18 or 0.1.` });
        return z.NEVER;
      }
      if (bps < minBps || bps > maxBps) {
        ctx.addIssue({
          code: "custom",
          message: `${label} must be between ${bpsToPercentText(minBps)}% and ${bpsToPercentText(maxBps)}%.`,
        });
        return z.NEVER;
      }
      return bps;
    });

const whole = (label: string, min: number, max: number) =>
  z
    .string({ error: `${label} is missing.` })
    .trim()
    .regex(/^\d{1,4}$/, `${label} must be a whole number.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${label} must be between ${min} and ${max}.`);

const note = z
  .string({ error: "Say why it changes." })
  .trim()
  .min(5, "Say why it changes (at least 5 characters): it is kept with the version.")
  .max(300, "At most 300 characters.");

function limits<T extends { minAmountPaise: number; maxAmountPaise: number; minTenure: number; maxTenure: number }>(
  v: T,
  ctx: z.RefinementCtx,
) {
  if (v.minAmountPaise > v.maxAmountPaise)
    ctx.addIssue({ code: "custom", path: ["maxAmount"], message: "The largest amount must be at least the smallest." });
  if (v.minTenure > v.maxTenure)
    ctx.addIssue({ code: "custom", path: ["maxTenure"], message: "The longest term must be at least the shortest." });
}

const common = {
  minAmount: rupees("The smallest amount", { min: 100 }),
  maxAmount: rupees("The largest amount", { min: 100 }),
  amountStep: rupees("The amount step", { min: 100, max: 1_00_000_00 }),
  fee: percent("The processing fee", 1000),
  minFee: rupees("The smallest fee", { max: 1_00_000_00 }),
  gst: percent("GST", 2800),
  penalCharge: rupees("The penal charge", { max: 10_000_00 }),
  coolingOffDays: whole("The cooling-off period", 1, 30),
  note,
};

const toTerms = <T extends z.infer<z.ZodObject<typeof common>>>(v: T) => ({
  minAmountPaise: v.minAmount,
  maxAmountPaise: v.maxAmount,
  amountStepPaise: v.amountStep,
  feeBps: v.fee,
  minFeePaise: v.minFee,
  gstBps: v.gst,
  penalChargePaise: v.penalCharge,
  coolingOffDays: v.coolingOffDays,
});

/** The EMI loan: tenure in months, the default annual rate (the risk bands set each borrower's). */
export const emiProductSchema = z
  .object({
    ...common,
    minTenure: whole("The shortest term", 1, 120),
    maxTenure: whole("The longest term", 1, 120),
    rate: percent("The annual rate", 6000),
  })
  .transform((v) => ({ terms: { ...toTerms(v), minTenure: v.minTenure, maxTenure: v.maxTenure, rateBps: v.rate }, note: v.note }))
  .superRefine((v, ctx) => limits(v.terms, ctx));

/** The salary advance: days to repayment, the rate per day and the cap on salary. */
export const salaryAdvanceProductSchema = z
  .object({
    ...common,
    minTenure: whole("The fewest days", 1, 62),
    maxTenure: whole("The most days", 1, 62),
    rate: percent("The daily rate", 100),
    salaryCap: percent("The cap on salary", 10000, { minBps: 100 }),
  })
  .transform((v) => ({
    terms: { ...toTerms(v), minTenure: v.minTenure, maxTenure: v.maxTenure, rateBps: v.rate, salaryCapBps: v.salaryCap },
    note: v.note,
  }))
  .superRefine((v, ctx) => limits(v.terms, ctx));

/** One risk band of the EMI loan: from this income, at most this share of income in EMIs, at this rate. */
export const riskBandSchema = z
  .object({
    band: z.coerce.number().int().positive(),
    minIncome: rupees("The smallest income", { max: 1_00_00_000_00 }),
    maxEmiShare: z
      .string()
      .trim()
      .optional()
      .transform((v, ctx) => {
        if (!v) return null;
        const bps = parsePercentToBps(v);
        if (bps === null || bps > 10000) {
          ctx.addIssue({ code: "custom", message: "The share of income in EMIs must be a percentage up to 100, or empty for no limit." });
          return z.NEVER;
        }
        return bps;
      }),
    rate: percent("The annual rate", 6000),
    note,
  })
  .transform((v) => ({
    band: v.band,
    terms: { minIncomePaise: v.minIncome, maxEmiToIncomeBps: v.maxEmiShare, rateBps: v.rate },
    note: v.note,
  }));
