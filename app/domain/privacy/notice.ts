// What the product collects about a borrower and why, who it is shared with, and how long it is kept
// (docs/product.md "Data rights"): one source for the collection notice shown before any personal
// data is asked, the privacy policy, the "Download my data" file and an erasure's plan, so that what
// the borrower is told is what the code does. The facts (kinds, order, periods) are
// ./notice-facts.ts's; the words are the catalogue's "notice" namespace
// (app/i18n/messages/{en,hi}/notice.ts), which pages say in their language. Server code that writes
// in English (the download's JSON file, staff's breach form) reads the English words here; the
// download's PDF reads the namespace in its request's language.
import en from "../../i18n/messages/en/notice.ts";
import { DATA_ITEM_IDS, type DataItemId, RECIPIENT_KIND_IDS, type RecipientKind } from "./notice-facts.ts";

export * from "./notice-facts.ts";

/** An item of personal data the product keeps, and why, in English. */
export interface DataItem {
  id: DataItemId;
  en: { what: string; why: string };
}

export const DATA_ITEMS: readonly DataItem[] = DATA_ITEM_IDS.map((id) => ({ id, en: en.items[id] }));

/** Each kind of recipient named in English (the download lists which of them had the borrower's). */
export const RECIPIENT_KINDS = Object.fromEntries(RECIPIENT_KIND_IDS.map((kind) => [kind, en.recipients[kind]])) as Readonly<
  Record<RecipientKind, string>
>;
