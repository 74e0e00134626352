/**
 * The public quick start (docs/product.md "Quick start"): after the mobile code, seven steps
 * (Step0 … Step6). Steps are done in order; the first one not done is where a
 * visitor resumes, and a later one sends them back to it. The step forms'
 * schemas serve the browser and the server alike.
 */
import { z } from "zod";
import { parseRupeesToPaise } from "./money.ts";
import { employmentFields, incomeSchema, pinCodeField } from "./kyc/address-employment-schema.ts";
import { type IdentityInput, kycConsentField } from "./kyc/profile-schema.ts";
import { amountProblem, type AmountRange, fitAmount, KIND_NAME, KIND_WITH_ARTICLE, type LoanKind } from "./loans/application.ts";

export const QUICK_STEPS = [
  { title: "Loan and amount", short: "Loan" },
  { title: "About you", short: "You" },
  { title: "Where you live", short: "PIN" },
  { title: "Work and income", short: "Income" },
  { title: "Existing EMIs", short: "EMIs" },
  { title: "Your offer", short: "Offer" },
  { title: "Consents", short: "Consent" },
] as const;
export const QUICK_STEP_COUNT = QUICK_STEPS.length;
/** The offer step: changing an answer before it means the offer is shown (and accepted) again. */
export const OFFER_STEP = 5;
export const CONSENT_STEP = 6;

export const quickStepPath = (step: number) => `/quickStart/Step${step}`;

/** The step a visitor belongs on: the first not done (the last one once all are done). */
export const resumeStep = (completed: number) => Math.min(completed, QUICK_STEP_COUNT - 1);

/**
 * The step an unfinished quick start resumes at: begun (its row exists once a
 * step page was opened) and not yet continued into an application (or sent
 * back to the offer since); null otherwise.
 */
export const unfinishedStep = (progress: { completedSteps: number; continuedAt: Date | null } | null) =>
  progress && !progress.continuedAt ? resumeStep(progress.completedSteps) : null;

/** May step `step` be shown when `completed` steps are done? Only those up to the first not done. */
export const quickStepAllowed = (step: number, completed: number) => step >= 0 && step < QUICK_STEP_COUNT && step <= completed;

/** Back from a step left empty just goes back (there is nothing to keep); anything typed is checked and kept. */
export function untouched(formData: FormData): boolean {
  for (const [name, value] of formData) if (name !== "intent" && typeof value === "string" && value.trim() !== "") return false;
  return true;
}

export const LOAN_KINDS = Object.keys(KIND_NAME) as [LoanKind, ...LoanKind[]];

/** Step0: which loan and how much, within that product's range and steps. */
export function loanChoiceSchema(ranges: Record<LoanKind, AmountRange>) {
  return z
    .object({
      product: z.enum(LOAN_KINDS, { error: "Choose the kind of loan." }),
      amount: z.string({ error: "Enter the amount you need." }).trim().min(1, "Enter the amount you need."),
    })
    .transform((v, ctx) => {
      const amountPaise = parseRupeesToPaise(v.amount);
      if (amountPaise === null) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: "Enter the amount in rupees, like 50000." });
        return z.NEVER;
      }
      const problem = amountProblem(amountPaise, ranges[v.product], ` for ${KIND_WITH_ARTICLE[v.product]}`);
      if (problem) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: problem });
        return z.NEVER;
      }
      return { product: v.product, amountPaise };
    });
}

/** Step2: the PIN code where the borrower lives now (the Address section's rule). */
export const pinCodeSchema = z.object({ pincode: pinCodeField });

/** Step4: existing monthly EMIs, with the Employment section's rule. */
export const existingEmisSchema = z.object({ existingEmis: employmentFields.existingEmis });

/** The EMI tenure an offer is first shown at (months), until the borrower picks another. */
export const DEFAULT_OFFER_TENURE = 12;

/** What the borrower would apply with from an offer: the amount asked for, within the offer; null when not eligible. */
export const startingAmount = (offer: { eligible: boolean; maxAmountPaise: number; range: AmountRange }, askedPaise: number | null) =>
  offer.eligible ? fitAmount(askedPaise ?? offer.maxAmountPaise, offer.range) : null;

/** Step5: the product taken from the offer, at the tenure shown. */
export const offerChoiceSchema = z.object({
  product: z.enum(LOAN_KINDS, { error: "Choose the offer you want." }),
  tenure: z.coerce.number().int().optional(),
});

/** Step6: consent to the KYC checks (needed) and to messages (optional), as in the Profile section. */
export const consentSchema = z.object({
  consentKyc: kycConsentField,
  consentCommunications: z.string().optional(),
});

/** What each step's form gives, once its schema has parsed it. */
export interface QuickStepAnswers {
  0: z.output<ReturnType<typeof loanChoiceSchema>>;
  1: IdentityInput;
  2: z.output<typeof pinCodeSchema>;
  3: z.output<typeof incomeSchema>;
  4: z.output<typeof existingEmisSchema>;
  5: z.output<typeof offerChoiceSchema>;
  6: z.output<typeof consentSchema>;
}
export type QuickStepNumber = keyof QuickStepAnswers;

/** What the quick-start funnel records (the reports count these). */
export type FunnelEvent = "step_viewed" | "step_completed" | "offer_shown" | "continued";
