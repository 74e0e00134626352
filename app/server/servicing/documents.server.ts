/**
 * The borrower's servicing documents (their own loan only): the repayment schedule, the statement
 * of account for a date range and the closure letter, each rendered from the ledger's replay.
 */
import { eq } from "drizzle-orm";
import type { AppServices } from "../../context.ts";
import { addDays, type IsoDate } from "../../domain/loan-math.ts";
import { KIND_NAME } from "../../domain/loans/application.ts";
import { type LoanState, type LoanTerms, replay, statementRange } from "../../domain/loans/servicing.ts";
import { users } from "../db/schema.ts";
import {
  type LoanFacts,
  renderClosureLetterPdf,
  renderSchedulePdf,
  renderStatementPdf,
  type StatementLine,
} from "../pdf/servicing-pdf.server.ts";
import { businessToday, type LedgerRow } from "./account.server.ts";
import { ownLoanLedger } from "./read.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;
export const LOAN_DOCUMENTS = ["schedule.pdf", "statement.pdf", "no-dues.pdf"] as const;
export type LoanDocument = (typeof LOAN_DOCUMENTS)[number];

const termsText = (t: LoanTerms) =>
  t.kind === "emi"
    ? `${(t.rateBps / 100).toFixed(2)}% a year, reducing balance, ${t.instalments.length} monthly instalments`
    : `${(t.rateBps / 100).toFixed(2)}% a day on the principal, repaid in one payment`;

const ENTRY_TEXT: Record<string, (r: LedgerRow) => string> = {
  disbursal: () => "Loan disbursed",
  disbursal_reversal: () => "Disbursal returned by the bank",
  payment: (r) => `Payment received${r.details.reference ? ` (${String(r.details.reference)})` : ""}`,
  payment_reversal: (r) => `Payment reversed: ${String(r.details.reason ?? "")}`,
  penal: (r) => `Penal charge for instalment ${r.seq}`,
  penal_reversal: (r) => `Penal charge for instalment ${r.seq} reversed (paid on time)`,
  penal_waiver: (r) => `Penal charge for instalment ${r.seq} waived: ${String(r.details.reason ?? "")}`,
  refund: () => "Overpayment refunded to your bank account",
  refund_reversal: () => "Refund returned by the bank",
  closure: (r) => (r.details.how === "cooling_off" ? "Loan cancelled in the cooling-off period" : "Loan closed"),
  reopening: () => "Loan reopened (a payment was reversed)",
  write_off: () => "Loan written off",
};

function statementLines(
  /** The schedule as it stands at the end of the period (a prepayment shortens it). */
  closing: LoanState,
  rows: readonly LedgerRow[],
  from: IsoDate,
  to: IsoDate,
  settledOn: IsoDate | null,
): StatementLine[] {
  const lines: (StatementLine & { order: number })[] = [];
  for (const i of closing.instalments)
    if (i.dueDate >= from && i.dueDate <= to && (!settledOn || i.dueDate <= settledOn))
      lines.push({
        date: i.dueDate,
        text: `Instalment ${i.seq} due`,
        debitPaise: i.principalPaise + i.interestPaise,
        creditPaise: 0,
        order: 0,
      });
  rows.forEach((r, n) => {
    if (r.businessDate < from || r.businessDate > to) return;
    const text = ENTRY_TEXT[r.kind]?.(r) ?? r.kind;
    const debit =
      r.kind === "disbursal"
        ? r.principalPaise
        : r.kind === "penal" || r.kind === "payment_reversal" || r.kind === "refund"
          ? r.amountPaise
          : 0;
    const credit =
      r.kind === "payment" || r.kind === "penal_reversal" || r.kind === "penal_waiver"
        ? r.amountPaise
        : r.kind === "disbursal_reversal"
          ? -r.principalPaise
          : 0;
    lines.push({ date: r.businessDate, text, debitPaise: debit, creditPaise: credit, order: n + 1 });
  });
  return lines
    .sort((a, b) => (a.date === b.date ? a.order - b.order : a.date < b.date ? -1 : 1))
    .map((l) => ({ date: l.date, text: l.text, debitPaise: l.debitPaise, creditPaise: l.creditPaise }));
}

/**
 * One of the documents of the borrower's own loan, or "not_found" (anyone else's, or a closure
 * letter for a loan not closed) or "bad_range" with the message to show.
 */
export async function loanDocument(
  services: Services,
  { userId, loanNumber, document, query }: { userId: string; loanNumber: string; document: LoanDocument; query: URLSearchParams },
): Promise<
  { ok: true; pdf: Uint8Array; filename: string } | { ok: false; reason: "not_found" } | { ok: false; reason: "bad_range"; message: string }
> {
  const loan = await ownLoanLedger(services, { userId, loanNumber });
  if (!loan) return { ok: false, reason: "not_found" };
  const { application: a, terms, rows, events } = loan;
  const [person] = await services.db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  const facts: LoanFacts = {
    brandName: services.config.public.brandName,
    lender: services.config.public.lender,
    borrowerName: person?.name ?? "Borrower",
    loanNumber,
    kindName: KIND_NAME[a.product],
    principalPaise: terms.principalPaise,
    termsText: termsText(terms),
    disbursalDate: terms.disbursalDate,
  };
  const at = services.now();
  const today = businessToday(services);
  const now = replay(terms, events, today);
  if (document === "schedule.pdf")
    return { ok: true, pdf: await renderSchedulePdf(facts, now, at), filename: `schedule-${loanNumber}.pdf` };
  if (document === "no-dues.pdf") {
    if (!now.settlement || (a.status !== "closed" && a.status !== "cancelled")) return { ok: false, reason: "not_found" };
    const paidIn = events.reduce((s, e) => s + (e.kind === "payment" ? e.amountPaise : 0), 0);
    const pdf = await renderClosureLetterPdf(
      facts,
      {
        on: now.settlement.on,
        how: now.settlement.how,
        totalPaidPaise: paidIn,
        interestPaidPaise: now.interestPaidPaise,
        penalPaidPaise: now.penalPaidPaise,
        refundPaise: now.refundDuePaise + events.reduce((s, e) => s + (e.kind === "refund" ? e.amountPaise : 0), 0),
        coolingOffDays: terms.coolingOffDays,
        feeReturnedPaise: now.feeReturnedPaise,
      },
      at,
    );
    return { ok: true, pdf, filename: `${now.settlement.how === "cooling_off" ? "cancellation" : "no-dues"}-${loanNumber}.pdf` };
  }
  const range = statementRange(query.get("from") || terms.disbursalDate, query.get("to") || today, terms.disbursalDate, today);
  if (!range.ok) return { ok: false, reason: "bad_range", message: range.message };
  const { from, to } = range;
  const opening = replay(terms, events, addDays(from, -1));
  const closing = replay(terms, events, to);
  const lines = statementLines(closing, rows, from, to, closing.settlement?.on ?? null);
  return {
    ok: true,
    pdf: await renderStatementPdf(facts, { from, to }, opening, closing, lines, at),
    filename: `statement-${loanNumber}-${from}-${to}.pdf`,
  };
}
