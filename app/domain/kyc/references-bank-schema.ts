import { z } from "zod";
import { ifscFormatProblem, nameProblem } from "../validators/identity.ts";
import { msg } from "../../i18n/form-message.ts";
import { indianMobileField } from "../validators/mobile-field.ts";

/** The choices' English names, as staff pages read them; the borrower's pages say them from the catalogue. */
export const RELATIONS = {
  parent: "Parent",
  spouse: "Spouse",
  sibling: "Brother or sister",
  relative: "Other relative",
  friend: "Friend",
  colleague: "Colleague",
} as const;
export const ACCOUNT_TYPES = { savings: "Savings", current: "Current", salary: "Salary" } as const;

const problem = (check: (v: string) => string | null) => (v: string, ctx: z.RefinementCtx) => {
  const message = check(v);
  if (message) ctx.addIssue({ code: "custom", message });
};
const mobile = indianMobileField(msg("validation.mobile.any"));
const reference = {
  name: z
    .string({ error: msg("profileSections.errors.referenceName") })
    .superRefine(problem(nameProblem))
    .transform((v) => v.trim().replace(/\s+/g, " ")),
  relation: z.enum(Object.keys(RELATIONS) as [keyof typeof RELATIONS], { error: msg("profileSections.errors.relation") }),
  mobile,
};

/** Two references; their mobiles differ from each other and from the borrower's (`ownMobile`). */
export function referencesSchema(ownMobile: string | null) {
  return z
    .object({
      ref1Name: reference.name,
      ref1Relation: reference.relation,
      ref1Mobile: reference.mobile,
      ref2Name: reference.name,
      ref2Relation: reference.relation,
      ref2Mobile: reference.mobile,
    })
    .superRefine((v, ctx) => {
      const notOwn = msg("profileSections.errors.notYourOwn");
      if (ownMobile && v.ref1Mobile === ownMobile) ctx.addIssue({ code: "custom", path: ["ref1Mobile"], message: notOwn });
      if (ownMobile && v.ref2Mobile === ownMobile) ctx.addIssue({ code: "custom", path: ["ref2Mobile"], message: notOwn });
      if (v.ref1Mobile === v.ref2Mobile)
        ctx.addIssue({ code: "custom", path: ["ref2Mobile"], message: msg("profileSections.errors.sameMobiles") });
    });
}

/** The Bank section's form; the account number is typed twice (`accountNumber_confirm`). */
export const bankSchema = z
  .object({
    holderName: z
      .string({ error: msg("profileSections.errors.holderName") })
      .superRefine(problem(nameProblem))
      .transform((v) => v.trim().replace(/\s+/g, " ")),
    accountNumber: z
      .string({ error: msg("profileSections.errors.accountNumber") })
      .transform((v) => v.replace(/\s/g, ""))
      .refine((v) => /^\d{9,18}$/.test(v), msg("profileSections.errors.accountDigits")),
    accountNumber_confirm: z.string({ error: msg("profileSections.errors.accountAgain") }).transform((v) => v.replace(/\s/g, "")),
    ifsc: z
      .string({ error: msg("profileSections.errors.ifsc") })
      .transform((v) => v.trim().toUpperCase())
      .superRefine(problem(ifscFormatProblem)),
    accountType: z.enum(Object.keys(ACCOUNT_TYPES) as [keyof typeof ACCOUNT_TYPES], { error: msg("validation.chooseOne") }),
  })
  .refine((v) => v.accountNumber === v.accountNumber_confirm, {
    path: ["accountNumber_confirm"],
    message: msg("profileSections.errors.accountsDiffer"),
  });

const HONORIFICS = new Set(["mr", "mrs", "ms", "miss", "dr", "shri", "smt", "kumari", "km", "sri"]);
const tokens = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{L}\s]/gu, " ")
    .split(/\s+/)
    .filter((t) => t && !HONORIFICS.has(t));

/**
 * How closely the name the bank holds matches the profile name, 0–100: the
 * Dice coefficient of their words (case, punctuation and honorifics ignored),
 * with a one-letter initial counting as a match for a word it begins.
 * The account counts as verified at 80 or more.
 */
export function nameMatchScore(profileName: string, bankName: string): number {
  const a = tokens(profileName);
  const b = tokens(bankName);
  if (!a.length || !b.length) return 0;
  const used = new Set<number>();
  let matches = 0;
  for (const word of a) {
    const i = b.findIndex(
      (other, k) =>
        !used.has(k) && (other === word || (other.length === 1 && word.startsWith(other)) || (word.length === 1 && other.startsWith(word))),
    );
    if (i >= 0) {
      used.add(i);
      matches += 1;
    }
  }
  return Math.round(((2 * matches) / (a.length + b.length)) * 100);
}
export const NAME_MATCH_THRESHOLD = 80;
export const maskAccount = (n: string) => `${"X".repeat(Math.max(0, n.length - 4))}${n.slice(-4)}`;
