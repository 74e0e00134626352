/**
 * The borrower's servicing documents (their own loan only): the repayment schedule, the statement
 * of account for a date range and the closure letter, each rendered from the ledger's replay.
 */
import { eq } from "drizzle-orm";
import { buildStatement, openingDay } from "../../domain/loans/statement.ts";
import type { AppServices } from "../../context.ts";
import type { IsoDate } from "../../domain/loan-math.ts";
import type { LoanKind } from "../../domain/loans/application.ts";
import type { Language } from "../../i18n/languages.ts";
import { plainTranslator } from "../../i18n/plain-format.ts";
import { kfsWords } from "../loans/kfs-words.server.ts";
import { type LoanTerms, replay, statementRange } from "../../domain/loans/servicing.ts";
import { users } from "../db/schema.ts";
import { type LoanFacts, renderClosureLetterPdf, renderSchedulePdf, renderStatementPdf } from "../pdf/servicing-pdf.server.ts";
import { businessToday, eventsFrom } from "./account.server.ts";
import { ownLoanLedger } from "./read.server.ts";

type Services = Pick<AppServices, "db" | "config" | "now">;
export const LOAN_DOCUMENTS = ["schedule.pdf", "statement.pdf", "no-dues.pdf"] as const;
export type LoanDocument = (typeof LOAN_DOCUMENTS)[number];

function termsText(language: Language, t: LoanTerms) {
  const words = plainTranslator(language, "loanPdf");
  const rate = `${(t.rateBps / 100).toFixed(2)}%`;
  return t.kind === "emi" ? words("terms.emi", { rate, count: String(t.instalments.length) }) : words("terms.advance", { rate });
}

/** What every servicing PDF of a loan names: the lender, the borrower, the loan and its terms, in the borrower's language. */
export async function loanFacts(
  services: Services,
  { userId, loanNumber, product, terms }: { userId: string; loanNumber: string; product: LoanKind; terms: LoanTerms },
): Promise<LoanFacts> {
  const [person] = await services.db.select({ name: users.name, language: users.language }).from(users).where(eq(users.id, userId));
  const language = person?.language ?? "en";
  return {
    brandName: services.config.public.brandName,
    lender: services.config.public.lender,
    borrowerName: person?.name ?? "Borrower",
    loanNumber,
    kindName: kfsWords(language).t(`kind.${product}`),
    principalPaise: terms.principalPaise,
    termsText: termsText(language, terms),
    disbursalDate: terms.disbursalDate,
    language,
  };
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
  const facts = await loanFacts(services, { userId, loanNumber, product: a.product, terms });
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
  // Each end of the period as the ledger stood then: a waiver or reversal written later undoes its entry only from its own date.
  const asItStood = (day: IsoDate) => replay(terms, eventsFrom(rows.filter((r) => r.businessDate <= day)), day);
  const closing = asItStood(to);
  const statement = buildStatement(
    { from, to, disbursalDate: terms.disbursalDate },
    asItStood(openingDay(from)),
    closing,
    rows,
    facts.language,
  );
  return {
    ok: true,
    pdf: await renderStatementPdf(facts, statement, closing, at),
    filename: `statement-${loanNumber}-${from}-${to}.pdf`,
  };
}
