/**
 * The new-loan flow (/User/newLoan/{kind}/{reference}/Step0 … Step7): the
 * kinds, the reference format, which step fits an application, and the forms
 * of Step0 and Step1 (one schema for the browser and the server).
 */
import { z } from "zod";
import { formatRupees } from "../money.ts";
import { parseRupeesToPaise } from "../money.ts";
import { msg } from "../../i18n/form-message.ts";
import type { LoanStatus } from "./lifecycle.ts";

export type LoanKind = "emi" | "salary_advance";

/** The path segment of each kind, as in the original routes. */
export const KIND_SEGMENT: Record<LoanKind, string> = { emi: "Emi", salary_advance: "salaryAdvance" };
export const KIND_NAME: Record<LoanKind, string> = { emi: "EMI loan", salary_advance: "Salary advance" };
/** The same within a sentence. */
export const KIND_NOUN: Record<LoanKind, string> = { emi: "EMI loan", salary_advance: "salary advance" };
/** The same with its article: "an EMI loan", "a salary advance". */
export const KIND_WITH_ARTICLE: Record<LoanKind, string> = { emi: "an EMI loan", salary_advance: "a salary advance" };

/** The kind a new-loan path is for (paths match ignoring case). */
export function kindOfPath(pathname: string): LoanKind | null {
  const m = /\/User\/newLoan\/(Emi|salaryAdvance)(?:\/|$|\.data)/i.exec(pathname);
  if (!m?.[1]) return null;
  return m[1].toLowerCase() === "emi" ? "emi" : "salary_advance";
}

/**
 * References are 128 random bits in lower-case base32 (26 characters): never a
 * row number, not guessable. The application reference and the agreement
 * reference use the same form but are unrelated.
 */
export const REFERENCE_PATTERN = /^[a-z2-7]{26}$/;
export function parseReference(value: string | undefined): string | null {
  if (!value) return null;
  const v = value.toLowerCase();
  return REFERENCE_PATTERN.test(v) ? v : null;
}

/**
 * The application number a person reads out (to support, on the phone): the reference's first 8
 * characters in capitals. Staff search finds an application by them; links keep the whole reference.
 */
export const shortReference = (reference: string) => reference.slice(0, 8).toUpperCase();

/** How a person names a loan or an application: "EMI loan SL12345678", or "Application K7QX2M4P" before disbursal. */
export const loanName = (a: { kind: LoanKind; loanNumber: string | null; reference: string }) =>
  a.loanNumber ? `${KIND_NAME[a.kind]} ${a.loanNumber}` : `${KIND_NAME[a.kind]} application ${shortReference(a.reference)}`;

export const STEPS = ["Step0", "Step1", "Step5", "Step6", "Step7"] as const;
export type Step = (typeof STEPS)[number];
export const STEP_TITLES: Record<Step, string> = {
  Step0: "Amount and tenure",
  Step1: "Purpose and bank account",
  Step5: "Key Fact Statement and agreement",
  Step6: "Accept and sign",
  Step7: "Submitted",
};

export const stepPath = (kind: LoanKind, reference: string, step: Step) => `/User/newLoan/${KIND_SEGMENT[kind]}/${reference}/${step}`;

export interface FlowState {
  status: LoanStatus;
  termsSaved: boolean;
  detailsSaved: boolean;
  /** A KFS has been issued and not superseded. */
  hasDocument: boolean;
}

/**
 * The steps an application has really been through, for its progress bar: its terms and details
 * saved, its KFS shown and signed, and a status past the draft. A draft cancelled at Step0 has
 * done nothing but the last (its status).
 */
export function stepsDone(s: FlowState & { signed: boolean }): Step[] {
  const done: Step[] = [];
  if (s.termsSaved) done.push("Step0");
  if (s.detailsSaved) done.push("Step1");
  if (s.signed || (s.hasDocument && s.status === "draft" && s.detailsSaved)) done.push("Step5");
  if (s.signed) done.push("Step6");
  if (s.status !== "draft") done.push("Step7");
  return done;
}

/** May this step be shown for an application in this state? */
export function stepAllowed(step: Step, s: FlowState): boolean {
  if (step === "Step7") return s.status !== "draft";
  if (s.status !== "draft") return false;
  switch (step) {
    case "Step0":
      return true;
    case "Step1":
      return s.termsSaved;
    case "Step5":
      return s.termsSaved && s.detailsSaved;
    case "Step6":
      return s.termsSaved && s.detailsSaved && s.hasDocument;
  }
}

/** The step an application belongs on: the first one not yet done. */
export function fittingStep(s: FlowState): Step {
  if (s.status !== "draft") return "Step7";
  if (!s.termsSaved) return "Step0";
  if (!s.detailsSaved) return "Step1";
  return "Step5";
}

// ---- Step0: amount and tenure ------------------------------------------------------------

export interface TermsBounds {
  kind: LoanKind;
  minAmountPaise: number;
  stepPaise: number;
  /** Salary advance: the largest amount; EMI loan: the largest amount for each tenure. */
  maxAmountPaise: number;
  maxByTenure: Record<number, number>;
  minTenure: number;
  maxTenure: number;
}

export interface AmountRange {
  minPaise: number;
  maxPaise: number;
  stepPaise: number;
}

/** Why an amount does not fit a range on its steps, in words (null when it fits). */
export function amountProblem(amountPaise: number, r: AmountRange, suffix = ""): string | null {
  if (amountPaise < r.minPaise || amountPaise > r.maxPaise)
    return `Choose an amount from ${formatRupees(r.minPaise)} to ${formatRupees(r.maxPaise)}${suffix}.`;
  if (amountPaise % r.stepPaise !== 0) return `Choose an amount in steps of ${formatRupees(r.stepPaise)}.`;
  return null;
}

/** The largest amount on the range's steps not above `wanted` and within the range (null when the range is empty). */
export function fitAmount(wantedPaise: number, r: AmountRange): number | null {
  const top = Math.min(wantedPaise, r.maxPaise);
  const fitted = Math.floor(top / r.stepPaise) * r.stepPaise;
  if (fitted >= r.minPaise) return fitted;
  return r.maxPaise >= r.minPaise ? r.minPaise : null;
}

/** Step0's form: amount (rupees, on the product's steps, within the offer) and, for an EMI loan, tenure. */
export function termsSchema(b: TermsBounds) {
  return z
    .object({
      amount: z
        .string({ error: msg("applySteps.errors.amount") })
        .trim()
        .min(1, msg("applySteps.errors.amount")),
      tenure:
        b.kind === "emi"
          ? z
              .string({ error: msg("applySteps.errors.tenure") })
              .trim()
              .min(1, msg("applySteps.errors.tenure"))
          : z.string().optional(),
    })
    .transform((v, ctx) => {
      const amountPaise = parseRupeesToPaise(v.amount);
      let tenureMonths: number | null = null;
      if (b.kind === "emi") {
        const t = Number(v.tenure);
        if (!Number.isInteger(t) || t < b.minTenure || t > b.maxTenure) {
          ctx.addIssue({
            code: "custom",
            path: ["tenure"],
            message: msg("applySteps.errors.tenureRange", { min: b.minTenure, max: b.maxTenure }),
          });
          return z.NEVER;
        }
        tenureMonths = t;
      }
      if (amountPaise === null) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: msg("applySteps.errors.amountFormat") });
        return z.NEVER;
      }
      const max = b.kind === "emi" && tenureMonths !== null ? (b.maxByTenure[tenureMonths] ?? 0) : b.maxAmountPaise;
      const problem =
        max < b.minAmountPaise
          ? msg("applySteps.errors.noAmount", { months: tenureMonths ?? 0 })
          : amountPaise < b.minAmountPaise || amountPaise > max
            ? tenureMonths === null
              ? msg("applySteps.errors.amountRange", { min: formatRupees(b.minAmountPaise), max: formatRupees(max) })
              : msg("applySteps.errors.amountRangeOver", {
                  min: formatRupees(b.minAmountPaise),
                  max: formatRupees(max),
                  months: tenureMonths,
                })
            : amountPaise % b.stepPaise !== 0
              ? msg("applySteps.errors.amountStep", { step: formatRupees(b.stepPaise) })
              : null;
      if (problem) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: problem });
        return z.NEVER;
      }
      return { amountPaise, tenureMonths };
    });
}

// ---- Step1: purpose and disbursal account --------------------------------------------------

export const PURPOSES = {
  home_improvement: "Home repair or improvement",
  medical: "Medical expenses",
  education: "Education",
  wedding: "Wedding",
  travel: "Travel",
  consumer_durable: "Buying a consumer durable",
  debt_consolidation: "Paying off other debts",
  business: "Business needs",
  household: "Household expenses",
  other: "Something else",
} as const;
export type Purpose = keyof typeof PURPOSES;

export const detailsSchema = z
  .object({
    purpose: z.enum(Object.keys(PURPOSES) as [Purpose, ...Purpose[]], { error: msg("applySteps.errors.purpose") }),
    purposeDetails: z.string().trim().max(200, msg("applySteps.errors.purposeLong")).optional(),
    disbursalConsent: z.string({ error: msg("applySteps.errors.account") }).refine((v) => v === "yes", msg("applySteps.errors.account")),
  })
  .superRefine((v, ctx) => {
    if (v.purpose === "other" && !v.purposeDetails) {
      ctx.addIssue({ code: "custom", path: ["purposeDetails"], message: msg("applySteps.errors.purposeDetails") });
    }
  });

// ---- Step6: acceptance and code ------------------------------------------------------------

export const signSchema = z.object({
  documentId: z.string({ error: msg("applySteps.errors.document") }).uuid(msg("applySteps.errors.document")),
  accept: z.string({ error: msg("applySteps.errors.accept") }).refine((v) => v === "yes", msg("applySteps.errors.accept")),
  code: z
    .string({ error: msg("applySteps.errors.code") })
    .trim()
    .regex(/^\d{6}$/, msg("applySteps.errors.code")),
});

/** The offer the terms were chosen within, as stored with the application at Step0. */
export interface SavedOffer {
  rateBps: number;
  maxAmountPaise: number;
  maxByTenure: Record<number, number>;
  salaryDay: number | null;
  computedAt: string;
  /** The credit policy version the offer was judged by (absent from offers made before the policy). */
  policyVersion?: number;
}

/** The verified account the money goes to, as it was when chosen at Step1 (masked). */
export interface DisbursalAccount {
  holderName: string;
  accountMasked: string;
  ifsc: string;
  bankName: string;
}
