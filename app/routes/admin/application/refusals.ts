/** What the review page says when an operation refuses, by the reason it gives (a toast on the page). */
export const REFUSED: Record<string, string> = {
  not_found: "There is no such application.",
  not_open: "This application is no longer waiting for a decision.",
  taken_by_other: "Another officer took this application a moment ago. Take it over if you mean to.",
  already_yours: "This application is already yours.",
  not_yours: "Take this application first: it is under review by another officer.",
  checklist_incomplete: "Tick every item of the checklist before approving.",
  waiting_for_borrower: "The borrower has not answered what you asked yet.",
  already_asked: "The borrower has not answered your last request yet: one request at a time.",
  not_approved: "Only an approved application can be disbursed.",
  four_eyes: "You approved this application, so someone else must disburse it (four eyes).",
  in_flight: "A payout for this loan is already on its way; nothing more was sent.",
  already_disbursed: "This loan is already disbursed; nothing more was sent.",
  account_unverified: "The borrower's bank account is not verified: nothing was sent.",
  // Compliance's reasons are theirs alone: other staff learn only that the loan waits for them.
  compliance_hold: "This loan is on hold with compliance: nothing was sent. It can be paid out once they release it.",
  autopay_missing: "This product is paid out only once the borrower's autopay is active, and it is not yet: nothing was sent.",
  account_changed: "The Bank section no longer holds the account named in the signed agreement: nothing was sent.",
  not_signed: "There is no signed agreement to disburse against.",
  terms_unknown: "The signed terms cannot be read back exactly (a KFS from before they were stored): nothing was sent.",
  not_waiting: "This payout is not waiting for an answer any more.",
  provider_silent: "The payout provider did not answer. The payout stays requested and is asked about again shortly.",
  policy_refuses: "The credit policy refuses this application: it cannot be approved.",
  checks_missing: "A check the credit policy needs is missing: fetch the missing checks first.",
  deviation_reason_needed: "This approval is a deviation from the credit policy: write why it is acceptable.",
  no_deviation: "There is no deviation waiting for a second approver.",
  same_approver: "You proposed this deviation: a second approver, not you, confirms it.",
  sent_back:
    "The credit policy now allows less than was signed: the application went back to the borrower to choose the amount again and sign a fresh KFS.",
  policy_stops:
    "The credit policy stops this disbursal now (a loan of the borrower's overdue or written off, too many loans, or too much outstanding): nothing was sent. The page's policy table says which.",
};
