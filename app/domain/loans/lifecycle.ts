/**
 * The loan lifecycle (docs/product.md "Loan applications"): which status may follow which, and who
 * may make each move. The server's `changeStatus` is the only writer of
 * `loan_applications.status` and consults this table first.
 */
import { rolesWith, type UserRole } from "../roles.ts";

export const LOAN_STATUSES = [
  "draft",
  "signed",
  "under_review",
  "approved",
  "active",
  "closed",
  "rejected",
  "cancelled",
  "written_off",
] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];

export type Actor = UserRole | "system";

const decide = rolesWith("applications.decide");
const payments = rolesWith("payments.manage");

/** from → to → who may do it; the staff roles come from the permission table (domain/roles.ts). */
const TRANSITIONS: Record<LoanStatus, Partial<Record<LoanStatus, readonly Actor[]>>> = {
  draft: { signed: ["borrower"], cancelled: ["borrower"] },
  // Back to a draft: the credit policy now allows less than was signed (a re-pulled bureau report, a
  // new policy version), so the borrower chooses the amount again and signs a fresh KFS.
  signed: { under_review: decide, rejected: decide, cancelled: ["borrower"], draft: [...decide, "system"] },
  under_review: { approved: decide, rejected: decide, cancelled: ["borrower"], draft: [...decide, "system"] },
  // Only the provider's confirmation that the payout was processed makes a loan active (the system applies it).
  approved: { active: ["system"], cancelled: ["borrower"] },
  // Cancelling an active loan is the cooling-off exit: the borrower repays principal and interest for the days used.
  // A payout the bank returned after processing takes the loan back to approved.
  active: {
    closed: [...payments, "system"],
    cancelled: ["borrower", ...payments, "system"],
    written_off: rolesWith("loans.write_off"),
    approved: ["system"],
  },
  // A reversed payment that had closed the loan (or ended it in the cooling-off period) reopens it.
  closed: { active: ["system"] },
  rejected: {},
  cancelled: { active: ["system"] },
  written_off: {},
};

export function canTransition(from: LoanStatus, to: LoanStatus, actor: Actor): boolean {
  return TRANSITIONS[from]?.[to]?.includes(actor) ?? false;
}

export const isLoanStatus = (value: string): value is LoanStatus => (LOAN_STATUSES as readonly string[]).includes(value);

/** Draft to approved: at most one per borrower and product (a partial unique index holds it). */
export const IN_PROGRESS: readonly LoanStatus[] = ["draft", "signed", "under_review", "approved"];

/** The borrower may cancel before the money moves. */
export const borrowerCanCancel = (status: LoanStatus) =>
  status === "draft" || status === "signed" || status === "under_review" || status === "approved";

/** What the borrower reads about each status. */
export const STATUS_TEXT: Record<LoanStatus, { label: string; next: string }> = {
  draft: { label: "Draft", next: "Finish the steps and sign the Key Fact Statement and agreement to submit your application." },
  signed: {
    label: "Signed, waiting for review",
    next: "Our credit team will check your KYC details, documents, selfie and bank account. We will send you an SMS when it is approved or if we need anything from you. Nothing is approved yet.",
  },
  under_review: {
    label: "Under review",
    next: "A credit officer is checking your application. We will send you an SMS with the decision.",
  },
  approved: {
    label: "Approved",
    next: "Your loan is approved. The money will be sent to your verified bank account; we will send you an SMS with the transfer reference.",
  },
  active: { label: "Active", next: "Your loan is disbursed. Pay each instalment by its due date." },
  closed: { label: "Closed", next: "Everything is repaid. Your closure letter (NOC) is available." },
  rejected: { label: "Not approved", next: "We could not approve this application." },
  cancelled: { label: "Cancelled", next: "This application was cancelled. You can start a new one at any time." },
  written_off: { label: "Written off", next: "Please contact us about this loan." },
};

/** What the borrower reads next to the status: a rejection's reason in plain words says more than the general next step. */
export const statusNext = (status: LoanStatus, reason?: string | null) =>
  status === "rejected" && reason ? reason : STATUS_TEXT[status].next;
