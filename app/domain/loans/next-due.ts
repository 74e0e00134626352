/**
 * The next instalment in words, the same on every page a borrower reads it (docs/product.md "Loan
 * servicing"): what is left to pay, and how much of the instalment the advance held already pays.
 * Each wording is a whole sentence or phrase, so that it can be translated as it stands.
 */
import { formatRupees } from "../money.ts";
import { longDate } from "../india-date.ts";

export interface NextDue {
  dueDate: string;
  instalmentPaise: number;
  coveredPaise: number;
  amountPaise: number;
}

/** The "Next due" figure of a loan: the amount left to pay and its date (for the borrower, or for staff). */
export function nextDueText(next: NextDue | null, reader: "borrower" | "staff" = "borrower"): string {
  if (!next) return "Nothing";
  const on = longDate(next.dueDate);
  if (next.coveredPaise === 0) return `${formatRupees(next.amountPaise)} on ${on}`;
  if (reader === "staff")
    return next.amountPaise === 0
      ? `Nothing: the ${formatRupees(next.instalmentPaise)} due on ${on} is paid by the borrower's advance payment`
      : `${formatRupees(next.amountPaise)} on ${on} (the borrower's advance payment pays ${formatRupees(next.coveredPaise)} of the ${formatRupees(next.instalmentPaise)} instalment)`;
  if (next.amountPaise === 0) return `Nothing: the ${formatRupees(next.instalmentPaise)} due on ${on} is paid by your advance payment`;
  return `${formatRupees(next.amountPaise)} on ${on} (your advance payment pays ${formatRupees(next.coveredPaise)} of the ${formatRupees(next.instalmentPaise)} instalment)`;
}

/** The dashboard's sentence about the next instalment across the borrower's loans. */
export function nextDueSentence(next: NextDue & { loanNumber: string }): string {
  const on = longDate(next.dueDate);
  if (next.coveredPaise === 0) return `Next due: ${formatRupees(next.amountPaise)} on ${on} (loan ${next.loanNumber}).`;
  if (next.amountPaise === 0)
    return `Your next instalment, ${formatRupees(next.instalmentPaise)} on ${on} (loan ${next.loanNumber}), is already paid by your advance payment.`;
  return `Next due: ${formatRupees(next.amountPaise)} on ${on} (loan ${next.loanNumber}); your advance payment pays ${formatRupees(next.coveredPaise)} of the ${formatRupees(next.instalmentPaise)} instalment.`;
}
