// The notice on personal data (docs/product.md "Data rights"): what is collected and why, who it may
// go to, how long the law keeps it, and the notice's own sentences. One source: the collection
// notice and the privacy policy say these words in the page's language, and server code that writes
// in English (the "Download my data" file and its PDF) reads the English items and recipients
// through app/domain/privacy/notice.ts. Items and recipients are plain words (no placeholders, no
// ICU quoting) so that server code can use them as they stand. Hindi in ../hi/notice.ts.
export default {
  label: "Notice on personal data",
  title: "How we use your personal data",
  intro:
    "{lender} (through {brand}) collects only the personal data below, for the reasons given, under the Digital Personal Data Protection Act, 2023. We never read your contacts, call logs, messages, photos, files or location.",
  rights:
    "You can see and withdraw each consent, download all your data, correct it, ask us to erase it, name a nominee and complain, from your profile or by writing to our grievance officer.",
  policyLink: "Read the full privacy policy",
  /** What is collected, and why: in the order the notice lists them (DATA_ITEM_IDS). */
  items: {
    mobile: {
      what: "Mobile number",
      why: "To create your account, sign you in with one-time codes and send you messages about your loans.",
    },
    identity: {
      what: "Name, date of birth, gender, marital status and e-mail",
      why: "To identify you and check that you can borrow (age 21 to 60).",
    },
    pan: {
      what: "PAN",
      why: "For KYC, the credit bureau check and to stop duplicate accounts. It is stored encrypted.",
    },
    aadhaar: {
      what: "Aadhaar number",
      why: "Checked when you enter it for KYC. Only its last 4 digits are stored.",
    },
    address: {
      what: "Address and PIN code",
      why: "For KYC, to reach you and for credit bureau reporting.",
    },
    employment: {
      what: "Work, income and existing EMIs",
      why: "To work out how much you can repay and your interest rate.",
    },
    bank: {
      what: "Bank account and IFSC",
      why: "To check the account is in your name, pay your loan into it and collect repayments. The account number is stored encrypted.",
    },
    documents: {
      what: "Documents and a selfie",
      why: "For KYC and to confirm that the person applying is you.",
    },
    references: {
      what: "Two references (name and mobile number)",
      why: "To reach you through them only if we cannot reach you about your loan.",
    },
    credit_report: {
      what: "Your credit report from a credit bureau",
      why: "With your consent, to decide on an offer and your application.",
    },
    loans: {
      what: "Your applications, loans, payments and messages to us",
      why: "To give you the loan, collect it, answer your questions and keep the records the law asks for.",
    },
    device: {
      what: "A random device identifier, your IP address and browser",
      why: "To keep your account safe (one device signed in at a time) and to record your consents.",
    },
  },
  /** Those the data may be shared with, by kind (the download lists which of them had the borrower's). */
  recipients: {
    credit_bureau: "Credit information companies (credit bureaus)",
    payment_gateway: "The payment gateway that takes your repayments",
    payout_provider: "The bank transfer provider that pays your loan out",
    mandate_provider: "The autopay (e-mandate) provider",
    sms_gateway: "The SMS gateway",
    email_gateway: "The e-mail service",
    ckyc_registry: "The central KYC registry (CERSAI)",
    pan_verifier: "The PAN verification service",
    bank_verifier: "The bank account verification service",
  },
  /** Why records are kept after the relationship ends (RETENTION_YEARS), as an erasure's plan says it. */
  retention: {
    kyc: "The Prevention of Money Laundering Act, 2002 and the RBI's KYC directions require us to keep KYC records for {years} years after the relationship ends.",
    loan: "The law requires us to keep loan and accounting records for {years} years after a loan ends (Companies Act, 2013 and RBI directions).",
  },
} as const;
