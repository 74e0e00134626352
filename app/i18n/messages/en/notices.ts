// Everything sent to a borrower (docs/product.md "Notifications"): each event's in-app title and
// text (also the push and the e-mail's subject and text) and its SMS, the e-mail's frame, the
// sign-in code's SMS, the e-mails of a contact-form ticket and the personal data breach notice.
// Rendered in the borrower's language (users.language) when the notice is made, by
// app/server/notifications/render.server.ts through app/i18n/plain-format.ts (plain text, also
// under plain Node). Amounts come formatted ({amount}: ₹1,00,000), dates in the language ({date}),
// links whole ({link}). An SMS is a DLT template: its words are fixed, its placeholders the
// variables; each language's is registered under its own template id. Hindi in ../hi/notices.ts.
export default {
  application_signed: {
    title: "You signed your loan agreement",
    body: "You signed the agreement for application {ref}. Your signed copy is attached to the e-mail and kept in the app. A credit officer checks it next.",
    sms: "You signed your {brand} loan agreement {ref}. Your signed copy: {link}",
  },
  application_asked: {
    title: "We need one more thing",
    body: "Our credit team needs one more thing for application {ref}. See what is asked and answer on your dashboard.",
    sms: "{brand}: we need one more thing for your loan application {ref}. See what is asked and answer at {link}",
  },
  application_approved: {
    title: "Your loan is approved",
    body: "Your {product, select, emi {EMI loan} other {salary advance}} of {amount} (application {ref}) is approved. We will send the money to your bank account {account} and tell you the transfer reference.",
    sms: "{brand}: your {product, select, emi {EMI loan} other {salary advance}} of {amount} (application {ref}) is approved. We will send the money to your bank account {account} and SMS you the transfer reference.",
    autopayTitle: "Your loan is approved: set up autopay",
    autopayBody:
      "Your {product, select, emi {EMI loan} other {salary advance}} of {amount} (application {ref}) is approved. We send the money to your bank account {account} as soon as your autopay is active: set it up on your application's page.",
    autopaySms:
      "{brand}: your {product, select, emi {EMI loan} other {salary advance}} of {amount} (application {ref}) is approved. Set up autopay at {link} and we send the money to your bank account {account}.",
    /** The bank account when the application names none. */
    accountOnFile: "on file",
  },
  application_rejected: {
    title: "We could not approve your application",
    body: "We could not approve your loan application {ref}. The reason, in plain words, and when you may apply again are on its status page.",
    sms: "{brand}: we could not approve your loan application {ref}. The reason is at {link}",
  },
  loan_disbursed: {
    title: "{amount} sent to your bank",
    body: "{amount} was sent to your bank account {account}{utr, select, none {} other {, UTR {utr}}}. Loan {loan}: the first instalment of {first} is due on {date}.",
    sms: "{brand}: {amount} sent to your bank account {account}, UTR {utr, select, none {to follow} other {{utr}}}. Loan {loan}: first instalment {first} due on {date}. Details: {link}",
  },
  disbursal_utr: {
    title: "Bank reference of your loan's transfer",
    body: "The transfer of {amount} for loan {loan} has its bank reference now: UTR {utr}.",
    sms: "{brand}: the transfer of {amount} for loan {loan} has its bank reference now: UTR {utr}.",
  },
  disbursal_reversed: {
    title: "Your bank returned the money",
    body: "Your bank returned the {amount} sent to account {account} for loan {loan}. Nothing is due on it; we will contact you before sending it again.",
    sms: "{brand}: your bank returned the {amount} sent to account {account} for loan {loan}. Nothing is due on it; we will contact you before sending it again.",
  },
  revised_kfs: {
    title: "Revised Key Fact Statement",
    body: "The money reached you on a different day than your signed KFS assumed, so the dates or amounts of loan {loan} changed. The revised Key Fact Statement is attached to the e-mail and on the loan's page.",
    sms: "{brand}: the dates or amounts of loan {loan} changed from your signed KFS because of the disbursal date. See the revised KFS at {link}",
  },
  autopay_notice: {
    title: "Autopay will debit {amount} on {date}",
    body: "On {date} your {mandate, select, upi_autopay {UPI AutoPay} other {e-NACH (net banking or debit card)}} mandate will debit {amount} from account {account} for loan {loan}. Keep the amount in that account. To pay another way, use Pay now in the app before then: the debit is then lowered or cancelled.",
    sms: "{brand}: on {date} autopay will debit {amount} from account {account} for loan {loan}. To pay another way before then, use Pay now at {link}",
  },
  autopay_excess: {
    title: "Autopay debited {amount} more than was due",
    body: "The autopay debit of {amount} on {date} for loan {loan} paid an instalment you had already paid. We will refund it to account {account} on {refundOn}. If you would rather keep it as an advance towards your next instalments, choose that on the loan's page before then.",
    sms: "{brand}: autopay debited {amount} on {date} for an instalment of loan {loan} already paid. We will refund it on {refundOn}, or keep it as an advance at {link}",
  },
  dunning_gentle: {
    title: "{amount} overdue on loan {loan}",
    body: '{amount} is overdue on loan {loan}, {dpd} days past its due date. Please pay it with Pay now on the loan\'s page. If you cannot pay now, tell us when you can with "Promise to pay" there, and we will not remind you until then. To complain, call {phone} or write to us at {grievanceLink}.',
    sms: "{brand}: {amount} is overdue on loan {loan}. Pay at {link} or promise a date there. Complaints: {phone}",
  },
  dunning_firm: {
    title: "Loan {loan} is {dpd} days overdue",
    body: "{amount} on loan {loan} is {dpd} days past its due date. Late payment is reported to the credit bureaus and lowers your credit score. Please pay with Pay now on the loan's page today, or promise a date there within 7 days. If you are in hardship or you dispute the amount, reply or call us: we can pause reminders while we talk. To complain, call {phone} or write to us at {grievanceLink}.",
    sms: "{brand}: loan {loan} is {dpd} days overdue with {amount} due. Pay or promise a date at {link}. Complaints: {phone}",
  },
  dunning_letter: {
    title: "Reminder letter: loan {loan} is {dpd} days overdue",
    body: "Our letter about loan {loan} is attached to the e-mail and on the loan's page: {amount} is {dpd} days past its due date. Please pay with Pay now on the loan's page, or promise a date there within 7 days. To complain, call {phone} or write to us at {grievanceLink}.",
    sms: "{brand}: we have sent you a letter about loan {loan}, {dpd} days overdue with {amount} due. Pay at {link}. Complaints: {phone}",
  },
  autopay_bounced: {
    title: "Autopay debit of {amount} was returned",
    body: "Your bank returned the autopay debit of {amount} on {date} for loan {loan} ({reason}). It will not be presented again: pay the amount due with Pay now in the app.",
    sms: "{brand}: your bank returned the autopay debit of {amount} for loan {loan}. Please pay the amount due now at {link}",
    againBody:
      "Your bank returned the autopay debit of {amount} on {date} for loan {loan} ({reason}). We will present {againAmount} once more on {againDate}: keep it in the account, or pay now in the app to avoid more charges.",
    againSms:
      "{brand}: your bank returned the autopay debit of {amount} for loan {loan}. We will present {againAmount} again on {againDate}, or pay now at {link}",
  },
  due_soon: {
    title: "{amount} due on {date}",
    body: "Reminder: {amount} for loan {loan} is due in 3 days, on {date}. Pay in the app, or keep the amount in your account.",
    sms: "{brand}: {amount} for loan {loan} is due on {date}. Pay at {link}",
  },
  due_today: {
    title: "{amount} due today",
    body: "{amount} for loan {loan} is due today, {date}. Pay in the app to stay on time.",
    sms: "{brand}: {amount} for loan {loan} is due today. Pay at {link}",
  },
  payment_received: {
    title: "We received {amount}",
    /** {paid}: what it paid (paid.*), {next}: what comes next (next.*); each a whole sentence or none. */
    body: "We received {amount} for loan {loan} on {date}. {paid} {next}",
    sms: "{brand}: we received {amount} for loan {loan} on {date}. {next}",
    /** What a payment paid: `sentence` around the list of the parts it paid (each part named in `parts`). */
    paid: {
      sentence: "It paid {list}.",
      interest: "{amount} of interest",
      principal: "{amount} of principal",
      penal: "{amount} of penal charges",
      kept: "{amount} is kept for your next instalment.",
      returned: "The processing fee and its GST, {amount}, are returned to you under the cooling-off rule.",
    },
    next: {
      overdue: "Still overdue: {amount}.",
      due: "Next due: {amount} on {date} (loan {loan}).",
      covered: "Your next instalment, {instalment} on {date} (loan {loan}), is already paid by your advance payment.",
      partly: "Next due: {amount} on {date} (loan {loan}); your advance payment pays {covered} of the {instalment} instalment.",
      done: "Thank you.",
    },
  },
  penal_charged: {
    title: "Instalment {seq} is overdue",
    body: "Instalment {seq} of loan {loan}, due on {date}, is unpaid, so a penal charge of {amount} was added as its own line. It earns no interest and is never added to your principal. Pay {due} now to avoid more.",
    sms: "{brand}: instalment {seq} of loan {loan}, due on {date}, is unpaid, so a penal charge of {amount} was added as its own line (it earns no interest). Pay {due} now in the app under Loans to avoid more.",
  },
  loan_closed: {
    title: "Loan {loan} is closed",
    body: "Loan {loan} is fully repaid and closed on {date}. Your no-dues certificate is attached to the e-mail and on the loan's page.",
    sms: "{brand}: loan {loan} is fully repaid and closed on {date}. Your no-dues certificate is in the app under Loans.",
  },
  loan_cancelled: {
    title: "Loan {loan} is cancelled",
    body: "Loan {loan} is cancelled within the cooling-off period on {date}. Nothing more is due. Your letter is attached to the e-mail and on the loan's page.",
    sms: "{brand}: loan {loan} is cancelled within the cooling-off period on {date}. Nothing more is due. Your letter is in the app under Loans.",
  },
  loan_reopened: {
    title: "Loan {loan} is open again",
    body: "A payment on loan {loan} was reversed, so the loan is open again and its no-dues certificate is withdrawn. See what is due on the loan's page.",
    sms: "{brand}: a payment on loan {loan} was reversed, so the loan is open again and its no-dues certificate is withdrawn. See what is due in the app under Loans.",
  },
  refund_processed: {
    title: "{amount} refunded",
    body: "{amount} paid over what was due on loan {loan} was refunded to your bank account {account}{utr, select, none {} other {, UTR {utr}}}.",
    sms: "{brand}: {amount} paid over what was due on loan {loan} was refunded to your bank account {account}{utr, select, none {} other {, UTR {utr}}}.",
  },
  staff_notice: {
    /** The one fixed SMS of an urgent staff notice (free text cannot go by SMS under DLT). */
    sms: "You have a new message from {brand}. Open the app to read it.",
  },
  ticket_raised: {
    title: "We have your ticket {ref}",
    body: "Your ticket {ref} is with our support team. We answer within {days} days, usually within two working days; quote {ref} if you call us.",
    sms: "{brand}: we have your ticket {ref}. We answer within {days} days; quote {ref} if you call us. Follow it at {link}",
  },
  ticket_answered: {
    title: "We answered your ticket {ref}",
    body: "Our support team answered your ticket {ref}. Read the answer and reply from Help.",
    resolvedTitle: "Ticket {ref} is resolved",
    resolvedBody: "We answered your ticket {ref} and marked it resolved. If it is not solved, you can reopen it within 7 days from Help.",
    sms: "{brand}: we answered your ticket {ref}. Read it at {link}",
  },
  data_request_received: {
    title: "We have your request {ref}",
    correctionBody: "We have your request {ref} to correct your data. We answer by {date}; follow it on the privacy page of your profile.",
    correctionSms: "{brand}: we have your request {ref} to correct your data. We answer by {date}. Follow it at {link}",
    erasureBody:
      "We have your request {ref} to erase your data. We answer by {date} and tell you what we erased and what the law makes us keep.",
    erasureSms: "{brand}: we have your request {ref} to erase your data. We answer by {date}. Follow it at {link}",
  },
  data_request_answered: {
    title: "We answered your request {ref}",
    doneBody: "We have done what you asked in request {ref}. Read our answer on the privacy page of your profile.",
    notDoneBody: "We could not do all you asked in request {ref}. Read our answer and why on the privacy page of your profile.",
    sms: "{brand}: we answered your request {ref}. Read the answer at {link}",
  },
  credit_report_ready: {
    title: "Your credit check has its answer",
    body: "We have the answer to the credit check for your offer. See what we can offer you: your answers are saved.",
    sms: "{brand}: we have the answer to the credit check for your offer. See what we can offer you at {link}",
  },
  application_returned: {
    title: "Your application needs a fresh signature",
    lessBody:
      "Under our lending policy we can now lend you at most {amount} on application {ref}, less than you signed for. Choose the amount again and sign the new Key Fact Statement; nothing else is lost.",
    noneBody: "Under our lending policy we cannot now lend the amount you signed for on application {ref}. Open it to see why.",
    sms: "{brand}: your loan application {ref} needs a fresh signature: the amount we can lend has changed. Choose it again at {link}",
  },
  bureau_reported: {
    /** {bureaus}: the credit bureaus' names, listed. */
    settledTitle: "Loan {loan} reported to the credit bureaus as settled",
    settledBody:
      "As the law requires, we reported to the credit bureaus ({bureaus}) that loan {loan} was settled after being written off, as at {date}: we accepted less than was owed. If you think what we reported is wrong, raise a dispute under Help: we answer it within 21 days.",
    settledSms:
      "{brand}: as at {date} we reported loan {loan} to the credit bureaus as settled after write-off. To dispute it: {disputeLink}",
    writtenOffTitle: "Loan {loan} reported to the credit bureaus as written off",
    writtenOffBody:
      "As the law requires, we reported to the credit bureaus ({bureaus}) that loan {loan} was written off as at {date}. It is still owed: paying it, or settling it with us, is reported too. If you think what we reported is wrong, raise a dispute under Help: we answer it within 21 days.",
    writtenOffSms:
      "{brand}: as at {date} we reported loan {loan} to the credit bureaus as written off. To pay or settle it see {link}. To dispute it: {disputeLink}",
    pastDueTitle: "Loan {loan} reported to the credit bureaus as {dpd} days past due",
    pastDueBody:
      "As the law requires, we reported to the credit bureaus ({bureaus}) that loan {loan} was {dpd} days past due, with {amount} overdue, as at {date}. This can lower your credit score. Pay the overdue amount with Pay now on the loan's page and the next report shows it. If you think what we reported is wrong, raise a dispute under Help: we answer it within 21 days.",
    pastDueSms:
      "{brand}: as at {date} we reported loan {loan} to the credit bureaus as {dpd} days past due with {amount} overdue. Pay at {link}. To dispute it: {disputeLink}",
  },
  /**
   * The notice to a borrower affected by a personal data breach (DPDP Rules, 2025, rule 7(1)), whole;
   * staff's words ({description}, {consequences}, {mitigation}, {steps}) as they typed them. The
   * staff page shows this draft in both languages (app/domain/privacy/breach-drafts.ts).
   */
  data_breach: {
    title: "A personal data breach may affect you",
    body: "On {discovered}, {lender}, which runs {brand}, became aware of a breach of personal data that includes your data. What happened: {description} When it happened: {occurred}. The personal data involved: {items}.\n\nWhat this may mean for you: {consequences}\n\nWhat we have done and are doing: {mitigation}\n\nWhat you can do to protect yourself: {steps}\n\nIf you have any question, contact {contactName}, our grievance officer, on {contactPhone} or at {contactEmail}, and quote the reference {reference}. We never ask for your OTP, PIN or password.",
    sms: "{brand}: a personal data breach may have affected your data. What happened and what you can do: {link} Questions: {contactPhone}, quote {reference}.",
    notKnown: "not known yet",
  },
  /** The e-mail around a notice's text. */
  email: {
    subject: "{brand}: {title}",
    greeting: "Dear borrower,",
    open: "Open it in the app: {link}",
    sender: "{brand}, a service of {lender}.",
    grievance: "Grievance officer: {name}, {phone}, {email}.",
    why: "You get this e-mail because you gave us this address for your loan. We never ask for your OTP or PIN.",
  },
  /** The one-time sign-in code's SMS, in the language of the page that asked for it. */
  signInCode: {
    sms: "{code} is your {brand} sign-in code. It is valid for {minutes} minutes. Never share it with anyone.",
  },
  /** The one-time code to sign a loan agreement (the sign-in code's DLT template: the same kind of message). */
  signingCode: {
    sms: "{code} is your code to sign your {brand} loan agreement {ref}. Valid {minutes} minutes. Do not share it.",
  },
  /** The e-mails of a ticket raised through the contact form (no account: the language of the page it was raised on). */
  ticketEmail: {
    greeting: "Dear {name},",
    greetingNoName: "Dear customer,",
    acknowledgement:
      "We have your message. Its reference is {ref}: quote it if you write or call us. We reply within two working days, and in any case within {days} days.",
    update: "An update on your message {ref}:",
    reply: "Our reply to your message {ref}:",
    again: "To write to us again, use the contact form at {link} and quote {ref}.",
    sender: "{brand}, a service of {lender}.",
    grievance: "Grievance officer: {name}, {phone}, {email}.",
    never: "We never ask for your OTP or PIN.",
    acknowledgementSubject: "{brand}: we have your message {ref}",
    replySubject: "{brand}: reply to your message {ref}",
  },
};
