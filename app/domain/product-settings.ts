/**
 * Editing the loan products (docs/product.md "Products"): the administrator's forms in rupees,
 * percent and whole numbers, turned into the stored paise and basis points. The same schemas check
 * the form in the browser and on the server.
 */
import { z } from "zod";
import { parsePercentToBps, percentField, rupeesField, wholeField } from "./settings-fields.ts";

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
  minAmount: rupeesField("The smallest amount", { min: 100 }),
  maxAmount: rupeesField("The largest amount", { min: 100 }),
  amountStep: rupeesField("The amount step", { min: 100, max: 1_00_000_00 }),
  fee: percentField("The processing fee", 1000),
  minFee: rupeesField("The smallest fee", { max: 1_00_000_00 }),
  gst: percentField("GST", 2800),
  penalCharge: rupeesField("The penal charge", { max: 10_000_00 }),
  coolingOffDays: wholeField("The cooling-off period", 1, 30),
  /** A checkbox: "on" when ticked, absent when not. */
  autopayBeforeDisbursal: z
    .string()
    .optional()
    .transform((v) => v === "on"),
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
  autopayBeforeDisbursal: v.autopayBeforeDisbursal,
});

/** The EMI loan: tenure in months, the default annual rate (the risk bands set each borrower's). */
export const emiProductSchema = z
  .object({
    ...common,
    minTenure: wholeField("The shortest term", 1, 120),
    maxTenure: wholeField("The longest term", 1, 120),
    rate: percentField("The annual rate", 6000),
  })
  .transform((v) => ({ terms: { ...toTerms(v), minTenure: v.minTenure, maxTenure: v.maxTenure, rateBps: v.rate }, note: v.note }))
  .superRefine((v, ctx) => limits(v.terms, ctx));

/** The salary advance: days to repayment and the rate per day (its cap on salary is the credit policy's). */
export const salaryAdvanceProductSchema = z
  .object({
    ...common,
    minTenure: wholeField("The fewest days", 1, 62),
    maxTenure: wholeField("The most days", 1, 62),
    rate: percentField("The daily rate", 100),
  })
  .transform((v) => ({
    terms: { ...toTerms(v), minTenure: v.minTenure, maxTenure: v.maxTenure, rateBps: v.rate },
    note: v.note,
  }))
  .superRefine((v, ctx) => limits(v.terms, ctx));

/** One risk band of the EMI loan: from this income, at most this share of income in EMIs, at this rate. */
export const riskBandSchema = z
  .object({
    band: z.coerce.number().int().positive(),
    minIncome: rupeesField("The smallest income", { max: 1_00_00_000_00 }),
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
    rate: percentField("The annual rate", 6000),
    note,
  })
  .transform((v) => ({
    band: v.band,
    terms: { minIncomePaise: v.minIncome, maxEmiToIncomeBps: v.maxEmiShare, rateBps: v.rate },
    note: v.note,
  }));
