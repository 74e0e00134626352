/**
 * The servicing PDFs (docs/product.md "Loan servicing"): the repayment schedule with what is paid,
 * the statement of account for a date range, and the closure letter (the no-dues certificate, or
 * the cooling-off cancellation letter). Every figure comes from the ledger's replay.
 */
import type { LenderIdentity } from "../../domain/lender.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import { INSTALMENT_STATUS_LABEL, type LoanState } from "../../domain/loans/servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import { MUTED, newDocument, Writer } from "./pdf.server.ts";
import { coolingOffRule } from "../../domain/loans/cooling-off.ts";
import type { Statement } from "../../domain/loans/statement.ts";

export interface LoanFacts {
  brandName: string;
  lender: LenderIdentity;
  borrowerName: string;
  loanNumber: string;
  kindName: string;
  principalPaise: number;
  /** "18.00% a year, 12 monthly instalments" */
  termsText: string;
  disbursalDate: IsoDate;
}

const rs = (paise: number) => formatRupees(paise).replace("₹", "₹ ");

async function start(f: LoanFacts, title: string, at: Date) {
  const { doc, regular, bold } = await newDocument(`${title} ${f.loanNumber}`, at);
  doc.setAuthor(f.lender.name);
  const w = new Writer(doc, regular, bold, `${f.lender.name} · ${f.brandName} · Loan ${f.loanNumber}`);
  w.text(title, { size: 16, font: bold, gap: 2 });
  w.text(`Generated ${formatDateTimeIST(at)}`, { size: 9, color: MUTED, gap: 8 });
  w.rows([
    ["Borrower", f.borrowerName],
    ["Loan", `${f.kindName} ${f.loanNumber}`],
    ["Amount lent", rs(f.principalPaise)],
    ["Terms", f.termsText],
    ["Disbursed on", longDate(f.disbursalDate)],
  ]);
  return { doc, w };
}

function lenderFooter(w: Writer, f: LoanFacts) {
  const g = f.lender.grievanceOfficer;
  w.text(
    `${f.lender.name}, ${f.lender.address}. RBI registration ${f.lender.rbiRegistration}, CIN ${f.lender.cin}. Grievance officer: ${g.name}, ${g.phone}, ${g.email}.`,
    { size: 8, color: MUTED },
  );
}

function figures(state: LoanState): [string, string][] {
  return [
    ["Principal outstanding", rs(state.outstandingPrincipalPaise)],
    ["Overdue instalments", rs(state.overduePaise)],
    ["Penal charges due", rs(state.penalDuePaise)],
    ["Advance payment held", rs(state.advancePaise)],
  ];
}

export async function renderSchedulePdf(f: LoanFacts, state: LoanState, at: Date): Promise<Uint8Array> {
  const { doc, w } = await start(f, "Repayment schedule", at);
  w.heading(`As on ${longDate(state.asOf)}`);
  w.rows(figures(state));
  w.heading("Instalments");
  w.table(
    ["#", "Due on", "Principal", "Interest", "Amount", "Paid", "Status"],
    state.instalments.map((r) => [
      String(r.seq),
      longDate(r.dueDate),
      r.status === "closed_early" ? "—" : rs(r.principalPaise),
      r.status === "closed_early" ? "—" : rs(r.interestPaise),
      r.status === "closed_early" ? "—" : rs(r.principalPaise + r.interestPaise),
      rs(r.paidPrincipalPaise + r.paidInterestPaise),
      INSTALMENT_STATUS_LABEL[r.status],
    ]),
  );
  w.text("Amounts in rupees. A penal charge, if any, is shown on the statement of account as its own line; it never earns interest.", {
    size: 8.5,
    color: MUTED,
  });
  lenderFooter(w, f);
  w.footers(`${f.brandName} · Repayment schedule`);
  return doc.save();
}

/**
 * The statement of account: date, what each entry was, debit, credit and the balance after it,
 * between an opening and a closing balance the entries tie (`buildStatement`); the loan's figures at
 * the end of the period below it.
 */
export async function renderStatementPdf(f: LoanFacts, statement: Statement, closing: LoanState, at: Date): Promise<Uint8Array> {
  const { doc, w } = await start(f, "Statement of account", at);
  w.heading(`${longDate(statement.from)} to ${longDate(statement.to)}`);
  w.text(
    "Debit: charged to you. Credit: paid by you or credited to you. Balance: what you owe after the entry for what has been lent or has fallen due (interest of instalments not yet due is not in it); a minus sign is owed to you.",
    { size: 8.5, color: MUTED, gap: 6 },
  );
  const balance = (paise: number) => (paise < 0 ? `−${rs(-paise)}` : rs(paise));
  w.table(
    ["Date", "Description", "Debit", "Credit", "Balance"],
    [
      [longDate(statement.from), "Opening balance", "", "", balance(statement.openingPaise)],
      ...statement.lines.map((l) => [
        longDate(l.date),
        l.text,
        l.debitPaise ? rs(l.debitPaise) : "",
        l.creditPaise ? rs(l.creditPaise) : "",
        balance(l.balancePaise),
      ]),
      [longDate(statement.to), "Closing balance", "", "", balance(statement.closingPaise)],
    ],
    { widths: [0.15, 0.43, 0.14, 0.14, 0.14], align: ["left", "left", "right", "right", "right"] },
  );
  if (statement.lines.length === 0) w.text("No entries in this period.");
  w.heading(`The loan at the end of ${longDate(statement.to)}`);
  w.rows(figures(closing));
  lenderFooter(w, f);
  w.footers(`${f.brandName} · Statement of account`);
  return doc.save();
}

/** The no-dues certificate of a closed loan, or the letter confirming a cooling-off exit. */
export async function renderClosureLetterPdf(
  f: LoanFacts,
  closure: {
    on: IsoDate;
    how: "repaid" | "foreclosed" | "cooling_off";
    totalPaidPaise: number;
    interestPaidPaise: number;
    penalPaidPaise: number;
    refundPaise: number;
    /** A cooling-off exit: the period, and the processing fee and GST returned. */
    coolingOffDays: number;
    feeReturnedPaise: number;
  },
  at: Date,
): Promise<Uint8Array> {
  const cooling = closure.how === "cooling_off";
  const { doc, w } = await start(f, cooling ? "Loan cancelled in the cooling-off period" : "No-dues certificate", at);
  w.heading(cooling ? "Cancellation" : "Certificate");
  w.text(
    cooling
      ? `This confirms that ${f.borrowerName} cancelled loan ${f.loanNumber} within the cooling-off period on ${longDate(closure.on)}, with no penalty. Nothing more is due on this loan.`
      : `This certifies that ${f.borrowerName} has repaid loan ${f.loanNumber} in full and that nothing is due on it. The loan was closed on ${longDate(closure.on)}${closure.how === "foreclosed" ? ", before its last due date, with no foreclosure charge" : ""}.`,
    { gap: 8 },
  );
  if (cooling) w.text(`The rule of your Key Fact Statement and agreement: ${coolingOffRule(closure.coolingOffDays)}`, { gap: 8 });
  w.rows([
    ["Amount lent", rs(f.principalPaise)],
    ["Disbursed on", longDate(f.disbursalDate)],
    ["Closed on", longDate(closure.on)],
    ["Total paid", rs(closure.totalPaidPaise)],
    [cooling ? "Of which the cost for the days used" : "Of which interest", rs(closure.interestPaidPaise)],
    ...(cooling ? ([["Processing fee and GST returned", rs(closure.feeReturnedPaise)]] as [string, string][]) : []),
    ["Of which penal charges", rs(closure.penalPaidPaise)],
    ...(closure.refundPaise > 0
      ? ([["Paid over what was due, refunded to your bank account", rs(closure.refundPaise)]] as [string, string][])
      : []),
  ]);
  w.text(`For ${f.lender.name}`, { gap: 2 });
  w.text("This letter is issued electronically and needs no signature.", { size: 8.5, color: MUTED });
  lenderFooter(w, f);
  w.footers(`${f.brandName} · ${cooling ? "Cooling-off cancellation letter" : "No-dues certificate"}`);
  return doc.save();
}

/**
 * The collections reminder letter (docs/product.md "Collections"): what is overdue and for how long
 * on the day it was sent, how to pay, how to promise a date, and how to complain.
 */
export async function renderReminderLetterPdf(
  f: LoanFacts,
  letter: { sentOn: IsoDate; dpd: number; amountPaise: number; payLink: string; grievanceLink: string },
  at: Date,
): Promise<Uint8Array> {
  const { doc, w } = await start(f, "Reminder: payment overdue", at);
  w.heading("Reminder");
  w.text(
    `Dear ${f.borrowerName}, on ${longDate(letter.sentOn)} ${rs(letter.amountPaise)} was overdue on loan ${f.loanNumber}, ${letter.dpd} days past its due date.`,
    { gap: 6 },
  );
  w.text(
    `Please pay it with Pay now on the loan's page, ${letter.payLink}, or by bank transfer quoting the loan number. If you cannot pay it all now, promise a date within 7 days on the same page and we will not remind you until then.`,
    { gap: 6 },
  );
  w.text(
    "Late payment is reported to the credit information companies and lowers your credit score. If you are in hardship or you dispute the amount, tell us: we can pause reminders while we talk. We contact you only between 08:00 and 19:00.",
    { gap: 6 },
  );
  w.text(
    `To complain, write to us at ${letter.grievanceLink} or to our grievance officer, ${f.lender.grievanceOfficer.name}, ${f.lender.grievanceOfficer.phone}, ${f.lender.grievanceOfficer.email}. If we do not answer within 30 days, you may complain to the RBI Ombudsman at cms.rbi.org.in.`,
    { gap: 8 },
  );
  w.text(`For ${f.lender.name}`, { gap: 2 });
  w.text("This letter is issued electronically and needs no signature.", { size: 8.5, color: MUTED });
  lenderFooter(w, f);
  w.footers(`${f.brandName} · Reminder letter`);
  return doc.save();
}
