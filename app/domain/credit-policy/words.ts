/**
 * What people read about a policy verdict (docs/product.md "Credit policy"): the staff table's
 * labels, inputs and thresholds, and the borrower's plain words for each rule that stops or shrinks
 * an offer (never the score itself: "your credit history"). Every sentence is whole, in one place.
 */
import { longDate } from "../india-date.ts";
import { formatRupees } from "../money.ts";
import { bpsToPercentText } from "../settings-fields.ts";
import type { PolicyVerdict, RuleCode, RuleOutcome, RuleResult } from "./evaluate.ts";

export const RULE_LABEL: Record<RuleCode, string> = {
  pan: "PAN verified",
  bureau: "Bureau report on file (days old)",
  age: "Age (years)",
  income: "Net monthly income",
  salaried: "Salaried",
  salary_day: "Salary day",
  own_overdue: "Days past due on loans with us",
  own_written_off: "Loans with us written off",
  bureau_delinquency: "Bureau: written off or 90+ days past due in 12 months",
  recent_rejection: "Last rejection by us",
  active_loans: "Loans with us, active or applied for",
  bureau_score: "Bureau score",
  obligations: "All EMIs, the new one included, as a share of income",
  exposure: "Principal outstanding with us, this loan included",
  no_history_cap: "Amount without credit history",
  salary_cap: "Amount against the salary cap",
};

export const OUTCOME_LABEL: Record<RuleOutcome, string> = {
  pass: "Pass",
  fail: "Fail",
  deviation: "Deviation",
  missing: "Not known yet",
};

export const RULE_KIND_LABEL: Record<RuleResult["kind"], string> = {
  required: "Needed",
  hard_stop: "Hard stop",
  limit: "Limit",
};

const pct = (bps: number) => `${bpsToPercentText(bps)}%`;
const PAN_TEXT: Record<string, string> = {
  valid: "Valid",
  invalid: "Not found on record",
  not_individual: "Not an individual's PAN",
  name_mismatch: "Name or date of birth differs",
};

/** The staff table's "input" cell. */
export function ruleInputText(row: RuleResult): string {
  const v = row.input;
  if (v === null) return row.code === "recent_rejection" ? "None" : row.code === "bureau_score" ? "No report" : "Not known";
  switch (row.code) {
    case "pan":
      return PAN_TEXT[String(v)] ?? String(v);
    case "bureau":
      return `${longDate(String(v))} (${row.detail?.ageDays ?? "?"} days, ${row.detail?.reference ?? ""})`;
    case "income":
    case "exposure":
    case "no_history_cap":
    case "salary_cap":
      return formatRupees(Number(v));
    case "salaried":
      return v === "salaried" ? "Salaried" : "Self-employed";
    case "bureau_delinquency":
      return v ? "Yes" : "No";
    case "recent_rejection":
      return longDate(String(v));
    case "obligations": {
      const d = row.detail ?? {};
      return `${pct(Number(v))}: ${formatRupees(Number(d.totalPaise))} of ${formatRupees(Number(d.incomePaise))} (declared ${formatRupees(Number(d.declaredPaise))}, bureau ${formatRupees(Number(d.bureauPaise))}, our loans ${formatRupees(Number(d.ownLoansPaise))}, applications ${formatRupees(Number(d.pendingPaise))}, this loan ${formatRupees(Number(d.newPaise))})`;
    }
    case "bureau_score":
      return String(v);
    default:
      return String(v);
  }
}

/** The staff table's "threshold" cell. */
export function ruleThresholdText(row: RuleResult): string {
  const t = row.threshold;
  switch (row.code) {
    case "pan":
      return "Valid, name and date of birth match";
    case "bureau":
      return `At most ${t} days old`;
    case "age":
      return Array.isArray(t) ? `${t[0]}–${t[1]}` : String(t);
    case "income":
      return `At least ${formatRupees(Number(t))}`;
    case "salaried":
      return "Salaried";
    case "salary_day":
      return "A day from 1 to 31";
    case "own_overdue":
    case "own_written_off":
      return "None";
    case "bureau_delinquency":
      return "No";
    case "recent_rejection":
      return `None in the last ${t} days`;
    case "active_loans":
      return `Fewer than ${t}`;
    case "bureau_score":
      return `At least ${t}; below ${row.deviationThreshold} a deviation; no history allowed`;
    case "obligations":
      return `At most ${pct(Number(t))}; up to ${pct(row.deviationThreshold ?? Number(t))} a deviation`;
    case "exposure":
    case "no_history_cap":
    case "salary_cap":
      return `At most ${formatRupees(Number(t))}`;
  }
}

/**
 * The borrower's words for each rule that stops the offer or leaves it without an amount, in the
 * table's order. `minAmountPaise`: the product's smallest amount.
 */
export function borrowerReasons(v: PolicyVerdict, minAmountPaise: number): { code: RuleCode; message: string }[] {
  const reasons: { code: RuleCode; message: string }[] = [];
  const bureauMissing = v.rules.some((r) => r.code === "bureau" && r.outcome === "missing");
  for (const row of v.rules) {
    const stops = row.outcome === "fail" || row.outcome === "missing";
    // An offer is refused by a limit only when not even the smallest amount fits.
    if (!stops || (row.kind === "limit" && (v.asked || v.maxAmountPaise > 0))) continue;
    if (bureauMissing && (row.code === "bureau_score" || row.code === "bureau_delinquency")) continue;
    const message = reasonText(row, v, minAmountPaise);
    if (message) reasons.push({ code: row.code, message });
  }
  return reasons;
}

/** The borrower's words for one of the hard stops on their own record (which need no verdict around them). */
export function borrowerReason(row: RuleResult): string {
  return reasonText(row, null, 0) ?? "";
}

function reasonText(row: RuleResult, v: PolicyVerdict | null, minAmountPaise: number): string | null {
  const d = row.detail ?? {};
  switch (row.code) {
    case "pan":
      if (row.outcome === "missing") return "We need to verify your PAN before we can make you an offer.";
      if (row.input === "not_individual") return "The PAN in your profile is not an individual's PAN. Give your own PAN in your profile.";
      if (row.input === "name_mismatch")
        return "The name or date of birth on your PAN record does not match your profile. Check them in your profile.";
      return "We could not find your PAN in the Income Tax Department's records. Check the PAN in your profile.";
    case "bureau":
      return "We need to check your credit history with a credit bureau before we can make you an offer.";
    case "age": {
      const [min, max] = Array.isArray(row.threshold) ? row.threshold : [0, 0];
      return `You must be between ${min} and ${max} years old to borrow; you are ${row.input}.`;
    }
    case "income":
      return `Your net monthly income of ${formatRupees(Number(row.input))} is below the minimum of ${formatRupees(Number(row.threshold))}.`;
    case "salaried":
      return "A salary advance is only for salaried people, as it is repaid from your salary.";
    case "salary_day":
      return "Tell us the day of the month your salary arrives, so we can set the repayment date.";
    case "own_overdue":
      return Number(d.overduePaise) > 0
        ? `You have ${formatRupees(Number(d.overduePaise))} overdue on your loans with us. Pay it first: a new loan opens once your loans are up to date.`
        : "A loan of yours with us has an instalment past its due date. Pay it first: a new loan opens once your loans are up to date.";
    case "own_written_off":
      return "A loan of yours with us was written off, so we cannot offer you a new loan. Contact us if you think this is wrong.";
    case "bureau_delinquency":
      return "Your credit history shows a loan written off or unpaid for more than 90 days in the last 12 months, so we cannot offer you a loan now.";
    case "recent_rejection":
      return `We could not approve your last application. You can apply again from ${longDate(String(d.reapplyFrom))}.`;
    case "active_loans":
      return Number(row.threshold) === 1
        ? "You already have a loan with us (or an application not yet paid out), the most we lend at one time. You can apply again when it is repaid."
        : `You already have ${row.input} loans with us (counting applications not yet paid out), the most we lend at one time. You can apply again when one is repaid.`;
    case "bureau_score":
      return "Your credit history does not meet our lending policy at present.";
    case "obligations": {
      const existing = Number(d.totalPaise) - Number(d.newPaise);
      const share = pct(Number(row.threshold));
      if (v?.kind === "salary_advance")
        return `Your EMIs of ${formatRupees(existing)} a month, counting your loans with us and those in your credit report, are more than ${share} of your income.`;
      return Number(d.newPaise) === 0 || existing * 10_000 >= Number(d.incomePaise) * Number(row.threshold)
        ? `Your EMIs of ${formatRupees(existing)} a month, counting your loans with us and those in your credit report, already take ${share} or more of your income, the most we allow for all EMIs together.`
        : `Even the smallest loan of ${formatRupees(minAmountPaise)} over ${v?.tenureMonths} months would take your EMIs above ${share} of your income. A longer tenure may help.`;
    }
    case "exposure":
      return `You owe ${formatRupees(Number(d.usedPaise))} of principal on your loans with us (and applications not yet paid out). With a new loan of at least ${formatRupees(minAmountPaise)} that would pass ${formatRupees(Number(row.threshold))}, the most we lend to one person.`;
    case "no_history_cap":
      return `Without a credit history we can lend at most ${formatRupees(Number(row.threshold))} at first, which is below the smallest amount of this loan.`;
    case "salary_cap":
      return `${pct(Number(d.shareBps))} of your salary is below the smallest salary advance of ${formatRupees(minAmountPaise)}.`;
  }
}

/** What the review page says of the verdict on the amount signed. */
export const STAFF_VERDICT: Record<RuleOutcome | "sends_back", string> = {
  pass: "The amount signed passes the credit policy in force.",
  deviation: "The amount signed passes only with a deviation: a written reason and a second approver who is not the first.",
  fail: "The credit policy refuses this application: it cannot be approved, reject it.",
  missing: "A check the credit policy needs is missing: fetch it before deciding.",
  sends_back: "The credit policy now allows less than was signed: approving sends it back to the borrower for a fresh KFS and signature.",
};

/** What an EMI loan's offer counts besides the new EMI (the EMIs the borrower already pays), in words; null when nothing. */
export function obligationsNote(v: PolicyVerdict): string | null {
  const row = v.rules.find((r) => r.code === "obligations");
  const d = row?.detail;
  if (v.kind !== "emi" || !row || !d) return null;
  const existing = Number(d.totalPaise) - Number(d.newPaise);
  if (existing <= 0) return null;
  return `We count the ${formatRupees(existing)} a month of EMIs you already pay, your loans with us and those in your credit report included: all your EMIs together may take at most ${pct(Number(row.threshold))} of your income.`;
}
