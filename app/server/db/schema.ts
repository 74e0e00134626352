// The database schema, in one file on purpose (longer than the ~400 lines other files keep to):
// drizzle-kit generates each migration from this one module, and the tables' foreign keys, shared
// enums and partial indexes read best side by side. Each table's comment says what it holds.
import { and, eq, isNull, type SQLWrapper, sql } from "drizzle-orm";
import type { EmploymentType } from "../../domain/kyc/address-employment-schema.ts";
import type { DocumentKind, SniffedType } from "../../domain/kyc/documents.ts";
import type { DisbursalAccount, LoanKind, Purpose, SavedOffer } from "../../domain/loans/application.ts";
import type { PayoutStatus } from "../../domain/loans/disbursal.ts";
import type { KfsInput, KfsModel } from "../../domain/loans/kfs.ts";
import type { LoanStatus } from "../../domain/loans/lifecycle.ts";
import type { AttachmentRef, Channel, NotificationEvent } from "../../domain/notifications.ts";
import type { TicketCategory, TicketKind, TicketSource, TicketStatus } from "../../domain/help.ts";
import type { FunnelEvent } from "../../domain/quick-start.ts";
import type { Language } from "../../i18n/languages.ts";
import type { AccountPurpose, AssetClass, BooksRuleKind, EclStage, Framework } from "../../domain/books/chart.ts";
import type { ExceptionReason } from "../../domain/books/reconciliation.ts";
import type { StatementKind } from "../../domain/books/statements.ts";
import type { ListedPerson, ListSource } from "../../domain/aml/sanctions.ts";
import type { BureauReport, ChecklistItem, PanCheck, RejectionReason } from "../../domain/review.ts";
import type { RuleCode, RuleOutcome, RuleResult } from "../../domain/credit-policy/evaluate.ts";
import type { PolicyRules } from "../../domain/credit-policy/rules.ts";
import type { UserRole } from "../../domain/roles.ts";
import type { MandateKind, MandateStatus } from "../../domain/loans/mandate.ts";
import type { DebitStatus } from "../../domain/loans/autopay.ts";
import type {
  CaseClosed,
  ContactChannel,
  DunningChannel,
  DunningStep,
  DunningTone,
  PauseKind,
  PromiseStatus,
} from "../../domain/collections.ts";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Raw bytes (PDFs). PGlite hands back a Uint8Array, node-postgres a Buffer: both become a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** Published borrower feedback shown on the home page. */
export const feedback = pgTable(
  "feedback",
  {
    id: serial("id").primaryKey(),
    authorName: text("author_name").notNull(),
    city: text("city").notNull(),
    rating: smallint("rating").notNull(),
    body: text("body").notNull(),
    published: boolean("published").notNull().default(false),
    /** Entries created by the demo seed are shown with a "Sample" mark. */
    isSample: boolean("is_sample").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("feedback_rating_range", sql`${t.rating} between 1 and 5`), index("feedback_published_idx").on(t.published, t.createdAt)],
);

/** Messages from the public contact form before tickets: migration 0018 copied them into `tickets`; nothing writes here now. */
export const contactMessages = pgTable("contact_messages", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  mobile: text("mobile").notNull(),
  email: text("email").notNull(),
  message: text("message").notNull(),
  ip: text("ip"),
  userAgent: text("user_agent"),
  status: text("status").notNull().default("new"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Fixed-window rate-limit counters, shared by every server process.
 * One row per (action, key, window start); incremented atomically with an upsert.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    action: text("action").notNull(),
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.action, t.key, t.windowStart] }), index("rate_limit_window_idx").on(t.windowStart)],
);

/**
 * Loan products (docs/product.md "Loan products"). Staff edit these; every screen, PDF and API
 * reads the live values. Amounts in paise, rates and percentages in basis points.
 */
export const products = pgTable(
  "products",
  {
    code: text("code").primaryKey(), // 'emi' | 'salary_advance'
    name: text("name").notNull(),
    minAmountPaise: integer("min_amount_paise").notNull(),
    maxAmountPaise: integer("max_amount_paise").notNull(),
    amountStepPaise: integer("amount_step_paise").notNull(),
    /** EMI loan: months; salary advance: days between disbursal and repayment. */
    minTenure: integer("min_tenure").notNull(),
    maxTenure: integer("max_tenure").notNull(),
    /** EMI loan: default annual rate; salary advance: rate per day. */
    rateBps: integer("rate_bps").notNull(),
    feeBps: integer("fee_bps").notNull(),
    minFeePaise: integer("min_fee_paise").notNull().default(0),
    gstBps: integer("gst_bps").notNull(),
    penalChargePaise: integer("penal_charge_paise").notNull(),
    coolingOffDays: integer("cooling_off_days").notNull(),
    salariedOnly: boolean("salaried_only").notNull().default(false),
    /** The loan is paid out only once its autopay mandate is active (docs/product.md "Autopay"). */
    autopayBeforeDisbursal: boolean("autopay_before_disbursal").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("products_amounts", sql`${t.minAmountPaise} > 0 and ${t.minAmountPaise} <= ${t.maxAmountPaise}`),
    check("products_tenure", sql`${t.minTenure} > 0 and ${t.minTenure} <= ${t.maxTenure}`),
  ],
);

/** Risk bands that set the EMI loan's rate from income and existing EMIs (first match by sort order). */
export const riskBands = pgTable("risk_bands", {
  id: serial("id").primaryKey(),
  sortOrder: integer("sort_order").notNull(),
  minIncomePaise: integer("min_income_paise").notNull(),
  /** Existing EMIs as a share of income must be at most this (null: no condition). */
  maxEmiToIncomeBps: integer("max_emi_to_income_bps"),
  rateBps: integer("rate_bps").notNull(),
});
/** Everyone who signs in: borrowers (mobile + one-time code) and staff (e-mail + password + TOTP). */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    role: text("role").$type<UserRole>().notNull().default("borrower"),
    /** 10-digit Indian mobile number; null until a Facebook account verifies one. */
    mobile: text("mobile").unique(),
    mobileVerifiedAt: timestamp("mobile_verified_at", { withTimezone: true }),
    /** Staff sign-in e-mail, lower-cased. */
    email: text("email").unique(),
    name: text("name"),
    facebookId: text("facebook_id").unique(),
    passwordHash: text("password_hash"),
    /** Staff TOTP secret, encrypted at rest (see crypto.server.ts). */
    totpSecretEnc: text("totp_secret_enc"),
    totpEnrolledAt: timestamp("totp_enrolled_at", { withTimezone: true }),
    /** The TOTP time step (30-second counter) of the last code accepted: a code is never accepted twice. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** Wrong authenticator codes since the last right one (across sign-ins); at 10 the second factor locks. */
    totpFailures: integer("totp_failures").notNull().default(0),
    totpLockedUntil: timestamp("totp_locked_until", { withTimezone: true }),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** A borrower's erasure carried out (docs/product.md "Data rights"): what no law keeps is gone; the account signs in no more. */
    erasedAt: timestamp("erased_at", { withTimezone: true }),
    /** The language a borrower reads messages in (SMS, e-mail, push, in-app): set by the switch in the header while signed in. */
    language: text("language").$type<Language>().notNull().default("en"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("users_language", sql`${t.language} in ('en', 'hi')`),
    check("users_role", sql`${t.role} in ('borrower', 'credit', 'operations', 'support', 'finance', 'compliance', 'admin')`),
    // Borrower search pages through the newest accounts.
    index("users_role_created_idx").on(t.role, t.createdAt),
  ],
);

/** Server-side sessions behind the `token` cookie; the cookie holds a random token, the table its hash. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    deviceId: text("device_id").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /** signed_out | displaced | renewed | expired */
    endReason: text("end_reason"),
  },
  (t) => [index("sessions_user_idx").on(t.userId, t.endedAt)],
);

/** One-time codes, one live code per (target, purpose): sign-in, quick start, agreement signing. */
export const verifications = pgTable(
  "verifications",
  {
    target: text("target").notNull(),
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.target, t.purpose] })],
);

/** Every code sent, for the per-number and per-address hourly limits (a sliding hour). */
export const verificationSends = pgTable(
  "verification_sends",
  {
    id: serial("id").primaryKey(),
    target: text("target").notNull(),
    purpose: text("purpose").notNull(),
    ip: text("ip").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("verification_sends_target_idx").on(t.target, t.sentAt), index("verification_sends_ip_idx").on(t.ip, t.sentAt)],
);

/** Who did what, when, from where: staff actions and every status change. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    actorUserId: uuid("actor_user_id"),
    actorRole: text("actor_role"),
    action: text("action").notNull(),
    subjectType: text("subject_type"),
    subjectId: text("subject_id"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_subject_idx").on(t.subjectType, t.subjectId),
    // The audit viewer: newest first, and by action.
    index("audit_created_idx").on(t.createdAt),
    index("audit_action_created_idx").on(t.action, t.createdAt),
  ],
);

/** Open realtime connections (one row each), heartbeated by the process that holds them. */
export const presenceConnections = pgTable(
  "presence_connections",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").notNull(),
    deviceId: text("device_id").notNull(),
    processId: text("process_id").notNull(),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull(),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("presence_user_idx").on(t.userId), index("presence_heartbeat_idx").on(t.heartbeatAt)],
);

/** KYC: the Profile section (docs/product.md "KYC profile"). PAN encrypted with its keyed hash beside it; Aadhaar: last 4 digits only. */
export const borrowerProfiles = pgTable(
  "borrower_profiles",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    fullName: text("full_name").notNull(),
    dateOfBirth: text("date_of_birth").notNull(),
    gender: text("gender"),
    email: text("email"),
    panEnc: text("pan_enc").notNull(),
    /** HMAC of the PAN: finds a second account with the same PAN without decrypting. */
    panHmac: text("pan_hmac").notNull().unique(),
    panMasked: text("pan_masked").notNull(),
    aadhaarLast4: text("aadhaar_last4"),
    maritalStatus: text("marital_status"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Staff search names by any part ("%meera%"): a trigram index (pg_trgm, created in migration 0013).
  (t) => [
    index("borrower_profiles_name_trgm").using("gin", sql`${t.fullName} public.gin_trgm_ops`),
    // …and by the PAN's last 4.
    index("borrower_profiles_pan_last4_idx").on(sql`right(${t.panMasked}, 4)`),
  ],
);

/** Consents per purpose (KYC, communications), each change logged with time and address. */
export const consents = pgTable(
  "consents",
  {
    id: serial("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose").notNull(),
    granted: boolean("granted").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("consents_user_idx").on(t.userId, t.purpose, t.createdAt)],
);

/**
 * KYC: the Address section. City, district and state come from the shipped PIN data.
 * The quick start saves only the PIN code (and what it fills); the rest stays empty until the section is saved.
 */
export const borrowerAddresses = pgTable("borrower_addresses", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  currentLine1: text("current_line1"),
  currentLine2: text("current_line2"),
  currentPincode: text("current_pincode").notNull(),
  currentCity: text("current_city").notNull(),
  currentDistrict: text("current_district").notNull(),
  currentState: text("current_state").notNull(),
  residenceType: text("residence_type"),
  yearsAtAddress: integer("years_at_address"),
  permanentSame: boolean("permanent_same"),
  permanentLine1: text("permanent_line1"),
  permanentLine2: text("permanent_line2"),
  permanentPincode: text("permanent_pincode"),
  permanentCity: text("permanent_city"),
  permanentDistrict: text("permanent_district"),
  permanentState: text("permanent_state"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** KYC: the Employment section. Money in paise. The quick start fills type, income, salary day and EMIs first. */
export const borrowerEmployment = pgTable("borrower_employment", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  employmentType: text("employment_type").$type<EmploymentType>().notNull(),
  employerName: text("employer_name"),
  designation: text("designation"),
  netMonthlyIncomePaise: integer("net_monthly_income_paise").notNull(),
  existingEmiPaise: integer("existing_emi_paise"),
  salaryDay: smallint("salary_day"),
  monthsWithEmployer: integer("months_with_employer"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** KYC: the Reference section, two people per borrower. */
export const borrowerReferences = pgTable(
  "borrower_references",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    name: text("name").notNull(),
    relation: text("relation").notNull(),
    mobile: text("mobile").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.position] })],
);

/** KYC: the Bank section. Account number encrypted; verified when the bank's name matches the profile name. */
export const borrowerBankAccounts = pgTable("borrower_bank_accounts", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  holderName: text("holder_name").notNull(),
  accountNumberEnc: text("account_number_enc").notNull(),
  accountMasked: text("account_masked").notNull(),
  ifsc: text("ifsc").notNull(),
  bankName: text("bank_name").notNull(),
  accountType: text("account_type").notNull(),
  nameAtBank: text("name_at_bank"),
  /** 0–100: how closely the bank's name matches the profile name. */
  nameMatchScore: smallint("name_match_score"),
  verifiedAt: timestamp("verified_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** KYC: uploaded documents and the selfie; the bytes live in storage, outside the web root. */
export const borrowerDocuments = pgTable(
  "borrower_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<DocumentKind>().notNull(),
    contentType: text("content_type").$type<SniffedType>().notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    storageKey: text("storage_key").notNull(),
    originalName: text("original_name").notNull(),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("borrower_documents_user_kind").on(t.userId, t.kind)],
);

/**
 * A loan application and, once disbursed, the loan (docs/product.md "Loan applications"). `reference`
 * is the unguessable identifier in every URL; `id` never leaves the server.
 */
export const loanApplications = pgTable(
  "loan_applications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reference: text("reference").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    product: text("product").$type<LoanKind>().notNull(),
    status: text("status").$type<LoanStatus>().notNull().default("draft"),
    statusReason: text("status_reason"),
    amountPaise: integer("amount_paise"),
    /** EMI loan: number of monthly instalments. */
    tenureMonths: smallint("tenure_months"),
    /** The offer the terms were chosen within (from eligibility), as shown. */
    offer: jsonb("offer").$type<SavedOffer>(),
    purpose: text("purpose").$type<Purpose>(),
    purposeDetails: text("purpose_details"),
    /** The verified account the money goes to, as it was when chosen (masked). */
    disbursalAccount: jsonb("disbursal_account").$type<DisbursalAccount>(),
    termsSavedAt: timestamp("terms_saved_at", { withTimezone: true }),
    detailsSavedAt: timestamp("details_saved_at", { withTimezone: true }),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    /** The credit officer reviewing it (set when taken, changed when taken over). */
    assignedTo: uuid("assigned_to").references(() => users.id),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    /** Who approved or rejected it, and when (four eyes: the approver may not disburse). */
    decidedBy: uuid("decided_by").references(() => users.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** A code of REJECTION_REASONS (domain/review.ts); the borrower reads its plain words. */
    rejectionReason: text("rejection_reason").$type<RejectionReason>(),
    /** The officer's note on the decision, for the file (staff only). */
    decisionNote: text("decision_note"),
    /** Given when the first payout is processed: `SL` + 8 digits, read out on the phone. */
    loanNumber: text("loan_number").unique(),
    /** The provider's time of the processed payout, and its India date: the schedule runs from it. */
    disbursedAt: timestamp("disbursed_at", { withTimezone: true }),
    disbursalDate: text("disbursal_date"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("loan_applications_user_idx").on(t.userId, t.createdAt),
    index("loan_applications_queue_idx").on(t.status, t.signedAt),
    uniqueIndex("loan_applications_one_in_progress")
      .on(t.userId, t.product)
      .where(sql`${t.status} in ('draft', 'signed', 'under_review', 'approved')`),
    check("loan_applications_amount", sql`${t.amountPaise} is null or ${t.amountPaise} > 0`),
  ],
);

/**
 * The KFS + agreement PDF issued at Step5: the stored bytes are what the borrower is shown and signs.
 * The PDF is an object in file storage (`pdf_key`); rows from before migration 0037 keep it in
 * `pdf` until `movePdfsIntoStorage` moves it. Exactly one of the two is set.
 */
export const loanDocuments = pgTable(
  "loan_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    pdf: bytea("pdf"),
    pdfKey: text("pdf_key").unique(),
    sha256: text("sha256").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** The terms and figures printed in the document (the KFS model). */
    terms: jsonb("terms").$type<KfsModel>().notNull(),
    /** What the KFS was computed from (rate, fees, amount, tenure): disbursal fixes the schedule with these. */
    input: jsonb("input").$type<KfsInput>(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    /** Last day (India time) the KFS may be signed: 3 working days. */
    validUntil: text("valid_until").notNull(),
    assumedDisbursalDate: text("assumed_disbursal_date").notNull(),
    /** The language it is written in: the language of the page that asked for it. */
    language: text("language").$type<Language>().notNull().default("en"),
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
  },
  (t) => [
    check("loan_documents_language", sql`${t.language} in ('en', 'hi')`),
    check("loan_documents_pdf_once", sql`(${t.pdf} is null) <> (${t.pdfKey} is null)`),
    uniqueIndex("loan_documents_current")
      .on(t.applicationId)
      .where(sql`${t.supersededAt} is null`),
  ],
);

/**
 * The signature (docs/product.md "Key Fact Statement, signing and the signed agreement"): one
 * current per application; the signed PDF has its own hash and its own public reference. An
 * application sent back for a fresh KFS (the credit policy lowered what it may be) keeps its old
 * signature, superseded.
 */
export const loanSignatures = pgTable(
  "loan_signatures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => loanDocuments.id),
    /** SHA-256 of the stored bytes that were shown and accepted. */
    shownSha256: text("shown_sha256").notNull(),
    signedAt: timestamp("signed_at", { withTimezone: true }).notNull(),
    ip: text("ip").notNull(),
    userAgent: text("user_agent").notNull(),
    mobile: text("mobile").notNull(),
    /** The signed PDF: an object in file storage (`signed_pdf_key`), or in the row before migration 0037; exactly one is set. */
    signedPdf: bytea("signed_pdf"),
    signedPdfKey: text("signed_pdf_key").unique(),
    signedSha256: text("signed_sha256").notNull(),
    /** The /Eagreement/{id} reference: 128 random bits, unrelated to the application reference. */
    agreementRef: text("agreement_ref").notNull().unique(),
    /** The language of the document signed (and of its signature page). */
    language: text("language").$type<Language>().notNull().default("en"),
    /** When the application went back to the borrower for a fresh KFS and signature. */
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
  },
  (t) => [
    check("loan_signatures_language", sql`${t.language} in ('en', 'hi')`),
    check("loan_signatures_signed_pdf_once", sql`(${t.signedPdf} is null) <> (${t.signedPdfKey} is null)`),
    uniqueIndex("loan_signatures_current")
      .on(t.applicationId)
      .where(sql`${t.supersededAt} is null`),
  ],
);

/** Where a signature's signed PDF is (its row's bytes or its storage key) and its hash: a `StoredPdf` when selected. */
export const signedPdfColumns = {
  bytes: loanSignatures.signedPdf,
  key: loanSignatures.signedPdfKey,
  sha256: loanSignatures.signedSha256,
};

/** The application's current signature (not one withdrawn when it went back for a fresh KFS): a join or where condition. */
export const currentSignatureOf = (applicationId: SQLWrapper | string) =>
  and(eq(loanSignatures.applicationId, applicationId), isNull(loanSignatures.supersededAt));

/**
 * The public quick start (docs/product.md "Quick start"), one per borrower: how far they got,
 * what Step0 and the offer chose, and the application it continued into.
 * The other steps' answers live in the profile tables.
 */
export const quickStarts = pgTable(
  "quick_starts",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Steps completed in order: 0 (none) to 7 (all). The first incomplete step is Step{completed}. */
    completedSteps: smallint("completed_steps").notNull().default(0),
    product: text("product").$type<LoanKind>(),
    /** What the borrower asked for at Step0. */
    amountPaise: integer("amount_paise"),
    /** What the application starts at: the amount asked for, within the offer taken at Step5. */
    offerAmountPaise: integer("offer_amount_paise"),
    /** The EMI tenure the offer was shown at. */
    tenureMonths: smallint("tenure_months"),
    /** The offer as accepted at Step5 (both products, from eligibility). */
    offer: jsonb("offer").$type<Record<string, unknown>>(),
    offerAt: timestamp("offer_at", { withTimezone: true }),
    applicationId: uuid("application_id").references(() => loanApplications.id, { onDelete: "set null" }),
    continuedAt: timestamp("continued_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("quick_starts_completed", sql`${t.completedSteps} between 0 and 7`),
    check("quick_starts_amount", sql`${t.amountPaise} is null or ${t.amountPaise} > 0`),
  ],
);

/** Quick-start funnel: step viewed, step completed, offer shown, continued (for the back office's funnel). */
export const funnelEvents = pgTable(
  "funnel_events",
  {
    id: serial("id").primaryKey(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    event: text("event").$type<FunnelEvent>().notNull(),
    step: smallint("step"),
    product: text("product").$type<LoanKind>(),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("funnel_events_event_idx").on(t.event, t.step, t.createdAt), index("funnel_events_user_idx").on(t.userId, t.createdAt)],
);

/** The review checklist (docs/product.md "Credit review and decision"), one row per item ticked or unticked, with who and when. */
export const reviewChecklist = pgTable(
  "review_checklist",
  {
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    item: text("item").$type<ChecklistItem>().notNull(),
    checked: boolean("checked").notNull(),
    checkedBy: uuid("checked_by")
      .notNull()
      .references(() => users.id),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.item] })],
);

/** PAN verification and credit-bureau results fetched for an application's review (the latest of each kind counts). */
export const creditChecks = pgTable(
  "credit_checks",
  {
    id: serial("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * Who was checked: a hash of the PAN's keyed hash, the name and the date of birth sent
     * (checkSubject): a check counts only while the profile still says the same (a changed PAN, name
     * or date of birth is checked afresh).
     */
    subjectKey: text("subject_key").notNull(),
    /** The application under review it was pulled for; null for one pulled before an offer. */
    applicationId: uuid("application_id").references(() => loanApplications.id, { onDelete: "cascade" }),
    purpose: text("purpose").$type<"offer" | "review">().notNull().default("review"),
    kind: text("kind").$type<"pan" | "bureau">().notNull(),
    provider: text("provider").notNull(),
    /** done: answered; waiting: the provider did not answer in time and a job asks again; failed: it never answered. */
    status: text("status").$type<"done" | "waiting" | "failed">().notNull().default("done"),
    result: jsonb("result").$type<PanCheck | BureauReport>(),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("credit_checks_application_idx").on(t.applicationId, t.kind, t.checkedAt),
    index("credit_checks_user_idx").on(t.userId, t.subjectKey, t.checkedAt),
    check("credit_checks_result", sql`(${t.status} = 'done') = (${t.result} is not null)`),
  ],
);

/**
 * The credit policy (docs/product.md "Credit policy"): each version's rules, who proposed it and
 * why, and the second administrator who confirmed it. The version in force is the latest
 * confirmed; at most one proposal is open at a time.
 */
export const creditPolicies = pgTable(
  "credit_policies",
  {
    id: serial("id").primaryKey(),
    /** Given when confirmed (1, 2, …); a proposal, or one withdrawn, has none. */
    version: integer("version").unique(),
    status: text("status").$type<"proposed" | "confirmed" | "withdrawn">().notNull(),
    rules: jsonb("rules").$type<PolicyRules>().notNull(),
    reason: text("reason").notNull(),
    /** The version in force when it was proposed: confirming it after another change is refused. */
    basedOn: integer("based_on"),
    /** Null for the installation's first version. */
    proposedBy: uuid("proposed_by").references(() => users.id),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull(),
    confirmedBy: uuid("confirmed_by").references(() => users.id),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    withdrawnBy: uuid("withdrawn_by").references(() => users.id),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("credit_policies_one_open")
      .on(t.status)
      .where(sql`${t.status} = 'proposed'`),
    check("credit_policies_confirmed", sql`(${t.status} = 'confirmed') = (${t.version} is not null and ${t.confirmedAt} is not null)`),
    check("credit_policies_second_person", sql`${t.confirmedBy} is null or ${t.confirmedBy} <> ${t.proposedBy}`),
  ],
);

/**
 * Each judgement of the credit policy kept (docs/product.md "Credit policy"): the offer taken, the
 * terms saved, the signing, each staff decision and the disbursal, with the version and every
 * rule's input, threshold and result.
 */
export const policyEvaluations = pgTable(
  "policy_evaluations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    applicationId: uuid("application_id").references(() => loanApplications.id, { onDelete: "cascade" }),
    stage: text("stage").$type<"quick_start_offer" | "offer" | "signing" | "review" | "decision" | "disbursal">().notNull(),
    policyVersion: integer("policy_version").notNull(),
    product: text("product").$type<LoanKind>().notNull(),
    result: text("result").$type<RuleOutcome>().notNull(),
    amountPaise: integer("amount_paise"),
    tenureMonths: smallint("tenure_months"),
    maxAmountPaise: integer("max_amount_paise").notNull(),
    rules: jsonb("rules").$type<RuleResult[]>().notNull(),
    bureauReference: text("bureau_reference"),
    /** The staff member whose action it judged; null for the borrower's and the system's. */
    actorUserId: uuid("actor_user_id").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("policy_evaluations_application_idx").on(t.applicationId, t.createdAt),
    index("policy_evaluations_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * An approval that needs a deviation from the credit policy (docs/product.md "Credit policy"): the
 * first approver's written reason, then a second approver who is not the first.
 */
export const applicationDeviations = pgTable(
  "application_deviations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    /** The evaluation the first approver saw. */
    evaluationId: uuid("evaluation_id")
      .notNull()
      .references(() => policyEvaluations.id),
    rules: jsonb("rules").$type<RuleCode[]>().notNull(),
    reason: text("reason").notNull(),
    proposedBy: uuid("proposed_by")
      .notNull()
      .references(() => users.id),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull(),
    confirmedBy: uuid("confirmed_by").references(() => users.id),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** Set when the application leaves review another way (rejected, sent back, cancelled). */
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("application_deviations_one_open")
      .on(t.applicationId)
      .where(sql`${t.confirmedAt} is null and ${t.withdrawnAt} is null`),
    check("application_deviations_second_person", sql`${t.confirmedBy} is null or ${t.confirmedBy} <> ${t.proposedBy}`),
  ],
);

/**
 * What a credit officer asked the borrower for (a document again, or a question) and the answer.
 * While one is open the application is "waiting for you" on the borrower's dashboard.
 */
export const applicationRequests = pgTable(
  "application_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    askedBy: uuid("asked_by")
      .notNull()
      .references(() => users.id),
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull(),
    /** The document to upload again; null for a question. */
    documentKind: text("document_kind").$type<DocumentKind>(),
    message: text("message").notNull(),
    answer: text("answer"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("application_requests_one_open")
      .on(t.applicationId)
      .where(sql`${t.answeredAt} is null`),
    index("application_requests_application_idx").on(t.applicationId, t.askedAt),
  ],
);

/**
 * Autopay mandates (docs/product.md "Autopay"): what the borrower authorised at their bank for a
 * loan's instalments, on the verified account the loan was disbursed to. At most one is pending or
 * active per loan (a partial unique index); cancelled, rejected and replaced ones stay as history.
 */
export const mandates = pgTable(
  "mandates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Our reference (`md_…`), sent to the provider and echoed in its answers. */
    reference: text("reference").notNull().unique(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider").notNull(),
    kind: text("kind").$type<MandateKind>().notNull(),
    status: text("status").$type<MandateStatus>().notNull(),
    maxAmountPaise: integer("max_amount_paise").notNull(),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    holderName: text("holder_name").notNull(),
    accountMasked: text("account_masked").notNull(),
    ifsc: text("ifsc").notNull(),
    /** The provider's id of the mandate (Razorpay: the token), and where the borrower authorises it. */
    providerMandateId: text("provider_mandate_id"),
    authUrl: text("auth_url"),
    /** Why the bank or the borrower declined it, or why it was cancelled. */
    reason: text("reason"),
    /** Who cancelled it: the borrower, a staff member on the borrower's request, or null (the provider or the system). */
    cancelledBy: uuid("cancelled_by").references(() => users.id),
    activatedAt: timestamp("activated_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("mandates_one_live")
      .on(t.applicationId)
      // LIVE_MANDATE_STATUSES (domain/loans/mandate.ts).
      .where(sql`${t.status} in ('pending', 'active', 'paused')`),
    uniqueIndex("mandates_provider_id").on(t.provider, t.providerMandateId),
    index("mandates_application_idx").on(t.applicationId, t.createdAt),
    check("mandates_max_amount", sql`${t.maxAmountPaise} > 0`),
  ],
);

/**
 * An autopay debit of one instalment (docs/product.md "Autopay"): its pre-debit notice, its
 * presentation and the provider's answer, one row per attempt (a bounce is presented once more as
 * attempt 2). The row's id is the idempotency key sent to the provider, so a presentation retried
 * after a dropped connection never debits twice; a debit that succeeds becomes one payment.
 */
export const mandateDebits = pgTable(
  "mandate_debits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Our reference (`dd_…`), sent to the provider and echoed in its answers. */
    reference: text("reference").notNull().unique(),
    mandateId: uuid("mandate_id")
      .notNull()
      .references(() => mandates.id, { onDelete: "restrict" }),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** The instalment it is for, and which try (1; 2 after a bounce). */
    seq: smallint("seq").notNull(),
    attempt: smallint("attempt").notNull(),
    dueDate: text("due_date").notNull(),
    /** The India date it is presented on: its business date. */
    presentOn: text("present_on").notNull(),
    status: text("status").$type<DebitStatus>().notNull(),
    /** The amount the pre-debit notice named (the debit never takes more), and when the notice went out. */
    noticePaise: integer("notice_paise").notNull(),
    noticeAt: timestamp("notice_at", { withTimezone: true }).notNull(),
    /** What was presented (at most the notice and the mandate's maximum). */
    amountPaise: integer("amount_paise"),
    providerPaymentId: text("provider_payment_id"),
    presentedAt: timestamp("presented_at", { withTimezone: true }),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    /** The last time the provider was asked about it. */
    askedAt: timestamp("asked_at", { withTimezone: true }),
    /** The bank's reason for a bounce, or why it was not presented. */
    reason: text("reason"),
    /** The payment a successful debit became. */
    paymentId: uuid("payment_id").references(() => payments.id),
    /**
     * What a successful debit paid beyond what was due (an instalment already paid): refunded by
     * `excessRefundOn` unless the borrower keeps it as an advance (docs/product.md "Autopay").
     */
    excessPaise: integer("excess_paise").notNull().default(0),
    excessRefundOn: text("excess_refund_on"),
    /** keep: the borrower kept it as an advance; refund: refunded (the payout); none: nothing left to refund. */
    excessChoice: text("excess_choice").$type<"keep" | "refund" | "none">(),
    excessPayoutId: uuid("excess_payout_id").references(() => payouts.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("mandate_debits_once").on(t.applicationId, t.seq, t.attempt),
    uniqueIndex("mandate_debits_provider_payment").on(t.providerPaymentId),
    index("mandate_debits_status_idx").on(t.status, t.presentOn),
    // The excesses waiting for their refund day (few: the sweep reads them every 10 minutes).
    index("mandate_debits_excess_idx")
      .on(t.excessRefundOn)
      .where(sql`${t.excessPaise} > 0 and ${t.excessChoice} is null`),
    check("mandate_debits_amount", sql`${t.amountPaise} is null or (${t.amountPaise} > 0 and ${t.amountPaise} <= ${t.noticePaise})`),
  ],
);

/**
 * A payout of an approved loan (docs/product.md "Disbursal"): one row per attempt. The row's id is
 * the idempotency key sent to the provider, so a request retried after a dropped connection can
 * never pay twice; a new attempt (a new key) is allowed only after the provider confirmed that the
 * last one failed. At most one attempt is requested or processed at a time (a partial unique index).
 */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    attempt: smallint("attempt").notNull(),
    /** The loan's disbursal, or a refund of an overpayment to the same verified account. */
    purpose: text("purpose").$type<"disbursal" | "refund">().notNull().default("disbursal"),
    provider: text("provider").notNull(),
    status: text("status").$type<PayoutStatus>().notNull(),
    amountPaise: integer("amount_paise").notNull(),
    holderName: text("holder_name").notNull(),
    /** The account as it was verified when the payout was requested (encrypted): every retry of this attempt sends the same. */
    accountNumberEnc: text("account_number_enc").notNull(),
    accountMasked: text("account_masked").notNull(),
    ifsc: text("ifsc").notNull(),
    /** The provider's own id, once it has answered. */
    providerPayoutId: text("provider_payout_id"),
    /** The bank's transfer reference of a processed payout. */
    utr: text("utr"),
    failureReason: text("failure_reason"),
    /**
     * A refund that returns one payment never applied to the loan (an autopay debit that arrived
     * after the loan was written off): no ledger entry, the payment marked reversed once it is sent.
     */
    returnsPaymentId: uuid("returns_payment_id").references((): AnyPgColumn => payments.id),
    /** The operations staff member who asked for it; null for a refund the system sends. */
    requestedBy: uuid("requested_by").references(() => users.id),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
    /** When the provider says it was processed, failed or reversed (its event time, not ours). */
    providerAt: timestamp("provider_at", { withTimezone: true }),
    /** When this application last asked the provider about it. */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("payouts_attempt").on(t.applicationId, t.attempt),
    uniqueIndex("payouts_one_live")
      .on(t.applicationId)
      .where(sql`${t.purpose} = 'disbursal' and ${t.status} in ('requested', 'processed')`),
    uniqueIndex("payouts_one_refund_in_flight")
      .on(t.applicationId)
      .where(sql`${t.purpose} = 'refund' and ${t.status} = 'requested'`),
    uniqueIndex("payouts_provider_id").on(t.provider, t.providerPayoutId),
    index("payouts_status_idx").on(t.status, t.requestedAt),
    check("payouts_amount", sql`${t.amountPaise} > 0`),
  ],
);

/** The instalments of an active loan, fixed from the actual disbursal date (what is paid comes from the ledger). */
export const loanInstalments = pgTable(
  "loan_instalments",
  {
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    seq: smallint("seq").notNull(),
    dueDate: text("due_date").notNull(),
    principalPaise: integer("principal_paise").notNull(),
    interestPaise: integer("interest_paise").notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.seq] }), index("loan_instalments_due_idx").on(t.dueDate)],
);

export const LEDGER_KINDS = [
  "disbursal",
  "disbursal_reversal",
  "payment",
  "payment_reversal",
  "penal",
  "penal_reversal",
  "penal_waiver",
  "refund",
  "refund_reversal",
  "closure",
  "reopening",
  "write_off",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * The loan's ledger: every event of the loan in the order it was recorded; what is owed and paid is
 * derived from it (domain/loans/servicing.ts), never stored twice. Reversals and waivers name the
 * entry they undo (`ref_id`).
 */
export const loanLedger = pgTable(
  "loan_ledger",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The order entries were written in (entries of one moment share `recorded_at`): the replay's order. */
    entryNo: bigserial("entry_no", { mode: "number" }).notNull(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    kind: text("kind").$type<LedgerKind>().notNull(),
    /** Principal lent (+) or returned (−) by a disbursal or its reversal. */
    principalPaise: integer("principal_paise").notNull(),
    /** The money of a payment, penal charge, waiver, reversal or refund (positive). */
    amountPaise: integer("amount_paise").notNull().default(0),
    /** The India date the entry counts on (the provider's event time). */
    businessDate: text("business_date").notNull(),
    payoutId: uuid("payout_id").references(() => payouts.id),
    paymentId: uuid("payment_id").references(() => payments.id),
    /** The instalment a penal charge is for. */
    seq: smallint("seq"),
    /** The entry a reversal or waiver undoes. */
    refId: uuid("ref_id"),
    /** The staff member who recorded it; null for the system. */
    actorUserId: uuid("actor_user_id").references(() => users.id),
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("loan_ledger_application_idx").on(t.applicationId, t.recordedAt),
    // The books find a loan's entries not yet journalled (entry_no past booked_through).
    index("loan_ledger_application_entry_idx").on(t.applicationId, t.entryNo),
    // A payout is disbursed, or reversed, once in the ledger however often the provider tells us.
    uniqueIndex("loan_ledger_payout_kind").on(t.payoutId, t.kind),
    // A payment is applied once however often the gateway delivers it, and reversed at most once.
    uniqueIndex("loan_ledger_payment_kind").on(t.paymentId, t.kind),
    // One penal charge per missed instalment; one reversal or waiver per entry.
    uniqueIndex("loan_ledger_penal_once")
      .on(t.applicationId, t.seq)
      .where(sql`${t.kind} = 'penal'`),
    uniqueIndex("loan_ledger_undone_once")
      .on(t.refId)
      .where(sql`${t.refId} is not null`),
  ],
);

export const PAYMENT_STATUSES = ["created", "pending", "captured", "failed", "cancelled", "held", "reversed"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type PaymentPurpose = "due" | "overdue" | "payoff" | "amount" | "cooling_off" | "offline";

/**
 * A repayment: an order the borrower pays at the gateway (or money staff received outside it).
 * `reference` is the payment's own, the one `/{state}/{id}` comes back with; the gateway's payment
 * id is unique, so the same payment is never applied twice.
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reference: text("reference").notNull().unique(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** "local", "razorpay" or "offline" (recorded by staff). */
    provider: text("provider").notNull(),
    purpose: text("purpose").$type<PaymentPurpose>().notNull(),
    /** Keep what is left after the dues for principal on the next due date. */
    prepay: boolean("prepay").notNull().default(false),
    amountPaise: integer("amount_paise").notNull(),
    status: text("status").$type<PaymentStatus>().notNull(),
    /** The gateway's order or payment link. */
    providerOrderId: text("provider_order_id"),
    checkoutUrl: text("checkout_url"),
    /** The gateway's payment id (or, offline, the bank's or receipt's reference). */
    providerPaymentId: text("provider_payment_id"),
    receivedPaise: integer("received_paise"),
    /** The provider's time of the capture, and its India date (the business date). */
    paidAt: timestamp("paid_at", { withTimezone: true }),
    businessDate: text("business_date"),
    failureReason: text("failure_reason"),
    /** Offline: how it was received (NEFT, UPI, cheque, cash) and by whom it was recorded. */
    mode: text("mode"),
    recordedBy: uuid("recorded_by").references(() => users.id),
    /** A reversal asked for by one staff member (with why), which a second one confirms (four eyes). */
    reversalRequestedBy: uuid("reversal_requested_by").references(() => users.id),
    reversalRequestedAt: timestamp("reversal_requested_at", { withTimezone: true }),
    reversalReason: text("reversal_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("payments_application_idx").on(t.applicationId, t.createdAt),
    index("payments_status_idx").on(t.status, t.createdAt),
    uniqueIndex("payments_provider_payment").on(t.provider, t.providerPaymentId),
    uniqueIndex("payments_provider_order").on(t.provider, t.providerOrderId),
    check("payments_amount", sql`${t.amountPaise} > 0`),
  ],
);

/**
 * One row per active (or once active) loan: its servicing terms, fixed at disbursal, and a cache of
 * what the ledger gives today (rewritten with every ledger entry and by the daily run) for the
 * lists, queues and reports that read many loans at once. The ledger stays the record.
 */
export const loanAccounts = pgTable(
  "loan_accounts",
  {
    applicationId: uuid("application_id")
      .primaryKey()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    kind: text("kind").$type<LoanKind>().notNull(),
    principalPaise: integer("principal_paise").notNull(),
    /** What the borrower received: the principal less the processing fee and its GST (the cooling-off exit's base). */
    netDisbursedPaise: integer("net_disbursed_paise").notNull(),
    rateBps: integer("rate_bps").notNull(),
    penalPaise: integer("penal_paise").notNull(),
    coolingOffDays: smallint("cooling_off_days").notNull(),
    disbursalDate: text("disbursal_date").notNull(),
    /** The date the cached figures are for. */
    asOf: text("as_of").notNull(),
    outstandingPrincipalPaise: integer("outstanding_principal_paise").notNull(),
    overduePaise: integer("overdue_paise").notNull(),
    penalDuePaise: integer("penal_due_paise").notNull(),
    dpd: integer("dpd").notNull(),
    nextDueDate: text("next_due_date"),
    nextDuePaise: integer("next_due_paise"),
    advancePaise: integer("advance_paise").notNull(),
    refundDuePaise: integer("refund_due_paise").notNull(),
    settledOn: text("settled_on"),
    /** The books (docs/product.md "The lender's books"): the last day whose interest accrual is posted. */
    accruedThrough: text("accrued_through"),
    /** The last ledger entry (`entry_no`) the journals have booked. */
    bookedThrough: bigint("booked_through", { mode: "number" }).notNull().default(0),
    /** Non-performing since (its borrower had a loan over 90 days past due); null while standard. */
    npaSince: text("npa_since"),
    /** The processing fee and its GST charged at disbursal, and how the GST splits by place of supply. */
    feePaise: integer("fee_paise"),
    feeGstPaise: integer("fee_gst_paise"),
    gstSplit: text("gst_split").$type<"intra" | "inter">(),
    /** The accounting framework the loan is booked under (the one in force at its disbursal). */
    framework: text("framework").$type<Framework>(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("loan_accounts_dpd_idx").on(t.dpd),
    index("loan_accounts_next_due_idx").on(t.nextDueDate),
    index("loan_accounts_accrued_idx").on(t.accruedThrough),
  ],
);

/** The daily servicing run, one row per business date: started, finished, and what it did. */
export const servicingRuns = pgTable("servicing_runs", {
  businessDate: text("business_date").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  loans: integer("loans").notNull().default(0),
  levied: integer("levied").notNull().default(0),
  reversed: integer("reversed").notNull().default(0),
  /** Reminders queued (due in 3 days, due today): only by the run of the day itself. */
  reminders: integer("reminders").notNull().default(0),
});

/** Collections: a staff member's note on contacting the borrower of a loan past due. */
export const collectionNotes = pgTable(
  "collection_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    staffUserId: uuid("staff_user_id")
      .notNull()
      .references(() => users.id),
    outcome: text("outcome").notNull(),
    /** How the contact was made (docs/product.md "Collections"). */
    channel: text("channel").$type<ContactChannel>().notNull().default("call_out"),
    /** The case it was made on (null: a note from before cases). */
    caseId: uuid("case_id"),
    note: text("note").notNull(),
    /** A promise to pay, or when to call again. */
    followUpOn: text("follow_up_on"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("collection_notes_application_idx").on(t.applicationId, t.createdAt)],
);

/**
 * A collections case (docs/product.md "Collections"): one per loan from its first day past due until
 * it is back to 0 days past due, closed or written off (at most one open per loan). Who works it,
 * its priority (high after a broken promise), and a pause of its reminders with the reason.
 */
export const collectionCases = pgTable(
  "collection_cases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    openedOn: text("opened_on").notNull(),
    closedOn: text("closed_on"),
    closedReason: text("closed_reason").$type<CaseClosed>(),
    assigneeUserId: uuid("assignee_user_id").references(() => users.id),
    priority: text("priority").$type<"normal" | "high">().notNull().default("normal"),
    pausedAt: timestamp("paused_at", { withTimezone: true }),
    pauseKind: text("pause_kind").$type<PauseKind>(),
    pauseReason: text("pause_reason"),
    pausedBy: uuid("paused_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("collection_cases_one_open")
      .on(t.applicationId)
      .where(sql`${t.closedOn} is null`),
    index("collection_cases_open_idx")
      .on(t.assigneeUserId, t.openedOn)
      .where(sql`${t.closedOn} is null`),
    index("collection_cases_application_idx").on(t.applicationId, t.openedOn),
  ],
);

/** A promise to pay on a case (by the borrower from the loan page, or staff after a call), kept or broken from the ledger. */
export const promisesToPay = pgTable(
  "promises_to_pay",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => collectionCases.id, { onDelete: "cascade" }),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    amountPaise: integer("amount_paise").notNull(),
    madeOn: text("made_on").notNull(),
    dueOn: text("due_on").notNull(),
    /** Null: the borrower made it. */
    staffUserId: uuid("staff_user_id").references(() => users.id),
    status: text("status").$type<PromiseStatus>().notNull().default("open"),
    resolvedOn: text("resolved_on"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("promises_to_pay_case_idx").on(t.caseId, t.createdAt),
    index("promises_to_pay_open_idx")
      .on(t.dueOn)
      .where(sql`${t.status} in ('open', 'broken')`),
    check("promises_to_pay_amount", sql`${t.amountPaise} > 0`),
  ],
);

/**
 * The dunning rules (docs/product.md "Collections"): each version's steps by days past due, who
 * saved it and why; the latest is in force, the earlier ones kept as its history.
 */
export const dunningRules = pgTable("dunning_rules", {
  version: serial("version").primaryKey(),
  steps: jsonb("steps").$type<DunningStep[]>().notNull(),
  reason: text("reason").notNull(),
  /** Null for the installation's first version. */
  savedBy: uuid("saved_by").references(() => users.id),
  savedAt: timestamp("saved_at", { withTimezone: true }).notNull(),
});

/** Each dunning step sent to a case, once (the reminder's notice, the call task it made). */
export const dunningSends = pgTable(
  "dunning_sends",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => collectionCases.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    stepDpd: smallint("step_dpd").notNull(),
    ruleVersion: integer("rule_version").notNull(),
    channels: jsonb("channels").$type<DunningChannel[]>().notNull(),
    tone: text("tone").$type<DunningTone>().notNull(),
    /** The India day it goes out on (made at night, it goes at 08:00): at most one a day per borrower. */
    sentOn: text("sent_on").notNull(),
    /** What the reminder said: the days past due and the amount, kept for the letter. */
    dpd: smallint("dpd").notNull(),
    amountPaise: integer("amount_paise").notNull(),
    notificationId: uuid("notification_id").references(() => notifications.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("dunning_sends_once").on(t.caseId, t.stepDpd), index("dunning_sends_user_day_idx").on(t.userId, t.sentOn)],
);

/** A call task for staff (a dunning step's, or one a staff member set): always a named staff member's. */
export const collectionTasks = pgTable(
  "collection_tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => collectionCases.id, { onDelete: "cascade" }),
    dueOn: text("due_on").notNull(),
    assigneeUserId: uuid("assignee_user_id")
      .notNull()
      .references(() => users.id),
    status: text("status").$type<"open" | "done" | "cancelled">().notNull().default("open"),
    /** The dunning step that made it (null: set by staff). */
    stepDpd: smallint("step_dpd"),
    /** The contact that did it. */
    noteId: uuid("note_id").references(() => collectionNotes.id),
    doneAt: timestamp("done_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("collection_tasks_assignee_idx")
      .on(t.assigneeUserId, t.dueOn)
      .where(sql`${t.status} = 'open'`),
    uniqueIndex("collection_tasks_step_once").on(t.caseId, t.stepDpd),
  ],
);

/** The revised KFS issued at disbursal when a date or amount differs from the signed one (the latest not superseded counts). */
export const revisedKfs = pgTable(
  "revised_kfs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    payoutId: uuid("payout_id")
      .notNull()
      .references(() => payouts.id),
    /** The PDF: an object in file storage (`pdf_key`), or in the row before migration 0037; exactly one is set. */
    pdf: bytea("pdf"),
    pdfKey: text("pdf_key").unique(),
    sha256: text("sha256").notNull(),
    terms: jsonb("terms").$type<KfsModel>().notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
  },
  (t) => [
    check("revised_kfs_pdf_once", sql`(${t.pdf} is null) <> (${t.pdfKey} is null)`),
    uniqueIndex("revised_kfs_current")
      .on(t.applicationId)
      .where(sql`${t.supersededAt} is null`),
  ],
);

/**
 * Every change an administrator makes to a loan product or a risk band, with the terms before and
 * after, who, when and why (docs/product.md "Products"). The products table holds the current terms.
 */
export const productVersions = pgTable(
  "product_versions",
  {
    id: serial("id").primaryKey(),
    code: text("code").notNull(),
    version: integer("version").notNull(),
    /** What was changed: the product's own terms, or one risk band. */
    part: text("part").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>().notNull(),
    after: jsonb("after").$type<Record<string, unknown>>().notNull(),
    note: text("note").notNull(),
    changedBy: uuid("changed_by")
      .notNull()
      .references(() => users.id),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("product_versions_code_version").on(t.code, t.version)],
);

/**
 * The holiday calendar once an administrator has edited it (docs/product.md "Holidays"): until
 * then `HOLIDAYS` from configuration is the calendar; from the first edit (`settings` key
 * "holidays_edited_at") this table is, seeded with those dates.
 */
export const holidays = pgTable("holidays", {
  date: text("date").primaryKey(),
  name: text("name").notNull(),
  addedBy: uuid("added_by").references(() => users.id),
  addedAt: timestamp("added_at", { withTimezone: true }).notNull(),
});

/** Small settings an administrator changes at run time, by key. */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
});

/**
 * A notice to a borrower (docs/product.md "Notifications"): the in-app list's row, written in the
 * change that caused it, with the words for every channel. `dedupeKey` names the event itself, so
 * the same event told twice is one notice; its SMS, e-mail and pushes go from it by job.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    event: text("event").$type<NotificationEvent>().notNull(),
    dedupeKey: text("dedupe_key").notNull().unique(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** The page it is about: a path of this site. */
    path: text("path").notNull(),
    /** The SMS text; null when this notice sends none (a staff notice not urgent). */
    sms: text("sms"),
    smsTemplateId: text("sms_template_id"),
    /** The language its words were written in (the borrower's when it was made): its e-mail's frame is in the same. */
    language: text("language").$type<Language>().notNull().default("en"),
    attachments: jsonb("attachments").$type<AttachmentRef[]>().notNull().default([]),
    /** The channels it goes by besides the app (a dunning step's); null: every channel it has words for. */
    channels: jsonb("channels").$type<Channel[]>(),
    /** The staff member who wrote it (a staff notice). */
    sentBy: uuid("sent_by").references(() => users.id),
    /** Shown and sent from this time: a reminder made at night waits for 08:00. */
    availableAt: timestamp("available_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.availableAt),
    check("notifications_language", sql`${t.language} in ('en', 'hi')`),
    index("notifications_unread_idx")
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
  ],
);

/**
 * One channel's delivery of a notice: claimed before sending, so a job run twice sends once.
 * `target` is "" for the SMS and the e-mail, the push subscription's id for a push.
 */
export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    notificationId: uuid("notification_id")
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    channel: text("channel").$type<Channel>().notNull(),
    target: text("target").notNull(),
    /** sending (claimed), sent, failed (tried again by the job's retry), gone (push subscription expired), skipped. */
    status: text("status").$type<"sending" | "sent" | "failed" | "gone" | "skipped">().notNull(),
    attempts: integer("attempts").notNull().default(1),
    error: text("error"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.channel, t.target] })],
);

/** A browser that allowed web push on a device, per borrower; dropped when the push service says it is gone. */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** The signed-in device (the session's device id): signing out there stops its pushes. */
    deviceId: text("device_id"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
  },
  (t) => [index("push_subscriptions_user_idx").on(t.userId)],
);

/** The last ticket number given in each year (a ticket's reference is GRV- + year + 6 digits). */
export const ticketCounters = pgTable("ticket_counters", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

/**
 * A help ticket (docs/product.md "Help and grievances"): a complaint or a request from a signed-in
 * borrower (`user_id`), or from the public contact form (`contact_*`, no account).
 */
export const tickets = pgTable(
  "tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reference: text("reference").notNull().unique(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    source: text("source").$type<TicketSource>().notNull(),
    kind: text("kind").$type<TicketKind>().notNull(),
    category: text("category").$type<TicketCategory>().notNull(),
    /** The loan or application it concerns (optional). */
    applicationId: uuid("application_id").references(() => loanApplications.id),
    subject: text("subject").notNull(),
    status: text("status").$type<TicketStatus>().notNull().default("open"),
    assignedTo: uuid("assigned_to").references(() => users.id),
    contactName: text("contact_name"),
    contactMobile: text("contact_mobile"),
    contactEmail: text("contact_email"),
    /** The form's one-time key: the same submission twice is one ticket. */
    onceKey: uuid("once_key").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** The borrower said they do not accept the answer: the way to the Ombudsman is shown. */
    notAcceptedAt: timestamp("not_accepted_at", { withTimezone: true }),
    reopenedCount: integer("reopened_count").notNull().default(0),
  },
  (t) => [
    index("tickets_user_idx").on(t.userId, t.createdAt),
    index("tickets_status_idx").on(t.status, t.createdAt),
    check("tickets_who", sql`${t.userId} is not null or (${t.contactMobile} is not null and ${t.contactEmail} is not null)`),
  ],
);

/** What was said on a ticket: by the borrower, by staff (a reply, or an internal note the borrower never sees), or a status change. */
export const ticketMessages = pgTable(
  "ticket_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    author: text("author").$type<"borrower" | "staff" | "system">().notNull(),
    staffUserId: uuid("staff_user_id").references(() => users.id),
    internal: boolean("internal").notNull().default(false),
    body: text("body").notNull(),
    onceKey: uuid("once_key").unique(),
    /** On a contact-form ticket (no account): when the e-mail with this message (the acknowledgement, or a reply) went. */
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("ticket_messages_ticket_idx").on(t.ticketId, t.createdAt)],
);

/**
 * The books' rules finance sets (docs/product.md "The lender's books"), each kind a history of
 * versions: the framework and the lender's GST state, the chart of accounts, the provisioning rates.
 * The latest version of a kind is in force; none is ever changed.
 */
export const booksRules = pgTable(
  "books_rules",
  {
    version: serial("version").primaryKey(),
    kind: text("kind").$type<BooksRuleKind>().notNull(),
    value: jsonb("value").$type<unknown>().notNull(),
    reason: text("reason").notNull(),
    /** Null for the installation's first version. */
    savedBy: uuid("saved_by").references(() => users.id),
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("books_rules_kind_idx").on(t.kind, t.version)],
);

/**
 * A journal entry: one money event (or a day's accrual, a month's provisioning), balanced, never
 * changed (a correction is a reversing entry, `reverses_id`). `entry_date` is the accounting date
 * (the event's business date, or the first open day when its month is closed).
 */
export const journalEntries = pgTable(
  "journal_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entryNo: bigserial("entry_no", { mode: "number" }).notNull().unique(),
    entryDate: text("entry_date").notNull(),
    businessDate: text("business_date").notNull(),
    kind: text("kind").notNull(),
    narration: text("narration").notNull(),
    applicationId: uuid("application_id").references(() => loanApplications.id, { onDelete: "restrict" }),
    /** The loan-ledger entry it books (once). */
    ledgerId: uuid("ledger_id")
      .unique()
      .references(() => loanLedger.id, { onDelete: "restrict" }),
    reversesId: uuid("reverses_id")
      .unique()
      .references((): AnyPgColumn => journalEntries.id),
    /** What makes a run's entry once only (a product's accrual for a day, a month's provisioning). */
    sourceKey: text("source_key").unique(),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("journal_entries_date_idx").on(t.entryDate, t.entryNo),
    index("journal_entries_application_idx").on(t.applicationId, t.entryNo),
    index("journal_entries_kind_idx").on(t.kind, t.entryDate),
  ],
);

/** A journal entry's lines: one account (by purpose), a debit or a credit, and the loan it is about (the subledger). */
export const journalLines = pgTable(
  "journal_lines",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => journalEntries.id, { onDelete: "restrict" }),
    entryDate: text("entry_date").notNull(),
    purpose: text("purpose").$type<AccountPurpose>().notNull(),
    applicationId: uuid("application_id"),
    debitPaise: bigint("debit_paise", { mode: "number" }).notNull().default(0),
    creditPaise: bigint("credit_paise", { mode: "number" }).notNull().default(0),
    /** The provider's id for the money (a gateway payment, a payout): what reconciliation matches. */
    providerRef: text("provider_ref"),
  },
  (t) => [
    index("journal_lines_entry_idx").on(t.entryId),
    index("journal_lines_account_idx").on(t.purpose, t.entryDate),
    index("journal_lines_application_idx").on(t.applicationId),
    index("journal_lines_provider_idx")
      .on(t.providerRef)
      .where(sql`${t.providerRef} is not null`),
    check(
      "journal_lines_one_side",
      sql`${t.debitPaise} >= 0 and ${t.creditPaise} >= 0 and (${t.debitPaise} = 0) <> (${t.creditPaise} = 0)`,
    ),
  ],
);

/** Each loan's balance on each account (debit − credit), kept with every line posted: what the next entry is worked out against. */
export const bookPositions = pgTable(
  "book_positions",
  {
    applicationId: uuid("application_id").notNull(),
    purpose: text("purpose").$type<AccountPurpose>().notNull(),
    balancePaise: bigint("balance_paise", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.purpose] })],
);

/** An active loan's instalment periods as the daily accrual reads them (the replay's, after any shortening). */
export const accrualBasis = pgTable(
  "accrual_basis",
  {
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "cascade" }),
    seq: smallint("seq").notNull(),
    fromDate: text("from_date").notNull(),
    dueDate: text("due_date").notNull(),
    interestPaise: integer("interest_paise").notNull(),
    /** Ind AS: the processing fee amortised over the period (by the effective interest rate). */
    feePaise: integer("fee_paise").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.seq] }), index("accrual_basis_due_idx").on(t.dueDate)],
);

/** A closed month (YYYY-MM): it takes no new entries. */
export const accountingPeriods = pgTable("accounting_periods", {
  month: text("month").primaryKey(),
  closedBy: uuid("closed_by").references(() => users.id),
  closedAt: timestamp("closed_at", { withTimezone: true }).notNull(),
  note: text("note").notNull(),
});

/**
 * Each loan's classification at a month end, as the month's provisioning found it (RBI's asset class,
 * the ECL stage under Ind AS, its book value and the provision required): kept, never rerun.
 */
export const monthEndClasses = pgTable(
  "month_end_classes",
  {
    month: text("month").notNull(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    assetClass: text("asset_class").$type<AssetClass>().notNull(),
    eclStage: text("ecl_stage").$type<EclStage>().notNull(),
    dpd: integer("dpd").notNull(),
    bookValuePaise: bigint("book_value_paise", { mode: "number" }).notNull(),
    provisionPaise: bigint("provision_paise", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.applicationId] }), index("month_end_classes_class_idx").on(t.month, t.assetClass)],
);

export type StatementLineState = "matched" | "unmatched" | "duplicate" | "not_settled";

/**
 * A provider's statement imported for reconciliation (docs/product.md "The lender's books"): a
 * gateway settlement report or a payout account statement, uploaded or written by a local stand-in.
 * The same file (by its SHA-256) is never imported twice. Kept for ever.
 */
export const statementImports = pgTable(
  "statement_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<StatementKind>().notNull(),
    /** Whose format and money: razorpay, razorpayx, or local (a stand-in's). */
    provider: text("provider").notNull(),
    /** How it came: an upload, or the local stand-ins' statements. */
    source: text("source").$type<"upload" | "stand_in">().notNull(),
    fileName: text("file_name").notNull(),
    sha256: text("sha256").notNull().unique(),
    sizeBytes: integer("size_bytes").notNull(),
    lineCount: integer("line_count").notNull(),
    /** The first and last statement dates of its lines. */
    firstDate: text("first_date"),
    lastDate: text("last_date"),
    importedBy: uuid("imported_by").references(() => users.id),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("statement_imports_at_idx").on(t.importedAt)],
);

/**
 * A statement's lines, in paise: gross (the payment's or payout's amount), the provider's fee
 * without its GST, that GST, and the net moved in the lender's account (+ in, − out). `state`:
 * matched (to `matched_line_id`), unmatched (an exception says why), duplicate (the same line in an
 * earlier import: neither journalled nor matched again), not_settled (listed before the gateway
 * settled it). The match key names the journal line it stands for.
 */
export const statementLines = pgTable(
  "statement_lines",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    importId: uuid("import_id")
      .notNull()
      .references(() => statementImports.id, { onDelete: "restrict" }),
    kind: text("kind").$type<StatementKind>().notNull(),
    rowNo: integer("row_no").notNull(),
    lineType: text("line_type").notNull(),
    providerRef: text("provider_ref").notNull(),
    lineKey: text("line_key").notNull(),
    grossPaise: bigint("gross_paise", { mode: "number" }).notNull(),
    feePaise: bigint("fee_paise", { mode: "number" }).notNull(),
    taxPaise: bigint("tax_paise", { mode: "number" }).notNull(),
    netPaise: bigint("net_paise", { mode: "number" }).notNull(),
    valueDate: text("value_date"),
    eventDate: text("event_date"),
    settlementId: text("settlement_id"),
    utr: text("utr"),
    raw: jsonb("raw").$type<Record<string, string>>().notNull(),
    matchPurpose: text("match_purpose").$type<AccountPurpose>(),
    matchRef: text("match_ref"),
    matchSide: text("match_side").$type<"debit" | "credit">(),
    state: text("state").$type<StatementLineState>().notNull(),
    matchedLineId: bigint("matched_line_id", { mode: "number" }).references(() => journalLines.id, { onDelete: "restrict" }),
    matchedAt: timestamp("matched_at", { withTimezone: true }),
    /** The entry that journalled its money (a gateway settlement's; a payout statement's fees). */
    journalEntryId: uuid("journal_entry_id").references(() => journalEntries.id, { onDelete: "restrict" }),
    duplicateOf: bigint("duplicate_of", { mode: "number" }).references((): AnyPgColumn => statementLines.id),
  },
  (t) => [
    index("statement_lines_import_idx").on(t.importId, t.rowNo),
    index("statement_lines_match_idx").on(t.matchPurpose, t.matchRef, t.matchSide),
    index("statement_lines_state_idx").on(t.state),
    // A line is journalled and matched once, however many files list it.
    uniqueIndex("statement_lines_once")
      .on(t.kind, t.lineKey)
      .where(sql`${t.duplicateOf} is null`),
    // A journal line is matched by one statement line at most.
    uniqueIndex("statement_lines_matched_once").on(t.matchedLineId),
  ],
);

/**
 * The exceptions queue: a statement line that matches no journal line, or a journal line on the
 * clearing or payout account that no statement has listed after the configured days. One per line,
 * however often matching runs; resolved once with a note (by finance, or by matching when the other
 * side turns up), never changed after and never deleted (the database refuses both).
 */
export const reconExceptions = pgTable(
  "recon_exceptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<StatementKind>().notNull(),
    side: text("side").$type<"statement" | "books">().notNull(),
    reason: text("reason").$type<ExceptionReason>().notNull(),
    statementLineId: bigint("statement_line_id", { mode: "number" })
      .unique()
      .references(() => statementLines.id, { onDelete: "restrict" }),
    journalLineId: bigint("journal_line_id", { mode: "number" })
      .unique()
      .references(() => journalLines.id, { onDelete: "restrict" }),
    providerRef: text("provider_ref").notNull(),
    lineType: text("line_type"),
    amountPaise: bigint("amount_paise", { mode: "number" }).notNull(),
    expectedPaise: bigint("expected_paise", { mode: "number" }),
    /** The day of the line it is about (the statement's date, or the journal line's business date): what its age counts from. */
    eventDate: text("event_date").notNull(),
    bookedOn: text("booked_on"),
    applicationId: uuid("application_id").references(() => loanApplications.id, { onDelete: "restrict" }),
    raisedAt: timestamp("raised_at", { withTimezone: true }).notNull(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    /** Null when matching resolved it (the other side turned up). */
    resolvedBy: uuid("resolved_by").references(() => users.id),
    resolution: text("resolution"),
  },
  (t) => [
    index("recon_exceptions_open_idx")
      .on(t.eventDate)
      .where(sql`${t.resolvedAt} is null`),
    index("recon_exceptions_resolved_idx").on(t.resolvedAt),
    check("recon_exceptions_one_side", sql`(${t.statementLineId} is null) <> (${t.journalLineId} is null)`),
    check("recon_exceptions_resolved", sql`(${t.resolvedAt} is null) = (${t.resolution} is null)`),
  ],
);

/**
 * Credit bureau reporting (docs/product.md "Credit bureau reporting"): one file per credit
 * information company and as-of date (the 15th and each month's last day), and correction files
 * that send rejected records again. The file itself is sealed in storage; its row keeps what the
 * runs page lists. A regular file is made once per bureau and date.
 */
export const bureauRuns = pgTable(
  "bureau_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bureau: text("bureau").notNull(),
    kind: text("kind").$type<"regular" | "correction">().notNull(),
    asOf: text("as_of").notNull(),
    /** The regular file for the period before this one's as-of date: the "closed since the last file" boundary. */
    previousAsOf: text("previous_as_of"),
    fileKey: text("file_key").notNull(),
    fileName: text("file_name").notNull(),
    fileSha256: text("file_sha256").notNull(),
    fileBytes: integer("file_bytes").notNull(),
    /** Accounts in the file, held back (failing the format's rules), and reporting days past due or a default. */
    accounts: integer("accounts").notNull(),
    heldBack: integer("held_back").notNull(),
    delinquent: integer("delinquent").notNull(),
    /** The staff member who asked for it; null for the daily run. */
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("bureau_runs_regular_once")
      .on(t.bureau, t.asOf)
      .where(sql`${t.kind} = 'regular'`),
    index("bureau_runs_created_idx").on(t.createdAt),
  ],
);

/** Each loan account a bureau file holds, or held back from it with the rules it failed. */
export const bureauRecords = pgTable(
  "bureau_records",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => bureauRuns.id, { onDelete: "restrict" }),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    heldBack: boolean("held_back").notNull(),
    /** The rules a held-back record failed, in words. */
    problems: jsonb("problems").$type<string[]>(),
    dpd: integer("dpd").notNull(),
    overduePaise: integer("overdue_paise").notNull(),
    currentBalancePaise: integer("current_balance_paise").notNull(),
    assetClass: text("asset_class").$type<AssetClass>().notNull(),
    writtenOff: boolean("written_off").notNull(),
    closedOn: text("closed_on"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.applicationId] }), index("bureau_records_application_idx").on(t.applicationId)],
);

/** A bureau's rejection file as imported (the same file twice is one import). */
export const bureauRejectionImports = pgTable(
  "bureau_rejection_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => bureauRuns.id, { onDelete: "restrict" }),
    fileName: text("file_name").notNull(),
    fileSha256: text("file_sha256").notNull(),
    rows: integer("rows").notNull(),
    importedBy: uuid("imported_by")
      .notNull()
      .references(() => users.id),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("bureau_rejection_imports_once").on(t.runId, t.fileSha256)],
);

/** A record a bureau rejected: corrected and sent again (in a correction file) within 7 days. */
export const bureauRejections = pgTable(
  "bureau_rejections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    importId: uuid("import_id")
      .notNull()
      .references(() => bureauRejectionImports.id, { onDelete: "restrict" }),
    runId: uuid("run_id")
      .notNull()
      .references(() => bureauRuns.id, { onDelete: "restrict" }),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    accountNumber: text("account_number").notNull(),
    segment: text("segment").notNull(),
    field: text("field"),
    code: text("code").notNull(),
    message: text("message").notNull(),
    /** The India date by which it must be sent again: the import's date + 7 days. */
    dueBy: text("due_by").notNull(),
    /** The correction file that sent it again. */
    resentRunId: uuid("resent_run_id").references(() => bureauRuns.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("bureau_rejections_pending_idx")
      .on(t.dueBy)
      .where(sql`${t.resentRunId} is null`),
    index("bureau_rejections_run_idx").on(t.runId),
  ],
);

/** The borrower told that days past due or a default were reported: once per reporting date and loan. */
export const bureauAlerts = pgTable(
  "bureau_alerts",
  {
    applicationId: uuid("application_id")
      .notNull()
      .references(() => loanApplications.id, { onDelete: "restrict" }),
    asOf: text("as_of").notNull(),
    dpd: integer("dpd").notNull(),
    notificationId: uuid("notification_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.asOf] })],
);

/**
 * A written-off loan the lender settled: the recoveries received accepted as full and final
 * (reported to the bureaus as settled after write-off). Once per loan, audited, never changed.
 */
export const writeOffSettlements = pgTable("write_off_settlements", {
  applicationId: uuid("application_id")
    .primaryKey()
    .references(() => loanApplications.id, { onDelete: "restrict" }),
  settledOn: text("settled_on").notNull(),
  amountPaise: integer("amount_paise").notNull(),
  reason: text("reason").notNull(),
  recordedBy: uuid("recorded_by")
    .notNull()
    .references(() => users.id),
  recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
});

/**
 * The borrower's record at the central KYC registry (CKYC, CERSAI): found by a search before
 * onboarding, or uploaded within 10 days of their first loan's disbursal; the 14-digit number kept.
 * An upload that fails is tried again (`next_attempt_at`) and listed until it succeeds.
 */
export const ckycRecords = pgTable(
  "ckyc_records",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "restrict" }),
    status: text("status").$type<"pending" | "found" | "uploaded" | "failed">().notNull(),
    ckycNumber: text("ckyc_number"),
    /** The loan whose disbursal started the 10 days, and the India date they end. */
    applicationId: uuid("application_id").references(() => loanApplications.id, { onDelete: "restrict" }),
    dueBy: text("due_by"),
    searchedAt: timestamp("searched_at", { withTimezone: true }),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("ckyc_records_number").on(t.ckycNumber),
    index("ckyc_records_due_idx")
      .on(t.dueBy)
      .where(sql`${t.status} in ('pending', 'failed')`),
    check("ckyc_records_number_digits", sql`${t.ckycNumber} is null or ${t.ckycNumber} ~ '^[0-9]{14}$'`),
  ],
);

/**
 * The sanctions lists (docs/product.md "Sanctions screening"): each file loaded is a version of its
 * list, its persons kept as read (docs/decisions/0007); the latest version of each list is in force.
 * Never changed after; a new file (or an earlier one loaded again) is a new version.
 */
export const sanctionsLists = pgTable(
  "sanctions_lists",
  {
    id: serial("id").primaryKey(),
    source: text("source").$type<ListSource>().notNull(),
    fileName: text("file_name").notNull(),
    fileSha256: text("file_sha256").notNull(),
    persons: jsonb("persons").$type<ListedPerson[]>().notNull(),
    personCount: integer("person_count").notNull(),
    /** The staff member who loaded it; null for the command line. */
    loadedBy: uuid("loaded_by").references(() => users.id),
    loadedAt: timestamp("loaded_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sanctions_lists_latest_idx").on(t.source, t.id)],
);

/** A borrower's last screening: against which versions of the lists, and when. */
export const amlScreenings = pgTable("aml_screenings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "restrict" }),
  /** The list versions screened against (sanctions_lists ids), in source order. */
  listIds: jsonb("list_ids").$type<number[]>().notNull(),
  screenedAt: timestamp("screened_at", { withTimezone: true }).notNull(),
  matches: integer("matches").notNull(),
});

/**
 * A possible match of a borrower with a listed person: it stops disbursal until compliance clears
 * it or confirms it; a confirmed one freezes the borrower (no disbursal, no refund out) and is
 * reported to FIU-IND within 24 hours. One per borrower and listed entry however often screened;
 * decided once, audited. Never shown to the borrower or to staff outside compliance and admin.
 */
export const amlMatches = pgTable(
  "aml_matches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    listId: integer("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "restrict" }),
    source: text("source").$type<ListSource>().notNull(),
    ref: text("ref").notNull(),
    listedName: text("listed_name").notNull(),
    /** The score and the name's similarity, in thousandths (850 = 0.85). */
    scoreMilli: integer("score_milli").notNull(),
    nameMilli: integer("name_milli").notNull(),
    dob: text("dob").$type<"agrees" | "differs" | "unknown">().notNull(),
    why: text("why").notNull(),
    /** The listed entry's fingerprint when found (or last reopened): a cleared match whose entry changes is asked again. */
    entryHash: text("entry_hash"),
    status: text("status").$type<"possible" | "cleared" | "confirmed">().notNull().default("possible"),
    foundAt: timestamp("found_at", { withTimezone: true }).notNull(),
    decidedBy: uuid("decided_by").references(() => users.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    note: text("note"),
    /** A confirmed match reported to FIU-IND (due within 24 hours of the confirmation). */
    reportedAt: timestamp("reported_at", { withTimezone: true }),
    reportedBy: uuid("reported_by").references(() => users.id),
    reportReference: text("report_reference"),
  },
  (t) => [
    uniqueIndex("aml_matches_once").on(t.userId, t.source, t.ref),
    index("aml_matches_status_idx").on(t.status, t.foundAt),
    check("aml_matches_decided", sql`(${t.status} = 'possible') = (${t.decidedAt} is null)`),
  ],
);

/**
 * A suspicious-transaction report to FIU-IND (docs/product.md "Suspicious-transaction reports"):
 * drafted by compliance (or from a confirmed sanctions match), reviewed by a second person, exported
 * as the file FIU-IND takes, within 7 working days of the suspicion. Never shown to the borrower or
 * to staff outside compliance and admin.
 */
export const suspiciousReports = pgTable(
  "suspicious_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reference: text("reference").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** The confirmed sanctions match it was drafted from, if any (one report per match). */
    matchId: uuid("match_id")
      .unique()
      .references(() => amlMatches.id, { onDelete: "restrict" }),
    /** When the suspicion arose: the 7 working days run from its India date. */
    suspectedAt: timestamp("suspected_at", { withTimezone: true }).notNull(),
    dueOn: text("due_on").notNull(),
    /** The transactions reported: the borrower's money movements between these India dates. */
    periodFrom: text("period_from").notNull(),
    periodTo: text("period_to").notNull(),
    grounds: text("grounds").notNull(),
    status: text("status").$type<"draft" | "reviewed" | "exported">().notNull().default("draft"),
    draftedBy: uuid("drafted_by").references(() => users.id),
    draftedAt: timestamp("drafted_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    reviewedBy: uuid("reviewed_by").references(() => users.id),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    /** The reviewer's note: why it went back to draft, or what they checked. */
    reviewNote: text("review_note"),
    exportedBy: uuid("exported_by").references(() => users.id),
    exportedAt: timestamp("exported_at", { withTimezone: true }),
    fileSha256: text("file_sha256"),
    /** FIU-IND's acknowledgement number once filed. */
    fiuReference: text("fiu_reference"),
  },
  (t) => [
    index("suspicious_reports_status_idx").on(t.status, t.dueOn),
    index("suspicious_reports_user_idx").on(t.userId),
    check("suspicious_reports_status", sql`${t.status} in ('draft', 'reviewed', 'exported')`),
    check("suspicious_reports_reviewed", sql`(${t.status} = 'draft') or (${t.reviewedAt} is not null)`),
    check("suspicious_reports_exported", sql`(${t.status} = 'exported') = (${t.exportedAt} is not null)`),
  ],
);

/**
 * A borrower's data-rights request (docs/product.md "Data rights"): a download of their data (answered
 * at once), a correction or an erasure, answered within 30 days from the compliance queue.
 */
export const dataRequests = pgTable(
  "data_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reference: text("reference").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    kind: text("kind").$type<"access" | "correction" | "erasure">().notNull(),
    /** What was asked (a correction's what and why; an erasure's plan as shown to the borrower). */
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<"open" | "done" | "refused">().notNull().default("open"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    /** The India date the answer is due (30 days from receipt). */
    dueOn: text("due_on").notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    answeredBy: uuid("answered_by").references(() => users.id),
    answer: text("answer"),
  },
  (t) => [
    index("data_requests_queue_idx").on(t.status, t.dueOn),
    index("data_requests_user_idx").on(t.userId, t.receivedAt),
    check("data_requests_kind", sql`${t.kind} in ('access', 'correction', 'erasure')`),
    check("data_requests_status", sql`${t.status} in ('open', 'done', 'refused')`),
    check("data_requests_answered", sql`(${t.status} = 'open') = (${t.answeredAt} is null)`),
  ],
);

/** The person a borrower names to use their data rights if they die or cannot (DPDP Act s. 14); each change kept. */
export const dataNominees = pgTable(
  "data_nominees",
  {
    id: serial("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    relationship: text("relationship").notNull(),
    mobile: text("mobile").notNull(),
    email: text("email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (t) => [index("data_nominees_user_idx").on(t.userId, t.createdAt)],
);

/**
 * A personal-data breach (docs/product.md "Data rights"): recorded by compliance when it becomes
 * aware, with the report to the Data Protection Board and each affected borrower's notice drafted
 * from it, both due within 72 hours.
 */
export const dataBreaches = pgTable(
  "data_breaches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reference: text("reference").notNull().unique(),
    /** When the lender became aware: the 72 hours run from here. */
    discoveredAt: timestamp("discovered_at", { withTimezone: true }).notNull(),
    /** When it happened, as far as known. */
    occurredAt: timestamp("occurred_at", { withTimezone: true }),
    description: text("description").notNull(),
    /** The kinds of personal data affected (ids of the privacy notice's items). */
    dataItems: jsonb("data_items").$type<string[]>().notNull(),
    consequences: text("consequences").notNull(),
    mitigation: text("mitigation").notNull(),
    /** What a borrower can do to protect themselves. */
    borrowerSteps: text("borrower_steps").notNull(),
    /** Every borrower, or those listed in data_breach_borrowers. */
    scope: text("scope").$type<"all" | "listed">().notNull(),
    recordedBy: uuid("recorded_by").references(() => users.id),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
    boardReportedAt: timestamp("board_reported_at", { withTimezone: true }),
    boardReportedBy: uuid("board_reported_by").references(() => users.id),
    boardReference: text("board_reference"),
    noticesSentAt: timestamp("notices_sent_at", { withTimezone: true }),
    noticesSentBy: uuid("notices_sent_by").references(() => users.id),
  },
  (t) => [index("data_breaches_discovered_idx").on(t.discoveredAt), check("data_breaches_scope", sql`${t.scope} in ('all', 'listed')`)],
);

/**
 * The borrowers a breach affected, and when each was told: a listed breach's from its record; a
 * breach of every borrower's as its notices go out (app/server/privacy/breaches.server.ts).
 */
export const dataBreachBorrowers = pgTable(
  "data_breach_borrowers",
  {
    breachId: uuid("breach_id")
      .notNull()
      .references(() => dataBreaches.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.breachId, t.userId] }), index("data_breach_borrowers_user_idx").on(t.userId)],
);
