// What the borrower reads when the payment service's return to this site cannot be checked
// (app/routes/api/payment-return.ts); the payment's outcome page itself is the outcome namespace's.
// Hindi in ../hi/loan-payment.ts.
export default {
  unchecked: "This return from the payment service could not be checked.",
} as const;
