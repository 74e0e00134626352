// Where outside flows come back to (/{state}/{reference}): a payment's outcome, or an application's
// after signing; and the "Page Not Found: {path}" of reference and outcome pages. ICU messages;
// Hindi in ../hi/outcome.ts.
export default {
  meta: {
    title: "Application",
  },
  /** A reference or outcome page that is not there, or not the viewer's: the path with its query. */
  pageNotFound: "Page Not Found: {path}",
  payment: {
    captured: { title: "Payment received", lead: "Thank you. Your payment is applied to your loan." },
    held: {
      title: "Payment received, being checked",
      lead: "The amount the bank reported differs from your order, so our team is checking it before it is applied. We will tell you by SMS.",
    },
    failed: { title: "Payment failed", lead: "Nothing was taken. You can try again from your loan." },
    cancelled: { title: "Payment stopped", lead: "You stopped before paying. Nothing was taken." },
    waiting: { title: "Waiting for the bank", lead: "Your bank has not confirmed the payment yet. This page checks again by itself." },
    reversed: { title: "Payment reversed", lead: "This payment was reversed. Please see your loan for what is due." },
    heading: "{amount} for loan <mono>{loanNumber}</mono>",
    countedPaid: "Counted as paid on {date}.",
    reference: "Payment reference <mono>{reference}</mono>",
    backToLoan: "Back to your loan",
    checkAgain: "Check again",
  },
  application: {
    status: {
      draft: "Your application is not finished",
      signed: "You have signed your loan agreement",
      under_review: "Your application is being reviewed",
      approved: "Your loan is approved",
      active: "Your loan is disbursed",
      closed: "Your loan is closed",
      rejected: "Your application was not approved",
      cancelled: "Your application is cancelled",
      written_off: "Your loan is written off",
    },
    heading: "{kind, select, emi {EMI loan} other {Salary advance}} of {amount} <ref>application {reference}</ref>",
    headingNoAmount: "{kind, select, emi {EMI loan} other {Salary advance}} <ref>application {reference}</ref>",
    submitted: "Your application is submitted. We sent the link to your signed agreement to your mobile by SMS.",
    continue: "Continue your application",
    see: "See your application",
    agreement: "Your signed agreement",
    dashboard: "Dashboard",
  },
} as const;
