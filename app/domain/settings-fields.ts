/**
 * The fields of the administrators' settings forms (products, credit policy): rupees, percent and
 * whole numbers as typed, turned into paise, basis points and integers, with messages that name the
 * field. The same schemas check the form in the browser and on the server.
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

export const rupeesField = (label: string, { min = 0, max = 1_00_00_000_00 }: { min?: number; max?: number } = {}) =>
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

export const percentField = (label: string, maxBps: number, { minBps = 0 }: { minBps?: number } = {}) =>
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

export const wholeField = (label: string, min: number, max: number) =>
  z
    .string({ error: `${label} is missing.` })
    .trim()
    .regex(/^\d{1,4}$/, `${label} must be a whole number.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${label} must be between ${min} and ${max}.`);
