// The borrower's loan page, autopay: the mandate, its debits and their excess, setting it up and
// cancelling it, and what the borrower is told on coming back from the bank. Staff read
// app/domain/loans/mandate.ts and autopay.ts. Hindi in ../hi/loan-autopay.ts.
export default {
  heading: "Autopay",
  status: "Status",
  type: "Type",
  fromAccount: "From account",
  mandateStatus: {
    pending: "Waiting for your approval at your bank",
    active: "Active",
    rejected: "Not approved",
    cancelled: "Cancelled",
    paused: "Paused",
  },
  mandateKind: {
    upi_autopay: "UPI AutoPay",
    enach: "e-NACH (net banking or debit card)",
  },
  limits: "At most {amount} a debit, until {date}.",
  approveAtBank: "Approve autopay at your bank",
  cancel: {
    question: "Cancel autopay?",
    meaning:
      "If you cancel autopay, nothing more is debited from your account for this loan: pay each instalment yourself with Pay now by its due date, or set up autopay again.",
    confirm: "Cancel autopay",
    keep: "Keep autopay",
    button: "Cancel autopay",
  },
  ended: {
    rejectedOn:
      "Your last autopay was not approved ({date}), so nothing is debited: pay each instalment with Pay now by its due date, or set up autopay again.",
    rejected:
      "Your last autopay was not approved, so nothing is debited: pay each instalment with Pay now by its due date, or set up autopay again.",
    cancelledOn:
      "Your autopay was cancelled on {date}, so nothing more is debited: pay each instalment with Pay now by its due date, or set up autopay again.",
    cancelled:
      "Your autopay was cancelled, so nothing more is debited: pay each instalment with Pay now by its due date, or set up autopay again.",
  },
  offer:
    "With autopay, each instalment is debited from the account the loan was paid into on its due date, after a notice two days before. You approve it once at your bank and can cancel it here at any time.",
  setUp: "Set up autopay",
  notOffered: "Autopay is not offered yet: pay each instalment with Pay now by its due date.",
  /** The next debit, before its notice. */
  next: {
    advance: "Nothing will be debited for the instalment due on {due}: your advance payment pays it.",
    tooClose:
      "The instalment due on {due} is too close for autopay's notice, so it will not be debited: pay it with Pay now. Autopay debits the instalments after it.",
    capped:
      "Next debit: {amount}, the mandate's maximum, on {on} for the instalment due on {due}. Pay the other {rest} with Pay now. You get a notice two days before.",
    full: "Next debit: {amount} on {on} for the instalment due on {due}. You get a notice two days before.",
  },
  debits: {
    heading: "Autopay debits",
    notified: "Autopay will debit {amount} on {date}. Paying with Pay now before then lowers or cancels this debit.",
    inProgress:
      "Autopay debit of {amount} presented on {date}, waiting for your bank's answer. No penal charge is added while it is in progress.",
    succeeded: "Autopay debited {amount} on {date}.",
    bounced: "Autopay debit of {amount} on {date} was returned by your bank.",
    /** `reason`: the bank's own words. */
    bouncedReason: "Autopay debit of {amount} on {date} was returned by your bank: {reason}",
    notPresented: "Autopay debit of {amount} on {date} was not presented.",
    notPresentedPaid: "Autopay debit of {amount} on {date} was not presented: the instalment was paid before the debit date.",
    notPresentedMandateEnded: "Autopay debit of {amount} on {date} was not presented: autopay ended before the debit date.",
    notPresentedLoanEnded: "Autopay debit of {amount} on {date} was not presented: the loan ended before the debit date.",
    notPresentedReason: "Autopay debit of {amount} on {date} was not presented: {reason}",
  },
  /** A debit that paid an instalment already paid. */
  excess: {
    undecided:
      "The debit of {date} paid {amount} for an instalment you had already paid. We will refund {amount} to your bank account on {refundOn}, unless you keep it as an advance towards your next instalments.",
    keep: "You kept {amount} of the debit of {date} as an advance: it pays your next instalments as they fall due.",
    refund: "{amount} of the debit of {date} paid an instalment you had already paid, and is being refunded to your bank account.",
    none: "{amount} of the debit of {date} paid an instalment you had already paid; it has since been used for what the loan owed.",
    keepButton: "Keep it as an advance",
    refundButton: "Refund it now",
    kept: "Kept as an advance: it pays your next instalments as they fall due.",
    nothingLeft: "Nothing is left to refund: the loan has used it for what it owed.",
    refundRequested: "Refund of {amount} to {account} requested.",
  },
  /** Why autopay could not be set up or cancelled. */
  refused: {
    not_offered: "Autopay is not offered yet: pay each instalment with Pay now by its due date.",
    already_active: "This loan already has autopay.",
    not_open: "This loan is not open: autopay is set up only on an open loan.",
    being_set_up: "Autopay is being set up with your bank: try again in a moment.",
    provider_unavailable:
      "The autopay service that holds this mandate cannot be reached from here: please raise a ticket and we will cancel it.",
    no_account: "This loan has no verified account to debit yet.",
    no_mandate: "This loan has no autopay to cancel.",
    provider_silent: "The autopay service did not answer. Nothing changed; please try again in a minute.",
    other: "That could not be done.",
  },
  /** Why the excess of a debit could not be kept or refunded. */
  excessRefused: {
    not_found: "There is no such debit on this loan.",
    already_decided: "This was already decided: see what the debit says below.",
    refund_in_flight: "Another refund to your account is on its way: try again once it has arrived.",
    no_account: "This loan has no verified account to refund to: please raise a ticket.",
    other: "That could not be done.",
  },
  cancelled: "Autopay is cancelled. Pay each instalment with Pay now by its due date, or set up autopay again.",
  /** Back from the bank: what became of the mandate. */
  returned: {
    active: "Autopay is set up: your instalments will be debited on their due dates.",
    pending: "Your bank has not confirmed autopay yet. This page shows it as soon as it does.",
    rejected: "Autopay was not approved, so nothing will be debited. Pay each instalment with Pay now, or try again.",
    cancelled: "Autopay is cancelled.",
    paused: "Autopay is paused.",
    unchecked: "This return from the autopay service could not be checked.",
  },
} as const;
