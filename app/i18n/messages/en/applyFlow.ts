// The parts every loan application's page shares (app/components/loan-flow.tsx, credit-check.tsx):
// the steps' frame and cancel, the status and what happens next, the timeline, the disbursal, the
// details and the credit check an offer needs, and the credit policy's reasons as the borrower
// reads them. The new-loan steps, the quick start's offer, the dashboard and the outcome page load
// this namespace. Staff pages read app/domain's English words. Hindi in ../hi/applyFlow.ts.
export default {
  kind: "{kind, select, emi {EMI loan} other {Salary advance}}",
  application: "{kind, select, emi {EMI loan} other {Salary advance}} application <mono>{reference}</mono>",
  nav: "Application steps",
  progress: "Step {number} of {count}",
  steps: {
    Step0: "Amount and tenure",
    Step1: "Purpose and bank account",
    Step5: "Key Fact Statement and agreement",
    Step6: "Accept and sign",
    Step7: "Submitted",
  },
  stepDone: "(done)",
  stepNotDone: "(not done)",
  cancel: {
    title: "Cancel this {kind, select, emi {EMI loan} other {salary advance}} application?",
    description: "It cannot be restarted; you can begin a new application at any time.",
    confirm: "Cancel application",
    keep: "Keep it",
    button: "Cancel this application",
    done: "Your application is cancelled.",
    inFlight: "The money is already on its way to your bank account.",
    inFlightMore:
      "This application cannot be cancelled while the transfer is in progress. Once it arrives you may still exit within the cooling-off period.",
    tooLate: "This application can no longer be cancelled here.",
    tooLateMore: "Contact us if you need help.",
  },
  /** "Status: Under review" (the status's words are loans.status). */
  statusLine: "Status: <strong>{status}</strong>",
  statusNext: {
    draft: "Finish the steps and sign the Key Fact Statement and agreement to submit your application.",
    signed:
      "Our credit team will check your KYC details, documents, selfie and bank account. We will send you an SMS when it is approved or if we need anything from you. Nothing is approved yet.",
    under_review: "A credit officer is checking your application. We will send you an SMS with the decision.",
    approved:
      "Your loan is approved. The money will be sent to your verified bank account; we will send you an SMS with the transfer reference.",
    active: "Your loan is disbursed. Pay each instalment by its due date.",
    closed: "Everything is repaid. Your closure letter (NOC) is available.",
    rejected: "We could not approve this application.",
    cancelled: "This application was cancelled. You can start a new one at any time.",
    written_off: "Please contact us about this loan.",
  },
  disbursal: {
    onWay:
      "The money is on its way to your bank account {account}: {amount}. We will send you an SMS with the transfer reference when your bank confirms it.",
    sent: "{amount} sent to your bank account {account}.",
    sentOn: "{amount} sent to your bank account {account} on {date}.",
    loanNumber: "Loan number",
    utr: "Transfer reference (UTR)",
    firstInstalment: "First instalment",
    firstDue: "{amount} on {date}",
    revised: "The dates changed from the Key Fact Statement you signed, because the money was sent on a different day.",
    revisedLink: "Download the revised Key Fact Statement (PDF)",
  },
  missing: {
    heading: "We need a few details to make you an offer",
    /** Where a missing fact is given: the profile's section. */
    section: {
      dateOfBirth: "Profile",
      employment: "Employment",
      existingEmis: "Employment",
    },
    what: {
      dateOfBirth: "your date of birth and PAN",
      employment: "your work, income and existing EMIs",
      existingEmis: "your existing EMIs",
    },
    item: "<link>{label}</link>: {what}",
  },
  pdf: {
    previewAlt: "First page of the {title}",
    caption: "The first page. Open the PDF to read every page.",
  },
  creditCheck: {
    waitingHeading: "We are waiting for the credit bureau",
    waiting:
      "The credit bureau has not answered yet, so we cannot make you an offer at this moment. We will send you an SMS as soon as its answer is in. Your answers are saved: come back to this page from the SMS.",
    lookAgain: "Look again",
    failedHeading: "Let us try the credit check again",
    failed: "The credit bureau did not answer our last request. With your consent we will ask it again now.",
    askHeading: "One check before your offer",
    ask: "To make you an offer we verify your PAN and look at your credit history with a credit bureau. We need your consent for it.",
    button: "Check my credit history",
    slow: "The credit bureau is slow to answer",
    slowMore: "We will send you an SMS as soon as it does. Your answers are saved.",
    withdrawn: "Your consent for the credit check was withdrawn.",
    identityFirst: "Give your name, date of birth and PAN first.",
    done: "Thank you: the check is done.",
  },
  timeline: {
    label: "The steps of your application",
    mark: {
      done: "Done",
      now: "Now",
      waiting_for_you: "Waiting for you",
      todo: "To come",
      stopped: "Ended",
    },
    signedOn: "You signed on {date}",
    sign: "You sign the Key Fact Statement and agreement",
    reviewed: "Reviewed by a credit officer",
    approvedOn: "Approved on {date}",
    approved: "Approved",
    askedYou: "A credit officer has asked you for something (see below)",
    waitingReview: "Waiting for a credit officer to review it",
    reviewing: "A credit officer is reviewing it",
    decision: "Decision",
    moneySent: "Money sent to your bank account",
    moneySentOn: "Money sent to your bank account on {date}",
    moneyOnWay: "The money is on its way to your bank account",
    autopayFirst: "Set up autopay (see below): the money is sent once it is active",
    notApprovedOn: "Not approved on {date}",
    notApproved: "Not approved",
    cancelled: "Cancelled",
    next: {
      yourTurn: "Next it is your turn: answer the credit officer's request. The review goes on as soon as you have.",
      decideBy: "Next a credit officer decides, by the end of {date}. We send you an SMS either way.",
      decide: "Next a credit officer decides. We send you an SMS either way.",
      autopay: "Next it is your turn: set up autopay below. We send the money as soon as your bank confirms it.",
      onWayBy:
        "The money is on its way to your bank account and arrives by the end of {date}. We send you an SMS with the bank's reference.",
      payBy: "Next we send the money to your bank account, by the end of {date}. We send you an SMS with the bank's reference.",
      pay: "Next we send the money to your bank account. We send you an SMS with the bank's reference.",
    },
  },
  /** The credit policy's reasons for no offer, as the borrower reads them (app/domain/credit-policy/words.ts). */
  reasons: {
    panMissing: "We need to verify your PAN before we can make you an offer.",
    panNotIndividual: "The PAN in your profile is not an individual's PAN. Give your own PAN in your profile.",
    panNameMismatch: "The name or date of birth on your PAN record does not match your profile. Check them in your profile.",
    panNotFound: "We could not find your PAN in the Income Tax Department's records. Check the PAN in your profile.",
    bureau: "We need to check your credit history with a credit bureau before we can make you an offer.",
    age: "You must be between {min} and {max} years old to borrow; you are {age}.",
    income: "Your net monthly income of {income} is below the minimum of {min}.",
    salaried: "A salary advance is only for salaried people, as it is repaid from your salary.",
    salaryDay: "Tell us the day of the month your salary arrives, so we can set the repayment date.",
    overdueAmount: "You have {amount} overdue on your loans with us. Pay it first: a new loan opens once your loans are up to date.",
    overdue: "A loan of yours with us has an instalment past its due date. Pay it first: a new loan opens once your loans are up to date.",
    writtenOff: "A loan of yours with us was written off, so we cannot offer you a new loan. Contact us if you think this is wrong.",
    delinquency:
      "Your credit history shows a loan written off or unpaid for more than 90 days in the last 12 months, so we cannot offer you a loan now.",
    recentRejection: "We could not approve your last application. You can apply again from {date}.",
    activeLoan:
      "You already have a loan with us (or an application not yet paid out), the most we lend at one time. You can apply again when it is repaid.",
    activeLoans:
      "You already have {count} loans with us (counting applications not yet paid out), the most we lend at one time. You can apply again when one is repaid.",
    score: "Your credit history does not meet our lending policy at present.",
    obligationsAdvance:
      "Your EMIs of {amount} a month, counting your loans with us and those in your credit report, are more than {share} of your income.",
    obligationsFull:
      "Your EMIs of {amount} a month, counting your loans with us and those in your credit report, already take {share} or more of your income, the most we allow for all EMIs together.",
    obligationsSmallest:
      "Even the smallest loan of {min} over {months} months would take your EMIs above {share} of your income. A longer tenure may help.",
    exposure:
      "You owe {used} of principal on your loans with us (and applications not yet paid out). With a new loan of at least {min} that would pass {max}, the most we lend to one person.",
    noHistory: "Without a credit history we can lend at most {max} at first, which is below the smallest amount of this loan.",
    salaryCap: "{share} of your salary is below the smallest salary advance of {min}.",
  },
  obligationsNote:
    "We count the {amount} a month of EMIs you already pay, your loans with us and those in your credit report included: all your EMIs together may take at most {share} of your income.",
} as const;
