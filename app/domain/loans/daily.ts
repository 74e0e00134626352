/**
 * The daily servicing run for one loan and one business date (docs/product.md "Loan servicing"):
 * the penal charges the rules warrant by that date and not yet levied, and those levied that a
 * late-arriving on-time payment no longer warrants. Running it again for the same date, or for a
 * later one after downtime, asks for nothing already done. Pure: no I/O, no clock.
 */
import type { IsoDate } from "../loan-math.ts";
import { type LoanTerms, replay, type ServicingEvent } from "./servicing.ts";

export interface DailyRun {
  levy: { seq: number; amountPaise: number; unpaidPaise: number; levyDate: IsoDate }[];
  /** Ids of recorded penal charges to reverse. */
  reverse: string[];
}

export function dailyRun(terms: LoanTerms, events: readonly ServicingEvent[], day: IsoDate): DailyRun {
  const state = replay(terms, events, day);
  return { levy: state.penalsWarranted, reverse: state.penalsUnwarranted };
}
