// The servicing PDFs of a loan (app/server/pdf/servicing-pdf.server.ts), in the borrower's language:
// the repayment schedule, the statement of account, the closure letter and the collections reminder
// letter. Amounts and dates come formatted; the figures are the same in every language.
export default {
  header: "{lender} · {brand} · Loan {loan}",
  generated: "Generated {at}",
  terms: {
    emi: "{rate} a year, reducing balance, {count} monthly instalments",
    advance: "{rate} a day on the principal, repaid in one payment",
  },
  label: {
    borrower: "Borrower",
    loan: "Loan",
    amountLent: "Amount lent",
    terms: "Terms",
    disbursedOn: "Disbursed on",
    outstanding: "Principal outstanding",
    overdue: "Overdue instalments",
    penalDue: "Penal charges due",
    advance: "Advance payment held",
    closedOn: "Closed on",
    totalPaid: "Total paid",
    costOfDays: "Of which the cost for the days used",
    interestPaid: "Of which interest",
    feeReturned: "Processing fee and GST returned",
    penalPaid: "Of which penal charges",
    refund: "Paid over what was due, refunded to your bank account",
  },
  loanName: "{kind} {loan}",
  lenderFooter: "{name}, {address}. RBI registration {registration}, CIN {cin}. Grievance officer: {officer}, {phone}, {email}.",
  page: "Page {page} of {pages}",
  schedule: {
    title: "Repayment schedule",
    asOn: "As on {date}",
    instalments: "Instalments",
    columns: { seq: "#", dueOn: "Due on", principal: "Principal", interest: "Interest", amount: "Amount", paid: "Paid", status: "Status" },
    note: "Amounts in rupees. A penal charge, if any, is shown on the statement of account as its own line; it never earns interest.",
    footer: "{brand} · Repayment schedule",
  },
  statement: {
    title: "Statement of account",
    period: "{from} to {to}",
    explain:
      "Debit: charged to you. Credit: paid by you or credited to you. Balance: what you owe after the entry for what has been lent or has fallen due (interest of instalments not yet due is not in it); a minus sign is owed to you.",
    columns: { date: "Date", description: "Description", debit: "Debit", credit: "Credit", balance: "Balance" },
    opening: "Opening balance",
    closing: "Closing balance",
    empty: "No entries in this period.",
    atEnd: "The loan at the end of {date}",
    footer: "{brand} · Statement of account",
  },
  closure: {
    coolingTitle: "Loan cancelled in the cooling-off period",
    noDuesTitle: "No-dues certificate",
    coolingHeading: "Cancellation",
    noDuesHeading: "Certificate",
    cooling:
      "This confirms that {name} cancelled loan {loan} within the cooling-off period on {date}, with no penalty. Nothing more is due on this loan.",
    repaid: "This certifies that {name} has repaid loan {loan} in full and that nothing is due on it. The loan was closed on {date}.",
    foreclosed:
      "This certifies that {name} has repaid loan {loan} in full and that nothing is due on it. The loan was closed on {date}, before its last due date, with no foreclosure charge.",
    rule: "The rule of your Key Fact Statement and agreement: {rule}",
    coolingFooter: "{brand} · Cooling-off cancellation letter",
    noDuesFooter: "{brand} · No-dues certificate",
  },
  letter: {
    for: "For {lender}",
    electronic: "This letter is issued electronically and needs no signature.",
  },
  reminder: {
    title: "Reminder: payment overdue",
    heading: "Reminder",
    overdue: "Dear {name}, on {date} {amount} was overdue on loan {loan}, {days} days past its due date.",
    pay: "Please pay it with Pay now on the loan's page, {link}, or by bank transfer quoting the loan number. If you cannot pay it all now, promise a date within 7 days on the same page and we will not remind you until then.",
    credit:
      "Late payment is reported to the credit information companies and lowers your credit score. If you are in hardship or you dispute the amount, tell us: we can pause reminders while we talk. We contact you only between 08:00 and 19:00.",
    complain:
      "To complain, write to us at {link} or to our grievance officer, {officer}, {phone}, {email}. If we do not answer within 30 days, you may complain to the RBI Ombudsman at {ombudsman}.",
    footer: "{brand} · Reminder letter",
  },
};
