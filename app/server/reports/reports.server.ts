// The back office's reports (docs/product.md "Reports"): the quick-start funnel,
// the application pipeline, decisions by reason and the money disbursed per day. Everything is
// counted in SQL; days are India dates (Asia/Kolkata, UTC+5:30 all year).
import { and, count, eq, gte, inArray, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { AppServices } from "../../context.ts";
import { addDays, daysBetween, type IsoDate } from "../../domain/loan-math.ts";
import { LOAN_STATUSES, type LoanStatus } from "../../domain/loans/lifecycle.ts";
import { QUICK_STEP_COUNT } from "../../domain/quick-start.ts";
import { REJECTION_REASONS, type RejectionReason } from "../../domain/review.ts";
import { istDayEnd, istDayStart, todayIST } from "../../domain/india-date.ts";
import { funnelEvents, loanApplications, payouts } from "../db/schema.ts";

type Services = Pick<AppServices, "db">;

/** The range shown when none (or a bad one) is asked for: the last 30 days, today included. */
export const REPORT_DEFAULT_DAYS = 30;
/** The longest range a report covers (a year, leap day included). */
export const REPORT_MAX_DAYS = 366;

export interface ReportRange {
  /** First and last India dates, both included. */
  from: IsoDate;
  to: IsoDate;
}

export interface RangeProblems {
  from?: string;
  to?: string;
}

const isoDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => {
    const [y, m, d] = v.split("-").map(Number) as [number, number, number];
    const t = new Date(Date.UTC(y, m - 1, d));
    return y >= 2000 && y <= 2099 && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
  });

const shown = (v: string) => (v.length > 24 ? `${v.slice(0, 24)}…` : v);

/**
 * The range to report on from the page's `from` and `to` (either may be missing): anything that
 * is not a real date, an end before the start or more than REPORT_MAX_DAYS falls back to the last
 * REPORT_DEFAULT_DAYS days, with the reason for the field it came from.
 */
export function reportRange(input: { from?: string | null; to?: string | null }, now: Date) {
  const today = todayIST(now);
  const defaults: ReportRange = { from: addDays(today, -(REPORT_DEFAULT_DAYS - 1)), to: today };
  const problems: RangeProblems = {};
  const fromRaw = input.from?.trim() ?? "";
  const toRaw = input.to?.trim() ?? "";
  const from = fromRaw ? isoDay.safeParse(fromRaw) : null;
  const to = toRaw ? isoDay.safeParse(toRaw) : null;
  const fallback = ` Showing the last ${REPORT_DEFAULT_DAYS} days instead.`;
  if (from && !from.success) problems.from = `“${shown(fromRaw)}” is not a date (use a date like ${defaults.from}).${fallback}`;
  if (to && !to.success) problems.to = `“${shown(toRaw)}” is not a date (use a date like ${defaults.to}).${fallback}`;
  if (problems.from || problems.to) return { range: defaults, problems };
  const range: ReportRange = {
    to: to?.data ?? (from?.data ? minDate(addDays(from.data, REPORT_DEFAULT_DAYS - 1), today) : today),
    from: from?.data ?? addDays(to?.data ?? today, -(REPORT_DEFAULT_DAYS - 1)),
  };
  if (range.from > range.to) {
    // A start after today with no end given has no sensible end: show from that day alone.
    if (!to) return { range: { from: range.from, to: range.from }, problems };
    return { range: defaults, problems: { to: `The end date is before the start date.${fallback}` } };
  }
  if (daysBetween(range.from, range.to) + 1 > REPORT_MAX_DAYS) {
    return { range: defaults, problems: { to: `Choose at most ${REPORT_MAX_DAYS} days.${fallback}` } };
  }
  return { range, problems };
}

const minDate = (a: IsoDate, b: IsoDate) => (a < b ? a : b);

/** Every date of the range, in order. */
export function daysOf(range: ReportRange): IsoDate[] {
  const n = daysBetween(range.from, range.to) + 1;
  return Array.from({ length: n }, (_, i) => addDays(range.from, i));
}

/** `column` within the range's India dates (index-friendly: compares the timestamps). */
const within = (column: AnyPgColumn, range: ReportRange): SQL =>
  and(gte(column, istDayStart(range.from)), lt(column, istDayEnd(range.to))) as SQL;

/** The India date of a timestamp column, as "YYYY-MM-DD". */
const indiaDay = (column: AnyPgColumn) => sql<string>`to_char(${column} at time zone 'Asia/Kolkata', 'YYYY-MM-DD')`;

/** One borrower, counted once (an event whose borrower was deleted still counts, once). */
const who = sql`coalesce(${funnelEvents.userId}::text, 'event-' || ${funnelEvents.id}::text)`;
const distinctWhere = (event: string) =>
  sql<number>`count(distinct ${who}) filter (where ${funnelEvents.event} = ${event})`.mapWith(Number);

export interface FunnelStep {
  step: number;
  /** Borrowers who opened the step's page, and who completed it (Continue), in the range. */
  viewed: number;
  completed: number;
  /** Of those who viewed it, the share who did not complete it, in whole percent (null when nobody viewed it). */
  dropOff: number | null;
}
export interface FunnelDay {
  date: IsoDate;
  /** Per step (index = step number): borrowers who viewed and completed it that day. */
  steps: { viewed: number; completed: number }[];
  offerShown: number;
  continued: number;
}

/**
 * The quick-start funnel in the range: per step, how many borrowers viewed and completed it;
 * how many were shown an offer and continued into an application; and the same per India day.
 */
export async function funnelReport({ db }: Services, range: ReportRange) {
  const inRange = and(
    within(funnelEvents.createdAt, range),
    inArray(funnelEvents.event, ["step_viewed", "step_completed", "offer_shown", "continued"]),
  );
  const [byStep, totals, byDay] = await Promise.all([
    db
      .select({ step: funnelEvents.step, viewed: distinctWhere("step_viewed"), completed: distinctWhere("step_completed") })
      .from(funnelEvents)
      .where(and(inRange, isNotNull(funnelEvents.step), inArray(funnelEvents.event, ["step_viewed", "step_completed"])))
      .groupBy(funnelEvents.step),
    db
      .select({ offerShown: distinctWhere("offer_shown"), continued: distinctWhere("continued") })
      .from(funnelEvents)
      .where(and(inRange, inArray(funnelEvents.event, ["offer_shown", "continued"]))),
    db
      .select({
        date: indiaDay(funnelEvents.createdAt),
        step: funnelEvents.step,
        event: funnelEvents.event,
        n: sql<number>`count(distinct ${who})`.mapWith(Number),
      })
      .from(funnelEvents)
      .where(inRange)
      .groupBy(indiaDay(funnelEvents.createdAt), funnelEvents.step, funnelEvents.event),
  ]);
  const steps: FunnelStep[] = Array.from({ length: QUICK_STEP_COUNT }, (_, step) => {
    const row = byStep.find((r) => r.step === step);
    const counts = { viewed: row?.viewed ?? 0, completed: row?.completed ?? 0 };
    return { step, ...counts, dropOff: dropOffPercent(counts) };
  });
  const days = new Map<IsoDate, FunnelDay>(
    daysOf(range).map((date) => [
      date,
      { date, steps: Array.from({ length: QUICK_STEP_COUNT }, () => ({ viewed: 0, completed: 0 })), offerShown: 0, continued: 0 },
    ]),
  );
  for (const r of byDay) {
    const day = days.get(r.date);
    if (!day) continue;
    if (r.event === "offer_shown") day.offerShown += r.n;
    else if (r.event === "continued") day.continued += r.n;
    else if (r.step !== null && r.step >= 0 && r.step < QUICK_STEP_COUNT) {
      const cell = day.steps[r.step] as { viewed: number; completed: number };
      if (r.event === "step_viewed") cell.viewed += r.n;
      else cell.completed += r.n;
    }
  }
  return {
    steps,
    offerShown: totals[0]?.offerShown ?? 0,
    continued: totals[0]?.continued ?? 0,
    days: [...days.values()],
  };
}

/** Share of those who viewed a step and did not complete it, in whole percent (null when nobody viewed it). */
export const dropOffPercent = (s: { viewed: number; completed: number }) =>
  s.viewed === 0 ? null : Math.max(0, Math.round(((s.viewed - s.completed) / s.viewed) * 100));

/** How many applications are in each status now (every status, zero included). */
export async function pipelineReport({ db }: Services) {
  const rows = await db.select({ status: loanApplications.status, n: count() }).from(loanApplications).groupBy(loanApplications.status);
  const by = new Map(rows.map((r) => [r.status, r.n]));
  return LOAN_STATUSES.map((status) => ({ status, n: by.get(status) ?? 0 })) as { status: LoanStatus; n: number }[];
}

/** Applications approved, and rejected by reason, with the decision in the range. */
export async function decisionsReport({ db }: Services, range: ReportRange) {
  const rows = await db
    .select({ reason: loanApplications.rejectionReason, n: count() })
    .from(loanApplications)
    .where(and(isNotNull(loanApplications.decidedBy), within(loanApplications.decidedAt, range)))
    .groupBy(loanApplications.rejectionReason);
  const approved = rows.find((r) => r.reason === null)?.n ?? 0;
  const rejected = (Object.keys(REJECTION_REASONS) as RejectionReason[]).map((reason) => ({
    reason,
    n: rows.find((r) => r.reason === reason)?.n ?? 0,
  }));
  return { approved, rejected, rejectedTotal: rejected.reduce((s, r) => s + r.n, 0) };
}

/** Money paid out per India date of the bank's confirmation (processed payouts only), every day of the range. */
export async function disbursedReport({ db }: Services, range: ReportRange) {
  const day = indiaDay(payouts.providerAt);
  const rows = await db
    .select({
      date: day,
      payouts: count(),
      amountPaise: sql<number>`sum(${payouts.amountPaise})`.mapWith(Number),
    })
    .from(payouts)
    .where(and(eq(payouts.status, "processed"), eq(payouts.purpose, "disbursal"), within(payouts.providerAt, range)))
    .groupBy(day);
  const by = new Map(rows.map((r) => [r.date, r]));
  const days = daysOf(range).map((date) => ({ date, payouts: by.get(date)?.payouts ?? 0, amountPaise: by.get(date)?.amountPaise ?? 0 }));
  return {
    days,
    totalPaise: days.reduce((s, d) => s + d.amountPaise, 0),
    totalPayouts: days.reduce((s, d) => s + d.payouts, 0),
  };
}

/** Everything the reports page shows for a range. */
export async function reports(services: Services, range: ReportRange) {
  const [funnel, pipeline, decisions, disbursed] = await Promise.all([
    funnelReport(services, range),
    pipelineReport(services),
    decisionsReport(services, range),
    disbursedReport(services, range),
  ]);
  return { funnel, pipeline, decisions, disbursed };
}
