// A signed agreement's page (/Eagreement/{id}), not its PDF. Hindi in ../hi/signedAgreement.ts.
export default {
  meta: { title: "Signed loan agreement" },
  heading: "Signed loan agreement",
  linkUntil:
    "Anyone with this link can open this agreement until {date}. After that, only the borrower who signed it can open it, signed in; it also stays with the loan's documents.",
  withdrawn:
    "This agreement was withdrawn before any money was paid: under our lending policy the application went back to the borrower to choose the amount again and sign a new Key Fact Statement. It is kept here as it was signed.",
  signature: "Signature",
  loan: "Loan",
  loanOf: "{kind, select, emi {EMI loan} other {Salary advance}} of {amount}",
  signedBy: "Signed by",
  signedAt: "Signed at",
  signedAtValue: "{date}, {time} (India time)",
  codeTo: "One-time code sent to",
  shownHash: "SHA-256 of the document shown",
  signedHash: "SHA-256 of this signed copy",
  document: "The document",
  pdfTitle: "Signed Key Fact Statement and loan agreement (PDF)",
  open: "Open the PDF",
  download: "Download the signed PDF",
} as const;
