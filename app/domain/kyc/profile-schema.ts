import { z } from "zod";
import { accepted } from "../validators/form-rules.ts";
import { aadhaarProblem, dobProblem, nameProblem, normalizePan, panProblem } from "../validators/identity.ts";
import { msg } from "../../i18n/form-message.ts";

/** The choices' English names, as staff pages read them; the borrower's pages say them from the catalogue ("profileSections.genders"). */
export const GENDERS = { female: "Female", male: "Male", other: "Other" } as const;
export const MARITAL_STATUSES = { single: "Single", married: "Married", divorced: "Divorced", widowed: "Widowed" } as const;

const check = (problem: (v: string) => string | null) => (v: string, ctx: z.RefinementCtx) => {
  const message = problem(v);
  if (message) ctx.addIssue({ code: "custom", message });
};

const KYC_CONSENT_NEEDED = msg("validation.consent.kycNeeded");
/** The KYC consent box: needed (a missing box is a refusal; an optional key would skip the check). */
export const kycConsentField = z.string({ error: KYC_CONSENT_NEEDED }).refine((v) => accepted(v), KYC_CONSENT_NEEDED);

/** The credit bureau enquiry (docs/product.md "Credit policy"): asked before each pull, logged each time it is given. */
export const BUREAU_CONSENT_NEEDED = msg("validation.consent.bureauNeeded");
export const bureauConsentField = z.string({ error: BUREAU_CONSENT_NEEDED }).refine((v) => accepted(v), BUREAU_CONSENT_NEEDED);
/** The form that asks for it on its own (a new loan's Step0, the quick start's offer when the report is missing). */
export const bureauConsentSchema = z.object({ consentBureau: bureauConsentField });

/**
 * The Profile section's form, for the browser and the server. `today` sets
 * the age window; PAN and Aadhaar may be left empty to keep the saved ones
 * (the quick start saves the PAN before the Aadhaar).
 */
export function profileSchema({ today, saved }: { today: string; saved: { pan: boolean; aadhaar: boolean } }) {
  const secret = (problem: (v: string) => string | null, missing: string, hasSaved: boolean) =>
    hasSaved
      ? z
          .string()
          .trim()
          .optional()
          .superRefine((v, ctx) => (v ? check(problem)(v, ctx) : undefined))
      : z.string({ error: missing }).trim().min(1, missing).superRefine(check(problem));
  return z.object({
    fullName: z
      .string({ error: msg("validation.name.asOnPan") })
      .superRefine(check(nameProblem))
      .transform((v) => v.trim().replace(/\s+/g, " ")),
    dateOfBirth: z.string({ error: msg("validation.dateOfBirth.missing") }).superRefine(check((v) => dobProblem(v, today))),
    gender: z.enum(Object.keys(GENDERS) as [keyof typeof GENDERS], { error: msg("validation.chooseOne") }),
    email: z.email({
      error: (issue) => (issue.input ? msg("profileSections.errors.email") : msg("profileSections.errors.emailMissing")),
    }),
    pan: secret(panProblem, msg("validation.pan.missing"), saved.pan).transform((v) => (v ? normalizePan(v) : undefined)),
    aadhaar: secret(aadhaarProblem, msg("validation.aadhaar.missing"), saved.aadhaar).transform((v) =>
      v ? v.replace(/\s/g, "") : undefined,
    ),
    maritalStatus: z.enum(Object.keys(MARITAL_STATUSES) as [keyof typeof MARITAL_STATUSES], { error: msg("validation.chooseOne") }),
    consentKyc: kycConsentField,
    consentCommunications: z.string().optional(),
  });
}

export type ProfileInput = z.output<ReturnType<typeof profileSchema>>;

/** The quick start's Step1: name, date of birth and PAN, with the Profile section's own rules. */
export const identitySchema = ({ today, panSaved }: { today: string; panSaved: boolean }) =>
  profileSchema({ today, saved: { pan: panSaved, aadhaar: true } }).pick({ fullName: true, dateOfBirth: true, pan: true });
export type IdentityInput = z.output<ReturnType<typeof identitySchema>>;

export const maskPan = (pan: string) => `XXXXXX${pan.slice(-4)}`;
export const maskAadhaar = (last4: string) => `XXXX XXXX ${last4}`;
