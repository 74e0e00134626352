/** The quick start's step forms' schemas: they serve the browser and the server alike. */
import { z } from "zod";
import { parseRupeesToPaise } from "./money.ts";
import { employmentFields, incomeSchema, pinCodeField } from "./kyc/address-employment-schema.ts";
import { BUREAU_CONSENT_NEEDED, type IdentityInput, kycConsentField } from "./kyc/profile-schema.ts";
import { accepted } from "./validators/form-rules.ts";
import { type AmountRange, fitAmount, KIND_NAME, type LoanKind } from "./loans/application.ts";
import { formatRupees } from "./money.ts";
import { msg } from "../i18n/form-message.ts";

export const LOAN_KINDS = Object.keys(KIND_NAME) as [LoanKind, ...LoanKind[]];

/** Step0: which loan and how much, within that product's range and steps. */
export function loanChoiceSchema(ranges: Record<LoanKind, AmountRange>) {
  return z
    .object({
      product: z.enum(LOAN_KINDS, { error: msg("applyQuick.errors.kind") }),
      amount: z
        .string({ error: msg("applyQuick.errors.amount") })
        .trim()
        .min(1, msg("applyQuick.errors.amount")),
    })
    .transform((v, ctx) => {
      const amountPaise = parseRupeesToPaise(v.amount);
      if (amountPaise === null) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: msg("applyQuick.errors.amountFormat") });
        return z.NEVER;
      }
      const r = ranges[v.product];
      const problem =
        amountPaise < r.minPaise || amountPaise > r.maxPaise
          ? msg("applyQuick.errors.amountRange", { min: formatRupees(r.minPaise), max: formatRupees(r.maxPaise), kind: v.product })
          : amountPaise % r.stepPaise !== 0
            ? msg("applyQuick.errors.amountStep", { step: formatRupees(r.stepPaise) })
            : null;
      if (problem) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: problem });
        return z.NEVER;
      }
      return { product: v.product, amountPaise };
    });
}

/** Step2: the PIN code where the borrower lives now (the Address section's rule). */
export const pinCodeSchema = z.object({ pincode: pinCodeField });

/**
 * Step4: existing monthly EMIs, with the Employment section's rule, and the consent to the credit
 * bureau enquiry that the offer needs (not asked of Back, which only keeps what is typed).
 */
export const existingEmisSchema = z
  .object({ intent: z.string().optional(), existingEmis: employmentFields.existingEmis, consentBureau: z.string().optional() })
  .superRefine(
    (v, ctx) => {
      if (v.intent !== "back" && !accepted(v.consentBureau))
        ctx.addIssue({ code: "custom", path: ["consentBureau"], message: BUREAU_CONSENT_NEEDED });
    },
    // Said beside an EMIs field that is wrong too, not only once it is right.
    { when: () => true },
  )
  .transform(({ existingEmis, consentBureau }) => ({ existingEmis, consentBureau: accepted(consentBureau) }));

/** The EMI tenure an offer is first shown at (months), until the borrower picks another. */
export const DEFAULT_OFFER_TENURE = 12;

/** What the borrower would apply with from an offer: the amount asked for, within the offer; null when not eligible. */
export const startingAmount = (offer: { eligible: boolean; maxAmountPaise: number; range: AmountRange }, askedPaise: number | null) =>
  offer.eligible ? fitAmount(askedPaise ?? offer.maxAmountPaise, offer.range) : null;

/** Step5: the product taken from the offer, at the tenure shown. */
export const offerChoiceSchema = z.object({
  product: z.enum(LOAN_KINDS, { error: msg("applyQuick.errors.offer") }),
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
