import type { Logger } from "pino";
import { createContext } from "react-router";
import { DEFAULT_LANGUAGE, type Language } from "./i18n/languages.ts";
import type { Config } from "../server/config.ts";
import type { CkycProvider } from "./server/ckyc/provider.server.ts";
import type { BankVerifier } from "./server/bank/verification.server.ts";
import type { CreditBureau, PanVerifier } from "./server/credit/checks.server.ts";
import type { Keyring } from "./server/crypto.server.ts";
import type { Db } from "./server/db/client.ts";
import type { EmailSender } from "./server/email/email.server.ts";
import type { JobQueue } from "./server/jobs/queue.server.ts";
import type { PaymentGateway } from "./server/payments/gateway.server.ts";
import type { MandateProvider } from "./server/mandates/provider.server.ts";
import type { PayoutProvider } from "./server/payouts/provider.server.ts";
import type { PushSender } from "./server/push/push.server.ts";
import type { RealtimeHub } from "./server/realtime/hub.server.ts";
import type { SmsSender } from "./server/sms/sms.server.ts";
import type { FileStorage } from "./server/storage/storage.server.ts";

/** Long-lived services of the process, created once by server.ts. */
export interface AppServices {
  config: Config;
  db: Db;
  log: Logger;
  /** The clock; injectable so tests can move time. */
  now: () => Date;
  sms: SmsSender;
  /** E-mail to borrowers: the local outbox folder or SMTP, by EMAIL_PROVIDER. */
  email: EmailSender;
  /** Web push; null when no VAPID keys are configured. */
  push: PushSender | null;
  realtime: RealtimeHub;
  keyring: Keyring;
  bankVerifier: BankVerifier;
  panVerifier: PanVerifier;
  creditBureau: CreditBureau;
  /** Disbursals: the local stand-in or RazorpayX, by PAYOUT_PROVIDER. */
  payouts: PayoutProvider;
  /** Repayments: the local checkout stand-in or Razorpay Payment Links, by PAYMENT_PROVIDER. */
  payments: PaymentGateway;
  /** Autopay mandates: the local stand-in or Razorpay recurring payments, or null where none is configured (MANDATE_PROVIDER=none). */
  mandates: MandateProvider | null;
  /** The central KYC registry (CERSAI): the local stand-in, or null where none is configured (CKYC_PROVIDER=none). */
  ckyc: CkycProvider | null;
  storage: FileStorage;
  /** Work done after the response, on any process (pg-boss in the same database). */
  jobs: JobQueue;
}

/** Facts about the current request, set by the HTTP layer. */
export interface RequestInfo {
  requestId: string;
  /**
   * The per-request CSP nonce every inline and module script must carry; empty for a page rendered
   * for the anonymous page cache (server/page-cache.ts), whose inline scripts are allowed by hash.
   */
  nonce: string;
  /** Client address: the socket's, or X-Forwarded-For's when TRUST_PROXY allows it. */
  ip: string;
  userAgent: string;
  /**
   * The method the client sent. A page rendered after a form's POST without JavaScript
   * runs its loaders with a GET request inside React Router; this still says POST.
   */
  method: string;
  /** Set when a loader, action or middleware of this request failed because the database is out of reach (answered 503). */
  databaseUnavailable?: boolean;
  /** The language the request is answered in, once the root's middleware has chosen it (languageContext). */
  language?: Language;
}

/** Who is asking, as the audit log and signatures record it (and, when known, the language they read). */
export type Client = Pick<RequestInfo, "ip" | "userAgent" | "language">;

export const servicesContext = createContext<AppServices>();
export const requestContext = createContext<RequestInfo>();

/**
 * Whether the request is answered with a document (not a client navigation's `.data`): set by the
 * HTTP layer (server/app.ts). A document's loader data names its messages and the document carries
 * them once (app/i18n/messages.server.ts `messagesRefs`); false where unset.
 */
export const documentRequestContext = createContext<boolean>(false);

/**
 * The language the request is answered in (app/web/i18n.server.ts sets it, in the root's middleware):
 * English until then, and always for staff pages.
 */
export const languageContext = createContext<Language>(DEFAULT_LANGUAGE);
