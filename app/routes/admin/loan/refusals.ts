import { WRITE_OFF_AFTER_DPD } from "../../../domain/loans/staff-servicing.ts";

/** What the loan page says when a servicing operation refuses, by the reason it gives (a toast, or next to the field). */
export const REFUSED: Record<string, string> = {
  not_found: "There is no such loan, payment or charge.",
  not_open: "This loan is not open.",
  debit_not_bounced: "Only a debit the bank returned can be presented again.",
  no_active_mandate: "This loan has no active autopay to present a debit on.",
  debit_waiting: "Another debit of this instalment is already waiting or in progress.",
  nothing_due: "Nothing of the instalments due is unpaid: there is nothing to present.",
  bad_date: "The date must be from the disbursal to today.",
  duplicate_reference: "A payment with this bank reference is already recorded.",
  not_held: "That payment is not held any more.",
  not_reversible: "Only a received payment can be reversed.",
  already_requested: "A reversal of this payment is already asked for.",
  reason_missing: "Give the reason for the reversal.",
  not_requested: "No reversal of this payment was asked for.",
  four_eyes: "You asked for (or recorded) this reversal, so a colleague must confirm it (four eyes).",
  already_undone: "That charge is already waived or reversed.",
  too_early: `A loan can be written off only ${WRITE_OFF_AFTER_DPD} days or more past due.`,
  refund_in_flight: "A refund for this loan is on its way: wait for the bank's answer.",
  four_eyes_refund: "You recorded a payment on this loan, so a colleague must send its refund (four eyes).",
  nothing_to_refund: "Nothing is owed back to the borrower.",
  no_account: "The account the loan was disbursed to is not known.",
  no_mandate: "This loan has no autopay to cancel.",
  being_set_up: "The borrower's autopay is being registered with the provider right now: try again in a minute.",
  provider_unavailable:
    "The provider that holds this mandate is not configured here, so it cannot be cancelled at the bank: nothing changed.",
  provider_silent: "The autopay service did not answer: nothing changed. Try again in a minute.",
};
