// The consents a borrower gives, each per purpose and each withdrawable from the profile as easily as
// it was given, with what withdrawing does (docs/product.md "Data rights"). The words are whole
// sentences, one place per consent: in English here, in each language in the catalogue's
// "consents" namespace (app/i18n/messages/{en,hi}/consents.ts, the same words in English).
import { z } from "zod";
import { msg } from "../../i18n/form-message.ts";
import type { NotificationEvent } from "../notifications.ts";

import { CONSENT_PURPOSES, type ConsentPurpose } from "./consent-purposes.ts";

export { CONSENT_PURPOSES, type ConsentPurpose };

export interface ConsentText {
  title: string;
  /** What the consent allows. */
  allows: string;
  /** What withdrawing it does (and does not do). */
  withdrawEffect: string;
  /** Where it is given again. */
  giveAgain: string;
  /** The buttons, and what the page says after each. */
  giveButton: string;
  withdrawButton: string;
  given: string;
  withdrawn: string;
}

export const CONSENT_TEXT: Record<ConsentPurpose, ConsentText> = {
  kyc: {
    title: "KYC checks",
    allows: "We check your identity and KYC details with the documents you give, for your loan applications.",
    withdrawEffect:
      "You cannot apply for a new loan until you give it again. A loan you already have goes on as agreed, and we keep the KYC records the law asks us to keep.",
    giveAgain: "Give it again here, or when you save your Profile section.",
    giveButton: "Give my consent for KYC checks",
    withdrawButton: "Withdraw my consent for KYC checks",
    given: "Thank you: your consent for KYC checks is given.",
    withdrawn: "Your consent for KYC checks is withdrawn.",
  },
  communications: {
    title: "Reminders and updates by SMS, e-mail and push",
    allows:
      "We send you reminders before and on a due date, and tell you when a credit check comes back, by SMS, e-mail and push notification.",
    withdrawEffect:
      "Those reminders and updates stop by SMS, e-mail and push, and stay in the app's notices. Messages your loan or the law needs still come: the signed agreement, money paid out or received, charges, overdue notices, autopay notices, closure, credit bureau reporting and data breaches.",
    giveAgain: "Give it again here, or when you save your Profile section.",
    giveButton: "Send me reminders and updates",
    withdrawButton: "Stop reminders and updates by SMS, e-mail and push",
    given: "Thank you: we will send you reminders and updates.",
    withdrawn: "Reminders and updates now stay in the app only.",
  },
  bureau_enquiry: {
    title: "Credit bureau enquiry",
    allows: "We check your PAN and your credit history with a credit bureau to make you an offer and to review your application.",
    withdrawEffect:
      "We make no new enquiry about you with a credit bureau, so we cannot make you a new offer or review a new application until you give it again. We still report your loans to the credit bureaus twice a month, because the law requires it.",
    giveAgain: "Give it again here, or when an offer asks for your credit check.",
    giveButton: "Give my consent for credit bureau enquiries",
    withdrawButton: "Withdraw my consent for credit bureau enquiries",
    given: "Thank you: your consent for credit bureau enquiries is given.",
    withdrawn: "Your consent for credit bureau enquiries is withdrawn: we make no new enquiry about you.",
  },
};

/** Notices that stop going by SMS, e-mail and push when the communications consent is withdrawn (the in-app notice stays). */
export const OPTIONAL_MESSAGE_EVENTS: readonly NotificationEvent[] = ["due_soon", "due_today", "credit_report_ready"];

/** The profile's consent form: one purpose, given or withdrawn. */
export const consentChangeSchema = z.object({
  purpose: z.enum(CONSENT_PURPOSES, { error: msg("privacyRights.errors.purpose") }),
  granted: z.enum(["yes", "no"], { error: msg("privacyRights.errors.granted") }).transform((v) => v === "yes"),
});
