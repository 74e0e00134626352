// A borrower's data-rights requests (docs/product.md "Data rights"): the forms (one schema for the
// browser and the server), what an erasure erases and keeps (a pure plan the borrower reads before
// asking and compliance carries out), and the 30-day answer date.
import { z } from "zod";
import { addDays, type IsoDate } from "../loan-math.ts";
import { longDate } from "../india-date.ts";
import { nameProblem } from "../validators/identity.ts";
import { msg } from "../../i18n/form-message.ts";
import { indianMobileField } from "../validators/mobile-field.ts";
import { ANSWER_WITHIN_DAYS, RETENTION_YEARS } from "./notice-facts.ts";

export type DataRequestKind = "access" | "correction" | "erasure";
export type DataRequestStatus = "open" | "done" | "refused";

/** Each kind of request, in English (staff pages); the borrower's page says it from the catalogue ("privacyRights.requestKinds"). */
export const REQUEST_KIND_LABEL: Record<DataRequestKind, string> = {
  access: "Download of your data",
  correction: "Correction",
  erasure: "Erasure",
};
/** The India date a request received on `receivedOn` is answered by. */
export const answerDueOn = (receivedOn: IsoDate): IsoDate => addDays(receivedOn, ANSWER_WITHIN_DAYS);

const text = (missing: string, min: number, max: number, short: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .min(min, short)
    .max(max, msg("validation.tooLong", { max: String(max) }));

/**
 * What the borrower wants corrected that they cannot change on their profile themselves: in English
 * (staff pages); the borrower's page says it from the catalogue ("privacyRights.correctionAreas").
 */
export const CORRECTION_AREAS = {
  profile: "My name, date of birth or PAN",
  address: "My address",
  bank: "My bank account",
  loan: "A loan, payment or charge",
  credit_report: "What was reported to a credit bureau",
  other: "Something else",
} as const;
export type CorrectionArea = keyof typeof CORRECTION_AREAS;

export const correctionSchema = z.object({
  area: z.enum(Object.keys(CORRECTION_AREAS) as [CorrectionArea], { error: msg("privacyRights.errors.area") }),
  wrong: text(msg("privacyRights.errors.wrong"), 5, 1000, msg("privacyRights.errors.wrongShort")),
  correct: text(msg("privacyRights.errors.correct"), 2, 1000, msg("privacyRights.errors.correct")),
});

export const erasureSchema = z.object({
  understood: z.literal("yes", { error: msg("privacyRights.errors.understood") }),
});

/** Who a nominee is to the borrower, in English (staff pages); the borrower's page says it from the catalogue ("privacyRights.relations"). */
export const NOMINEE_RELATIONS = {
  spouse: "Spouse",
  parent: "Parent",
  child: "Son or daughter",
  sibling: "Brother or sister",
  relative: "Other relative",
  other: "Someone else I trust",
} as const;

export const nomineeSchema = z.object({
  name: z
    .string({ error: msg("privacyRights.errors.nomineeName") })
    .superRefine((v, ctx) => {
      const problem = nameProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .transform((v) => v.trim().replace(/\s+/g, " ")),
  relationship: z.enum(Object.keys(NOMINEE_RELATIONS) as [keyof typeof NOMINEE_RELATIONS], {
    error: msg("privacyRights.errors.relationship"),
  }),
  mobile: indianMobileField(msg("validation.mobile.nominee")),
  email: z
    .email({ error: msg("privacyRights.errors.email") })
    .max(254, msg("validation.tooLong", { max: "254" }))
    .optional(),
});

/** Compliance's answer to a correction or an erasure (a staff page's form: English words). */
export const answerSchema = z.object({
  outcome: z.enum(["done", "refused"], { error: "Choose whether it was done." }),
  answer: text("Write the answer the borrower will read.", 20, 2000, "Write at least 20 characters: the borrower reads this."),
});

/** The facts an erasure's plan depends on. */
export interface ErasureFacts {
  /** A loan was ever paid out: a customer relationship the law keeps records of. */
  everDisbursed: boolean;
  /** A loan not yet closed, or an application still being decided or paid out. */
  ongoing: boolean;
  /** The day the last loan ended (closed, cancelled or written off and settled); null when none ended. */
  lastEndedOn: IsoDate | null;
  /**
   * The law keeps the identity record for a reason the borrower is not told (a sanctions match or a
   * suspicious-transaction report: PMLA s. 12); the plan keeps it with the general KYC reason.
   */
  legalHold: boolean;
}

export type ErasureGroup = "kyc" | "loan" | "other";

export interface ErasurePlanItem {
  group: ErasureGroup;
  action: "erase" | "keep";
  what: string;
  /** Why it is kept (empty when erased). */
  why: string;
  /** Until when it is kept: a date, while the loan runs, or as long as the law requires; null when erased. */
  until: IsoDate | "ongoing" | "law" | null;
}

// The plan's words in English: the plan is kept with the request, as the borrower was shown it, for
// compliance to read (staff pages are English); the borrower's page says each group's words from
// the catalogue ("privacyRights.plan").
const WHAT: Record<ErasureGroup, string> = {
  kyc: "Your identity and KYC records: your account's mobile number, profile, address, PAN, documents, selfie, consents and the central KYC number.",
  loan: "Your loan records: your work, income and bank account as you applied, credit checks, applications, agreements and KFS, schedules, payments, charges, autopay, collections, credit bureau reports, complaints, the notices we sent you and what you did in your account.",
  other: "Everything else: devices and sign-in records, one-time codes, your quick-start answers, your references and your nominee.",
};

const KEEP_WHY = {
  kyc: `The Prevention of Money Laundering Act, 2002 and the RBI's KYC directions require us to keep KYC records for ${RETENTION_YEARS.kyc} years after the relationship ends.`,
  loan: `The law requires us to keep loan and accounting records for ${RETENTION_YEARS.loan} years after a loan ends (Companies Act, 2013 and RBI directions).`,
  ongoing: "You have a loan or an application in progress: we need these records to run it.",
} as const;

/** Adds whole years to an ISO date (29 February goes to 28 February). */
function addYears(day: IsoDate, years: number): IsoDate {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y + years, m - 1, d));
  if (target.getUTCMonth() !== m - 1) target.setUTCDate(0);
  return target.toISOString().slice(0, 10);
}

/**
 * What an erasure does, group by group, as of `today`: with no loan ever paid out, everything is
 * erased; with one, KYC records are kept 5 years and loan records 8 years after the last loan ended
 * (while a loan or an application runs, both are kept for it), and erased once that day has passed.
 * The rest is always erased.
 */
export function erasurePlan(facts: ErasureFacts, today: IsoDate): ErasurePlanItem[] {
  const erase = (group: ErasureGroup): ErasurePlanItem => ({ group, action: "erase", what: WHAT[group], why: "", until: null });
  const byLaw = (group: "kyc" | "loan"): ErasurePlanItem => ({
    group,
    action: "keep",
    what: WHAT[group],
    why: KEEP_WHY[group],
    until: "law",
  });
  const kyc = (item: ErasurePlanItem) => (facts.legalHold && item.action === "erase" ? byLaw("kyc") : item);
  if (facts.ongoing)
    return [
      { group: "kyc", action: "keep", what: WHAT.kyc, why: `${KEEP_WHY.ongoing} ${KEEP_WHY.kyc}`, until: "ongoing" },
      { group: "loan", action: "keep", what: WHAT.loan, why: `${KEEP_WHY.ongoing} ${KEEP_WHY.loan}`, until: "ongoing" },
      erase("other"),
    ];
  if (!facts.everDisbursed) return [kyc(erase("kyc")), erase("loan"), erase("other")];
  // A loan paid out whose end is not known: kept, never erased on a guess.
  if (!facts.lastEndedOn) return [byLaw("kyc"), byLaw("loan"), erase("other")];
  const lastEndedOn = facts.lastEndedOn;
  const kept = (group: "kyc" | "loan"): ErasurePlanItem => {
    const until = addYears(lastEndedOn, RETENTION_YEARS[group]);
    return until < today ? erase(group) : { group, action: "keep", what: WHAT[group], why: KEEP_WHY[group], until };
  };
  return [kyc(kept("kyc")), kept("loan"), erase("other")];
}

/** "Kept until 27 Nov 2031, then erased.", in English (staff pages read the plan so). */
export const keptUntil = (until: ErasurePlanItem["until"]): string =>
  until === "ongoing"
    ? "Kept while your loan or application runs, then for the years the law requires."
    : until === "law"
      ? "Kept for as long as the law requires."
      : until
        ? `Kept until ${longDate(until)}, then erased.`
        : "Erased.";

/** Whether the account itself stays: its identity (the mobile number, the name) is a KYC record, kept while they are. */
export const accountStays = (plan: readonly ErasurePlanItem[]) => plan.some((i) => i.group === "kyc" && i.action === "keep");
