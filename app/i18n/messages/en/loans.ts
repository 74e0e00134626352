// The borrower's loans: the lists (/User/Loans, /User/Loans/Emi, /User/Loans/SalaryAdvance) and a
// loan's own page, its record (summary, schedule, payments, penal charges, documents, statement).
// Paying, the payoff and the promise to pay are in ./loan-pay.ts, autopay in ./loan-autopay.ts.
// Staff pages read app/domain's English words; these are the borrower's. Hindi in ../hi/loans.ts.
export default {
  lists: {
    all: {
      title: "Your loans",
      none: "You have no loans yet. When a loan is disbursed it shows here, with what is due and when.",
    },
    emi: {
      title: "Your EMI loans",
      none: "You have no EMI loans yet. When one is disbursed it shows here, with what is due and when.",
    },
    salary_advance: {
      title: "Your salary advances",
      none: "You have no salary advances yet. When one is disbursed it shows here, with what is due and when.",
    },
  },
  allLoans: "All your loans",
  goToDashboard: "Go to your dashboard",
  /** A loan by its kind and number, as a link or a page title. */
  kindNumber: "{kind, select, emi {EMI loan} other {Salary advance}} {loanNumber}",
  /** The loan page's heading: the number in a monospaced font. */
  heading: "{kind, select, emi {EMI loan} other {Salary advance}} <mono>{loanNumber}</mono>",
  /** A loan's or an application's status, as the borrower reads it. */
  status: {
    draft: "Draft",
    signed: "Signed, waiting for review",
    under_review: "Under review",
    approved: "Approved",
    active: "Active",
    closed: "Closed",
    rejected: "Not approved",
    cancelled: "Cancelled",
    written_off: "Written off",
  },
  figures: {
    borrowed: "Borrowed",
    outstanding: "Principal outstanding",
    nextDue: "Next due",
    overdue: "Overdue",
    penalDue: "Penal charges due",
    advance: "Advance payment held",
  },
  overdueNothing: "Nothing",
  overdueLate: "{amount}, {days, plural, one {# day late} other {# days late}}",
  /** The next instalment: what is left to pay and when, after the advance payment held. */
  nextDue: {
    none: "Nothing",
    due: "{amount} on {date}",
    covered: "Nothing: the {instalment} due on {date} is paid by your advance payment",
    partlyCovered: "{amount} on {date} (your advance payment pays {covered} of the {instalment} instalment)",
  },
  applications: {
    heading: "Applications",
    kind: "{kind, select, emi {EMI loan} other {Salary advance}}",
    kindAmount: "{kind, select, emi {EMI loan} other {Salary advance}} {amount}",
    waiting: "Waiting for you: the credit officer asked you for something. Open it to see what.",
    open: "Open",
  },
  summary: {
    heading: "Summary",
    overdue: "{amount} is overdue, {days, plural, one {# day} other {# days}} past the due date. Pay it now to stop further charges.",
    overdueWithPenal:
      "{amount} is overdue, {days, plural, one {# day} other {# days}} past the due date. Penal charges of {penal} are also due. Pay it now to stop further charges.",
    cancelledInCoolingOff: "Cancelled within the cooling-off period on {date}.",
    repaid: "Fully repaid and closed on {date}.",
    refundDue: "{amount} paid over what was due will be refunded to your bank account.",
    disbursed: "Disbursed {date}.",
    termsEmi: "{rate}% a year, {count, plural, one {# monthly instalment} other {# monthly instalments}}.",
    termsSalaryAdvance: "{rate}% a day, repaid in one payment.",
  },
  schedule: {
    heading: "Repayment schedule",
    number: "#",
    dueOn: "Due on",
    amount: "Amount",
    status: "Status",
    instalmentStatus: {
      upcoming: "Upcoming",
      due: "Due",
      debit_in_progress: "Autopay debit in progress",
      paid: "Paid",
      partly_paid: "Part paid, overdue",
      overdue: "Overdue",
      closed_early: "Closed early",
    },
    partPaid: "{amount} paid",
    covered: "Paid by your advance payment on its due date",
    partlyCovered: "{amount} of it paid by your advance payment on its due date",
  },
  payments: {
    heading: "Payments",
    none: "No payments yet.",
    /** How an offline or autopay payment came in (NEFT, UPI… are kept as they are). */
    mode: "{mode, select, cheque {cheque} cash {cash} autopay {autopay} other {{mode}}}",
    status: {
      captured: "Received",
      pending: "Waiting for the bank",
      held: "Being checked by our team",
      failed: "Failed, nothing was taken",
      cancelled: "Stopped",
      reversed: "Reversed",
      created: "Started",
    },
    advanceKept: "{amount} kept for the next instalments",
  },
  penals: {
    heading: "Penal charges",
    none: "None. A charge of {amount} applies only if an instalment is missed; it never earns interest.",
    line: "Penal charge for instalment {seq}, {date}",
    status: {
      unpaid: "unpaid",
      part_paid: "partly paid",
      paid: "paid",
      waived: "waived",
      reversed: "reversed (paid on time)",
    },
  },
  help: {
    heading: "A question or a problem with this loan?",
    body: "Raise a ticket about it: you get a reference at once and an answer within 30 days, usually within two working days.",
    raise: "Raise a ticket about loan {loanNumber}",
  },
  documents: {
    heading: "Documents",
    agreement: "Key Fact Statement and signed agreement (PDF)",
    revisedKfs: "Revised Key Fact Statement (PDF)",
    schedule: "Repayment schedule (PDF)",
    reminderLetter: "Reminder letter of {date} (PDF)",
    cancellationLetter: "Cancellation letter (PDF)",
    noDues: "No-dues certificate (PDF)",
    statement: "Statement of account",
    from: "From",
    to: "To",
    download: "Download (PDF)",
  },
  errors: {
    statementDates: "Choose both dates.",
    statementRange: "Choose dates from the disbursal to today, the first on or before the second.",
  },
} as const;
