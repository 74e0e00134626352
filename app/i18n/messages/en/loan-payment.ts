// A payment's outcome (/{state}/{payment reference}), where the borrower lands back from the payment
// service: what the server knows of the payment now. Hindi in ../hi/loan-payment.ts.
export default {
  outcome: {
    captured: { title: "Payment received", lead: "Thank you. Your payment is applied to your loan." },
    held: {
      title: "Payment received, being checked",
      lead: "The amount the bank reported differs from your order, so our team is checking it before it is applied. We will tell you by SMS.",
    },
    failed: { title: "Payment failed", lead: "Nothing was taken. You can try again from your loan." },
    cancelled: { title: "Payment stopped", lead: "You stopped before paying. Nothing was taken." },
    pending: { title: "Waiting for the bank", lead: "Your bank has not confirmed the payment yet. This page checks again by itself." },
    created: { title: "Waiting for the bank", lead: "Your bank has not confirmed the payment yet. This page checks again by itself." },
    reversed: { title: "Payment reversed", lead: "This payment was reversed. Please see your loan for what is due." },
  },
  title: "Payment",
  forLoan: "{amount} for loan <mono>{loanNumber}</mono>",
  countedOn: "Counted as paid on {date}.",
  reference: "Payment reference <mono>{reference}</mono>",
  backToLoan: "Back to your loan",
  checkAgain: "Check again",
  unchecked: "This return from the payment service could not be checked.",
} as const;
