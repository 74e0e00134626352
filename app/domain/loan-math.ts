/**
 * The loan math (docs/product.md "Money, dates and the loan math"), the only math the product uses. Pure: no
 * I/O, no clock. Money is integer paise; rates are basis points (1800 = 18%).
 *
 * One file on purpose (slightly over the ~400 lines other files keep to): the EMI, schedule, APR and
 * quotes share their rounding, and the whole math reads in one place.
 */

/** Integer division rounded half-up, for non-negative numerators and positive denominators. */
export function divHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** A non-negative real rounded half-up to an integer (tolerates float noise just under .5). */
export function roundHalfUp(value: number): number {
  return Math.floor(value + 0.5 + 1e-9);
}

// ---- calendar dates ("YYYY-MM-DD", no time zone) ------------------------------------------

export type IsoDate = string;

function parts(date: IsoDate): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new Error(`not a date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}
const pad = (n: number) => String(n).padStart(2, "0");
const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
export const isoDate = (y: number, m: number, d: number): IsoDate => `${y}-${pad(m)}-${pad(d)}`;

/** The same day of the month `n` months later, clamped to the end of a shorter month. */
export function addMonths(date: IsoDate, n: number): IsoDate {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + n;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  return isoDate(ny, nm, Math.min(d, daysInMonth(ny, nm)));
}

const epochDay = (date: IsoDate) => {
  const [y, m, d] = parts(date);
  return Date.UTC(y, m - 1, d) / 86_400_000;
};
export const daysBetween = (from: IsoDate, to: IsoDate) => epochDay(to) - epochDay(from);
export function addDays(date: IsoDate, n: number): IsoDate {
  const t = new Date((epochDay(date) + n) * 86_400_000);
  return isoDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** Monday to Friday, except the configured holidays. */
export function isWorkingDay(date: IsoDate, holidays: readonly IsoDate[] = []): boolean {
  const weekday = new Date(epochDay(date) * 86_400_000).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.includes(date);
}
export function nextWorkingDay(date: IsoDate, holidays: readonly IsoDate[] = []): IsoDate {
  let d = addDays(date, 1);
  while (!isWorkingDay(d, holidays)) d = addDays(d, 1);
  return d;
}
export function addWorkingDays(date: IsoDate, n: number, holidays: readonly IsoDate[] = []): IsoDate {
  let d = date;
  for (let i = 0; i < n; i++) d = nextWorkingDay(d, holidays);
  return d;
}

// ---- EMI loans ----------------------------------------------------------------------------

export interface ScheduleLine {
  instalment: number;
  dueDate: IsoDate | null;
  openingPaise: number;
  interestPaise: number;
  principalPaise: number;
  paymentPaise: number;
  closingPaise: number;
}

export interface EmiLoan {
  emiPaise: number;
  schedule: ScheduleLine[];
  totalInterestPaise: number;
  totalPayablePaise: number;
}

/** EMI = P·r·(1+r)^n / ((1+r)^n − 1), r = annual/1200, rounded half-up to the paisa; P/n at 0%. */
export function emiPaise(principalPaise: number, annualRateBps: number, months: number): number {
  if (annualRateBps === 0) return divHalfUp(principalPaise, months);
  const r = annualRateBps / 120_000;
  const growth = (1 + r) ** months;
  return roundHalfUp((principalPaise * r * growth) / (growth - 1));
}

/** One month's interest on a balance: balance × annual/1200, rounded half-up, exact in integers. */
export const monthlyInterestPaise = (balancePaise: number, annualRateBps: number) => divHalfUp(balancePaise * annualRateBps, 120_000);

/**
 * The reducing-balance schedule: each month's interest on the opening balance,
 * the rest of the EMI to principal; the last instalment clears the balance.
 */
export function emiSchedule(input: {
  principalPaise: number;
  annualRateBps: number;
  months: number;
  /** Disbursal date; instalment i falls due i calendar months later. */
  disbursalDate?: IsoDate;
}): EmiLoan {
  const { principalPaise, annualRateBps, months, disbursalDate } = input;
  const emi = emiPaise(principalPaise, annualRateBps, months);
  const schedule: ScheduleLine[] = [];
  let opening = principalPaise;
  let totalInterest = 0;
  for (let i = 1; i <= months; i++) {
    const interest = monthlyInterestPaise(opening, annualRateBps);
    const last = i === months;
    const principal = last ? opening : Math.min(opening, emi - interest);
    const payment = principal + interest;
    const closing = opening - principal;
    schedule.push({
      instalment: i,
      dueDate: disbursalDate ? addMonths(disbursalDate, i) : null,
      openingPaise: opening,
      interestPaise: interest,
      principalPaise: principal,
      paymentPaise: payment,
      closingPaise: closing,
    });
    totalInterest += interest;
    opening = closing;
  }
  return { emiPaise: emi, schedule, totalInterestPaise: totalInterest, totalPayablePaise: principalPaise + totalInterest };
}

/** The schedule summed by year of the loan (months 1–12, 13–24, …). */
export function yearlySummary(schedule: readonly ScheduleLine[]) {
  const years: { year: number; interestPaise: number; principalPaise: number; paymentPaise: number; closingPaise: number }[] = [];
  for (const line of schedule) {
    const year = Math.ceil(line.instalment / 12);
    let row = years[year - 1];
    if (!row) {
      row = { year, interestPaise: 0, principalPaise: 0, paymentPaise: 0, closingPaise: 0 };
      years.push(row);
    }
    row.interestPaise += line.interestPaise;
    row.principalPaise += line.principalPaise;
    row.paymentPaise += line.paymentPaise;
    row.closingPaise = line.closingPaise;
  }
  return years;
}

// ---- APR (RBI KFS method) -----------------------------------------------------------------

/**
 * The monthly internal rate of return x of: −net at month 0, payments[i] at month i+1.
 * Newton's method from a good guess, bisection when Newton leaves the bracket.
 */
export function monthlyIrr(netPaise: number, payments: readonly number[], guess = 0.01): number {
  const npv = (x: number) => {
    let value = -netPaise;
    let discount = 1;
    const f = 1 / (1 + x);
    for (const p of payments) {
      discount *= f;
      value += p * discount;
    }
    return value;
  };
  const derivative = (x: number) => {
    let value = 0;
    let discount = 1 / (1 + x);
    const f = 1 / (1 + x);
    for (let i = 0; i < payments.length; i++) {
      discount *= f;
      value -= (i + 1) * (payments[i] as number) * discount;
    }
    return value;
  };
  let lo = -0.99;
  let hi = 10;
  let x = guess;
  for (let i = 0; i < 100; i++) {
    const value = npv(x);
    if (Math.abs(value) < 1e-7) return x;
    // npv falls as x rises: keep the bracket around the root.
    if (value > 0) lo = x;
    else hi = x;
    const d = derivative(x);
    let next = d !== 0 ? x - value / d : Number.NaN;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) < 1e-15) return next;
    x = next;
  }
  return x;
}

const twoDecimals = (x: number) => Math.round(x * 100) / 100;

/**
 * APR of an instalment loan: 12 × the monthly IRR of (−net disbursed, +each
 * instalment), as a percentage with two decimals.
 */
export function aprPercent(netDisbursedPaise: number, payments: readonly number[], nominalBps?: number): number {
  const x = monthlyIrr(netDisbursedPaise, payments, nominalBps !== undefined ? nominalBps / 120_000 || 0.001 : 0.01);
  return twoDecimals(12 * x * 100);
}

// ---- fees ---------------------------------------------------------------------------------

export interface FeeTerms {
  feeBps: number;
  minFeePaise: number;
  gstBps: number;
}
export interface Fees {
  feePaise: number;
  gstPaise: number;
  totalUpfrontPaise: number;
}

/** Processing fee: a percentage of the amount with a minimum, plus GST on it. */
export function processingFee(amountPaise: number, { feeBps, minFeePaise, gstBps }: FeeTerms): Fees {
  const fee = Math.max(minFeePaise, divHalfUp(amountPaise * feeBps, 10_000));
  const gst = divHalfUp(fee * gstBps, 10_000);
  return { feePaise: fee, gstPaise: gst, totalUpfrontPaise: fee + gst };
}

// ---- salary advance -----------------------------------------------------------------------

/** Simple interest per day on the principal, rounded half-up to the paisa. */
export const salaryAdvanceInterestPaise = (principalPaise: number, dailyRateBps: number, days: number) =>
  divHalfUp(principalPaise * dailyRateBps * days, 10_000);

/**
 * The repayment date: the next salary date at least `minDays` after disbursal
 * (the one after when the next is sooner). Salary day clamped to the month's end.
 */
export function salaryRepaymentDate(disbursalDate: IsoDate, salaryDay: number, minDays = 7): IsoDate {
  const [y, m] = parts(disbursalDate);
  for (let k = 0; k < 3; k++) {
    const index = y * 12 + (m - 1) + k;
    const ny = Math.floor(index / 12);
    const nm = (index % 12) + 1;
    const candidate = isoDate(ny, nm, Math.min(salaryDay, daysInMonth(ny, nm)));
    if (daysBetween(disbursalDate, candidate) >= minDays) return candidate;
  }
  throw new Error("unreachable: a salary date always falls within three months");
}

/** APR of a single-repayment loan: (repayable ÷ net − 1) × 365 ÷ days × 100, two decimals. */
export const singlePaymentAprPercent = (totalRepayablePaise: number, netDisbursedPaise: number, days: number) =>
  twoDecimals((totalRepayablePaise / netDisbursedPaise - 1) * (365 / days) * 100);

export interface SalaryAdvanceQuote {
  principalPaise: number;
  days: number;
  repaymentDate: IsoDate;
  interestPaise: number;
  totalRepayablePaise: number;
  fees: Fees;
  netDisbursedPaise: number;
  aprPercent: number;
}

export function salaryAdvanceQuote(input: {
  principalPaise: number;
  dailyRateBps: number;
  disbursalDate: IsoDate;
  salaryDay: number;
  fees: FeeTerms;
}): SalaryAdvanceQuote {
  const repaymentDate = salaryRepaymentDate(input.disbursalDate, input.salaryDay);
  const days = daysBetween(input.disbursalDate, repaymentDate);
  const interest = salaryAdvanceInterestPaise(input.principalPaise, input.dailyRateBps, days);
  const fees = processingFee(input.principalPaise, input.fees);
  const net = input.principalPaise - fees.totalUpfrontPaise;
  const total = input.principalPaise + interest;
  return {
    principalPaise: input.principalPaise,
    days,
    repaymentDate,
    interestPaise: interest,
    totalRepayablePaise: total,
    fees,
    netDisbursedPaise: net,
    aprPercent: singlePaymentAprPercent(total, net, days),
  };
}

// ---- EMI loan quote (what the KFS, the calculator and the API show) -------------------------

export interface EmiQuote extends EmiLoan {
  principalPaise: number;
  annualRateBps: number;
  months: number;
  upfrontPaise: number;
  netDisbursedPaise: number;
  aprPercent: number;
}

export function emiQuote(input: {
  principalPaise: number;
  annualRateBps: number;
  months: number;
  /** Every upfront charge the borrower pays (fee with GST), deducted from the disbursal. */
  upfrontPaise: number;
  disbursalDate?: IsoDate;
}): EmiQuote {
  const loan = emiSchedule(input);
  const net = input.principalPaise - input.upfrontPaise;
  return {
    ...loan,
    principalPaise: input.principalPaise,
    annualRateBps: input.annualRateBps,
    months: input.months,
    upfrontPaise: input.upfrontPaise,
    netDisbursedPaise: net,
    aprPercent: aprPercent(
      net,
      loan.schedule.map((l) => l.paymentPaise),
      input.annualRateBps,
    ),
  };
}

// ---- foreclosure --------------------------------------------------------------------------

/**
 * Amount to close an EMI loan on `asOf`: the principal outstanding after the
 * last instalment that has fallen due, interest on it for the days since that
 * due date (actual/365), and the unpaid dues and penal charges.
 */
export function foreclosureQuote(input: {
  schedule: readonly ScheduleLine[];
  principalPaise: number;
  disbursalDate: IsoDate;
  annualRateBps: number;
  asOf: IsoDate;
  unpaidDuesPaise: number;
  unpaidPenalPaise: number;
}) {
  let outstanding = input.principalPaise;
  let since = input.disbursalDate;
  for (const line of input.schedule) {
    if (line.dueDate && line.dueDate <= input.asOf) {
      outstanding = line.closingPaise;
      since = line.dueDate;
    }
  }
  const days = Math.max(0, daysBetween(since, input.asOf));
  const accrued = divHalfUp(outstanding * input.annualRateBps * days, 365 * 10_000);
  return {
    outstandingPrincipalPaise: outstanding,
    accruedInterestPaise: accrued,
    daysSinceLastDue: days,
    unpaidDuesPaise: input.unpaidDuesPaise,
    unpaidPenalPaise: input.unpaidPenalPaise,
    totalPaise: outstanding + accrued + input.unpaidDuesPaise + input.unpaidPenalPaise,
  };
}

// ---- prepayment what-if -------------------------------------------------------------------

export interface PrepaymentResult {
  schedule: ScheduleLine[];
  totalInterestPaise: number;
  interestSavedPaise: number;
  months: number;
  /** The EMI after the part-payment (unchanged when the tenure is reduced). */
  newEmiPaise: number;
}

/**
 * A one-time part-payment made with instalment `afterInstalment`: the balance
 * falls by `amountPaise`; then either the EMI stays and the loan ends sooner
 * ("tenure"), or the tenure stays and the EMI is recomputed ("emi").
 */
export function prepaymentWhatIf(
  loan: { principalPaise: number; annualRateBps: number; months: number },
  { afterInstalment, amountPaise, reduce }: { afterInstalment: number; amountPaise: number; reduce: "tenure" | "emi" },
): PrepaymentResult {
  const base = emiSchedule(loan);
  const k = Math.min(Math.max(1, Math.floor(afterInstalment)), loan.months - 1);
  const paid = base.schedule.slice(0, k).map((l) => ({ ...l }));
  const last = paid[paid.length - 1] as ScheduleLine;
  const prepay = Math.min(amountPaise, last.closingPaise);
  last.paymentPaise += prepay;
  last.principalPaise += prepay;
  last.closingPaise -= prepay;
  let balance = last.closingPaise;
  const remainingMonths = loan.months - k;
  const emi = reduce === "emi" ? emiPaise(balance, loan.annualRateBps, remainingMonths) : base.emiPaise;
  const rest: ScheduleLine[] = [];
  for (let i = 1; balance > 0 && i <= remainingMonths; i++) {
    const interest = monthlyInterestPaise(balance, loan.annualRateBps);
    const final = i === remainingMonths || emi - interest >= balance;
    const principal = final ? balance : emi - interest;
    rest.push({
      instalment: k + i,
      dueDate: null,
      openingPaise: balance,
      interestPaise: interest,
      principalPaise: principal,
      paymentPaise: principal + interest,
      closingPaise: balance - principal,
    });
    balance -= principal;
  }
  const schedule = [...paid, ...rest];
  const totalInterest = schedule.reduce((s, l) => s + l.interestPaise, 0);
  return {
    schedule,
    totalInterestPaise: totalInterest,
    interestSavedPaise: base.totalInterestPaise - totalInterest,
    months: schedule.length,
    newEmiPaise: emi,
  };
}
