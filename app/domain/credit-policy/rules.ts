/**
 * The credit policy's rules as data (docs/product.md "Credit policy"): the parameters a lender sets,
 * their defaults (the first version every installation starts from), the administrator's form (one
 * schema for the browser and the server) and what changed between two versions.
 */
import { z } from "zod";
import { bpsToPercentText, paiseToRupeesText, percentField, rupeesField, wholeField } from "../settings-fields.ts";
import { formatRupees } from "../money.ts";

/** One version of the policy's parameters. Money in paise, shares of income in basis points. */
export interface PolicyRules {
  /** Both products: the borrower's age on the day of the offer, in whole years. */
  minAgeYears: number;
  maxAgeYears: number;
  /** Both products: net monthly income at least this. */
  minIncomePaise: number;
  /** Hard stop: this many loans with the lender (active, or applied for and not yet disbursed) already. */
  maxActiveLoans: number;
  /** Hard stop: a rejection by the lender fewer than this many days ago (on the day this many days after it, a new application is open). */
  rejectionCoolOffDays: number;
  /** Hard stop: a bureau score below this (no credit history is not a score). */
  minBureauScore: number;
  /** Deviation: a score from minBureauScore up to (not including) this needs a second approver. */
  deviationScoreBelow: number;
  /** Limit: all EMIs, the new one included, at most this share of income. */
  maxObligationsBps: number;
  /** Deviation: up to this share with a second approver. */
  deviationObligationsBps: number;
  /** Limit: principal outstanding with the lender plus the new amount. */
  maxExposurePaise: number;
  /** Limit: the most for a borrower without credit history. */
  noHistoryMaxAmountPaise: number;
  /** Salary advance: at most this share of the net monthly salary. */
  salaryAdvanceMaxSalaryBps: number;
  /** Salary advance: existing EMIs (not the advance) at most this share of income. */
  salaryAdvanceMaxObligationsBps: number;
  /** A bureau report older than this many days is pulled again (before an offer, at review). */
  bureauMaxAgeDays: number;
}

/** The first version: the defaults of a new installation (docs/product.md "Credit policy"). */
export const DEFAULT_POLICY_RULES: PolicyRules = {
  minAgeYears: 21,
  maxAgeYears: 60,
  minIncomePaise: 15_000_00,
  maxActiveLoans: 2,
  rejectionCoolOffDays: 30,
  minBureauScore: 600,
  deviationScoreBelow: 650,
  maxObligationsBps: 5000,
  deviationObligationsBps: 6000,
  maxExposurePaise: 5_00_000_00,
  noHistoryMaxAmountPaise: 50_000_00,
  salaryAdvanceMaxSalaryBps: 5000,
  salaryAdvanceMaxObligationsBps: 5000,
  bureauMaxAgeDays: 30,
};

type Unit = "rupees" | "percent" | "years" | "days" | "count" | "score";

/** Each parameter as the administrator's page names it, in the order shown. */
export const POLICY_FIELDS: readonly { key: keyof PolicyRules; label: string; unit: Unit; group: string }[] = [
  { key: "minAgeYears", label: "Youngest age", unit: "years", group: "Who may borrow" },
  { key: "maxAgeYears", label: "Oldest age", unit: "years", group: "Who may borrow" },
  { key: "minIncomePaise", label: "Smallest net monthly income", unit: "rupees", group: "Who may borrow" },
  { key: "maxActiveLoans", label: "Loans with us at one time (a new one is refused at this many)", unit: "count", group: "Hard stops" },
  { key: "rejectionCoolOffDays", label: "Days after a rejection before a new application", unit: "days", group: "Hard stops" },
  { key: "minBureauScore", label: "Lowest bureau score", unit: "score", group: "Hard stops" },
  { key: "maxObligationsBps", label: "All EMIs, the new one included, as a share of income", unit: "percent", group: "Limits" },
  { key: "maxExposurePaise", label: "Principal outstanding with us, the new loan included", unit: "rupees", group: "Limits" },
  { key: "noHistoryMaxAmountPaise", label: "Most for a borrower without credit history", unit: "rupees", group: "Limits" },
  { key: "salaryAdvanceMaxSalaryBps", label: "Salary advance: share of net monthly salary", unit: "percent", group: "Limits" },
  { key: "salaryAdvanceMaxObligationsBps", label: "Salary advance: existing EMIs as a share of income", unit: "percent", group: "Limits" },
  { key: "deviationScoreBelow", label: "Scores below this need a deviation", unit: "score", group: "Deviations (a second approver)" },
  {
    key: "deviationObligationsBps",
    label: "All EMIs as a share of income, with a deviation",
    unit: "percent",
    group: "Deviations (a second approver)",
  },
  { key: "bureauMaxAgeDays", label: "A bureau report is pulled again after this many days", unit: "days", group: "Credit bureau" },
];

/** A parameter's value as a person reads it. */
export function formatPolicyValue(key: keyof PolicyRules, value: number): string {
  const unit = POLICY_FIELDS.find((f) => f.key === key)?.unit;
  switch (unit) {
    case "rupees":
      return formatRupees(value);
    case "percent":
      return `${bpsToPercentText(value)}%`;
    case "years":
      return `${value} years`;
    case "days":
      return `${value} days`;
    default:
      return String(value);
  }
}

/** The form's text for each parameter (rupees and percent as typed). */
export function policyFormValues(rules: PolicyRules): Record<string, string> {
  const values: Record<string, string> = {};
  for (const f of POLICY_FIELDS) {
    const v = rules[f.key];
    values[f.key] = f.unit === "rupees" ? paiseToRupeesText(v) : f.unit === "percent" ? bpsToPercentText(v) : String(v);
  }
  return values;
}

/** The administrator's proposal: every parameter and the reason, checked as a whole. */
export const policyProposalSchema = z
  .object({
    minAgeYears: wholeField("The youngest age", 18, 100),
    maxAgeYears: wholeField("The oldest age", 18, 100),
    minIncomePaise: rupeesField("The smallest income", { max: 10_00_000_00 }),
    maxActiveLoans: wholeField("The number of loans at one time", 1, 20),
    rejectionCoolOffDays: wholeField("The days after a rejection", 0, 3650),
    minBureauScore: wholeField("The lowest bureau score", 300, 900),
    deviationScoreBelow: wholeField("The score below which a deviation is needed", 300, 900),
    maxObligationsBps: percentField("The share of income for EMIs", 10000, { minBps: 100 }),
    deviationObligationsBps: percentField("The share of income with a deviation", 10000, { minBps: 100 }),
    maxExposurePaise: rupeesField("The exposure limit", { min: 100, max: 1_00_00_000_00 }),
    noHistoryMaxAmountPaise: rupeesField("The most without credit history", { max: 1_00_00_000_00 }),
    salaryAdvanceMaxSalaryBps: percentField("The share of salary", 10000, { minBps: 100 }),
    salaryAdvanceMaxObligationsBps: percentField("The share of income for a salary advance", 10000, { minBps: 100 }),
    bureauMaxAgeDays: wholeField("The age of a bureau report", 1, 365),
    reason: z
      .string({ error: "Say why the policy changes." })
      .trim()
      .min(10, "Say why the policy changes (at least 10 characters): it is kept with the version.")
      .max(1000, "At most 1,000 characters."),
  })
  .superRefine(
    (v, ctx) => {
      // Each pair is compared once both of its fields read as numbers (so their errors show together with the others').
      const both = (a: unknown, b: unknown) => Number.isFinite(a) && Number.isFinite(b);
      if (both(v.minAgeYears, v.maxAgeYears) && v.minAgeYears > v.maxAgeYears)
        ctx.addIssue({ code: "custom", path: ["maxAgeYears"], message: "The oldest age must be at least the youngest." });
      if (both(v.minBureauScore, v.deviationScoreBelow) && v.deviationScoreBelow < v.minBureauScore)
        ctx.addIssue({
          code: "custom",
          path: ["deviationScoreBelow"],
          message: "It must be at least the lowest bureau score (equal to it means no deviation band).",
        });
      if (both(v.maxObligationsBps, v.deviationObligationsBps) && v.deviationObligationsBps < v.maxObligationsBps)
        ctx.addIssue({
          code: "custom",
          path: ["deviationObligationsBps"],
          message: "It must be at least the share allowed without a deviation.",
        });
    },
    { when: () => true },
  )
  .transform(({ reason, ...rules }) => ({ rules: rules satisfies PolicyRules, reason }));

/** What a proposal changes: each parameter whose value differs, before and after. */
export function policyDiff(before: PolicyRules, after: PolicyRules) {
  return POLICY_FIELDS.filter((f) => before[f.key] !== after[f.key]).map((f) => ({
    key: f.key,
    label: f.label,
    before: formatPolicyValue(f.key, before[f.key]),
    after: formatPolicyValue(f.key, after[f.key]),
  }));
}

/** A stored version's rules with any parameter it lacks (a version from before the parameter existed) at its default. */
export const completeRules = (stored: Partial<PolicyRules>): PolicyRules => ({ ...DEFAULT_POLICY_RULES, ...stored });
