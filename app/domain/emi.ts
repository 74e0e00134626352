/**
 * EMI loans, exactly as PRODUCT.md §4 says:
 *
 * - monthly rate r = annual % ÷ 1200 (here: annualRateBps ÷ 120 000);
 * - EMI = P·r·(1+r)^n ÷ ((1+r)^n − 1), rounded half-up to the paisa; at 0%, P ÷ n
 *   rounded half-up;
 * - each month: interest = opening balance × r, rounded half-up to the paisa
 *   (exact integer arithmetic: opening × bps ÷ 120 000); principal = EMI − interest;
 * - the last instalment is the remaining principal plus that month's interest;
 * - instalment i falls due i calendar months after disbursal, clamped to the
 *   month's end, always counted from the disbursal date.
 *
 * How the EMI is rounded: the formula needs a power, so it is evaluated in
 * float64, as P·r·(1 + 1/((1+r)^n − 1)) with (1+r)^n − 1 = expm1(n·log1p(r)),
 * which keeps the relative error near 1e-14 even for tiny rates (no
 * cancellation in (1+r)^n − 1). A float result is only trusted for rounding
 * when it is clearly away from a half paisa; within 1e-9 paise + 1e-12
 * relative of x.5 the EMI is recomputed exactly as a BigInt fraction,
 * P·b·(D+b)^n ÷ (D·((D+b)^n − D^n)) with D = 120 000 and b = bps, and rounded
 * half-up on integers. So an EMI that is truly 1724.5 paise becomes 1725, and
 * a float 1724.4999999999998 that is "really" 1724.5 cannot round down.
 */
import { aprPercentFromIrr, monthlyIrr } from "./apr.ts";
import { addMonthsClamped, type IsoDate } from "./dates.ts";
import { divHalfUp, divHalfUpBig, mulDivHalfUp, roundHalfUp } from "./money.ts";

/** 120 000: bps per 1% × 100% × 12 months; monthly rate = bps ÷ this. */
export const MONTHLY_RATE_DENOMINATOR = 120_000;

export interface ScheduleLine {
  /** 1-based. */
  instalment: number;
  /** Present when the loan has a disbursal date. */
  dueDate?: IsoDate;
  openingPaise: number;
  interestPaise: number;
  principalPaise: number;
  paymentPaise: number;
  closingPaise: number;
}

export interface EmiLoanInput {
  principalPaise: number;
  /** Annual rate in basis points: 1850 = 18.5% a year. */
  annualRateBps: number;
  months: number;
  /** When given, instalment i is due i calendar months later (clamped). */
  disbursalDate?: IsoDate;
}

export interface EmiSchedule {
  emiPaise: number;
  schedule: ScheduleLine[];
  totalInterestPaise: number;
  totalPayablePaise: number;
}

function checkLoan(principalPaise: number, annualRateBps: number, months: number): void {
  if (!Number.isSafeInteger(principalPaise) || principalPaise <= 0) {
    throw new RangeError(`principal must be a positive whole number of paise, got ${principalPaise}`);
  }
  if (!Number.isSafeInteger(annualRateBps) || annualRateBps < 0) {
    throw new RangeError(`annual rate must be whole basis points, zero or more, got ${annualRateBps}`);
  }
  if (!Number.isSafeInteger(months) || months < 1) {
    throw new RangeError(`months must be a whole number from 1, got ${months}`);
  }
}

/** The EMI computed exactly with BigInt fractions (slow for long tenures; used near ties and in tests). */
export function emiPaiseExact(principalPaise: number, annualRateBps: number, months: number): number {
  checkLoan(principalPaise, annualRateBps, months);
  if (annualRateBps === 0) return divHalfUp(principalPaise, months);
  const D = BigInt(MONTHLY_RATE_DENOMINATOR);
  const b = BigInt(annualRateBps);
  const growth = (D + b) ** BigInt(months);
  const base = D ** BigInt(months);
  return Number(divHalfUpBig(BigInt(principalPaise) * b * growth, D * (growth - base)));
}

/** The EMI in paise, rounded half-up (see the module comment for how ties are made exact). */
export function emiPaise(principalPaise: number, annualRateBps: number, months: number): number {
  checkLoan(principalPaise, annualRateBps, months);
  if (annualRateBps === 0) return divHalfUp(principalPaise, months);
  const r = annualRateBps / MONTHLY_RATE_DENOMINATOR;
  const growthMinusOne = Math.expm1(months * Math.log1p(r));
  const emi = principalPaise * r * ((growthMinusOne + 1) / growthMinusOne);
  const fraction = emi - Math.floor(emi);
  if (Math.abs(fraction - 0.5) <= 1e-9 + emi * 1e-12 || !Number.isFinite(emi)) {
    return emiPaiseExact(principalPaise, annualRateBps, months);
  }
  return roundHalfUp(emi);
}

/** One month's interest on a balance: balance × bps ÷ 120 000, rounded half-up, exact. */
export function monthlyInterestPaise(balancePaise: number, annualRateBps: number): number {
  return mulDivHalfUp(balancePaise, annualRateBps, MONTHLY_RATE_DENOMINATOR);
}

/** The reducing-balance repayment schedule (PRODUCT.md §4). */
export function emiSchedule(input: EmiLoanInput): EmiSchedule {
  const { principalPaise, annualRateBps, months, disbursalDate } = input;
  const emi = emiPaise(principalPaise, annualRateBps, months);
  const schedule: ScheduleLine[] = new Array(months);
  let opening = principalPaise;
  let totalInterest = 0;
  for (let i = 1; i <= months; i++) {
    const interest = monthlyInterestPaise(opening, annualRateBps);
    // EMI ≥ the first month's interest (it is P·r plus a positive part, and
    // rounding keeps the order), and balances only fall, so this is ≥ 0.
    const principal = i === months ? opening : Math.min(opening, emi - interest);
    const closing = opening - principal;
    const line: ScheduleLine = {
      instalment: i,
      openingPaise: opening,
      interestPaise: interest,
      principalPaise: principal,
      paymentPaise: principal + interest,
      closingPaise: closing,
    };
    if (disbursalDate !== undefined) line.dueDate = addMonthsClamped(disbursalDate, i);
    schedule[i - 1] = line;
    totalInterest += interest;
    opening = closing;
  }
  return {
    emiPaise: emi,
    schedule,
    totalInterestPaise: totalInterest,
    totalPayablePaise: principalPaise + totalInterest,
  };
}

export interface EmiQuoteInput extends EmiLoanInput {
  /** Every charge the borrower pays to get the loan (fee with GST, other upfront fees), deducted from the disbursal. */
  upfrontPaise: number;
}

export interface EmiQuote extends EmiSchedule {
  principalPaise: number;
  annualRateBps: number;
  months: number;
  upfrontPaise: number;
  netDisbursedPaise: number;
  /** APR by the KFS method, percent with two decimals. */
  aprPercent: number;
  /** The unrounded monthly IRR behind the APR. */
  monthlyIrr: number;
  firstDueDate?: IsoDate;
  lastDueDate?: IsoDate;
}

/** Schedule, net disbursal and APR together: what the calculator, the API, the offer and the KFS show. */
export function emiQuote(input: EmiQuoteInput): EmiQuote {
  const { principalPaise, annualRateBps, months, upfrontPaise } = input;
  if (!Number.isSafeInteger(upfrontPaise) || upfrontPaise < 0 || upfrontPaise >= principalPaise) {
    throw new RangeError(`upfront charges must be whole paise from 0 to below the amount, got ${upfrontPaise}`);
  }
  const loan = emiSchedule(input);
  const net = principalPaise - upfrontPaise;
  const payments = loan.schedule.map((line) => line.paymentPaise);
  const guess = annualRateBps > 0 ? annualRateBps / MONTHLY_RATE_DENOMINATOR : 0.001;
  const irr = monthlyIrr(net, payments, guess);
  const quote: EmiQuote = {
    ...loan,
    principalPaise,
    annualRateBps,
    months,
    upfrontPaise,
    netDisbursedPaise: net,
    aprPercent: aprPercentFromIrr(irr),
    monthlyIrr: irr,
  };
  const first = loan.schedule[0]?.dueDate;
  const last = loan.schedule[months - 1]?.dueDate;
  if (first !== undefined) quote.firstDueDate = first;
  if (last !== undefined) quote.lastDueDate = last;
  return quote;
}

export interface YearSummary {
  year: number;
  interestPaise: number;
  principalPaise: number;
  paymentPaise: number;
  closingPaise: number;
}

/** The schedule summed by loan year (instalments 1–12, 13–24, …). */
export function yearlySummary(schedule: readonly ScheduleLine[]): YearSummary[] {
  const years: YearSummary[] = [];
  for (const line of schedule) {
    const year = Math.ceil(line.instalment / 12);
    let row = years[year - 1];
    if (!row) {
      row = { year, interestPaise: 0, principalPaise: 0, paymentPaise: 0, closingPaise: 0 };
      years[year - 1] = row;
    }
    row.interestPaise += line.interestPaise;
    row.principalPaise += line.principalPaise;
    row.paymentPaise += line.paymentPaise;
    row.closingPaise = line.closingPaise;
  }
  return years;
}
