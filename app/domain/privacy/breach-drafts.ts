// The two writings a breach on the register makes (DPDP Rules, 2025, rule 7): the notice to each
// affected borrower (rule 7(1)), sent as the `data_breach` notification, and the draft report to the
// Data Protection Board of India (rule 7(2)). Each is one whole template with named blanks, filled
// from the record. The borrower's notice is in the catalogue (`notices.data_breach`, English and
// Hindi), written out by app/server/notifications/render.server.ts `breachNotice`; the Board's report
// is English, here. Pure and browser-safe.
import { formatDateTimeIST } from "../india-date.ts";
import type { LenderIdentity } from "../lender.ts";
import enNotice from "../../i18n/messages/en/notice.ts";
import hiNotice from "../../i18n/messages/hi/notice.ts";
import { DATA_ITEM_IDS, type NoticeLanguage } from "./notice-facts.ts";

/** What the record says of a breach, as the drafts use it. */
export interface BreachFacts {
  reference: string;
  discoveredAt: Date;
  occurredAt: Date | null;
  description: string;
  dataItems: readonly string[];
  consequences: string;
  mitigation: string;
  borrowerSteps: string;
}

/** Who sends the notice, and the person who answers a borrower's questions (the grievance officer). */
export interface BreachSender {
  brand: string;
  lender: string;
  contact: { name: string; phone: string; email: string };
}

/** Where a borrower reads the notice in the app. */
export const BREACH_NOTICE_PATH = "/User/Notifications";

/** `template` with each `{name}` replaced by `values[name]`; a blank without a value is a bug, never sent. */
export function fillBlanks(template: string, values: Readonly<Record<string, string>>): string {
  // One pass over the template: a value's own braces (typed by staff) are never read as blanks.
  return template.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the template's blank {${name}} has no value`);
    return value;
  });
}

/** Staff's words as a sentence of the notice: ending in a full stop if they end in none. */
export const asSentence = (text: string) => (/[.!?।)"']$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** The kinds of personal data involved, named in `language` (the catalogue's "notice" items) and listed as that language lists. */
export function dataItemNames(ids: readonly string[], language: NoticeLanguage): string {
  const items = (language === "hi" ? hiNotice : enNotice).items;
  const names = DATA_ITEM_IDS.filter((id) => ids.includes(id)).map((id) => items[id].what);
  return new Intl.ListFormat(language === "hi" ? "hi" : "en-IN", { type: "conjunction" }).format(names);
}

/** The lines of the Board's report the record cannot fill: the person sending it writes them. */
export const TO_COMPLETE = "[To complete before sending:";

/**
 * The report to the Data Protection Board of India (rule 7(2)): (a) without delay, the breach's
 * description, nature, extent, timing, location and likely impact; (b) within 72 hours, the updated
 * description, the facts and reasons, the mitigation, findings on who caused it, the remedial
 * measures and a report on the borrowers told. Blanks as `boardReport` fills them.
 */
export const BOARD_REPORT = `Intimation of a personal data breach to the Data Protection Board of India
under section 8(6) of the Digital Personal Data Protection Act, 2023 and rule 7(2) of the Digital Personal Data Protection Rules, 2025

Data Fiduciary: {lender}, which provides the digital lending service {brand}.
Registered address: {address}.
RBI registration: {rbi}. CIN: {cin}.
Person who can answer for us: {contactName}, Grievance Officer, telephone {contactPhone}, e-mail {contactEmail}.
Our reference for this breach: {reference}. Draft prepared on {now}.

PART A. INTIMATION WITHOUT DELAY (rule 7(2)(a))
1. Description of the breach, its nature and where it occurred: {description}
2. Extent: the personal data involved is {items}. Data Principals affected: {affected}.
3. Timing: the breach occurred {occurred}. We became aware of it on {discovered}.
4. Likely impact: {consequences}

PART B. WITHIN 72 HOURS OF BECOMING AWARE, BY {due} (rule 7(2)(b))
(i) Updated and detailed information on the description: {description}
(ii) The broad facts of the events, circumstances and reasons leading to the breach: ${TO_COMPLETE} what led to the breach, as far as now known.]
(iii) Measures implemented or proposed to mitigate risk: {mitigation}
(iv) Findings regarding the person who caused the breach: ${TO_COMPLETE} what is known of who caused it, or that it is not yet known.]
(v) Remedial measures taken to prevent the breach happening again: ${TO_COMPLETE} the measures taken.]
(vi) Report on the intimations given to affected Data Principals: {intimations}

The notice sent to each affected Data Principal follows the record above: what happened, when and which personal data; its likely consequences for them; our measures; the safety measures they can take; and the contact above.`;

export interface BoardReportContext {
  brand: string;
  lender: LenderIdentity;
  /** Borrowers affected: those listed, or every borrower account. */
  scope: "all" | "listed";
  affected: number;
  /** Notices sent so far, and since when (null: not sent). */
  told: number;
  noticesSentAt: Date | null;
  now: Date;
  due: Date;
}

const count = (n: number) => n.toLocaleString("en-IN");

/** The draft report to the Board, filled from the record and the lender's identity. */
export function boardReport(facts: BreachFacts, c: BoardReportContext): string {
  const officer = c.lender.grievanceOfficer;
  return fillBlanks(BOARD_REPORT, {
    lender: c.lender.name,
    brand: c.brand,
    address: c.lender.address,
    rbi: c.lender.rbiRegistration,
    cin: c.lender.cin,
    contactName: officer.name,
    contactPhone: officer.phone,
    contactEmail: officer.email,
    reference: facts.reference,
    now: formatDateTimeIST(c.now),
    description: asSentence(facts.description),
    items: dataItemNames(facts.dataItems, "en"),
    affected:
      c.scope === "all"
        ? `every borrower account, ${count(c.affected)} at the time of this draft`
        : `${count(c.affected)} borrower${c.affected === 1 ? "" : "s"}, each named in our register`,
    occurred: facts.occurredAt ? `on ${formatDateTimeIST(facts.occurredAt)}` : "at a time not yet known",
    discovered: formatDateTimeIST(facts.discoveredAt),
    consequences: asSentence(facts.consequences),
    due: formatDateTimeIST(c.due),
    mitigation: asSentence(facts.mitigation),
    intimations: c.noticesSentAt
      ? `From ${formatDateTimeIST(c.noticesSentAt)} each affected borrower was sent the notice in their account in our app and by SMS to their registered mobile number, and by e-mail where they gave us an address; ${count(c.told)} of ${count(c.affected)} had been sent it by ${formatDateTimeIST(c.now)}.`
      : "The affected borrowers have not been sent the notice yet.",
  });
}
