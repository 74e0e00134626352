// The facts of the notice on personal data (docs/product.md "Data rights"): the kinds of data kept and
// of those they may go to, in the order the notice and the policy list them, and how long records
// are kept. Their words are the catalogue's "notice" namespace (app/i18n/messages/{en,hi}/notice.ts),
// which a page's loader sends in its language; this module holds none of them, so a page that lists
// the items (the collection notice, the privacy policy) ships no other language's words. Re-exported
// by ./notice.ts, beside the English words server code writes.
import type en from "../../i18n/messages/en/notice.ts";

export type NoticeLanguage = "en" | "hi";

/** The kinds of personal data the product keeps, in the order the notice and the policy list them. */
export const DATA_ITEM_IDS = [
  "mobile",
  "identity",
  "pan",
  "aadhaar",
  "address",
  "employment",
  "bank",
  "documents",
  "references",
  "credit_report",
  "loans",
  "device",
] as const satisfies readonly (keyof typeof en.items)[];
export type DataItemId = (typeof DATA_ITEM_IDS)[number];

/** Those personal data may be shared with, by kind, in the order the policy lists them. */
export const RECIPIENT_KIND_IDS = [
  "credit_bureau",
  "payment_gateway",
  "payout_provider",
  "mandate_provider",
  "sms_gateway",
  "email_gateway",
  "ckyc_registry",
  "pan_verifier",
  "bank_verifier",
] as const satisfies readonly (keyof typeof en.recipients)[];
export type RecipientKind = (typeof RECIPIENT_KIND_IDS)[number];

// Every item and recipient of the catalogue is listed above, and only those: a type error otherwise.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type NoticeListsComplete = [Holds<Same<DataItemId, keyof typeof en.items>>, Holds<Same<RecipientKind, keyof typeof en.recipients>>];

/**
 * How long records are kept after the relationship ends (docs/product.md "Data rights"): KYC records
 * 5 years (Prevention of Money Laundering Act, 2002, s. 12 and the RBI's KYC Master Direction), loan
 * records 8 years (books of account, Companies Act, 2013, s. 128).
 */
export const RETENTION_YEARS = { kyc: 5, loan: 8 } as const;

/** A data-rights request is answered within this many days of receipt. */
export const ANSWER_WITHIN_DAYS = 30;
/** A breach is reported to the Board, and its borrowers told, within this many hours of becoming aware. */
export const BREACH_REPORT_HOURS = 72;
