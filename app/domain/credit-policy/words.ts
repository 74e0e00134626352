/**
 * What people read about a policy verdict (docs/product.md "Credit policy"): the staff table's
 * labels, inputs and thresholds, and the borrower's plain words for each rule that stops or shrinks
 * an offer (never the score itself: "your credit history"). Every sentence is whole, in one place.
 */
import { longDate } from "../india-date.ts";
import { formatRupees } from "../money.ts";
import { bpsToPercentText } from "../settings-fields.ts";
import { msg } from "../../i18n/form-message.ts";
import type { Language } from "../../i18n/languages.ts";
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
 * The borrower's words (keys of the catalogue, applyFlow.reasons: app/i18n/form-message.ts) for each rule that stops the offer or leaves it without an amount, in the
 * table's order. `minAmountPaise`: the product's smallest amount.
 */
export function borrowerReasons(
  v: PolicyVerdict,
  minAmountPaise: number,
  language: Language = "en",
): { code: RuleCode; message: string }[] {
  const reasons: { code: RuleCode; message: string }[] = [];
  const bureauMissing = v.rules.some((r) => r.code === "bureau" && r.outcome === "missing");
  for (const row of v.rules) {
    const stops = row.outcome === "fail" || row.outcome === "missing";
    // An offer is refused by a limit only when not even the smallest amount fits.
    if (!stops || (row.kind === "limit" && (v.asked || v.maxAmountPaise > 0))) continue;
    if (bureauMissing && (row.code === "bureau_score" || row.code === "bureau_delinquency")) continue;
    const message = reasonText(row, v, minAmountPaise, language);
    if (message) reasons.push({ code: row.code, message });
  }
  return reasons;
}

/** The borrower's words for one of the hard stops on their own record (which need no verdict around them). */
export function borrowerReason(row: RuleResult, language: Language = "en"): string {
  return reasonText(row, null, 0, language) ?? "";
}

function reasonText(row: RuleResult, v: PolicyVerdict | null, minAmountPaise: number, language: Language): string | null {
  const d = row.detail ?? {};
  switch (row.code) {
    case "pan":
      if (row.outcome === "missing") return msg("applyFlow.reasons.panMissing");
      if (row.input === "not_individual") return msg("applyFlow.reasons.panNotIndividual");
      if (row.input === "name_mismatch") return msg("applyFlow.reasons.panNameMismatch");
      return msg("applyFlow.reasons.panNotFound");
    case "bureau":
      return msg("applyFlow.reasons.bureau");
    case "age": {
      const [min, max] = Array.isArray(row.threshold) ? row.threshold : [0, 0];
      return msg("applyFlow.reasons.age", { min: Number(min), max: Number(max), age: String(row.input) });
    }
    case "income":
      return msg("applyFlow.reasons.income", { income: formatRupees(Number(row.input)), min: formatRupees(Number(row.threshold)) });
    case "salaried":
      return msg("applyFlow.reasons.salaried");
    case "salary_day":
      return msg("applyFlow.reasons.salaryDay");
    case "own_overdue":
      return Number(d.overduePaise) > 0
        ? msg("applyFlow.reasons.overdueAmount", { amount: formatRupees(Number(d.overduePaise)) })
        : msg("applyFlow.reasons.overdue");
    case "own_written_off":
      return msg("applyFlow.reasons.writtenOff");
    case "bureau_delinquency":
      return msg("applyFlow.reasons.delinquency");
    case "recent_rejection":
      // The date written in the page's language (`language`: the request's).
      return msg("applyFlow.reasons.recentRejection", { date: longDate(String(d.reapplyFrom), language) });
    case "active_loans":
      return Number(row.threshold) === 1
        ? msg("applyFlow.reasons.activeLoan")
        : msg("applyFlow.reasons.activeLoans", { count: String(row.input) });
    case "bureau_score":
      return msg("applyFlow.reasons.score");
    case "obligations": {
      const existing = Number(d.totalPaise) - Number(d.newPaise);
      const share = pct(Number(row.threshold));
      if (v?.kind === "salary_advance") return msg("applyFlow.reasons.obligationsAdvance", { amount: formatRupees(existing), share });
      return Number(d.newPaise) === 0 || existing * 10_000 >= Number(d.incomePaise) * Number(row.threshold)
        ? msg("applyFlow.reasons.obligationsFull", { amount: formatRupees(existing), share })
        : msg("applyFlow.reasons.obligationsSmallest", { min: formatRupees(minAmountPaise), months: String(v?.tenureMonths), share });
    }
    case "exposure":
      return msg("applyFlow.reasons.exposure", {
        used: formatRupees(Number(d.usedPaise)),
        min: formatRupees(minAmountPaise),
        max: formatRupees(Number(row.threshold)),
      });
    case "no_history_cap":
      return msg("applyFlow.reasons.noHistory", { max: formatRupees(Number(row.threshold)) });
    case "salary_cap":
      return msg("applyFlow.reasons.salaryCap", { share: pct(Number(d.shareBps)), min: formatRupees(minAmountPaise) });
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
  return msg("applyFlow.obligationsNote", { amount: formatRupees(existing), share: pct(Number(row.threshold)) });
}
