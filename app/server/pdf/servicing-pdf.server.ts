/**
 * The servicing PDFs (docs/product.md "Loan servicing"): the repayment schedule with what is paid,
 * the statement of account for a date range, and the closure letter (the no-dues certificate, or
 * the cooling-off cancellation letter), in the borrower's language (the `loanPdf` namespace; Hindi
 * shaped as the KFS is). Every figure comes from the ledger's replay.
 */
import type { LenderIdentity } from "../../domain/lender.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import { formatDateTimeIST, longDate } from "../../domain/india-date.ts";
import type { LoanState } from "../../domain/loans/servicing.ts";
import { formatRupees } from "../../domain/money.ts";
import type { Language } from "../../i18n/languages.ts";
import { plainTranslator } from "../../i18n/plain-format.ts";
import { MUTED, newDocument, Writer } from "./pdf.server.ts";
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
  /** The borrower's language (`users.language`): the document is written in it. */
  language: Language;
}

const rs = (paise: number) => formatRupees(paise).replace("₹", "₹ ");

type Words = ReturnType<typeof plainTranslator<"loanPdf">>;

async function start(f: LoanFacts, title: (t: Words) => string, at: Date) {
  const t = plainTranslator(f.language, "loanPdf");
  const date = (d: IsoDate) => longDate(d, f.language);
  const heading = title(t);
  const { doc, regular, bold, leading, finish } = await newDocument(`${heading} ${f.loanNumber}`, at, f.language);
  doc.setAuthor(f.lender.name);
  const w = new Writer(doc, regular, bold, t("header", { lender: f.lender.name, brand: f.brandName, loan: f.loanNumber }), {
    leading,
    pageLabel: (page, pages) => t("page", { page, pages }),
  });
  w.text(heading, { size: 16, font: bold, gap: 2 });
  w.text(t("generated", { at: formatDateTimeIST(at, f.language) }), { size: 9, color: MUTED, gap: 8 });
  w.rows([
    [t("label.borrower"), f.borrowerName],
    [t("label.loan"), t("loanName", { kind: f.kindName, loan: f.loanNumber })],
    [t("label.amountLent"), rs(f.principalPaise)],
    [t("label.terms"), f.termsText],
    [t("label.disbursedOn"), date(f.disbursalDate)],
  ]);
  const save = () => {
    finish();
    return doc.save();
  };
  return { w, t, date, save };
}

function lenderFooter(w: Writer, t: Words, f: LoanFacts) {
  const g = f.lender.grievanceOfficer;
  w.text(
    t("lenderFooter", {
      name: f.lender.name,
      address: f.lender.address,
      registration: f.lender.rbiRegistration,
      cin: f.lender.cin,
      officer: g.name,
      phone: g.phone,
      email: g.email,
    }),
    { size: 8, color: MUTED },
  );
}

function figures(t: Words, state: LoanState): [string, string][] {
  return [
    [t("label.outstanding"), rs(state.outstandingPrincipalPaise)],
    [t("label.overdue"), rs(state.overduePaise)],
    [t("label.penalDue"), rs(state.penalDuePaise)],
    [t("label.advance"), rs(state.advancePaise)],
  ];
}

/** The closing lines of a letter: for the lender, issued electronically. */
function signOff(w: Writer, t: Words, f: LoanFacts) {
  w.text(t("letter.for", { lender: f.lender.name }), { gap: 2 });
  w.text(t("letter.electronic"), { size: 8.5, color: MUTED });
  lenderFooter(w, t, f);
}

export async function renderSchedulePdf(f: LoanFacts, state: LoanState, at: Date): Promise<Uint8Array> {
  const { w, t, date, save } = await start(f, (tr) => tr("schedule.title"), at);
  // The instalment's status in the words of the loan page.
  const status = plainTranslator(f.language, "loans");
  w.heading(t("schedule.asOn", { date: date(state.asOf) }));
  w.rows(figures(t, state));
  w.heading(t("schedule.instalments"));
  w.table(
    (["seq", "dueOn", "principal", "interest", "amount", "paid", "status"] as const).map((c) => t(`schedule.columns.${c}`)),
    state.instalments.map((r) => [
      String(r.seq),
      date(r.dueDate),
      r.status === "closed_early" ? "—" : rs(r.principalPaise),
      r.status === "closed_early" ? "—" : rs(r.interestPaise),
      r.status === "closed_early" ? "—" : rs(r.principalPaise + r.interestPaise),
      rs(r.paidPrincipalPaise + r.paidInterestPaise),
      status(`schedule.instalmentStatus.${r.status}`),
    ]),
  );
  w.text(t("schedule.note"), { size: 8.5, color: MUTED });
  lenderFooter(w, t, f);
  w.footers(t("schedule.footer", { brand: f.brandName }));
  return save();
}

/**
 * The statement of account: date, what each entry was, debit, credit and the balance after it,
 * between an opening and a closing balance the entries tie (`buildStatement`); the loan's figures at
 * the end of the period below it.
 */
export async function renderStatementPdf(f: LoanFacts, statement: Statement, closing: LoanState, at: Date): Promise<Uint8Array> {
  const { w, t, date, save } = await start(f, (tr) => tr("statement.title"), at);
  w.heading(t("statement.period", { from: date(statement.from), to: date(statement.to) }));
  w.text(t("statement.explain"), { size: 8.5, color: MUTED, gap: 6 });
  const balance = (paise: number) => (paise < 0 ? `−${rs(-paise)}` : rs(paise));
  w.table(
    (["date", "description", "debit", "credit", "balance"] as const).map((c) => t(`statement.columns.${c}`)),
    [
      [date(statement.from), t("statement.opening"), "", "", balance(statement.openingPaise)],
      ...statement.lines.map((l) => [
        date(l.date),
        l.text,
        l.debitPaise ? rs(l.debitPaise) : "",
        l.creditPaise ? rs(l.creditPaise) : "",
        balance(l.balancePaise),
      ]),
      [date(statement.to), t("statement.closing"), "", "", balance(statement.closingPaise)],
    ],
    { widths: [0.15, 0.43, 0.14, 0.14, 0.14], align: ["left", "left", "right", "right", "right"] },
  );
  if (statement.lines.length === 0) w.text(t("statement.empty"));
  w.heading(t("statement.atEnd", { date: date(statement.to) }));
  w.rows(figures(t, closing));
  lenderFooter(w, t, f);
  w.footers(t("statement.footer", { brand: f.brandName }));
  return save();
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
  const { w, t, date, save } = await start(f, (tr) => tr(cooling ? "closure.coolingTitle" : "closure.noDuesTitle"), at);
  w.heading(t(cooling ? "closure.coolingHeading" : "closure.noDuesHeading"));
  const facts = { name: f.borrowerName, loan: f.loanNumber, date: date(closure.on) };
  w.text(t(cooling ? "closure.cooling" : closure.how === "foreclosed" ? "closure.foreclosed" : "closure.repaid", facts), { gap: 8 });
  if (cooling) {
    const rule = plainTranslator(f.language, "rates")("coolingOff", { days: closure.coolingOffDays });
    w.text(t("closure.rule", { rule }), { gap: 8 });
  }
  w.rows([
    [t("label.amountLent"), rs(f.principalPaise)],
    [t("label.disbursedOn"), date(f.disbursalDate)],
    [t("label.closedOn"), date(closure.on)],
    [t("label.totalPaid"), rs(closure.totalPaidPaise)],
    [t(cooling ? "label.costOfDays" : "label.interestPaid"), rs(closure.interestPaidPaise)],
    ...(cooling ? ([[t("label.feeReturned"), rs(closure.feeReturnedPaise)]] as [string, string][]) : []),
    [t("label.penalPaid"), rs(closure.penalPaidPaise)],
    ...(closure.refundPaise > 0 ? ([[t("label.refund"), rs(closure.refundPaise)]] as [string, string][]) : []),
  ]);
  signOff(w, t, f);
  w.footers(t(cooling ? "closure.coolingFooter" : "closure.noDuesFooter", { brand: f.brandName }));
  return save();
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
  const { w, t, date, save } = await start(f, (tr) => tr("reminder.title"), at);
  w.heading(t("reminder.heading"));
  w.text(
    t("reminder.overdue", {
      name: f.borrowerName,
      date: date(letter.sentOn),
      amount: rs(letter.amountPaise),
      loan: f.loanNumber,
      days: String(letter.dpd),
    }),
    { gap: 6 },
  );
  w.text(t("reminder.pay", { link: letter.payLink }), { gap: 6 });
  w.text(t("reminder.credit"), { gap: 6 });
  const g = f.lender.grievanceOfficer;
  w.text(
    t("reminder.complain", { link: letter.grievanceLink, officer: g.name, phone: g.phone, email: g.email, ombudsman: "cms.rbi.org.in" }),
    { gap: 8 },
  );
  signOff(w, t, f);
  w.footers(t("reminder.footer", { brand: f.brandName }));
  return save();
}
