/**
 * The statement of account (docs/product.md "Loan servicing"), as a bank issues one: each entry of
 * a period with its date, what it was in words, the amount charged (debit) or paid and credited
 * (credit), and the balance after it; an opening and a closing balance that the entries tie.
 *
 * The balance is what the borrower owes on that day for what has fallen due or been lent: the
 * principal outstanding, the interest of instalments already due and unpaid, unpaid penal charges,
 * less an advance held and less anything to be refunded (`owedBalance`). So a loan is debited its
 * principal when disbursed, each instalment's interest on its due date, the interest to the closing
 * date of a foreclosure or cooling-off exit, penal charges, refunds sent and reversed payments; and
 * credited every payment, a waived or reversed penal charge, and the processing fee and GST a
 * cooling-off exit returns. A correction (a reversed payment, a waived or reversed penal charge)
 * undoes its entry from the start, so what it changes of the charges dated before the period (a
 * settlement undone or moved, an instalment's interest) is charged or credited on its own date.
 * Every wording is a whole sentence of the `statement` catalogue (app/i18n/messages/en/statement.ts),
 * in the borrower's language (English by default: the staff's pages and the tests). Pure: no I/O, no clock.
 */
import type { Language } from "../../i18n/languages.ts";
import { plainTranslator } from "../../i18n/plain-format.ts";
import { addDays, type IsoDate } from "../loan-math.ts";
import { formatRupees } from "../money.ts";
import { longDate as longDateIn } from "../india-date.ts";
import type { InstalmentState, LoanState } from "./servicing.ts";

/** A ledger row as the statement reads it. */
export interface StatementRow {
  kind: string;
  businessDate: IsoDate;
  principalPaise: number;
  amountPaise: number;
  seq: number | null;
  details: Record<string, unknown>;
}

export interface StatementLine {
  date: IsoDate;
  text: string;
  /** Charged to the borrower. */
  debitPaise: number;
  /** Paid by or credited to the borrower. */
  creditPaise: number;
  /** What the borrower owes after this line (negative: owed to the borrower). */
  balancePaise: number;
}

export interface Statement {
  from: IsoDate;
  to: IsoDate;
  openingPaise: number;
  lines: StatementLine[];
  closingPaise: number;
}

/** What the borrower owes at the end of the state's day for what has fallen due or been lent. */
export function owedBalance(state: LoanState): number {
  const interestDue = state.instalments
    .filter((r) => r.dueDate <= state.asOf)
    .reduce((sum, r) => sum + r.interestPaise - r.paidInterestPaise, 0);
  return state.outstandingPrincipalPaise + interestDue + state.penalDuePaise - state.advancePaise - state.refundDuePaise;
}

/** The interest a settlement charged to its date (paid beyond the instalments' own interest). */
const accruedPaid = (state: LoanState) => state.interestPaidPaise - state.instalments.reduce((sum, i) => sum + i.paidInterestPaise, 0);

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** How a payment was made, in words, with the bank's reference when there is one; never a gateway's internal id. */
export function paymentText(details: Record<string, unknown>, language: Language = "en"): string {
  const t = plainTranslator(language, "statement");
  const detail = text(details.methodDetail) ?? text(details.bankReference);
  const reference = detail ?? "";
  const method = text(details.method) ?? text(details.mode);
  switch (method) {
    case "upi":
    case "UPI":
      return detail ? t("payment.upiReference", { reference }) : t("payment.upi");
    case "card":
      return detail ? t("payment.cardEnding", { last: reference }) : t("payment.card");
    case "netbanking":
      return detail ? t("payment.netbankingReference", { reference }) : t("payment.netbanking");
    case "wallet":
      return detail ? t("payment.walletNamed", { wallet: reference }) : t("payment.wallet");
    case "NEFT":
    case "IMPS":
    case "RTGS":
      return detail ? t("payment.transferReference", { rail: method, reference }) : t("payment.transfer", { rail: method });
    case "upi_autopay":
      return detail ? t("payment.upiAutopayReference", { reference }) : t("payment.upiAutopay");
    case "enach":
      return detail ? t("payment.enachReference", { reference }) : t("payment.enach");
    case "cheque":
      return detail ? t("payment.chequeNumber", { number: reference }) : t("payment.cheque");
    case "cash":
      return detail ? t("payment.cashReceipt", { receipt: reference }) : t("payment.cash");
    default:
      return t("payment.online");
  }
}

/** The statement's words in one language: its sentences and its dates. */
type Words = { t: ReturnType<typeof plainTranslator<"statement">>; language: Language };

/** One ledger row in words and money; none for rows with nothing to say in a statement. */
function rowLine(r: StatementRow, { t, language }: Words): Omit<StatementLine, "balancePaise">[] {
  const on = r.businessDate;
  const line = (words: string, debitPaise: number, creditPaise: number) => ({ date: on, text: words, debitPaise, creditPaise });
  const reason = text(r.details.reason);
  const seq = String(r.seq);
  switch (r.kind) {
    case "disbursal": {
      const upfront = typeof r.details.upfrontChargesPaise === "number" ? r.details.upfrontChargesPaise : 0;
      return [
        upfront > 0
          ? line(
              t("entry.disbursed", { paid: formatRupees(r.principalPaise - upfront), upfront: formatRupees(upfront) }),
              r.principalPaise,
              0,
            )
          : line(t("entry.disbursedWhole"), r.principalPaise, 0),
      ];
    }
    case "disbursal_reversal":
      return [line(t("entry.disbursalReturned"), 0, -r.principalPaise)];
    case "payment":
      return [line(paymentText(r.details, language), 0, r.amountPaise)];
    case "payment_reversal":
      return [line(reason ? t("entry.paymentReversedReason", { reason }) : t("entry.paymentReversed"), r.amountPaise, 0)];
    case "penal":
      return [line(t("entry.penal", { seq }), r.amountPaise, 0)];
    case "penal_reversal":
      return [line(t("entry.penalReversed", { seq }), 0, r.amountPaise)];
    case "penal_waiver":
      return [line(reason ? t("entry.penalWaivedReason", { seq, reason }) : t("entry.penalWaived", { seq }), 0, r.amountPaise)];
    case "refund":
      return [line(r.details.fromAdvance === true ? t("entry.refundAdvance") : t("entry.refundOverpayment"), r.amountPaise, 0)];
    case "refund_reversal":
      return [line(t("entry.refundReturned"), 0, r.amountPaise)];
    case "closure":
      return [line(r.details.how === "cooling_off" ? t("entry.closedCoolingOff") : t("entry.closed"), 0, 0)];
    case "reopening":
      return [line(t("entry.reopened"), 0, 0)];
    case "write_off":
      return [line(t("entry.writtenOff"), 0, 0)];
    default:
      return [];
  }
}

/**
 * The statement of `from`..`to`: `opening` is the loan replayed to the day before `from`, `closing`
 * to `to`, `rows` the ledger in the order written, `disbursalDate` the loan's. The lines' running
 * balance ends at the closing balance (the tests hold it to that). Its words are in `language`.
 */
export function buildStatement(
  { from, to, disbursalDate }: { from: IsoDate; to: IsoDate; disbursalDate: IsoDate },
  opening: LoanState,
  closing: LoanState,
  rows: readonly StatementRow[],
  language: Language = "en",
): Statement {
  const t = plainTranslator(language, "statement");
  const longDate = (d: IsoDate) => longDateIn(d, language);
  const inLanguage: Words = { t, language };
  const settledOn = closing.settlement?.on ?? null;
  const dated: (Omit<StatementLine, "balancePaise"> & { order: number })[] = [];
  // An instalment falls due at the start of its day: its interest is charged before that day's entries.
  for (const i of closing.instalments)
    if (i.dueDate >= from && i.dueDate <= to && (!settledOn || i.dueDate <= settledOn) && i.status !== "closed_early")
      dated.push({
        date: i.dueDate,
        text: t("interest.due", { seq: String(i.seq), due: longDate(i.dueDate), amount: formatRupees(i.principalPaise + i.interestPaise) }),
        debitPaise: i.interestPaise,
        creditPaise: 0,
        order: -1,
      });
  rows.forEach((r, n) => {
    if (r.businessDate < from || r.businessDate > to) return;
    for (const l of rowLine(r, inLanguage)) dated.push({ ...l, order: n });
  });
  // The settlement as the replay has it (the ledger's closure rows only say so): the interest to the
  // closing date, or a cooling-off exit's cost and the fee it returns, just before its closure line.
  const settled = closing.settlement;
  const was = opening.settlement;
  const moved = !(was && settled ? was.on === settled.on && was.how === settled.how : !was && !settled);
  // A correction in the period (a reversed payment, a reopening; else a waived or reversed penal
  // charge) undoes its entry from its own date, and the replay then changes what was charged before
  // the period: a settlement undone or moved to another date, an instalment's interest owed again,
  // withdrawn, or recomputed (a prepayment shortens the loan by another amount). Each change is
  // charged or credited on the correction's line, so the opening balance stays as it stood.
  const firstOf = (kinds: readonly string[]) =>
    rows.findIndex((r) => kinds.includes(r.kind) && r.businessDate >= from && r.businessDate <= to);
  const correctedAt = ((i) => (i >= 0 ? i : firstOf(["penal_waiver", "penal_reversal", "refund_reversal"])))(
    firstOf(["reopening", "payment_reversal"]),
  );
  const correctedOn = rows[correctedAt]?.businessDate ?? from;
  const correctedOrder = correctedAt >= 0 ? correctedAt + 0.5 : -0.5;
  const corrected = (words: string, debitPaise: number, creditPaise: number, order = correctedOrder) =>
    dated.push({ date: correctedOn, text: words, debitPaise, creditPaise, order });
  // The loan open again, or closed on another date before the period (each line's words whole, below).
  const earlier = moved && settled && settled.on < from ? settled.on : null;
  // A settlement before the period that a correction in it undid or moved: its interest and returned fee are undone.
  if (was && moved) {
    const accrued = accruedPaid(opening);
    if (accrued > 0)
      corrected(
        earlier ? t("settlement.interestWithdrawnClosing", { closing: longDate(earlier) }) : t("settlement.interestWithdrawnOpen"),
        0,
        accrued,
      );
    if (opening.feeReturnedPaise > 0)
      corrected(
        earlier ? t("settlement.feeDueAgainClosing", { closing: longDate(earlier) }) : t("settlement.feeDueAgain"),
        opening.feeReturnedPaise,
        0,
      );
  }
  // Instalments due before the period whose interest the correction changed (the balance counts the
  // interest of every instalment due; one closed early has none).
  const dueBefore = (state: LoanState) => new Map(state.instalments.filter((i) => i.dueDate < from).map((i) => [i.seq, i]));
  const before = dueBefore(opening);
  const after = dueBefore(closing);
  const gone = (i: InstalmentState | undefined) => !i || i.status === "closed_early";
  for (const seq of [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b)) {
    const o = before.get(seq);
    const c = after.get(seq);
    const row = c ?? o;
    const diff = (c?.interestPaise ?? 0) - (o?.interestPaise ?? 0);
    if (!row || diff === 0) continue;
    const due = longDate(row.dueDate);
    const n = String(seq);
    const words =
      gone(o) && was && moved
        ? earlier
          ? t("interest.owedAgainClosing", { seq: n, due, closing: longDate(earlier) })
          : t("interest.owedAgainOpen", { seq: n, due })
        : gone(c) && earlier
          ? t("interest.withdrawnClosing", { seq: n, due, closing: longDate(earlier) })
          : t("interest.recomputed", {
              seq: n,
              due,
              now: formatRupees(c?.interestPaise ?? 0),
              was: formatRupees(o?.interestPaise ?? 0),
            });
    corrected(words, Math.max(0, diff), Math.max(0, -diff));
  }
  if (settled && moved) {
    // In the period: on its date, before its closure line. Before it: a correction in the period made
    // an earlier payment the one that settles (the reversed payment had settled first), charged there.
    const inPeriod = settled.on >= from;
    const closureAt = rows.findIndex((r) => r.kind === "closure" && r.businessDate === settled.on);
    const order = closureAt >= 0 ? closureAt - 0.5 : rows.length;
    const on = longDate(settled.on);
    const accrued = accruedPaid(closing);
    const at = (words: string, debitPaise: number, creditPaise: number) =>
      inPeriod
        ? dated.push({ date: settled.on, text: words, debitPaise, creditPaise, order })
        : corrected(words, debitPaise, creditPaise, correctedOrder + 0.25);
    if (settled.how === "cooling_off") {
      at(inPeriod ? t("settlement.coolingCost") : t("settlement.coolingCostCorrected", { on }), accrued, 0);
      if (closing.feeReturnedPaise > 0)
        at(inPeriod ? t("settlement.feeReturned") : t("settlement.feeReturnedCorrected", { on }), 0, closing.feeReturnedPaise);
    } else if (accrued > 0)
      at(inPeriod ? t("settlement.interestToClosing") : t("settlement.interestToClosingCorrected", { on }), accrued, 0);
  }
  dated.sort((a, b) => (a.date === b.date ? a.order - b.order : a.date < b.date ? -1 : 1));
  const openingPaise = from <= disbursalDate ? 0 : owedBalance(opening);
  let balance = openingPaise;
  const lines = dated.map((l) => {
    balance += l.debitPaise - l.creditPaise;
    return { date: l.date, text: l.text, debitPaise: l.debitPaise, creditPaise: l.creditPaise, balancePaise: balance };
  });
  return { from, to, openingPaise, lines, closingPaise: balance };
}

/** The day before `from`: the opening replay's date. */
export const openingDay = (from: IsoDate) => addDays(from, -1);
