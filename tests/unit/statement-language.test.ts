import { describe, expect, it } from "vitest";
import type { IsoDate } from "../../app/domain/loan-math.ts";
import { replay } from "../../app/domain/loans/servicing.ts";
import { buildStatement, paymentText, type StatementRow } from "../../app/domain/loans/statement.ts";
import type { Language } from "../../app/i18n/languages.ts";
import en from "../../app/i18n/messages/en/statement.ts";
import { formatPlain } from "../../app/i18n/plain-format.ts";
import { englishWords } from "../helpers/english.ts";
import { emiTerms } from "../fixtures/servicing.ts";

const devanagari = /[\u0900-\u097F]/;

/** Every key of a namespace, dotted. */
const keys = (node: object, prefix = ""): string[] =>
  Object.entries(node).flatMap(([k, v]) => (typeof v === "string" ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));

/** A value for every placeholder of the namespace: references, names and a staff's reason stay as they were entered. */
const values = {
  reference: "612345678901",
  last: "1111",
  wallet: "Paytm",
  rail: "NEFT",
  number: "000123",
  receipt: "R-7781",
  reason: "Bounced at the bank",
  seq: "3",
  due: "10 फ़रवरी 2026",
  closing: "2 जनवरी 2026",
  on: "2 जनवरी 2026",
  amount: "₹9,168",
  paid: "₹97,640",
  upfront: "₹2,360",
  now: "₹23.87",
  was: "₹23.88",
};
const kept = [values.reference, values.wallet, values.rail, values.receipt, values.reason];

/** One of each payment method, with and without its reference. */
const payments: Record<string, unknown>[] = [
  ...["upi", "card", "netbanking", "wallet", "upi_autopay", "enach", "cheque", "cash"].flatMap((method) => [
    { method },
    { method, methodDetail: "612345678901" },
  ]),
  ...["NEFT", "IMPS", "RTGS"].flatMap((mode) => [{ mode }, { mode, bankReference: "N12345" }]),
  { providerPaymentId: "pay_X" },
];

const terms = emiTerms(1_00_000_00, 1800, 12, "2026-01-10");
const row = (kind: string, businessDate: IsoDate, r: Partial<StatementRow> = {}): StatementRow => ({
  kind,
  businessDate,
  principalPaise: 0,
  amountPaise: 500_00,
  seq: null,
  details: {},
  ...r,
});
/** A ledger with every kind of row the statement puts in words. */
const rows: StatementRow[] = [
  row("disbursal", "2026-01-10", { principalPaise: 1_00_000_00, details: { upfrontChargesPaise: 2_360_00 } }),
  row("disbursal", "2026-01-10", { principalPaise: 1_00_000_00 }),
  row("disbursal_reversal", "2026-01-11", { principalPaise: -1_00_000_00 }),
  row("payment", "2026-01-12", { details: { method: "upi", methodDetail: "612345678901" } }),
  row("payment_reversal", "2026-01-13", { details: { reason: "Bounced at the bank" } }),
  row("payment_reversal", "2026-01-13"),
  row("penal", "2026-01-14", { seq: 1 }),
  row("penal_reversal", "2026-01-15", { seq: 1 }),
  row("penal_waiver", "2026-01-16", { seq: 1, details: { reason: "Bounced at the bank" } }),
  row("penal_waiver", "2026-01-16", { seq: 1 }),
  row("refund", "2026-01-17", { details: { fromAdvance: true } }),
  row("refund", "2026-01-17"),
  row("refund_reversal", "2026-01-18"),
  row("closure", "2026-01-19", { details: { how: "cooling_off" } }),
  row("closure", "2026-01-19", { details: { how: "repaid" } }),
  row("reopening", "2026-01-20"),
  row("write_off", "2026-01-21"),
];
const statement = (language: Language) =>
  buildStatement(
    { from: "2026-01-10", to: "2026-02-10", disbursalDate: "2026-01-10" },
    replay(terms, [], "2026-01-09"),
    replay(terms, [], "2026-02-10"),
    rows,
    language,
  ).lines.map((l) => l.text);

describe("the statement of account in the borrower's language", () => {
  it("has every sentence of the statement in Hindi, with no English left but the values", () => {
    for (const key of keys(en)) {
      const hi = formatPlain("hi", "statement", key, values);
      expect(hi, key).toMatch(devanagari);
      expect(englishWords(hi, kept), `${key}: ${hi}`).toEqual([]);
    }
  });

  it("says each payment method and each entry in Hindi for a Hindi borrower", () => {
    for (const details of payments) {
      const hi = paymentText(details, "hi");
      expect(hi).toMatch(devanagari);
      expect(englishWords(hi, ["612345678901", "N12345", "NEFT", "IMPS", "RTGS"]), hi).toEqual([]);
    }
    const lines = statement("hi");
    expect(lines).toHaveLength(statement("en").length);
    for (const text of lines) {
      expect(text).toMatch(devanagari);
      expect(englishWords(text, ["612345678901", "Bounced at the bank"]), text).toEqual([]);
    }
    expect(lines.at(-1)).toBe("किस्त 1 का ब्याज, चुकाने की तारीख़ 10 फ़रवरी 2026 (किस्त ₹9,168 की है)");
  });

  it("keeps the English words as they were", () => {
    expect(payments.map((d) => paymentText(d))).toEqual([
      "Payment by UPI",
      "Payment by UPI, reference 612345678901",
      "Payment by card",
      "Payment by card ending 612345678901",
      "Payment by net banking",
      "Payment by net banking, reference 612345678901",
      "Payment from a wallet",
      "Payment from the 612345678901 wallet",
      "Autopay debit by UPI AutoPay",
      "Autopay debit by UPI AutoPay, reference 612345678901",
      "Autopay debit by e-NACH",
      "Autopay debit by e-NACH, reference 612345678901",
      "Payment by cheque",
      "Payment by cheque number 612345678901",
      "Payment in cash at a branch",
      "Payment in cash at a branch, receipt 612345678901",
      "Payment by NEFT",
      "Payment by NEFT, reference N12345",
      "Payment by IMPS",
      "Payment by IMPS, reference N12345",
      "Payment by RTGS",
      "Payment by RTGS, reference N12345",
      "Payment received online",
    ]);
    expect(statement("en")).toEqual([
      "Loan disbursed: ₹97,640 paid to your bank account after the processing fee and its GST of ₹2,360",
      "Loan disbursed to your bank account",
      "Disbursal returned by your bank",
      "Payment by UPI, reference 612345678901",
      "Payment reversed: Bounced at the bank",
      "Payment reversed",
      "Penal charge for instalment 1, not paid by its due date",
      "Penal charge for instalment 1 reversed: the payment was on time",
      "Penal charge for instalment 1 waived: Bounced at the bank",
      "Penal charge for instalment 1 waived",
      "Autopay debit for an instalment already paid, refunded to your bank account",
      "Overpayment refunded to your bank account",
      "Refund returned by your bank",
      "Loan cancelled in the cooling-off period",
      "Loan closed",
      "Loan reopened: a payment that had closed it was reversed",
      "Loan written off by the lender (the amount is still owed)",
      "Interest of instalment 1, due on 10 Feb 2026 (the instalment is ₹9,168)",
    ]);
  });
});
