/**
 * Annual percentage rate by the RBI Key Fact Statement method (PRODUCT.md §4).
 *
 * EMI loan: net disbursed = sanctioned amount − every upfront charge (fee and
 * its GST); APR = 12 × the monthly internal rate of return of
 * (−net disbursed, +instalment 1, …, +instalment n), in percent, two decimals.
 *
 * Salary advance: APR = (total repayable ÷ net disbursed − 1) × 365 ÷ days × 100.
 */
import { divHalfUpBig } from "./money.ts";

/** Thrown when the cash flows have no internal rate of return. */
export class IrrError extends RangeError {
  override name = "IrrError";
}

/**
 * The monthly IRR x of: −net at month 0 and payments[i] at month i + 1, i.e.
 * the root of  Σ payments[i]·v^(i+1) = net  with v = 1/(1+x).
 *
 * Solved for the discount factor v, where the left side is a polynomial with
 * non-negative coefficients: increasing and convex for v > 0. Newton's method
 * on such a function converges from any start (a step from the left lands to
 * the right of the root; from the right it descends monotonically), and each
 * iteration is one Horner pass giving the value and the derivative together,
 * with no division or power. A bracket is kept anyway, with bisection when a
 * step leaves it (only possible with negative payments or float trouble).
 * Typically 3–5 passes from the nominal-rate guess.
 *
 * `guessMonthly` is the starting monthly rate (e.g. nominal annual ÷ 1200).
 */
export function monthlyIrr(netPaise: number, payments: readonly number[], guessMonthly = 0.01): number {
  const n = payments.length;
  if (n === 0) throw new IrrError("no payments");
  if (!(netPaise > 0)) throw new IrrError("the net disbursed amount must be positive");
  let total = 0;
  let anyNegative = false;
  for (let i = 0; i < n; i++) {
    const p = payments[i] as number;
    total += p;
    if (p < 0) anyNegative = true;
  }
  if (!(total > 0)) throw new IrrError("the payments must add up to more than zero");
  if (total === netPaise && !anyNegative) return 0;

  // f(v) = Σ p_i v^i − net and f'(v), by Horner from the highest power.
  let f = 0;
  let df = 0;
  const evaluate = (v: number) => {
    let b = payments[n - 1] as number;
    let d = 0;
    for (let i = n - 2; i >= 0; i--) {
      d = d * v + b;
      b = b * v + (payments[i] as number);
    }
    // Multiply by v once more (the lowest power is v^1).
    df = d * v + b;
    f = b * v - netPaise;
  };

  // Bracket [lo, hi] in v with f(lo) < 0 < f(hi); f(0) = −net < 0.
  let lo = 0;
  let hi = Number.POSITIVE_INFINITY;
  let v = 1 / (1 + (guessMonthly > -0.99 ? guessMonthly : 0.01));
  for (let iteration = 0; iteration < 200; iteration++) {
    evaluate(v);
    if (f === 0) break;
    if (f < 0) lo = v;
    else hi = v;
    let next = df > 0 ? v - f / df : Number.NaN;
    if (!(next > lo && next < hi)) next = Number.isFinite(hi) ? (lo + hi) / 2 : Math.max(2 * v, 1);
    if (Math.abs(next - v) <= 1e-14 * v) {
      v = next;
      break;
    }
    v = next;
  }
  if (!(v > 0) || !Number.isFinite(v)) throw new IrrError("no internal rate of return found");
  return 1 / v - 1;
}

/** A percentage rounded half-up to two decimals (float input, e.g. 17.999999999 → 18). */
export function roundPercent2(percent: number): number {
  const scaled = percent * 100;
  // Absorb float noise from the solver (±1e-9 of a hundredth) before rounding.
  const nearest = Math.round(scaled);
  const value = Math.abs(scaled - nearest) < 1e-6 ? nearest : Math.sign(scaled) * Math.floor(Math.abs(scaled) + 0.5);
  return value / 100 + 0;
}

/**
 * APR of an instalment loan in percent with two decimals: 12 × the monthly
 * IRR of (−net disbursed, +each payment). `nominalAnnualBps`, when known, only
 * seeds the solver.
 */
export function aprPercent(netDisbursedPaise: number, payments: readonly number[], nominalAnnualBps?: number): number {
  const guess = nominalAnnualBps !== undefined && nominalAnnualBps > 0 ? nominalAnnualBps / 120_000 : 0.01;
  return aprPercentFromIrr(monthlyIrr(netDisbursedPaise, payments, guess));
}

/** APR percent (two decimals) from a monthly IRR: 12 × rate × 100, rounded half-up. */
export function aprPercentFromIrr(monthlyRate: number): number {
  return roundPercent2(12 * monthlyRate * 100);
}

/**
 * APR of a single-repayment loan (the salary advance), exactly in integers:
 * (repayable ÷ net − 1) × 365 ÷ days × 100, rounded half-up to two decimals.
 */
export function singlePaymentAprPercent(totalRepayablePaise: number, netDisbursedPaise: number, days: number): number {
  if (!(netDisbursedPaise > 0)) throw new RangeError("the net disbursed amount must be positive");
  if (!(days > 0) || !Number.isInteger(days)) throw new RangeError(`days must be a positive whole number, got ${days}`);
  // Hundredths of a percent: (T − N) · 365 · 100 · 100 / (N · days).
  const hundredths = divHalfUpBig(
    BigInt(totalRepayablePaise - netDisbursedPaise) * 3_650_000n,
    BigInt(netDisbursedPaise) * BigInt(days),
  );
  return Number(hundredths) / 100;
}

/**
 * Present value of payments at a monthly rate (payment i at month i + 1), for
 * checks and displays: Σ payments[i] / (1 + x)^(i+1).
 */
export function presentValue(payments: readonly number[], monthlyRate: number): number {
  const v = 1 / (1 + monthlyRate);
  let discount = 1;
  let sum = 0;
  for (const p of payments) {
    discount *= v;
    sum += p * discount;
  }
  return sum;
}
