/**
 * The providers' answers as the credit policy reads them (docs/product.md "Credit policy"): a PAN
 * verification becomes a status, a bureau report the facts the rules use.
 */
import type { IsoDate } from "../loan-math.ts";
import type { BureauReport, PanCheck } from "../review.ts";
import type { BureauFacts, PanStatus } from "./evaluate.ts";

/** A PAN counts as verified when it is an individual's on record with the profile's name (80 of 100 or better) and date of birth. */
export const NAME_MATCH_AT_LEAST = 80;

export function panStatusOf(check: PanCheck): PanStatus {
  if (check.status !== "valid") return check.status;
  return check.nameMatch >= NAME_MATCH_AT_LEAST && check.dateOfBirthMatches ? "valid" : "name_mismatch";
}

/** The facts of a report (null for one from before the policy, which lacks them: it is pulled again). */
export function bureauFactsOf(report: BureauReport, pulledOn: IsoDate): BureauFacts | null {
  if (report.monthlyEmiPaise === undefined || report.seriousDelinquency === undefined) return null;
  return {
    score: report.score,
    monthlyEmiPaise: report.monthlyEmiPaise,
    ourMonthlyEmiPaise: report.ourMonthlyEmiPaise ?? 0,
    seriousDelinquency: report.seriousDelinquency,
    pulledOn,
    reference: report.reference,
  };
}
