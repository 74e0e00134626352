/**
 * Disbursal (docs/product.md "Disbursal"): the payout's states, the loan's schedule fixed from the
 * actual disbursal date (the same loan math as the KFS), whether it differs from the signed one,
 * and what the borrower and staff read. Pure: no I/O, no clock.
 */
import { emiSchedule, type IsoDate, salaryAdvanceQuote } from "../loan-math.ts";
import type { KfsInput } from "./kfs.ts";

/**
 * requested: sent (or being sent) to the provider, no final answer yet; processed: the bank
 * credited the account (UTR); failed: the provider confirmed that no money moved; reversed: the
 * bank returned money that had been processed.
 */
export const PAYOUT_STATUSES = ["requested", "processed", "failed", "reversed"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_STATUS_LABEL: Record<PayoutStatus, string> = {
  requested: "Requested, waiting for the bank",
  processed: "Processed",
  failed: "Failed",
  reversed: "Reversed by the bank",
};

/** What the borrower reads about the disbursal of one of their applications. */
export interface BorrowerDisbursal {
  reference: string;
  inFlight: boolean;
  loanNumber: string | null;
  disbursalDate: IsoDate | null;
  paidOutPaise: number;
  utr: string | null;
  accountMasked: string;
  firstDueDate: IsoDate | null;
  firstDuePaise: number | null;
  /** A revised KFS is current (the schedule differs from the signed one). */
  revisedKfs: boolean;
}

export interface Instalment {
  seq: number;
  dueDate: IsoDate;
  principalPaise: number;
  interestPaise: number;
}

/** The instalments of a loan disbursed on `disbursalDate`, with the signed terms (the KFS's own math). */
export function loanSchedule(terms: KfsInput, disbursalDate: IsoDate): Instalment[] {
  if (terms.kind === "emi") {
    return emiSchedule({
      principalPaise: terms.amountPaise,
      annualRateBps: terms.rateBps,
      months: terms.tenureMonths ?? 0,
      disbursalDate,
    }).schedule.map((line) => ({
      seq: line.instalment,
      dueDate: line.dueDate ?? disbursalDate,
      principalPaise: line.principalPaise,
      interestPaise: line.interestPaise,
    }));
  }
  const q = salaryAdvanceQuote({
    principalPaise: terms.amountPaise,
    dailyRateBps: terms.rateBps,
    disbursalDate,
    salaryDay: terms.salaryDay ?? 1,
    fees: terms.fees,
  });
  return [{ seq: 1, dueDate: q.repaymentDate, principalPaise: terms.amountPaise, interestPaise: q.interestPaise }];
}

/** Whether any due date or amount differs: then a revised KFS is issued. */
export function scheduleDiffers(signed: readonly Instalment[], actual: readonly Instalment[]): boolean {
  if (signed.length !== actual.length) return true;
  return signed.some((s, i) => {
    const a = actual[i];
    return !a || a.dueDate !== s.dueDate || a.principalPaise !== s.principalPaise || a.interestPaise !== s.interestPaise;
  });
}

/** The revised KFS's terms: the signed ones, issued on and assuming the actual disbursal date. */
export const revisedTerms = (signed: KfsInput, disbursalDate: IsoDate): KfsInput => ({
  ...signed,
  issuedOn: disbursalDate,
  validUntil: disbursalDate,
  assumedDisbursalDate: disbursalDate,
  disbursedOn: disbursalDate,
});

/** The account the agreement names (chosen at Step1) is still the one in the Bank section. */
export const accountMatchesAgreement = (
  chosen: { accountMasked: string; ifsc: string } | null,
  bank: { accountMasked: string; ifsc: string } | null,
) => Boolean(chosen && bank && chosen.accountMasked === bank.accountMasked && chosen.ifsc === bank.ifsc);

/** `SL` and 8 digits: short enough to read out on the phone. */
export const LOAN_NUMBER = /^SL\d{8}$/;
export const loanNumberFrom = (random: number) => `SL${String(Math.floor(random * 100_000_000)).padStart(8, "0")}`;

/** A payout requested this long ago without a final answer is shown as stuck. */
export const isStuck = (requestedAt: Date, now: Date, stuckMinutes: number) =>
  now.getTime() - requestedAt.getTime() >= stuckMinutes * 60_000;
