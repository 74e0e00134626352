// A notice's words on every channel, in the borrower's language (docs/product.md "Notifications",
// "Languages"): the catalogue's `notices` namespace filled with the event's data. Plain text through
// app/i18n/plain-format.ts, so that the daily run and the seed under plain Node write the same
// words as the server. Amounts as formatRupees writes them (the same in both languages), dates in
// the language (longDate).
import type { Language } from "../../i18n/languages.ts";
import type { Messages } from "../../i18n/messages.ts";
import { type MessageKey, type MessageValues, type PlainTranslator, plainTranslator } from "../../i18n/plain-format.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import { shortReference } from "../../domain/loans/application.ts";
import { formatRupees } from "../../domain/money.ts";
import {
  type AttachmentRef,
  DAYTIME_ONLY,
  type NoticeData,
  type NotificationEvent,
  type PaidParts,
  type PaymentNext,
  type RenderedNotice,
} from "../../domain/notifications.ts";
import { type BreachFacts, type BreachSender, BREACH_NOTICE_PATH, asSentence, dataItemNames } from "../../domain/privacy/breach-drafts.ts";

export interface NoticeContext {
  brand: string;
  /** The absolute link to a path of the site, for SMS and e-mail (the server's `messageLink`). */
  link: (path: string) => string;
  /** The borrower's language (users.language). */
  language: Language;
}

type Words = Omit<RenderedNotice, "attachments" | "daytimeOnly"> & { attachments?: AttachmentRef[] };
type Template<E extends NotificationEvent> = (d: NoticeData[E], c: NoticeContext, t: PlainTranslator<"notices">) => Words;

const DASHBOARD = "/User/Dashboard";
/** Where a borrower disputes what was reported (a ticket of the credit-information category). */
const DISPUTE_PATH = "/User/Help/new";
/** The credit bureaus a file goes to, by their names (the same in both languages). */
const BUREAUS = ["TransUnion CIBIL", "Equifax", "Experian", "CRIF High Mark"];

const rupees = formatRupees;
/** Items listed as the language lists them ("A, B and C"; "A, B और C": Hindi puts no comma before और). */
const list = (items: readonly string[], language: Language) =>
  new Intl.ListFormat(language === "hi" ? "hi" : "en-IN", { type: "conjunction" }).format(items).replace(", और ", " और ");

/** What a payment paid, in words: the parts it paid listed, what is kept and what is returned (each a sentence, or none). */
export function paidWords(paid: PaidParts | null, t: PlainTranslator<"notices">, language: Language): string {
  if (!paid) return "";
  const parts = [
    paid.interestPaise > 0 ? t("payment_received.paid.interest", { amount: rupees(paid.interestPaise) }) : "",
    paid.principalPaise > 0 ? t("payment_received.paid.principal", { amount: rupees(paid.principalPaise) }) : "",
    paid.penalPaise > 0 ? t("payment_received.paid.penal", { amount: rupees(paid.penalPaise) }) : "",
  ].filter(Boolean);
  return [
    parts.length ? t("payment_received.paid.sentence", { list: list(parts, language) }) : "",
    paid.keptPaise > 0 ? t("payment_received.paid.kept", { amount: rupees(paid.keptPaise) }) : "",
    paid.returnedPaise > 0 ? t("payment_received.paid.returned", { amount: rupees(paid.returnedPaise) }) : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function nextWords(next: PaymentNext, loan: string, t: PlainTranslator<"notices">, language: Language): string {
  if (next.kind === "done") return t("payment_received.next.done");
  if (next.kind === "overdue") return t("payment_received.next.overdue", { amount: rupees(next.amountPaise) });
  const values = {
    loan,
    date: longDate(next.dueDate, language),
    amount: rupees(next.amountPaise),
    instalment: rupees(next.instalmentPaise),
    covered: rupees(next.coveredPaise),
  };
  if (next.coveredPaise === 0) return t("payment_received.next.due", values);
  return next.amountPaise === 0 ? t("payment_received.next.covered", values) : t("payment_received.next.partly", values);
}

/** The notice to a borrower affected by a personal data breach (rule 7(1)): its title, whole text and SMS, in `language`. */
export function breachNotice(
  facts: BreachFacts,
  sender: BreachSender & { link: (path: string) => string },
  language: Language = "en",
): { title: string; body: string; sms: string; path: string } {
  const t = plainTranslator(language, "notices");
  const values = {
    brand: sender.brand,
    lender: sender.lender,
    discovered: formatDateTimeIST(facts.discoveredAt, language),
    occurred: facts.occurredAt ? formatDateTimeIST(facts.occurredAt, language) : t("data_breach.notKnown"),
    description: asSentence(facts.description),
    items: dataItemNames(facts.dataItems, language),
    consequences: asSentence(facts.consequences),
    mitigation: asSentence(facts.mitigation),
    steps: asSentence(facts.borrowerSteps),
    contactName: sender.contact.name,
    contactPhone: sender.contact.phone,
    contactEmail: sender.contact.email,
    reference: facts.reference,
    link: sender.link(BREACH_NOTICE_PATH),
  };
  return {
    title: t("data_breach.title", values),
    body: t("data_breach.body", values),
    sms: t("data_breach.sms", values),
    path: BREACH_NOTICE_PATH,
  };
}

/** The events whose words are one title, one text and one SMS. */
type OneWording = {
  [E in keyof Messages["notices"]]: Messages["notices"][E] extends { title: string; body: string; sms: string } ? E : never;
}[keyof Messages["notices"]];

/** An event's one title, text and SMS, filled with `values`, about the page `path` (with the PDFs its e-mail carries). */
function words(
  t: PlainTranslator<"notices">,
  event: OneWording,
  values: MessageValues,
  path: string,
  attachments: AttachmentRef[] = [],
): Words {
  const key = (part: "title" | "body" | "sms") => `${event}.${part}` as MessageKey<Messages["notices"]>;
  return { title: t(key("title"), values), body: t(key("body"), values), path, sms: t(key("sms"), values), attachments };
}

const TEMPLATES: { [E in NotificationEvent]: Template<E> } = {
  application_signed: (d, c, t) => {
    const path = `/Eagreement/${d.agreementRef}`;
    const v = { ref: shortReference(d.reference), brand: c.brand, link: c.link(path) };
    return {
      title: t("application_signed.title"),
      body: t("application_signed.body", v),
      path,
      sms: t("application_signed.sms", v),
      attachments: [{ kind: "signed_agreement", applicationId: d.applicationId }],
    };
  },
  application_asked: (d, c, t) => {
    const v = { ref: shortReference(d.reference), brand: c.brand, link: c.link(DASHBOARD) };
    return words(t, "application_asked", v, DASHBOARD);
  },
  application_approved: (d, c, t) => {
    const path = d.autopayPath || DASHBOARD;
    const v = {
      brand: c.brand,
      product: d.product,
      amount: rupees(d.amountPaise),
      ref: shortReference(d.reference),
      account: d.accountMasked ?? t("application_approved.accountOnFile"),
      link: c.link(path),
    };
    return d.autopayPath
      ? {
          title: t("application_approved.autopayTitle"),
          body: t("application_approved.autopayBody", v),
          path,
          sms: t("application_approved.autopaySms", v),
        }
      : { title: t("application_approved.title"), body: t("application_approved.body", v), path, sms: t("application_approved.sms", v) };
  },
  application_rejected: (d, c, t) => {
    const v = { ref: shortReference(d.reference), brand: c.brand, link: c.link(d.statusPath) };
    return words(t, "application_rejected", v, d.statusPath);
  },
  loan_disbursed: (d, c, t) => {
    const v = {
      brand: c.brand,
      amount: rupees(d.amountPaise),
      account: d.accountMasked,
      utr: d.utr ?? "none",
      loan: d.loanNumber,
      first: rupees(d.firstDuePaise),
      date: longDate(d.firstDueDate, c.language),
      link: c.link(d.loanPath),
    };
    return words(t, "loan_disbursed", v, d.loanPath);
  },
  disbursal_utr: (d, c, t) => {
    const v = { brand: c.brand, amount: rupees(d.amountPaise), loan: d.loanNumber, utr: d.utr };
    return words(t, "disbursal_utr", v, d.loanPath);
  },
  disbursal_reversed: (d, c, t) => {
    const v = { brand: c.brand, amount: rupees(d.amountPaise), account: d.accountMasked, loan: d.loanNumber };
    return words(t, "disbursal_reversed", v, DASHBOARD);
  },
  revised_kfs: (d, c, t) => {
    const v = { brand: c.brand, loan: d.loanNumber, link: c.link(d.loanPath) };
    return words(t, "revised_kfs", v, d.loanPath, [{ kind: "revised_kfs", applicationId: d.applicationId }]);
  },
  autopay_notice: (d, c, t) => {
    const v = {
      brand: c.brand,
      amount: rupees(d.amountPaise),
      date: longDate(d.presentOn, c.language),
      mandate: d.mandate,
      account: d.accountMasked,
      loan: d.loanNumber,
      link: c.link(d.loanPath),
    };
    return words(t, "autopay_notice", v, d.loanPath);
  },
  autopay_excess: (d, c, t) => {
    const v = {
      brand: c.brand,
      amount: rupees(d.amountPaise),
      date: longDate(d.presentOn, c.language),
      refundOn: longDate(d.refundOn, c.language),
      account: d.accountMasked,
      loan: d.loanNumber,
      link: c.link(d.loanPath),
    };
    return words(t, "autopay_excess", v, d.loanPath);
  },
  dunning_gentle: (d, c, t) => {
    const v = dunningValues(d, c);
    return words(t, "dunning_gentle", v, d.loanPath);
  },
  dunning_firm: (d, c, t) => {
    const v = dunningValues(d, c);
    return words(t, "dunning_firm", v, d.loanPath);
  },
  dunning_letter: (d, c, t) => {
    const v = dunningValues(d, c);
    return words(t, "dunning_letter", v, d.loanPath, [{ kind: "reminder_letter", loanNumber: d.loanNumber, sendId: d.sendId }]);
  },
  autopay_bounced: (d, c, t) => {
    const v = {
      brand: c.brand,
      amount: rupees(d.amountPaise),
      date: longDate(d.presentOn, c.language),
      loan: d.loanNumber,
      reason: d.reason,
      againAmount: d.again ? rupees(d.again.amountPaise) : "",
      againDate: d.again ? longDate(d.again.presentOn, c.language) : "",
      link: c.link(d.loanPath),
    };
    return {
      title: t("autopay_bounced.title", v),
      body: d.again ? t("autopay_bounced.againBody", v) : t("autopay_bounced.body", v),
      path: d.loanPath,
      sms: d.again ? t("autopay_bounced.againSms", v) : t("autopay_bounced.sms", v),
    };
  },
  due_soon: (d, c, t) => words(t, "due_soon", dueValues(d, c), d.loanPath),
  due_today: (d, c, t) => words(t, "due_today", dueValues(d, c), d.loanPath),
  payment_received: (d, c, t) => {
    const v = {
      brand: c.brand,
      amount: rupees(d.amountPaise),
      loan: d.loanNumber,
      date: longDate(d.on, c.language),
      paid: paidWords(d.paid, t, c.language),
      next: nextWords(d.next, d.loanNumber, t, c.language),
    };
    return {
      title: t("payment_received.title", v),
      // No paid words (not known): no double space.
      body: t("payment_received.body", v).replace(/ {2,}/g, " "),
      path: d.loanPath,
      sms: t("payment_received.sms", v),
    };
  },
  penal_charged: (d, c, t) => {
    const v = {
      brand: c.brand,
      seq: d.seq,
      loan: d.loanNumber,
      date: longDate(d.dueDate, c.language),
      amount: rupees(d.amountPaise),
      due: rupees(d.duePaise),
    };
    return words(t, "penal_charged", v, d.loanPath);
  },
  loan_closed: (d, c, t) => {
    const v = { brand: c.brand, loan: d.loanNumber, date: longDate(d.on, c.language) };
    return words(t, "loan_closed", v, d.loanPath, [{ kind: "closure_letter", loanNumber: d.loanNumber }]);
  },
  loan_cancelled: (d, c, t) => {
    const v = { brand: c.brand, loan: d.loanNumber, date: longDate(d.on, c.language) };
    return words(t, "loan_cancelled", v, d.loanPath, [{ kind: "closure_letter", loanNumber: d.loanNumber }]);
  },
  loan_reopened: (d, c, t) => {
    const v = { brand: c.brand, loan: d.loanNumber };
    return words(t, "loan_reopened", v, d.loanPath);
  },
  refund_processed: (d, c, t) => {
    const v = { brand: c.brand, amount: rupees(d.amountPaise), loan: d.loanNumber, account: d.accountMasked, utr: d.utr ?? "none" };
    return words(t, "refund_processed", v, d.loanPath);
  },
  // Staff's words as they typed them. Free text cannot go by SMS under DLT: an urgent notice sends one fixed registered message.
  staff_notice: (d, c, t) => ({
    title: d.title,
    body: d.message,
    path: "/User/Notifications",
    sms: d.urgent ? t("staff_notice.sms", { brand: c.brand }) : null,
  }),
  ticket_raised: (d, c, t) => {
    const v = { brand: c.brand, ref: d.reference, days: d.withinDays ?? 30, link: c.link(d.path) };
    return words(t, "ticket_raised", v, d.path);
  },
  ticket_answered: (d, c, t) => {
    const v = { brand: c.brand, ref: d.reference, link: c.link(d.path) };
    return {
      title: d.resolved ? t("ticket_answered.resolvedTitle", v) : t("ticket_answered.title", v),
      body: d.resolved ? t("ticket_answered.resolvedBody", v) : t("ticket_answered.body", v),
      path: d.path,
      sms: t("ticket_answered.sms", v),
    };
  },
  data_request_received: (d, c, t) => {
    const v = { brand: c.brand, ref: d.reference, date: longDate(d.dueOn, c.language), link: c.link(d.path) };
    const correction = d.kind === "correction";
    return {
      title: t("data_request_received.title", v),
      body: correction ? t("data_request_received.correctionBody", v) : t("data_request_received.erasureBody", v),
      path: d.path,
      sms: correction ? t("data_request_received.correctionSms", v) : t("data_request_received.erasureSms", v),
    };
  },
  data_request_answered: (d, c, t) => {
    const v = { brand: c.brand, ref: d.reference, link: c.link(d.path) };
    return {
      title: t("data_request_answered.title", v),
      body: d.done ? t("data_request_answered.doneBody", v) : t("data_request_answered.notDoneBody", v),
      path: d.path,
      sms: t("data_request_answered.sms", v),
    };
  },
  credit_report_ready: (d, c, t) => ({
    title: t("credit_report_ready.title"),
    body: t("credit_report_ready.body"),
    path: d.path,
    sms: t("credit_report_ready.sms", { brand: c.brand, link: c.link(d.path) }),
  }),
  application_returned: (d, c, t) => {
    const v = { brand: c.brand, ref: shortReference(d.reference), amount: rupees(d.maxAmountPaise), link: c.link(d.path) };
    return {
      title: t("application_returned.title"),
      body: d.maxAmountPaise > 0 ? t("application_returned.lessBody", v) : t("application_returned.noneBody", v),
      path: d.path,
      sms: t("application_returned.sms", v),
    };
  },
  bureau_reported: (d, c, t) => {
    const v = {
      brand: c.brand,
      loan: d.loanNumber,
      date: longDate(d.asOf, c.language),
      dpd: d.dpd,
      amount: rupees(d.overduePaise),
      bureaus: list(BUREAUS, c.language),
      link: c.link(d.loanPath),
      disputeLink: c.link(DISPUTE_PATH),
    };
    const which = d.reported === "settled" ? "settled" : d.reported === "written_off" ? "writtenOff" : "pastDue";
    return {
      title: t(`bureau_reported.${which}Title`, v),
      body: t(`bureau_reported.${which}Body`, v),
      path: d.loanPath,
      sms: t(`bureau_reported.${which}Sms`, v),
    };
  },
  // The notice's words are one template in the catalogue (the staff page shows the same draft in both languages).
  data_breach: (d, c) => breachNotice(d, { brand: c.brand, lender: d.lender, contact: d.contact, link: c.link }, c.language),
};

/** A due reminder's values (due soon, due today). */
function dueValues(d: NoticeData["due_soon"], c: NoticeContext) {
  return {
    brand: c.brand,
    amount: rupees(d.amountPaise),
    loan: d.loanNumber,
    date: longDate(d.dueDate, c.language),
    link: c.link(d.loanPath),
  };
}

function dunningValues(d: NoticeData["dunning_gentle"], c: NoticeContext) {
  return {
    brand: c.brand,
    amount: rupees(d.amountPaise),
    loan: d.loanNumber,
    dpd: d.dpd,
    phone: d.grievancePhone,
    grievanceLink: c.link(d.grievancePath),
    link: c.link(d.loanPath),
  };
}

/** A notice of `event` written out for every channel, in `context.language`. */
export function renderNotice<E extends NotificationEvent>(event: E, data: NoticeData[E], context: NoticeContext): RenderedNotice {
  const rendered = (TEMPLATES[event] as Template<E>)(data, context, plainTranslator(context.language, "notices"));
  return { ...rendered, attachments: rendered.attachments ?? [], daytimeOnly: DAYTIME_ONLY.has(event) };
}

export interface EmailFrame {
  brand: string;
  link: (path: string) => string;
  lenderName: string;
  officer: { name: string; phone: string; email: string };
}

/** The e-mail of a notice in `language`: its subject, and its plain text (the notice, its link, and who sends it). */
export function noticeEmail(notice: Pick<RenderedNotice, "title" | "body" | "path">, c: EmailFrame, language: Language) {
  const t = plainTranslator(language, "notices");
  return {
    subject: t("email.subject", { brand: c.brand, title: notice.title }),
    text: [
      t("email.greeting"),
      "",
      notice.body,
      "",
      t("email.open", { link: c.link(notice.path) }),
      "",
      t("email.sender", { brand: c.brand, lender: c.lenderName }),
      t("email.grievance", c.officer),
      t("email.why"),
    ].join("\n"),
  };
}
