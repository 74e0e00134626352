// The words of "Download my data" (docs/product.md "Protecting data and the service"): each
// section's title, the PDF's headings and sentences, and the answer at the hourly limit, each whole
// (the languages issue moves them into its library as they stand; blanks are `{name}` only).

/** Each section's title, by the table it is read from (app/server/privacy/tables.server.ts lists them in order). */
export const SECTION_TITLES = {
  users: "Your account",
  borrower_profiles: "Your profile",
  consents: "Your consents",
  borrower_addresses: "Your address",
  borrower_employment: "Your work and income",
  borrower_bank_accounts: "Your bank account",
  borrower_references: "Your references",
  borrower_documents: "Your documents and selfie",
  ckyc_records: "Your record at the central KYC registry",
  quick_starts: "Your quick start",
  funnel_events: "Your steps through the quick start",
  credit_checks: "Your PAN and credit bureau checks",
  policy_evaluations: "How our credit policy judged your applications",
  loan_applications: "Your loan applications",
  application_requests: "What we asked you about your applications",
  review_checklist: "Our review checklist for your applications",
  application_deviations: "Exceptions to our credit policy for your applications",
  loan_documents: "Your Key Fact Statements and loan agreements",
  loan_signatures: "Your signatures",
  revised_kfs: "Your revised Key Fact Statements",
  payouts: "Money we sent to your bank account",
  loan_accounts: "Your loans",
  loan_instalments: "Your repayment schedules",
  loan_ledger: "Your loan accounts' entries",
  payments: "Your loan payments",
  mandates: "Your autopay mandates",
  mandate_debits: "Your autopay debits",
  collection_cases: "Your loans past due",
  collection_notes: "Our notes of contacting you about payments due",
  promises_to_pay: "Your promises to pay",
  dunning_sends: "Reminders we sent about payments past due",
  collection_tasks: "Calls we planned about payments past due",
  write_off_settlements: "Settlements of your written-off loans",
  bureau_records: "What we reported to the credit bureaus",
  bureau_rejections: "Records the credit bureaus sent back to us",
  bureau_alerts: "Our messages about what we reported to the credit bureaus",
  journal_entries: "Our accounting entries for your loans",
  journal_lines: "The lines of our accounting entries for your loans",
  book_positions: "Your loans' balances in our books",
  accrual_basis: "Your loans' interest periods in our books",
  month_end_classes: "Your loans' classification at each month end",
  statement_lines: "Your payments in our payment providers' statements",
  recon_exceptions: "Questions we checked when matching your payments",
  tickets: "Your help tickets and complaints",
  ticket_messages: "Messages on your help tickets",
  notifications: "Notices we sent you",
  notification_deliveries: "How each notice was delivered",
  push_subscriptions: "Browsers that receive our notifications",
  sessions: "Your sign-ins",
  presence_connections: "Your open connections to the app",
  verifications: "The latest one-time code of each kind",
  verification_sends: "Every one-time code sent to your mobile",
  audit_log: "What you did in your account",
  data_requests: "Your requests about your data",
  data_nominees: "Your nominees",
  data_breach_borrowers: "Data breaches that affected you",
} as const;
export type SectionTable = keyof typeof SECTION_TITLES;

/** The PDF's fixed words and the route's answers. */
export const EXPORT_TEXT = {
  title: "Your personal data",
  preparedFor: "Prepared for {name}, mobile {mobile}, on {date}.",
  contents:
    "This file holds everything {lender} keeps about you in its records, section by section, and who we shared your data with. The same data is in the JSON file you can download from your profile, for a computer to read.",
  conventions:
    "Amounts are in rupees. Dates and times are India time. A dash means nothing is recorded. Where a value is shortened here, the JSON file has it whole.",
  sectionsHeading: "What this file contains",
  sectionCount: "{count} records",
  sectionCountOne: "1 record",
  nothingHeld: "We hold nothing about you in these sections:",
  recordHeading: "Record {n} of {total}",
  recipientsHeading: "Who we shared your data with",
  recipientsIntro:
    "These received some of your personal data from us, to do the work for which we collected it. The first and last dates are when we sent it.",
  recipientsNone: "We have not shared your data with anyone.",
  recipientColumns: ["Who", "Name", "First sent", "Last sent"],
  shortened: "(shortened; the JSON file has it whole)",
  yes: "Yes",
  no: "No",
  footer: "{brand} · Your personal data",
  /** The privacy page's section that offers the downloads. */
  profileHeading: "Download my data",
  profileIntro:
    "Download everything we hold about you, with the list of those we shared it with: a PDF to read, or a JSON file for a computer. Each download is recorded as a request for your data.",
  pdfLink: "Download as PDF (to read)",
  jsonLink: "Download as JSON (for another service)",
  /** The answer at the hourly limit (plain text). */
  tooMany: "You can download your data {limit} times an hour. Please try again after {time}.",
} as const;

/** Fills a sentence's `{name}` blanks. */
export const fillText = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
