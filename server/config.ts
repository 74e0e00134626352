// Configuration, in one file on purpose (longer than the ~400 lines other files keep to): every
// environment variable the product reads, its Zod schema, its default and what production refuses,
// in one place an operator can read from top to bottom.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import webpush from "web-push";
import type { LenderIdentity } from "../app/domain/lender.ts";
import { NOTIFICATION_EVENTS, type NotificationEvent } from "../app/domain/notifications.ts";
import type { Bureau } from "../app/domain/bureau/format.ts";
import { type Language, LANGUAGES } from "../app/i18n/languages.ts";

const booleanish = z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = z.coerce.number().int().positive();

const bureauMemberId = z
  .string()
  .regex(/^[A-Z0-9]{10}$/, "must be the 10-character member id the bureau gave (capital letters and digits)");

/**
 * SMS_DLT_TEMPLATE_<EVENT> (English) and SMS_DLT_TEMPLATE_<EVENT>_HI (Hindi): the DLT template id
 * registered for each notice's SMS in each language (demo ids by default).
 */
const dltVariable = (event: NotificationEvent, language: Language) =>
  `SMS_DLT_TEMPLATE_${event.toUpperCase()}${language === "en" ? "" : `_${language.toUpperCase()}`}`;
const dltTemplates = Object.fromEntries(
  LANGUAGES.flatMap((language, l) =>
    NOTIFICATION_EVENTS.map((event, i) => [
      dltVariable(event, language),
      z
        .string()
        .regex(/^\d{10,25}$/, "must be the DLT template id (digits)")
        .default(`10070000000000${String(100 + 100 * l + i).padStart(5, "0")}`),
    ]),
  ),
) as Record<string, z.ZodDefault<z.ZodString>>;

/** The DLT template ids of one language: the sign-in code's and each notice's. */
export type SmsTemplateIds = { otp: string } & Record<NotificationEvent, string>;

/**
 * TRUST_PROXY: unset/false = use the socket address; true = trust every hop;
 * a number = trust that many hops; otherwise a comma list of addresses/subnets
 * (Express's `trust proxy` setting).
 */
const trustProxy = z
  .string()
  .optional()
  .transform((v): boolean | number | string => {
    if (v === undefined || v === "" || v === "false" || v === "0") return false;
    if (v === "true") return true;
    if (/^\d+$/.test(v)) return Number(v);
    return v;
  });

export const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
    /** PostgreSQL only: run in this schema (search_path); lets several installations share a database. */
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case SQL identifier")
      .optional(),
    APP_ENV: z.enum(["local", "production"]).default("local"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: trustProxy,
    SEED_DEMO_DATA: booleanish.optional(),
    /** The demo borrower 9000000001 with an active and a closed loan (with demo data, never in production). */
    SEED_DEMO_LOANS: booleanish.optional(),
    /** Anonymous public pages answered from memory (server/page-cache.ts); on unless "false". */
    PAGE_CACHE: booleanish.default(true),
    /** Worker processes on PostgreSQL (server.ts); PGlite allows one. Default: the number of cores. */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    /** Pages of loans the night's servicing serves at once on PostgreSQL (each its own transaction and connection); PGlite serves one. */
    NIGHT_RUN_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(2),

    BRAND_NAME: z.string().min(1).max(60).default("Sugam Loans"),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, "must be 64 hex characters (a 256-bit key)")
      .optional(),
    SMS_GATEWAY_URL: z.url().optional(),
    SMS_GATEWAY_KEY: z.string().min(1).optional(),

    LENDER_NAME: z.string().min(1).default("Demo NBFC Ltd (demo values, not a real lender)"),
    LENDER_RBI_REG_NO: z.string().min(1).default("N-00.00000 (demo)"),
    LENDER_CIN: z.string().min(1).default("U00000KA2026PLC000000 (demo)"),
    LENDER_ADDRESS: z.string().min(1).default("Demo House, 1 Example Road, Bengaluru, Karnataka 560001 (demo address)"),
    GRIEVANCE_OFFICER_NAME: z.string().min(1).default("A. Demo (demo grievance officer)"),
    GRIEVANCE_OFFICER_PHONE: z.string().min(1).default("+91 80 0000 0000"),
    GRIEVANCE_OFFICER_EMAIL: z.email().default("grievance@example.invalid"),
    ANDROID_APP_URL: z.url().optional(),

    CONTACT_LIMIT_PER_HOUR: positiveInt.default(5),
    /** Acknowledgements the contact form e-mails to one address a day (the message is taken all the same). */
    CONTACT_EMAILS_PER_ADDRESS_PER_DAY: positiveInt.default(3),
    /** Tickets a borrower may have open at once, and raise in a day; beyond them a message goes on an open ticket. */
    TICKETS_OPEN_PER_BORROWER: positiveInt.default(3),
    TICKETS_PER_BORROWER_PER_DAY: positiveInt.default(5),
    /** How long a page waits for the credit bureau (and the PAN check) before it says an SMS will follow. */
    BUREAU_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(60).default(8),
    /** The local bureau stand-in answers a PAN ending in Z only after this long (a bureau that times out). */
    LOCAL_BUREAU_SLOW_SECONDS: z.coerce.number().min(0).max(600).default(20),
    /** Who sends disbursals: the local stand-in (never in production) or RazorpayX Payouts. */
    PAYOUT_PROVIDER: z.enum(["local", "razorpayx"]).optional(),
    /** The local stand-in settles a payout this many seconds after it is requested. */
    LOCAL_PAYOUT_SETTLE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    /** A payout without a final answer this long after it was requested is shown as stuck. */
    PAYOUT_STUCK_MINUTES: z.coerce.number().int().min(1).default(30),
    RAZORPAYX_KEY_ID: z.string().min(1).optional(),
    RAZORPAYX_KEY_SECRET: z.string().min(1).optional(),
    RAZORPAYX_ACCOUNT_NUMBER: z
      .string()
      .regex(/^\d{6,20}$/, "must be the RazorpayX account number (digits)")
      .optional(),
    RAZORPAYX_WEBHOOK_SECRET: z.string().min(8).optional(),
    RAZORPAYX_API_URL: z.url().default("https://api.razorpay.com/v1"),
    PAYOUT_MODE: z.enum(["IMPS", "NEFT", "RTGS"]).default("IMPS"),
    /** Who takes repayments: the local checkout stand-in (never in production) or Razorpay Payment Links. */
    PAYMENT_PROVIDER: z.enum(["local", "razorpay"]).optional(),
    RAZORPAY_KEY_ID: z.string().min(1).optional(),
    RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
    RAZORPAY_WEBHOOK_SECRET: z.string().min(8).optional(),
    RAZORPAY_API_URL: z.url().default("https://api.razorpay.com/v1"),
    /**
     * Who takes autopay mandates (docs/product.md "Autopay"): the local stand-in (never in
     * production), Razorpay recurring payments (with the RAZORPAY_* keys), or none (the loan page
     * says autopay is not offered; production's default).
     */
    MANDATE_PROVIDER: z.enum(["local", "razorpay", "none"]).optional(),
    /**
     * The central KYC registry (CERSAI): the local stand-in (never in production), or none (nothing is
     * searched or uploaded; the uploads due wait on /admin/ckyc; production's default). No real one yet.
     */
    CKYC_PROVIDER: z.enum(["local", "none"]).optional(),
    /** The local mandate stand-in answers a debit this many seconds after it is presented (accounts ending 1111 bounce). */
    LOCAL_DEBIT_ANSWER_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    /**
     * Reconciliation (docs/product.md "The lender's books"): a journal line on the gateway clearing or
     * payout account that no statement has listed this many days after its date is an exception.
     */
    RECONCILIATION_UNMATCHED_DAYS: z.coerce.number().int().min(1).max(90).default(3),
    /** The local gateway stand-in's fee on a payment, in basis points of the amount (18% GST is added on it). */
    LOCAL_GATEWAY_FEE_BPS: z.coerce.number().int().min(0).max(1000).default(200),
    /** The local payout stand-in's fee on a payout, in rupees (18% GST is added on it). */
    LOCAL_PAYOUT_FEE_RUPEES: z.coerce.number().min(0).max(100).multipleOf(0.01).default(5),
    /**
     * Credit bureau reporting: the lender's short name and its member id at each credit information
     * company (docs/decisions/0006); demo ids locally, required in production.
     */
    BUREAU_MEMBER_SHORT_NAME: z
      .string()
      .regex(/^[A-Z0-9](?:[A-Z0-9 ]{0,14}[A-Z0-9])?$/, "must be 1 to 16 capital letters, digits and spaces")
      .default("SUGAMLOANS"),
    BUREAU_MEMBER_ID_CIBIL: bureauMemberId.optional(),
    BUREAU_MEMBER_ID_EQUIFAX: bureauMemberId.optional(),
    BUREAU_MEMBER_ID_EXPERIAN: bureauMemberId.optional(),
    BUREAU_MEMBER_ID_CRIF: bureauMemberId.optional(),
    /** An instalment's unpaid part at or below this (rupees) draws no penal charge (docs/product.md "Loan servicing"). */
    PENAL_TOLERANCE_RUPEES: z.coerce.number().int().min(0).max(10_000).default(100),

    OTP_TTL_SECONDS: positiveInt.default(300),
    OTP_MAX_ATTEMPTS: positiveInt.default(5),
    OTP_RESEND_SECONDS: z.coerce.number().int().min(0).default(30),
    OTP_PER_NUMBER_PER_HOUR: positiveInt.default(5),
    OTP_PER_IP_PER_HOUR: positiveInt.default(20),
    SMS_DLT_TEMPLATE_OTP: z.string().min(1).default("1007000000000000001"),
    /** The sign-in code's SMS in Hindi (its own DLT template). */
    SMS_DLT_TEMPLATE_OTP_HI: z.string().min(1).default("1007000000000000002"),
    ...dltTemplates,
    /** E-mail to borrowers: files in <DATA_DIR>/outbox/email (local) or SMTP. */
    EMAIL_PROVIDER: z.enum(["local", "smtp"]).optional(),
    /** smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
    EMAIL_FROM: z.string().min(3).optional(),
    /** Web push (VAPID): generated into <DATA_DIR>/secrets.json in local when not given. */
    VAPID_PUBLIC_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{80,100}$/, "must be the base64url public key")
      .optional(),
    VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{40,50}$/, "must be the base64url private key")
      .optional(),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)/, "must be a mailto: or https:// address")
      .optional(),

    FACEBOOK_CLIENT_ID: z.string().min(1).optional(),
    FACEBOOK_CLIENT_SECRET: z.string().min(1).optional(),
    FACEBOOK_AUTHORIZATION_URL: z.url().default("https://www.facebook.com/v19.0/dialog/oauth"),
    FACEBOOK_TOKEN_URL: z.url().default("https://graph.facebook.com/v19.0/oauth/access_token"),
    FACEBOOK_USERINFO_URL: z.url().default("https://graph.facebook.com/me?fields=id,name,email"),
    /** The origin borrowers use (https://loans.example.in): every link in a message; required in production. */
    PUBLIC_URL: z.url().optional(),
    /** Holidays that are not working days (docs/product.md "Money, dates and the loan math"), comma-separated YYYY-MM-DD. */
    HOLIDAYS: z
      .string()
      .regex(/^(\d{4}-\d{2}-\d{2})?(,\d{4}-\d{2}-\d{2})*$/, "must be dates as YYYY-MM-DD separated by commas")
      .default("2026-01-26,2026-08-15,2026-10-02,2027-01-26,2027-08-15,2027-10-02"),
    /**
     * Files (uploads, bureau files) in an S3-compatible bucket (docs/decisions/0010-object-storage.md);
     * unset, they stay in <DATA_DIR>/uploads. With S3_BUCKET, S3_REGION is required.
     */
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)")
      .optional(),
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{2,40}$/, "must be a region name such as ap-south-1")
      .optional(),
    /** Another S3-compatible service (MinIO, R2, a local fake): its address; unset = AWS S3 in S3_REGION. */
    S3_ENDPOINT: z.url().optional(),
    /** Unset both to use the SDK's own credentials (an instance role, AWS_* variables). */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Addresses as <endpoint>/<bucket>/<key> (MinIO and most self-hosted services) rather than <bucket>.<endpoint>/<key>. */
    S3_FORCE_PATH_STYLE: booleanish.default(false),
    /**
     * RBI data localisation: "true" states that S3_ENDPOINT's storage is in India (a self-hosted
     * MinIO in an Indian data centre, another provider's Indian region). Production refuses a
     * bucket on any endpoint other than AWS's own without it; on AWS the region decides.
     */
    S3_DATA_IN_INDIA: booleanish.optional(),
    /** No longer read: the wait after a rejection is a credit policy rule; kept only to refuse a stale setting. */
    REAPPLY_AFTER_DAYS: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    const provider = env.PAYOUT_PROVIDER ?? (env.APP_ENV === "production" ? "razorpayx" : "local");
    if (provider === "razorpayx") {
      for (const key of ["RAZORPAYX_KEY_ID", "RAZORPAYX_KEY_SECRET", "RAZORPAYX_ACCOUNT_NUMBER", "RAZORPAYX_WEBHOOK_SECRET"] as const) {
        if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when payouts go through RazorpayX" });
      }
    }
    const payments = env.PAYMENT_PROVIDER ?? (env.APP_ENV === "production" ? "razorpay" : "local");
    if (payments === "razorpay") {
      for (const key of ["RAZORPAY_KEY_ID", "RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"] as const) {
        if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when payments go through Razorpay" });
      }
    }
    if (env.MANDATE_PROVIDER === "razorpay") {
      for (const key of ["RAZORPAY_KEY_ID", "RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"] as const) {
        if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when autopay goes through Razorpay" });
      }
    }
    const email = env.EMAIL_PROVIDER ?? (env.APP_ENV === "production" ? "smtp" : "local");
    if (email === "smtp" && !env.SMTP_URL)
      ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: "is required when e-mail goes by SMTP" });
    if (env.REAPPLY_AFTER_DAYS !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["REAPPLY_AFTER_DAYS"],
        message:
          'is no longer read: the wait after a rejection is the credit policy\'s "Days after a rejection" at /admin/policy; remove it',
      });
    if (env.S3_BUCKET && !env.S3_REGION)
      ctx.addIssue({ code: "custom", path: ["S3_REGION"], message: "is required with S3_BUCKET (ap-south-1 for AWS Mumbai)" });
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
      ctx.addIssue({ code: "custom", path: ["S3_SECRET_ACCESS_KEY"], message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together" });
    for (const key of ["S3_REGION", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_DATA_IN_INDIA"] as const)
      if (env[key] !== undefined && !env.S3_BUCKET)
        ctx.addIssue({ code: "custom", path: [key], message: "is read only with S3_BUCKET (files stay in the data directory without it)" });
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
      ctx.addIssue({ code: "custom", path: ["VAPID_PRIVATE_KEY"], message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together" });
    if (env.APP_ENV !== "production") return;
    if (env.PUBLIC_URL && new URL(env.PUBLIC_URL).protocol !== "https:")
      ctx.addIssue({ code: "custom", path: ["PUBLIC_URL"], message: "must be an https:// address when APP_ENV=production" });
    if (email === "local")
      ctx.addIssue({ code: "custom", path: ["EMAIL_PROVIDER"], message: "cannot be the local outbox when APP_ENV=production" });
    if (payments === "local") {
      ctx.addIssue({ code: "custom", path: ["PAYMENT_PROVIDER"], message: "cannot be the local stand-in when APP_ENV=production" });
    }
    if (provider === "local") {
      ctx.addIssue({ code: "custom", path: ["PAYOUT_PROVIDER"], message: "cannot be the local stand-in when APP_ENV=production" });
    }
    const outsideIndia = env.S3_BUCKET ? bucketOutsideIndia(env) : null;
    if (outsideIndia) ctx.addIssue({ code: "custom", path: [outsideIndia.variable], message: outsideIndia.message });
    if (env.CKYC_PROVIDER === "local")
      ctx.addIssue({ code: "custom", path: ["CKYC_PROVIDER"], message: "cannot be the local stand-in when APP_ENV=production" });
    if (env.MANDATE_PROVIDER === "local")
      ctx.addIssue({ code: "custom", path: ["MANDATE_PROVIDER"], message: "cannot be the local stand-in when APP_ENV=production" });
    for (const key of [
      "SESSION_SECRET",
      "ENCRYPTION_KEY",
      "SMS_GATEWAY_URL",
      "SMS_GATEWAY_KEY",
      "PUBLIC_URL",
      "BUREAU_MEMBER_ID_CIBIL",
      "BUREAU_MEMBER_ID_EQUIFAX",
      "BUREAU_MEMBER_ID_EXPERIAN",
      "BUREAU_MEMBER_ID_CRIF",
    ] as const) {
      if (!env[key]) {
        ctx.addIssue({ code: "custom", path: [key], message: "is required when APP_ENV=production" });
      }
    }
  });

export type Env = z.infer<typeof envSchema>;

/** AWS's own S3 regions in India: Mumbai and Hyderabad. */
export const AWS_INDIAN_REGIONS: readonly string[] = ["ap-south-1", "ap-south-2"];

/**
 * RBI data localisation (docs/product.md "Files"): why a configured bucket is not known to be in
 * India, or null when it is. On AWS's own endpoint (S3_ENDPOINT unset or *.amazonaws.com) the
 * region decides; on any other endpoint only S3_DATA_IN_INDIA=true states where the data is.
 */
export function bucketOutsideIndia(env: {
  S3_REGION?: string;
  S3_ENDPOINT?: string;
  S3_DATA_IN_INDIA?: boolean;
}): { variable: string; message: string } | null {
  const aws = !env.S3_ENDPOINT || /(^|\.)amazonaws\.com$/i.test(new URL(env.S3_ENDPOINT).hostname);
  if (aws) {
    if (AWS_INDIAN_REGIONS.includes(env.S3_REGION ?? "")) return null;
    return {
      variable: "S3_REGION",
      message: `must be an AWS region in India (${AWS_INDIAN_REGIONS.join(" or ")}) when APP_ENV=production: RBI requires the data to stay in India`,
    };
  }
  if (env.S3_DATA_IN_INDIA) return null;
  return {
    variable: "S3_DATA_IN_INDIA",
    message:
      "must be true when APP_ENV=production with an S3_ENDPOINT other than AWS's, stating that storage is in India (RBI requires the data to stay in India)",
  };
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  appEnv: "local" | "production";
  isProduction: boolean;
  logLevel: Env["LOG_LEVEL"];
  trustProxy: boolean | number | string;
  seedDemoData: boolean;
  seedDemoLoans: boolean;
  pageCache: boolean;
  /** Worker processes to start (1 on PGlite). */
  webConcurrency: number;
  /** Pages of loans the night's servicing serves at once (1 on PGlite). */
  nightRunConcurrency: number;
  sessionSecret: string;
  encryptionKey: string;
  sms: { url: string; key: string } | null;
  limits: {
    contactPerHour: number;
    contactEmailsPerAddressPerDay: number;
    openTicketsPerBorrower: number;
    ticketsPerBorrowerPerDay: number;
  };
  /** The credit bureau: how long a page waits for it; how slow the local stand-in is for a PAN ending in Z. */
  creditChecks: { timeoutMs: number; localSlowSeconds: number };
  payouts: {
    provider:
      | { name: "local"; settleSeconds: number }
      | {
          name: "razorpayx";
          keyId: string;
          keySecret: string;
          accountNumber: string;
          webhookSecret: string;
          apiUrl: string;
          mode: "IMPS" | "NEFT" | "RTGS";
        };
    stuckMinutes: number;
  };
  payments: {
    provider: { name: "local" } | { name: "razorpay"; keyId: string; keySecret: string; webhookSecret: string; apiUrl: string };
  };
  /** Autopay mandates: the provider, or none (not offered). */
  mandates: {
    provider:
      { name: "local" } | { name: "razorpay"; keyId: string; keySecret: string; webhookSecret: string; apiUrl: string } | { name: "none" };
    localDebitSeconds: number;
  };
  servicing: { penalTolerancePaise: number };
  /** The central KYC registry: the local stand-in, or none. */
  ckyc: { provider: "local" | "none" };
  /** Where files are kept: the data directory (<DATA_DIR>/uploads), or an S3-compatible bucket. */
  storage: { kind: "local" } | S3Settings;
  /**
   * Reconciliation: the days after which a journal line no statement lists is an exception; what the
   * local stand-ins charge on their statements (the gateway's fee in basis points, the payout fee in paise; GST on both).
   */
  reconciliation: { unmatchedAfterDays: number; localGatewayFeeBps: number; localPayoutFeePaise: number };
  /** Credit bureau reporting: the lender's short name and member id at each bureau, as the files' headers carry them. */
  bureau: { memberShortName: string; memberIds: Record<Bureau, string> };
  otp: {
    ttlSeconds: number;
    maxAttempts: number;
    resendSeconds: number;
    perNumberPerHour: number;
    perIpPerHour: number;
  };
  /** The DLT template id of each SMS, by language (an SMS in Hindi is its own registered template). */
  smsTemplates: Record<Language, SmsTemplateIds>;
  email: { provider: { name: "local" } | { name: "smtp"; url: string }; from: string };
  /** Web push keys; null when push is not configured (production without VAPID keys). */
  push: { publicKey: string; privateKey: string; subject: string } | null;
  facebook: {
    clientId: string;
    clientSecret: string;
    authorizationUrl: string;
    tokenUrl: string;
    userinfoUrl: string;
  } | null;
  /** PUBLIC_URL as configured: the site's own origin for forms and OAuth redirects (else taken from the request). */
  publicUrl: string | null;
  /**
   * The origin of every link in a message (SMS, e-mail, push, a link staff pass on): PUBLIC_URL's
   * origin (required in production); in `local` without it, this server's own
   * (http://localhost:PORT, the port it listens on once known). Read it through `messageLink`.
   */
  messageOrigin: string;
  /**
   * Dates (YYYY-MM-DD) that are not working days: `HOLIDAYS` until an administrator edits the
   * calendar, then the `holidays` table; kept current in place (app/server/holidays.server.ts).
   */
  holidays: string[];
  /** `HOLIDAYS` as configured: the calendar's seed. */
  configuredHolidays: readonly string[];
  /** Safe to send to the browser. */
  public: PublicConfig;
}

export interface S3Settings {
  kind: "s3";
  bucket: string;
  region: string;
  /** Unset: AWS S3's own endpoint for the region. */
  endpoint: string | null;
  /** Null: the SDK's own credentials (an instance role, AWS_* variables). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

export interface PublicConfig {
  brandName: string;
  appEnv: "local" | "production";
  androidAppUrl: string | null;
  facebookSignIn: boolean;
  lender: LenderIdentity;
}

/** The site's own origin for a redirect of this request's browser (OAuth, a payment's return): PUBLIC_URL, else the request's. */
export const siteOrigin = (config: Pick<Config, "publicUrl">, request: Request) =>
  config.publicUrl ? new URL(config.publicUrl).origin : new URL(request.url).origin;

/** The absolute link to `pathname` (from "/") for any message: always on `messageOrigin`, never a request's address. */
export const messageLink = (config: Pick<Config, "messageOrigin">, pathname: string) => `${config.messageOrigin}${pathname}`;

/** This server's own origin when no PUBLIC_URL is set (`local`): where it listens, as its start-up log names it. */
export const localOrigin = (port: number) => `http://localhost:${port}`;

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // Treat empty strings as unset so `FOO= npm start` means the default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

interface LocalSecrets {
  sessionSecret: string;
  encryptionKey: string;
  vapidPublicKey: string;
  vapidPrivateKey: string;
}

/**
 * In `local`, secrets that are not configured are generated once into
 * <DATA_DIR>/secrets.json so sessions survive a restart. Returns which were generated.
 */
function loadLocalSecrets(dataDir: string): { secrets: LocalSecrets; created: boolean } {
  const file = path.join(dataDir, "secrets.json");
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Partial<LocalSecrets>) : null;
  if (saved?.sessionSecret && saved.encryptionKey && saved.vapidPublicKey && saved.vapidPrivateKey) {
    return { secrets: saved as LocalSecrets, created: false };
  }
  // Keys added by a later version (the VAPID pair) join the ones a data directory already has.
  const vapid = webpush.generateVAPIDKeys();
  const secrets: LocalSecrets = {
    sessionSecret: saved?.sessionSecret ?? randomBytes(32).toString("hex"),
    encryptionKey: saved?.encryptionKey ?? randomBytes(32).toString("hex"),
    vapidPublicKey: saved?.vapidPublicKey ?? vapid.publicKey,
    vapidPrivateKey: saved?.vapidPrivateKey ?? vapid.privateKey,
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return { secrets, created: true };
}

export function loadConfig(source: Record<string, string | undefined> = process.env, warn: (message: string) => void = () => {}): Config {
  const env = parseEnv(source);
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });

  let sessionSecret = env.SESSION_SECRET;
  let encryptionKey = env.ENCRYPTION_KEY;
  let vapid = env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : null;
  if (!sessionSecret || !encryptionKey || (!vapid && env.APP_ENV === "local")) {
    // Only reachable in `local` for the first two: production refuses to start without them.
    const { secrets, created } = loadLocalSecrets(dataDir);
    if (created) warn(`Generated local secrets into ${path.join(dataDir, "secrets.json")} (APP_ENV=local)`);
    sessionSecret ??= secrets.sessionSecret;
    encryptionKey ??= secrets.encryptionKey;
    if (env.APP_ENV === "local") vapid ??= { publicKey: secrets.vapidPublicKey, privateKey: secrets.vapidPrivateKey };
  }
  const emailProvider = env.EMAIL_PROVIDER ?? (env.APP_ENV === "production" ? "smtp" : "local");
  const mandateProvider = env.MANDATE_PROVIDER ?? (env.APP_ENV === "production" ? "none" : "local");

  return {
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.DATABASE_SCHEMA,
    appEnv: env.APP_ENV,
    isProduction: env.APP_ENV === "production",
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    seedDemoData: env.SEED_DEMO_DATA ?? env.APP_ENV === "local",
    seedDemoLoans: env.APP_ENV === "local" && (env.SEED_DEMO_LOANS ?? env.SEED_DEMO_DATA ?? true),
    pageCache: env.PAGE_CACHE,
    webConcurrency: env.DATABASE_URL ? (env.WEB_CONCURRENCY ?? availableParallelism()) : 1,
    nightRunConcurrency: env.DATABASE_URL ? env.NIGHT_RUN_CONCURRENCY : 1,
    sessionSecret,
    encryptionKey,
    sms: env.SMS_GATEWAY_URL && env.SMS_GATEWAY_KEY ? { url: env.SMS_GATEWAY_URL, key: env.SMS_GATEWAY_KEY } : null,
    limits: {
      contactPerHour: env.CONTACT_LIMIT_PER_HOUR,
      contactEmailsPerAddressPerDay: env.CONTACT_EMAILS_PER_ADDRESS_PER_DAY,
      openTicketsPerBorrower: env.TICKETS_OPEN_PER_BORROWER,
      ticketsPerBorrowerPerDay: env.TICKETS_PER_BORROWER_PER_DAY,
    },
    creditChecks: { timeoutMs: Math.round(env.BUREAU_TIMEOUT_SECONDS * 1000), localSlowSeconds: env.LOCAL_BUREAU_SLOW_SECONDS },
    payouts: {
      provider:
        (env.PAYOUT_PROVIDER ?? (env.APP_ENV === "production" ? "razorpayx" : "local")) === "local"
          ? { name: "local", settleSeconds: env.LOCAL_PAYOUT_SETTLE_SECONDS }
          : {
              name: "razorpayx",
              keyId: env.RAZORPAYX_KEY_ID ?? "",
              keySecret: env.RAZORPAYX_KEY_SECRET ?? "",
              accountNumber: env.RAZORPAYX_ACCOUNT_NUMBER ?? "",
              webhookSecret: env.RAZORPAYX_WEBHOOK_SECRET ?? "",
              apiUrl: env.RAZORPAYX_API_URL.replace(/\/$/, ""),
              mode: env.PAYOUT_MODE,
            },
      stuckMinutes: env.PAYOUT_STUCK_MINUTES,
    },
    mandates: {
      provider:
        mandateProvider === "razorpay"
          ? {
              name: "razorpay",
              keyId: env.RAZORPAY_KEY_ID ?? "",
              keySecret: env.RAZORPAY_KEY_SECRET ?? "",
              webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? "",
              apiUrl: env.RAZORPAY_API_URL.replace(/\/$/, ""),
            }
          : { name: mandateProvider },
      localDebitSeconds: env.LOCAL_DEBIT_ANSWER_SECONDS,
    },
    payments: {
      provider:
        (env.PAYMENT_PROVIDER ?? (env.APP_ENV === "production" ? "razorpay" : "local")) === "local"
          ? { name: "local" }
          : {
              name: "razorpay",
              keyId: env.RAZORPAY_KEY_ID ?? "",
              keySecret: env.RAZORPAY_KEY_SECRET ?? "",
              webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? "",
              apiUrl: env.RAZORPAY_API_URL.replace(/\/$/, ""),
            },
    },
    servicing: { penalTolerancePaise: env.PENAL_TOLERANCE_RUPEES * 100 },
    ckyc: { provider: env.CKYC_PROVIDER ?? (env.APP_ENV === "production" ? "none" : "local") },
    storage: env.S3_BUCKET
      ? {
          kind: "s3",
          bucket: env.S3_BUCKET,
          region: env.S3_REGION ?? "",
          endpoint: env.S3_ENDPOINT ?? null,
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
              : null,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
        }
      : { kind: "local" },
    reconciliation: {
      unmatchedAfterDays: env.RECONCILIATION_UNMATCHED_DAYS,
      localGatewayFeeBps: env.LOCAL_GATEWAY_FEE_BPS,
      localPayoutFeePaise: Math.round(env.LOCAL_PAYOUT_FEE_RUPEES * 100),
    },
    bureau: {
      memberShortName: env.BUREAU_MEMBER_SHORT_NAME,
      memberIds: {
        cibil: env.BUREAU_MEMBER_ID_CIBIL ?? "NB00000001",
        equifax: env.BUREAU_MEMBER_ID_EQUIFAX ?? "EQ00000001",
        experian: env.BUREAU_MEMBER_ID_EXPERIAN ?? "EX00000001",
        crif: env.BUREAU_MEMBER_ID_CRIF ?? "CR00000001",
      },
    },
    otp: {
      ttlSeconds: env.OTP_TTL_SECONDS,
      maxAttempts: env.OTP_MAX_ATTEMPTS,
      resendSeconds: env.OTP_RESEND_SECONDS,
      perNumberPerHour: env.OTP_PER_NUMBER_PER_HOUR,
      perIpPerHour: env.OTP_PER_IP_PER_HOUR,
    },
    smsTemplates: {
      en: {
        otp: env.SMS_DLT_TEMPLATE_OTP,
        ...(Object.fromEntries(
          NOTIFICATION_EVENTS.map((event) => [event, String((env as Record<string, unknown>)[dltVariable(event, "en")])]),
        ) as Record<NotificationEvent, string>),
      },
      hi: {
        otp: env.SMS_DLT_TEMPLATE_OTP_HI,
        ...(Object.fromEntries(
          NOTIFICATION_EVENTS.map((event) => [event, String((env as Record<string, unknown>)[dltVariable(event, "hi")])]),
        ) as Record<NotificationEvent, string>),
      },
    },
    email: {
      provider: emailProvider === "smtp" ? { name: "smtp", url: env.SMTP_URL ?? "" } : { name: "local" },
      from: env.EMAIL_FROM ?? `${env.BRAND_NAME} <no-reply@example.invalid>`,
    },
    push: vapid ? { ...vapid, subject: env.VAPID_SUBJECT ?? `mailto:${env.GRIEVANCE_OFFICER_EMAIL}` } : null,
    facebook:
      env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET
        ? {
            clientId: env.FACEBOOK_CLIENT_ID,
            clientSecret: env.FACEBOOK_CLIENT_SECRET,
            authorizationUrl: env.FACEBOOK_AUTHORIZATION_URL,
            tokenUrl: env.FACEBOOK_TOKEN_URL,
            userinfoUrl: env.FACEBOOK_USERINFO_URL,
          }
        : null,
    publicUrl: env.PUBLIC_URL ?? null,
    messageOrigin: env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : localOrigin(env.PORT),
    holidays: env.HOLIDAYS.split(",").filter(Boolean),
    configuredHolidays: Object.freeze(env.HOLIDAYS.split(",").filter(Boolean)),
    public: {
      brandName: env.BRAND_NAME,
      appEnv: env.APP_ENV,
      androidAppUrl: env.ANDROID_APP_URL ?? null,
      facebookSignIn: Boolean(env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET),
      lender: {
        name: env.LENDER_NAME,
        rbiRegistration: env.LENDER_RBI_REG_NO,
        cin: env.LENDER_CIN,
        address: env.LENDER_ADDRESS,
        grievanceOfficer: {
          name: env.GRIEVANCE_OFFICER_NAME,
          phone: env.GRIEVANCE_OFFICER_PHONE,
          email: env.GRIEVANCE_OFFICER_EMAIL,
        },
      },
    },
  };
}
