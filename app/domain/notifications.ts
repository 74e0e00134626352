// Every notice a borrower can get, and its words on each channel, in one place (docs/product.md
// "Notifications"). An SMS is a template registered under India's DLT rules: fixed words with
// variables, never free text; its template id comes from configuration, one per event.
import { z } from "zod";
import { addDays, type IsoDate } from "./loan-math.ts";
import { formatRupees } from "./money.ts";
import { indiaTime, istHour, longDate, todayIST } from "./india-date.ts";
import { shortReference } from "./loans/application.ts";
import { type BreachFacts, breachNotice } from "./privacy/breach-drafts.ts";

export const NOTIFICATION_EVENTS = [
  "application_signed",
  "application_asked",
  "application_approved",
  "application_rejected",
  "loan_disbursed",
  "disbursal_utr",
  "disbursal_reversed",
  "revised_kfs",
  "due_soon",
  "due_today",
  "payment_received",
  "penal_charged",
  "loan_closed",
  "loan_cancelled",
  "loan_reopened",
  "refund_processed",
  "staff_notice",
  "ticket_raised",
  "ticket_answered",
  "credit_report_ready",
  "application_returned",
  "autopay_notice",
  "autopay_bounced",
  "autopay_excess",
  "dunning_gentle",
  "dunning_firm",
  "dunning_letter",
  "bureau_reported",
  "data_request_received",
  "data_request_answered",
  "data_breach",
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const CHANNELS = ["sms", "email", "push"] as const;
export type Channel = (typeof CHANNELS)[number];

/** A PDF sent with the e-mail, fetched when the e-mail goes (never stored twice). */
export type AttachmentRef =
  | { kind: "signed_agreement"; applicationId: string }
  | { kind: "revised_kfs"; applicationId: string }
  | { kind: "closure_letter"; loanNumber: string }
  | { kind: "reminder_letter"; loanNumber: string; sendId: string };

/** What a collections reminder names: the loan, the amount, how to pay and how to complain. */
export interface DunningNotice {
  loanNumber: string;
  loanPath: string;
  amountPaise: number;
  dpd: number;
  grievancePath: string;
  grievancePhone: string;
}

/** What each event carries. */
export interface NoticeData {
  application_signed: { applicationId: string; reference: string; agreementRef: string };
  application_asked: { reference: string };
  /** `autopayPath`: the product pays out only once autopay is active, and it is not yet (the application's page). */
  application_approved: { reference: string; what: string; accountMasked: string; autopayPath?: string | null };
  application_rejected: { reference: string; statusPath: string };
  loan_disbursed: {
    applicationId: string;
    amountPaise: number;
    accountMasked: string;
    utr: string | null;
    loanNumber: string;
    firstDuePaise: number;
    firstDueDate: IsoDate;
    loanPath: string;
  };
  disbursal_utr: { amountPaise: number; utr: string; loanNumber: string; loanPath: string };
  disbursal_reversed: { amountPaise: number; accountMasked: string; loanNumber: string };
  revised_kfs: { applicationId: string; loanNumber: string; loanPath: string };
  due_soon: { loanNumber: string; loanPath: string; amountPaise: number; dueDate: IsoDate };
  /** The pre-debit notice: at least 24 hours before the debit. */
  autopay_notice: { loanNumber: string; loanPath: string; amountPaise: number; presentOn: IsoDate; mandate: string; accountMasked: string };
  /** A debit the bank returned; `again` is its one re-presentation (null: none follows). */
  autopay_bounced: {
    loanNumber: string;
    loanPath: string;
    amountPaise: number;
    presentOn: IsoDate;
    reason: string;
    again: { amountPaise: number; presentOn: IsoDate } | null;
  };
  /** A debit that paid an instalment already paid: refunded on `refundOn` unless kept as an advance. */
  autopay_excess: {
    loanNumber: string;
    loanPath: string;
    amountPaise: number;
    presentOn: IsoDate;
    refundOn: IsoDate;
    accountMasked: string;
  };
  /**
   * A collections reminder (docs/product.md "Collections"), by tone: what is overdue on the loan and
   * for how many days, how to pay (the loan's page) and how to complain (`grievancePath`, `grievancePhone`).
   */
  dunning_gentle: DunningNotice;
  dunning_firm: DunningNotice;
  dunning_letter: DunningNotice & { sendId: string };
  due_today: { loanNumber: string; loanPath: string; amountPaise: number; dueDate: IsoDate };
  payment_received: { amountPaise: number; loanNumber: string; loanPath: string; on: IsoDate; paid: string; next: string };
  penal_charged: { amountPaise: number; loanNumber: string; loanPath: string; seq: number; dueDate: IsoDate; duePaise: number };
  loan_closed: { loanNumber: string; loanPath: string; on: IsoDate };
  loan_cancelled: { loanNumber: string; loanPath: string; on: IsoDate };
  loan_reopened: { loanNumber: string; loanPath: string };
  refund_processed: { amountPaise: number; loanNumber: string; loanPath: string; accountMasked: string; utr: string | null };
  staff_notice: { title: string; message: string; urgent: boolean };
  /** `withinDays`: when the answer is due (30 days; 21 for a dispute of credit information). */
  ticket_raised: { reference: string; path: string; withinDays?: number };
  ticket_answered: { reference: string; path: string; resolved: boolean };
  /** A correction or an erasure asked for (docs/product.md "Data rights"), answered by `dueOn`. */
  data_request_received: { reference: string; kind: "correction" | "erasure"; dueOn: IsoDate; path: string };
  data_request_answered: { reference: string; done: boolean; path: string };
  /** The bureau answered after the page stopped waiting: `path` is where the offer is shown. */
  credit_report_ready: { path: string };
  /** The credit policy now allows less than was signed: the amount is chosen again and a fresh KFS signed. */
  application_returned: { reference: string; maxAmountPaise: number; path: string };
  /** Days past due, or a write-off, reported to the credit bureaus as at `asOf` (told once per loan and date). */
  bureau_reported: {
    loanNumber: string;
    loanPath: string;
    asOf: IsoDate;
    dpd: number;
    overduePaise: number;
    reported: "past_due" | "written_off" | "settled";
  };
  /** A personal data breach that affected the borrower (DPDP Rules, 2025, rule 7(1)): the record's facts, who sends it and who answers. */
  data_breach: BreachFacts & { lender: string; contact: { name: string; phone: string; email: string } };
}

/** A notice written out for every channel. */
export interface RenderedNotice {
  /** In-app, push and the e-mail's subject. */
  title: string;
  /** In-app, push and the e-mail's text. */
  body: string;
  /** The page the notice is about (a path of this site). */
  path: string;
  /** The SMS, or null when this notice sends none. */
  sms: string | null;
  attachments: AttachmentRef[];
  /** Reminders and overdue notices go out only between 08:00 and 19:00 India time. */
  daytimeOnly: boolean;
}

interface Context {
  brand: string;
  /** The absolute link to a path of the site, for SMS and e-mail (the server's `messageLink`). */
  link: (path: string) => string;
}

type Template<E extends NotificationEvent> = (
  d: NoticeData[E],
  c: Context,
) => Omit<RenderedNotice, "attachments" | "daytimeOnly"> & { attachments?: AttachmentRef[] };

const DASHBOARD = "/User/Dashboard";

const TEMPLATES: { [E in NotificationEvent]: Template<E> } = {
  application_signed: (d, c) => ({
    title: "You signed your loan agreement",
    body: `You signed the agreement for application ${shortReference(d.reference)}. Your signed copy is attached to the e-mail and kept in the app. A credit officer checks it next.`,
    path: `/Eagreement/${d.agreementRef}`,
    sms: `You signed your ${c.brand} loan agreement ${shortReference(d.reference)}. Your signed copy: ${c.link(`/Eagreement/${d.agreementRef}`)}`,
    attachments: [{ kind: "signed_agreement", applicationId: d.applicationId }],
  }),
  application_asked: (d, c) => ({
    title: "We need one more thing",
    body: `Our credit team needs one more thing for application ${shortReference(d.reference)}. See what is asked and answer on your dashboard.`,
    path: DASHBOARD,
    sms: `${c.brand}: we need one more thing for your loan application ${shortReference(d.reference)}. See what is asked and answer at ${c.link(DASHBOARD)}`,
  }),
  application_approved: (d, c) =>
    d.autopayPath
      ? {
          title: "Your loan is approved: set up autopay",
          body: `Your ${d.what} (application ${shortReference(d.reference)}) is approved. We send the money to your bank account ${d.accountMasked} as soon as your autopay is active: set it up on your application's page.`,
          path: d.autopayPath,
          sms: `${c.brand}: your ${d.what} (application ${shortReference(d.reference)}) is approved. Set up autopay at ${c.link(d.autopayPath)} and we send the money to your bank account ${d.accountMasked}.`,
        }
      : {
          title: "Your loan is approved",
          body: `Your ${d.what} (application ${shortReference(d.reference)}) is approved. We will send the money to your bank account ${d.accountMasked} and tell you the transfer reference.`,
          path: DASHBOARD,
          sms: `${c.brand}: your ${d.what} (application ${shortReference(d.reference)}) is approved. We will send the money to your bank account ${d.accountMasked} and SMS you the transfer reference.`,
        },
  application_rejected: (d, c) => ({
    title: "We could not approve your application",
    body: `We could not approve your loan application ${shortReference(d.reference)}. The reason, in plain words, and when you may apply again are on its status page.`,
    path: d.statusPath,
    sms: `${c.brand}: we could not approve your loan application ${shortReference(d.reference)}. The reason is at ${c.link(d.statusPath)}`,
  }),
  loan_disbursed: (d, c) => ({
    title: `${formatRupees(d.amountPaise)} sent to your bank`,
    body: `${formatRupees(d.amountPaise)} was sent to your bank account ${d.accountMasked}${d.utr ? `, UTR ${d.utr}` : ""}. Loan ${d.loanNumber}: the first instalment of ${formatRupees(d.firstDuePaise)} is due on ${longDate(d.firstDueDate)}.`,
    path: d.loanPath,
    sms: `${c.brand}: ${formatRupees(d.amountPaise)} sent to your bank account ${d.accountMasked}, UTR ${d.utr ?? "to follow"}. Loan ${d.loanNumber}: first instalment ${formatRupees(d.firstDuePaise)} due on ${longDate(d.firstDueDate)}. Details: ${c.link(d.loanPath)}`,
  }),
  disbursal_utr: (d, c) => ({
    title: "Bank reference of your loan's transfer",
    body: `The transfer of ${formatRupees(d.amountPaise)} for loan ${d.loanNumber} has its bank reference now: UTR ${d.utr}.`,
    path: d.loanPath,
    sms: `${c.brand}: the transfer of ${formatRupees(d.amountPaise)} for loan ${d.loanNumber} has its bank reference now: UTR ${d.utr}.`,
  }),
  disbursal_reversed: (d, c) => ({
    title: "Your bank returned the money",
    body: `Your bank returned the ${formatRupees(d.amountPaise)} sent to account ${d.accountMasked} for loan ${d.loanNumber}. Nothing is due on it; we will contact you before sending it again.`,
    path: DASHBOARD,
    sms: `${c.brand}: your bank returned the ${formatRupees(d.amountPaise)} sent to account ${d.accountMasked} for loan ${d.loanNumber}. Nothing is due on it; we will contact you before sending it again.`,
  }),
  revised_kfs: (d, c) => ({
    title: "Revised Key Fact Statement",
    body: `The money reached you on a different day than your signed KFS assumed, so the dates or amounts of loan ${d.loanNumber} changed. The revised Key Fact Statement is attached to the e-mail and on the loan's page.`,
    path: d.loanPath,
    sms: `${c.brand}: the dates or amounts of loan ${d.loanNumber} changed from your signed KFS because of the disbursal date. See the revised KFS at ${c.link(d.loanPath)}`,
    attachments: [{ kind: "revised_kfs", applicationId: d.applicationId }],
  }),
  autopay_notice: (d, c) => ({
    title: `Autopay will debit ${formatRupees(d.amountPaise)} on ${longDate(d.presentOn)}`,
    body: `On ${longDate(d.presentOn)} your ${d.mandate} mandate will debit ${formatRupees(d.amountPaise)} from account ${d.accountMasked} for loan ${d.loanNumber}. Keep the amount in that account. To pay another way, use Pay now in the app before then: the debit is then lowered or cancelled.`,
    path: d.loanPath,
    sms: `${c.brand}: on ${longDate(d.presentOn)} autopay will debit ${formatRupees(d.amountPaise)} from account ${d.accountMasked} for loan ${d.loanNumber}. To pay another way before then, use Pay now at ${c.link(d.loanPath)}`,
  }),
  autopay_excess: (d, c) => ({
    title: `Autopay debited ${formatRupees(d.amountPaise)} more than was due`,
    body: `The autopay debit of ${formatRupees(d.amountPaise)} on ${longDate(d.presentOn)} for loan ${d.loanNumber} paid an instalment you had already paid. We will refund it to account ${d.accountMasked} on ${longDate(d.refundOn)}. If you would rather keep it as an advance towards your next instalments, choose that on the loan's page before then.`,
    path: d.loanPath,
    sms: `${c.brand}: autopay debited ${formatRupees(d.amountPaise)} on ${longDate(d.presentOn)} for an instalment of loan ${d.loanNumber} already paid. We will refund it on ${longDate(d.refundOn)}, or keep it as an advance at ${c.link(d.loanPath)}`,
  }),
  dunning_gentle: (d, c) => ({
    title: `${formatRupees(d.amountPaise)} overdue on loan ${d.loanNumber}`,
    body: `${formatRupees(d.amountPaise)} is overdue on loan ${d.loanNumber}, ${d.dpd} days past its due date. Please pay it with Pay now on the loan's page. If you cannot pay now, tell us when you can with "Promise to pay" there, and we will not remind you until then. To complain, call ${d.grievancePhone} or write to us at ${c.link(d.grievancePath)}.`,
    path: d.loanPath,
    sms: `${c.brand}: ${formatRupees(d.amountPaise)} is overdue on loan ${d.loanNumber}. Pay at ${c.link(d.loanPath)} or promise a date there. Complaints: ${d.grievancePhone}`,
  }),
  dunning_firm: (d, c) => ({
    title: `Loan ${d.loanNumber} is ${d.dpd} days overdue`,
    body: `${formatRupees(d.amountPaise)} on loan ${d.loanNumber} is ${d.dpd} days past its due date. Late payment is reported to the credit bureaus and lowers your credit score. Please pay with Pay now on the loan's page today, or promise a date there within 7 days. If you are in hardship or you dispute the amount, reply or call us: we can pause reminders while we talk. To complain, call ${d.grievancePhone} or write to us at ${c.link(d.grievancePath)}.`,
    path: d.loanPath,
    sms: `${c.brand}: loan ${d.loanNumber} is ${d.dpd} days overdue with ${formatRupees(d.amountPaise)} due. Pay or promise a date at ${c.link(d.loanPath)}. Complaints: ${d.grievancePhone}`,
  }),
  dunning_letter: (d, c) => ({
    title: `Reminder letter: loan ${d.loanNumber} is ${d.dpd} days overdue`,
    body: `Our letter about loan ${d.loanNumber} is attached to the e-mail and on the loan's page: ${formatRupees(d.amountPaise)} is ${d.dpd} days past its due date. Please pay with Pay now on the loan's page, or promise a date there within 7 days. To complain, call ${d.grievancePhone} or write to us at ${c.link(d.grievancePath)}.`,
    path: d.loanPath,
    sms: `${c.brand}: we have sent you a letter about loan ${d.loanNumber}, ${d.dpd} days overdue with ${formatRupees(d.amountPaise)} due. Pay at ${c.link(d.loanPath)}. Complaints: ${d.grievancePhone}`,
    attachments: [{ kind: "reminder_letter", loanNumber: d.loanNumber, sendId: d.sendId }],
  }),
  autopay_bounced: (d, c) =>
    d.again
      ? {
          title: `Autopay debit of ${formatRupees(d.amountPaise)} was returned`,
          body: `Your bank returned the autopay debit of ${formatRupees(d.amountPaise)} on ${longDate(d.presentOn)} for loan ${d.loanNumber} (${d.reason}). We will present ${formatRupees(d.again.amountPaise)} once more on ${longDate(d.again.presentOn)}: keep it in the account, or pay now in the app to avoid more charges.`,
          path: d.loanPath,
          sms: `${c.brand}: your bank returned the autopay debit of ${formatRupees(d.amountPaise)} for loan ${d.loanNumber}. We will present ${formatRupees(d.again.amountPaise)} again on ${longDate(d.again.presentOn)}, or pay now at ${c.link(d.loanPath)}`,
        }
      : {
          title: `Autopay debit of ${formatRupees(d.amountPaise)} was returned`,
          body: `Your bank returned the autopay debit of ${formatRupees(d.amountPaise)} on ${longDate(d.presentOn)} for loan ${d.loanNumber} (${d.reason}). It will not be presented again: pay the amount due with Pay now in the app.`,
          path: d.loanPath,
          sms: `${c.brand}: your bank returned the autopay debit of ${formatRupees(d.amountPaise)} for loan ${d.loanNumber}. Please pay the amount due now at ${c.link(d.loanPath)}`,
        },
  due_soon: (d, c) => ({
    title: `${formatRupees(d.amountPaise)} due on ${longDate(d.dueDate)}`,
    body: `Reminder: ${formatRupees(d.amountPaise)} for loan ${d.loanNumber} is due in 3 days, on ${longDate(d.dueDate)}. Pay in the app, or keep the amount in your account.`,
    path: d.loanPath,
    sms: `${c.brand}: ${formatRupees(d.amountPaise)} for loan ${d.loanNumber} is due on ${longDate(d.dueDate)}. Pay at ${c.link(d.loanPath)}`,
  }),
  due_today: (d, c) => ({
    title: `${formatRupees(d.amountPaise)} due today`,
    body: `${formatRupees(d.amountPaise)} for loan ${d.loanNumber} is due today, ${longDate(d.dueDate)}. Pay in the app to stay on time.`,
    path: d.loanPath,
    sms: `${c.brand}: ${formatRupees(d.amountPaise)} for loan ${d.loanNumber} is due today. Pay at ${c.link(d.loanPath)}`,
  }),
  payment_received: (d, c) => ({
    title: `We received ${formatRupees(d.amountPaise)}`,
    body: `We received ${formatRupees(d.amountPaise)} for loan ${d.loanNumber} on ${longDate(d.on)}. ${d.paid} ${d.next}`,
    path: d.loanPath,
    sms: `${c.brand}: we received ${formatRupees(d.amountPaise)} for loan ${d.loanNumber} on ${longDate(d.on)}. ${d.next}`,
  }),
  penal_charged: (d, c) => ({
    title: `Instalment ${d.seq} is overdue`,
    body: `Instalment ${d.seq} of loan ${d.loanNumber}, due on ${longDate(d.dueDate)}, is unpaid, so a penal charge of ${formatRupees(d.amountPaise)} was added as its own line. It earns no interest and is never added to your principal. Pay ${formatRupees(d.duePaise)} now to avoid more.`,
    path: d.loanPath,
    sms: `${c.brand}: instalment ${d.seq} of loan ${d.loanNumber}, due on ${longDate(d.dueDate)}, is unpaid, so a penal charge of ${formatRupees(d.amountPaise)} was added as its own line (it earns no interest). Pay ${formatRupees(d.duePaise)} now in the app under Loans to avoid more.`,
  }),
  loan_closed: (d, c) => ({
    title: `Loan ${d.loanNumber} is closed`,
    body: `Loan ${d.loanNumber} is fully repaid and closed on ${longDate(d.on)}. Your no-dues certificate is attached to the e-mail and on the loan's page.`,
    path: d.loanPath,
    sms: `${c.brand}: loan ${d.loanNumber} is fully repaid and closed on ${longDate(d.on)}. Your no-dues certificate is in the app under Loans.`,
    attachments: [{ kind: "closure_letter", loanNumber: d.loanNumber }],
  }),
  loan_cancelled: (d, c) => ({
    title: `Loan ${d.loanNumber} is cancelled`,
    body: `Loan ${d.loanNumber} is cancelled within the cooling-off period on ${longDate(d.on)}. Nothing more is due. Your letter is attached to the e-mail and on the loan's page.`,
    path: d.loanPath,
    sms: `${c.brand}: loan ${d.loanNumber} is cancelled within the cooling-off period on ${longDate(d.on)}. Nothing more is due. Your letter is in the app under Loans.`,
    attachments: [{ kind: "closure_letter", loanNumber: d.loanNumber }],
  }),
  loan_reopened: (d, c) => ({
    title: `Loan ${d.loanNumber} is open again`,
    body: `A payment on loan ${d.loanNumber} was reversed, so the loan is open again and its no-dues certificate is withdrawn. See what is due on the loan's page.`,
    path: d.loanPath,
    sms: `${c.brand}: a payment on loan ${d.loanNumber} was reversed, so the loan is open again and its no-dues certificate is withdrawn. See what is due in the app under Loans.`,
  }),
  refund_processed: (d, c) => ({
    title: `${formatRupees(d.amountPaise)} refunded`,
    body: `${formatRupees(d.amountPaise)} paid over what was due on loan ${d.loanNumber} was refunded to your bank account ${d.accountMasked}${d.utr ? `, UTR ${d.utr}` : ""}.`,
    path: d.loanPath,
    sms: `${c.brand}: ${formatRupees(d.amountPaise)} paid over what was due on loan ${d.loanNumber} was refunded to your bank account ${d.accountMasked}${d.utr ? `, UTR ${d.utr}` : ""}.`,
  }),
  // Free text cannot go by SMS under DLT: an urgent notice sends one fixed registered message.
  staff_notice: (d, c) => ({
    title: d.title,
    body: d.message,
    path: "/User/Notifications",
    sms: d.urgent ? `You have a new message from ${c.brand}. Open the app to read it.` : null,
  }),
  ticket_raised: (d, c) => ({
    title: `We have your ticket ${d.reference}`,
    body: `Your ticket ${d.reference} is with our support team. We answer within ${d.withinDays ?? 30} days, usually within two working days; quote ${d.reference} if you call us.`,
    path: d.path,
    sms: `${c.brand}: we have your ticket ${d.reference}. We answer within ${d.withinDays ?? 30} days; quote ${d.reference} if you call us. Follow it at ${c.link(d.path)}`,
  }),
  ticket_answered: (d, c) => ({
    title: d.resolved ? `Ticket ${d.reference} is resolved` : `We answered your ticket ${d.reference}`,
    body: d.resolved
      ? `We answered your ticket ${d.reference} and marked it resolved. If it is not solved, you can reopen it within 7 days from Help.`
      : `Our support team answered your ticket ${d.reference}. Read the answer and reply from Help.`,
    path: d.path,
    sms: `${c.brand}: we answered your ticket ${d.reference}. Read it at ${c.link(d.path)}`,
  }),
  data_request_received: (d, c) =>
    d.kind === "correction"
      ? {
          title: `We have your request ${d.reference}`,
          body: `We have your request ${d.reference} to correct your data. We answer by ${longDate(d.dueOn)}; follow it on the privacy page of your profile.`,
          path: d.path,
          sms: `${c.brand}: we have your request ${d.reference} to correct your data. We answer by ${longDate(d.dueOn)}. Follow it at ${c.link(d.path)}`,
        }
      : {
          title: `We have your request ${d.reference}`,
          body: `We have your request ${d.reference} to erase your data. We answer by ${longDate(d.dueOn)} and tell you what we erased and what the law makes us keep.`,
          path: d.path,
          sms: `${c.brand}: we have your request ${d.reference} to erase your data. We answer by ${longDate(d.dueOn)}. Follow it at ${c.link(d.path)}`,
        },
  data_request_answered: (d, c) => ({
    title: `We answered your request ${d.reference}`,
    body: d.done
      ? `We have done what you asked in request ${d.reference}. Read our answer on the privacy page of your profile.`
      : `We could not do all you asked in request ${d.reference}. Read our answer and why on the privacy page of your profile.`,
    path: d.path,
    sms: `${c.brand}: we answered your request ${d.reference}. Read the answer at ${c.link(d.path)}`,
  }),
  credit_report_ready: (d, c) => ({
    title: "Your credit check has its answer",
    body: "We have the answer to the credit check for your offer. See what we can offer you: your answers are saved.",
    path: d.path,
    sms: `${c.brand}: we have the answer to the credit check for your offer. See what we can offer you at ${c.link(d.path)}`,
  }),
  application_returned: (d, c) => ({
    title: "Your application needs a fresh signature",
    body:
      d.maxAmountPaise > 0
        ? `Under our lending policy we can now lend you at most ${formatRupees(d.maxAmountPaise)} on application ${shortReference(d.reference)}, less than you signed for. Choose the amount again and sign the new Key Fact Statement; nothing else is lost.`
        : `Under our lending policy we cannot now lend the amount you signed for on application ${shortReference(d.reference)}. Open it to see why.`,
    path: d.path,
    sms: `${c.brand}: your loan application ${shortReference(d.reference)} needs a fresh signature: the amount we can lend has changed. Choose it again at ${c.link(d.path)}`,
  }),
  bureau_reported: (d, c) =>
    d.reported === "settled"
      ? {
          title: `Loan ${d.loanNumber} reported to the credit bureaus as settled`,
          body: `As the law requires, we reported to the credit bureaus (TransUnion CIBIL, Equifax, Experian and CRIF High Mark) that loan ${d.loanNumber} was settled after being written off, as at ${longDate(d.asOf)}: we accepted less than was owed. If you think what we reported is wrong, raise a dispute under Help: we answer it within 21 days.`,
          path: d.loanPath,
          sms: `${c.brand}: as at ${longDate(d.asOf)} we reported loan ${d.loanNumber} to the credit bureaus as settled after write-off. To dispute it: ${c.link(DISPUTE_PATH)}`,
        }
      : d.reported === "written_off"
        ? {
            title: `Loan ${d.loanNumber} reported to the credit bureaus as written off`,
            body: `As the law requires, we reported to the credit bureaus (TransUnion CIBIL, Equifax, Experian and CRIF High Mark) that loan ${d.loanNumber} was written off as at ${longDate(d.asOf)}. It is still owed: paying it, or settling it with us, is reported too. If you think what we reported is wrong, raise a dispute under Help: we answer it within 21 days.`,
            path: d.loanPath,
            sms: `${c.brand}: as at ${longDate(d.asOf)} we reported loan ${d.loanNumber} to the credit bureaus as written off. To pay or settle it see ${c.link(d.loanPath)}. To dispute it: ${c.link(DISPUTE_PATH)}`,
          }
        : {
            title: `Loan ${d.loanNumber} reported to the credit bureaus as ${d.dpd} days past due`,
            body: `As the law requires, we reported to the credit bureaus (TransUnion CIBIL, Equifax, Experian and CRIF High Mark) that loan ${d.loanNumber} was ${d.dpd} days past due, with ${formatRupees(d.overduePaise)} overdue, as at ${longDate(d.asOf)}. This can lower your credit score. Pay the overdue amount with Pay now on the loan's page and the next report shows it. If you think what we reported is wrong, raise a dispute under Help: we answer it within 21 days.`,
            path: d.loanPath,
            sms: `${c.brand}: as at ${longDate(d.asOf)} we reported loan ${d.loanNumber} to the credit bureaus as ${d.dpd} days past due with ${formatRupees(d.overduePaise)} overdue. Pay at ${c.link(d.loanPath)}. To dispute it: ${c.link(DISPUTE_PATH)}`,
          },
  // The notice's words are one template in app/domain/privacy/breach-drafts.ts (the staff page shows the same draft).
  data_breach: (d, c) => breachNotice(d, { brand: c.brand, lender: d.lender, contact: d.contact, link: c.link }),
};

/** Where a borrower disputes what was reported (a ticket of the credit-information category). */
const DISPUTE_PATH = "/User/Help/new";

/** Reminders, overdue and autopay notices: only between 08:00 and 19:00 India time. */
const DAYTIME_ONLY: ReadonlySet<NotificationEvent> = new Set([
  "due_soon",
  "due_today",
  "penal_charged",
  "autopay_notice",
  "autopay_bounced",
  "dunning_gentle",
  "dunning_firm",
  "dunning_letter",
  "bureau_reported",
]);

export function renderNotice<E extends NotificationEvent>(event: E, data: NoticeData[E], context: Context): RenderedNotice {
  const rendered = (TEMPLATES[event] as Template<E>)(data, context);
  return { ...rendered, attachments: rendered.attachments ?? [], daytimeOnly: DAYTIME_ONLY.has(event) };
}

/** The e-mail's plain text: the notice, its link, and who sends it. */
export function emailText(notice: Pick<RenderedNotice, "body" | "path">, c: Context & { lenderName: string; grievance: string }) {
  return [
    "Dear borrower,",
    "",
    notice.body,
    "",
    `Open it in the app: ${c.link(notice.path)}`,
    "",
    `${c.brand}, a service of ${c.lenderName}.`,
    `Grievance officer: ${c.grievance}.`,
    "You get this e-mail because you gave us this address for your loan. We never ask for your OTP or PIN.",
  ].join("\n");
}

/** `at`, or 08:00 India time when `at` falls between 19:00 and 08:00 (the next morning's window). */
export function daytime(at: Date): Date {
  const hour = istHour(at);
  if (hour >= 8 && hour < 19) return at;
  const day = todayIST(at);
  const morning = hour < 8 ? day : addDays(day, 1);
  return indiaTime(morning, "08:00");
}

/** A staff notice (support): a short title and the message, marked urgent or not; `once` makes a double send one notice. */
export const staffNoticeSchema = z.object({
  intent: z.literal("notice"),
  once: z.uuid({ error: "Reload the page and write the notice again." }),
  title: z
    .string({ error: "Give the notice a title." })
    .trim()
    .min(3, "Give the notice a title.")
    .max(80, "Keep the title under 80 characters."),
  message: z
    .string({ error: "Write the message." })
    .trim()
    .min(3, "Write the message.")
    .max(1000, "Keep the message under 1,000 characters."),
  urgent: z.boolean().optional(),
});

type Paid = {
  interestPaidPaise: number;
  principalRepaidPaise: number;
  penalPaidPaise: number;
  advancePaise: number;
  feeReturnedPaise?: number;
};

/** What a payment paid, in words: the loan's figures before it and after it. */
export function whatItPaid(before: Paid, after: Paid): string {
  // A cooling-off exit repays principal partly by returning the processing fee and its GST: that part was not paid.
  const returned = (after.feeReturnedPaise ?? 0) - (before.feeReturnedPaise ?? 0);
  const parts = [
    [after.interestPaidPaise - before.interestPaidPaise, "interest"],
    [after.principalRepaidPaise - before.principalRepaidPaise - returned, "principal"],
    [after.penalPaidPaise - before.penalPaidPaise, "penal charges"],
  ] as const;
  const paid = parts.filter(([paise]) => paise > 0).map(([paise, what]) => `${formatRupees(paise)} of ${what}`);
  const kept = after.advancePaise - before.advancePaise;
  const list = paid.length > 1 ? `${paid.slice(0, -1).join(", ")} and ${paid.at(-1)}` : (paid[0] ?? "");
  return [
    list ? `It paid ${list}.` : "",
    kept > 0 ? `${formatRupees(kept)} is kept for your next instalment.` : "",
    returned > 0 ? `The processing fee and its GST, ${formatRupees(returned)}, are returned to you under the cooling-off rule.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}
