/**
 * The credit policy's one judgement (docs/product.md "Credit policy"): a pure function of explicit
 * inputs (the policy version, the product, the applicant's profile, PAN and bureau results, the
 * borrower's own loans and applications with the lender, the amount and tenure asked) that returns
 * each rule's input, threshold and result, and the largest amount and tenure that pass. The quick
 * start's offer, a new loan's steps, signing, the staff review and the disbursal all call it.
 *
 * One file on purpose (longer than the ~400 lines other files keep to): every rule of the policy
 * beside the others, so that the table a credit officer reads matches the code rule by rule.
 */
import type { LoanKind } from "../loans/application.ts";
import { addDays, daysBetween, emiPaise, type IsoDate } from "../loan-math.ts";
import { type ProductTerms, type RiskBand, rateForApplicant } from "../offer.ts";
import type { PolicyRules } from "./rules.ts";

export const RULE_CODES = [
  "pan",
  "bureau",
  "age",
  "income",
  "salaried",
  "salary_day",
  "own_overdue",
  "own_written_off",
  "recent_rejection",
  "active_loans",
  "bureau_delinquency",
  "bureau_score",
  "obligations",
  "exposure",
  "no_history_cap",
  "salary_cap",
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

/** required: a fact the decision needs; hard stop: never overridden; limit: shrinks the amount. */
export type RuleKind = "required" | "hard_stop" | "limit";
/** deviation: passes only with a written reason and a second approver; missing: not known yet (no offer). */
export type RuleOutcome = "pass" | "fail" | "deviation" | "missing";

export interface RuleResult {
  code: RuleCode;
  kind: RuleKind;
  outcome: RuleOutcome;
  /** What the rule looked at: a number (paise, basis points, days, a count, a score), a date, a status; null when unknown. */
  input: number | string | boolean | null;
  /** What it was held against (paise, basis points, days, a count, a score; [lowest, highest] for a range). */
  threshold: number | string | boolean | [number, number] | null;
  /** Where a deviation ends (a deviation rule only). */
  deviationThreshold?: number;
  /** The parts of the input, for the staff table and the borrower's words. */
  detail?: Record<string, number | string | null>;
}

export type PanStatus = "valid" | "invalid" | "not_individual" | "name_mismatch";

export interface BureauFacts {
  /** 300–900; null: no credit history (not a low score). */
  score: number | null;
  /** Monthly EMIs of the accounts the bureau reports, this lender's own included. */
  monthlyEmiPaise: number;
  /** The part of them on accounts the bureau shows as this lender's (counted from the ledger instead). */
  ourMonthlyEmiPaise: number;
  /** An account written off or 90+ days past due in the last 12 months. */
  seriousDelinquency: boolean;
  /** India date of the report. */
  pulledOn: IsoDate;
  reference: string;
}

/** One of the borrower's loans with the lender (from its ledger). */
export interface OwnLoan {
  reference: string;
  kind: LoanKind;
  status: "active" | "written_off";
  dpd: number;
  overduePaise: number;
  /** The EMI (a salary advance: its one repayment). */
  monthlyPaise: number;
  principalOutstandingPaise: number;
}

/** One of the borrower's applications with the lender signed and not yet disbursed (the one judged left out). */
export interface OwnApplication {
  reference: string;
  kind: LoanKind;
  amountPaise: number;
  monthlyPaise: number;
}

export interface PolicyInput {
  policy: { version: number; rules: PolicyRules };
  kind: LoanKind;
  product: ProductTerms;
  bands: readonly RiskBand[];
  applicant: {
    ageYears: number;
    netMonthlyIncomePaise: number;
    /** The EMIs the borrower told us they pay elsewhere. */
    declaredEmiPaise: number;
    employmentType: "salaried" | "self_employed";
    salaryDay: number | null;
  };
  /** The PAN verification's answer for the PAN on the profile; null before it is verified. */
  pan: PanStatus | null;
  /** The latest bureau report for that PAN; null when none was pulled. */
  bureau: BureauFacts | null;
  own: { loans: readonly OwnLoan[]; applications: readonly OwnApplication[]; lastRejectionOn: IsoDate | null };
  today: IsoDate;
  /** EMI loan: the tenure the table is for (the asked one when an amount is asked). */
  tenureMonths?: number | null;
  /**
   * The amount and tenure to judge (signing, review); none for an offer. `monthlyPaise`: the EMI of
   * the Key Fact Statement signed or about to be, counted for it instead of one at today's rate.
   */
  asked?: { amountPaise: number; tenureMonths: number | null; monthlyPaise?: number | null } | null;
}

export interface PolicyVerdict {
  version: number;
  kind: LoanKind;
  rules: RuleResult[];
  /** The rate of the risk band the obligations fit (EMI loan); the product's rate otherwise. */
  rateBps: number;
  /** The tenure the table is for (EMI loan). */
  tenureMonths: number | null;
  /** The largest amount that passes at that tenure (0: none). */
  maxAmountPaise: number;
  /** EMI loan: the largest amount that passes at each tenure (0: none). */
  maxByTenure: Record<number, number>;
  /** The largest amount at any tenure, and the longest tenure at which some amount passes. */
  best: { amountPaise: number; tenureMonths: number | null };
  asked: PolicyInput["asked"];
  /** pass; deviation: passes with a second approver; fail: refused; missing: a fact is not known yet. */
  result: RuleOutcome;
  /** Some amount passes (at some tenure) and nothing stops the borrower. */
  eligible: boolean;
  deviations: RuleCode[];
}

const room = (incomePaise: number, bps: number) => Math.floor((incomePaise * bps) / 10_000);
const outcomeOf = (value: number, limit: number, deviationLimit?: number): RuleOutcome =>
  value <= limit ? "pass" : deviationLimit !== undefined && value <= deviationLimit ? "deviation" : "fail";
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The borrower's monthly obligations: the larger of declared and bureau EMIs (not ours), plus our own loans and applications. */
export function obligationsOf(input: Pick<PolicyInput, "applicant" | "bureau" | "own">) {
  const bureauPaise = input.bureau ? Math.max(0, input.bureau.monthlyEmiPaise - input.bureau.ourMonthlyEmiPaise) : 0;
  const declaredPaise = input.applicant.declaredEmiPaise;
  const ownLoansPaise = sum(input.own.loans.filter((l) => l.status === "active").map((l) => l.monthlyPaise));
  const pendingPaise = sum(input.own.applications.map((a) => a.monthlyPaise));
  return {
    declaredPaise,
    bureauPaise,
    ownLoansPaise,
    pendingPaise,
    totalPaise: Math.max(declaredPaise, bureauPaise) + ownLoansPaise + pendingPaise,
  };
}

/** The facts a decision needs: the PAN verified, a fresh bureau report, age, income (and for a salary advance, a salary). */
function factRules(x: PolicyInput): RuleResult[] {
  const r = x.policy.rules;
  const a = x.applicant;
  const rows: RuleResult[] = [];
  rows.push({
    code: "pan",
    kind: "required",
    outcome: x.pan === null ? "missing" : x.pan === "valid" ? "pass" : "fail",
    input: x.pan,
    threshold: "valid",
  });
  const bureauAge = x.bureau ? daysBetween(x.bureau.pulledOn, x.today) : null;
  rows.push({
    code: "bureau",
    kind: "required",
    outcome: bureauAge === null || bureauAge > r.bureauMaxAgeDays ? "missing" : "pass",
    input: x.bureau?.pulledOn ?? null,
    threshold: r.bureauMaxAgeDays,
    detail: { ageDays: bureauAge, reference: x.bureau?.reference ?? null },
  });
  rows.push({
    code: "age",
    kind: "required",
    outcome: a.ageYears >= r.minAgeYears && a.ageYears <= r.maxAgeYears ? "pass" : "fail",
    input: a.ageYears,
    threshold: [r.minAgeYears, r.maxAgeYears],
  });
  rows.push({
    code: "income",
    kind: "required",
    outcome: outcomeOf(r.minIncomePaise, a.netMonthlyIncomePaise),
    input: a.netMonthlyIncomePaise,
    threshold: r.minIncomePaise,
  });
  if (x.kind === "salary_advance") {
    const salaried = a.employmentType === "salaried";
    rows.push({ code: "salaried", kind: "required", outcome: salaried ? "pass" : "fail", input: a.employmentType, threshold: "salaried" });
    const day = a.salaryDay;
    if (salaried)
      rows.push({
        code: "salary_day",
        kind: "required",
        outcome: day !== null && day >= 1 && day <= 31 ? "pass" : "fail",
        input: day,
        threshold: null,
      });
  }
  return rows;
}

/** What the hard stops on the borrower's own record read of it (a part of PolicyInput's `own`). */
export interface OwnRecordFacts {
  loans: readonly Pick<OwnLoan, "status" | "dpd" | "overduePaise">[];
  /** Applications signed and not yet paid out: only their number counts here. */
  applications: readonly unknown[];
  lastRejectionOn: IsoDate | null;
}

/**
 * The hard stops on the borrower's own record with the lender (a loan overdue or written off, a
 * recent rejection, too many loans): known before any credit check, so they also decide whether a
 * new application may start at all.
 */
export function ownRecordRules(x: { policy: Pick<PolicyInput["policy"], "rules">; own: OwnRecordFacts; today: IsoDate }): RuleResult[] {
  const r = x.policy.rules;
  const rows: RuleResult[] = [];
  const active = x.own.loans.filter((l) => l.status === "active");
  const maxDpd = Math.max(0, ...active.map((l) => l.dpd));
  rows.push({
    code: "own_overdue",
    kind: "hard_stop",
    outcome: maxDpd > 0 ? "fail" : "pass",
    input: maxDpd,
    threshold: 0,
    detail: { overduePaise: sum(active.map((l) => l.overduePaise)) },
  });
  const writtenOff = x.own.loans.filter((l) => l.status === "written_off").length;
  rows.push({ code: "own_written_off", kind: "hard_stop", outcome: writtenOff > 0 ? "fail" : "pass", input: writtenOff, threshold: 0 });
  const last = x.own.lastRejectionOn;
  const reapplyFrom = last ? addDays(last, r.rejectionCoolOffDays) : null;
  rows.push({
    code: "recent_rejection",
    kind: "hard_stop",
    outcome: reapplyFrom && reapplyFrom > x.today ? "fail" : "pass",
    input: last,
    threshold: r.rejectionCoolOffDays,
    detail: { reapplyFrom },
  });
  const count = active.length + x.own.applications.length;
  rows.push({
    code: "active_loans",
    kind: "hard_stop",
    outcome: count >= r.maxActiveLoans ? "fail" : "pass",
    input: count,
    threshold: r.maxActiveLoans,
    detail: { loans: active.length, applications: x.own.applications.length },
  });
  return rows;
}

/** The hard stops on the bureau report: a serious delinquency, a score below the policy's (a band of it a deviation). */
function bureauRules(x: PolicyInput): RuleResult[] {
  const r = x.policy.rules;
  const score = x.bureau ? x.bureau.score : null;
  return [
    {
      code: "bureau_delinquency",
      kind: "hard_stop",
      outcome: x.bureau ? (x.bureau.seriousDelinquency ? "fail" : "pass") : "missing",
      input: x.bureau ? x.bureau.seriousDelinquency : null,
      threshold: false,
    },
    {
      code: "bureau_score",
      kind: "hard_stop",
      outcome: !x.bureau
        ? "missing"
        : score === null || score >= r.deviationScoreBelow
          ? "pass"
          : score >= r.minBureauScore
            ? "deviation"
            : "fail",
      input: score,
      threshold: r.minBureauScore,
      deviationThreshold: r.deviationScoreBelow,
    },
  ];
}

/** Every rule that does not depend on the amount: the facts needed and the hard stops. */
const standingRules = (x: PolicyInput): RuleResult[] => [...factRules(x), ...ownRecordRules(x), ...bureauRules(x)];

interface Limits {
  /** The most any amount may be: the product's largest, the exposure room, the no-history cap, the salary cap. */
  capPaise: number;
  exposureUsedPaise: number;
  obligations: ReturnType<typeof obligationsOf>;
  rateBps: number;
}

/** The amount-dependent rules at one amount (and tenure), each against its limit. */
function limitRules(x: PolicyInput, l: Limits, amountPaise: number, tenureMonths: number | null): RuleResult[] {
  const r = x.policy.rules;
  const income = x.applicant.netMonthlyIncomePaise;
  const o = l.obligations;
  const rows: RuleResult[] = [];
  const signed = x.asked?.monthlyPaise != null && x.asked.amountPaise === amountPaise ? x.asked.monthlyPaise : null;
  const newPaise = x.kind === "emi" ? (signed ?? emiPaise(amountPaise, l.rateBps, tenureMonths ?? x.product.minTenure)) : 0;
  const total = o.totalPaise + newPaise;
  const [maxBps, devBps] =
    x.kind === "emi" ? [r.maxObligationsBps, r.deviationObligationsBps] : [r.salaryAdvanceMaxObligationsBps, r.deviationObligationsBps];
  rows.push({
    code: "obligations",
    kind: "limit",
    outcome: outcomeOf(total, room(income, maxBps), room(income, Math.max(maxBps, devBps))),
    input: income > 0 ? Math.ceil((total * 10_000) / income) : null,
    threshold: maxBps,
    deviationThreshold: Math.max(maxBps, devBps),
    detail: {
      incomePaise: income,
      declaredPaise: o.declaredPaise,
      bureauPaise: o.bureauPaise,
      ownLoansPaise: o.ownLoansPaise,
      pendingPaise: o.pendingPaise,
      newPaise,
      totalPaise: total,
    },
  });
  rows.push(exposureRule(r, l.exposureUsedPaise, amountPaise));
  if (x.bureau && x.bureau.score === null)
    rows.push({
      code: "no_history_cap",
      kind: "limit",
      outcome: outcomeOf(amountPaise, r.noHistoryMaxAmountPaise),
      input: amountPaise,
      threshold: r.noHistoryMaxAmountPaise,
    });
  if (x.kind === "salary_advance") {
    const cap = room(income, r.salaryAdvanceMaxSalaryBps);
    rows.push({
      code: "salary_cap",
      kind: "limit",
      outcome: outcomeOf(amountPaise, cap),
      input: amountPaise,
      threshold: cap,
      detail: { shareBps: r.salaryAdvanceMaxSalaryBps },
    });
  }
  return rows;
}

/** Principal outstanding with the lender (`usedPaise`: loans and applications not yet paid out) plus this amount, against the limit. */
export function exposureRule(r: Pick<PolicyRules, "maxExposurePaise">, usedPaise: number, amountPaise: number): RuleResult {
  const exposure = usedPaise + amountPaise;
  return {
    code: "exposure",
    kind: "limit",
    outcome: outcomeOf(exposure, r.maxExposurePaise),
    input: exposure,
    threshold: r.maxExposurePaise,
    detail: { usedPaise, amountPaise },
  };
}

/** The largest amount on the product's steps, from its smallest to `cap`, that `fits`; 0 when none does. */
function largest(product: ProductTerms, capPaise: number, fits: (amountPaise: number) => boolean): number {
  const step = product.amountStepPaise;
  let lo = Math.ceil(product.minAmountPaise / step);
  let hi = Math.floor(Math.min(capPaise, product.maxAmountPaise) / step);
  if (hi < lo || !fits(lo * step)) return 0;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid * step)) lo = mid;
    else hi = mid - 1;
  }
  return lo * step;
}

const blocks = (row: RuleResult) => row.kind !== "limit" && (row.outcome === "fail" || row.outcome === "missing");

export function evaluatePolicy(x: PolicyInput): PolicyVerdict {
  const r = x.policy.rules;
  const p = x.product;
  const income = x.applicant.netMonthlyIncomePaise;
  const standing = standingRules(x);
  const obligations = obligationsOf(x);
  const exposureUsedPaise =
    sum(x.own.loans.filter((l) => l.status === "active").map((l) => l.principalOutstandingPaise)) +
    sum(x.own.applications.map((a) => a.amountPaise));
  const caps = [p.maxAmountPaise, r.maxExposurePaise - exposureUsedPaise];
  if (x.bureau && x.bureau.score === null) caps.push(r.noHistoryMaxAmountPaise);
  if (x.kind === "salary_advance") caps.push(room(income, r.salaryAdvanceMaxSalaryBps));
  const rateBps =
    x.kind === "emi"
      ? rateForApplicant({ netMonthlyIncomePaise: income, existingEmiPaise: obligations.totalPaise }, x.bands, p.rateBps)
      : p.rateBps;
  const limits: Limits = { capPaise: Math.min(...caps), exposureUsedPaise, obligations, rateBps };
  const blocked = standing.some(blocks);
  const passes = (amountPaise: number, tenure: number | null) =>
    limitRules(x, limits, amountPaise, tenure).every((row) => row.outcome === "pass");

  const maxByTenure: Record<number, number> = {};
  let tableTenure: number | null = null;
  let maxAmountPaise = 0;
  let best = { amountPaise: 0, tenureMonths: null as number | null };
  if (x.kind === "emi") {
    const clamp = (t: number) => Math.min(p.maxTenure, Math.max(p.minTenure, Math.round(t)));
    tableTenure = clamp(x.asked?.tenureMonths ?? x.tenureMonths ?? p.maxTenure);
    for (let t = p.minTenure; t <= p.maxTenure; t++) {
      const most = blocked ? 0 : largest(p, limits.capPaise, (amount) => passes(amount, t));
      maxByTenure[t] = most;
      if (most > 0) best = { amountPaise: Math.max(best.amountPaise, most), tenureMonths: t };
    }
    maxAmountPaise = maxByTenure[tableTenure] ?? 0;
  } else {
    maxAmountPaise = blocked ? 0 : largest(p, limits.capPaise, (amount) => passes(amount, null));
    best = { amountPaise: maxAmountPaise, tenureMonths: null };
  }
  const asked = x.asked ?? null;
  // The table shows the limits at the amount asked, else at the offer, else at the smallest amount (to show what stops it).
  const shownAmount = asked?.amountPaise ?? (maxAmountPaise || p.minAmountPaise);
  // An offer is judged strictly (its amount passes every limit); only an amount asked may pass as a deviation.
  const limitRows = limitRules(x, limits, shownAmount, tableTenure).map((row) =>
    !asked && row.outcome === "deviation" ? { ...row, outcome: "fail" as const } : row,
  );
  const rules = [...standing, ...limitRows];
  const deviations = rules.filter((row) => row.outcome === "deviation").map((row) => row.code);
  const result: RuleOutcome = rules.some((row) => row.outcome === "missing")
    ? "missing"
    : rules.some((row) => row.outcome === "fail") || (!asked && maxAmountPaise === 0)
      ? "fail"
      : deviations.length
        ? "deviation"
        : "pass";
  return {
    version: x.policy.version,
    kind: x.kind,
    rules,
    rateBps,
    tenureMonths: tableTenure,
    maxAmountPaise,
    maxByTenure,
    best,
    asked,
    result,
    eligible: !blocked && best.amountPaise > 0,
    deviations,
  };
}
