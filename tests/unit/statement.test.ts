import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { replay, type LoanTerms, type ServicingEvent } from "../../app/domain/loans/servicing.ts";
import { buildStatement, openingDay, owedBalance, paymentText, type StatementRow } from "../../app/domain/loans/statement.ts";
import { emiTerms, loanArb, paymentsArb, withPayments } from "../fixtures/servicing.ts";

/** The ledger rows the app writes for a history: the disbursal, each payment and penal charge, and the closure. */
function ledgerRows(terms: LoanTerms, events: readonly ServicingEvent[], end: IsoDate): StatementRow[] {
  const rows: StatementRow[] = [
    { kind: "disbursal", businessDate: terms.disbursalDate, principalPaise: terms.principalPaise, amountPaise: 0, seq: null, details: {} },
  ];
  const byDate = [...events].sort((a, b) => (a.businessDate < b.businessDate ? -1 : a.businessDate > b.businessDate ? 1 : 0));
  for (const e of byDate) {
    if (e.kind === "payment")
      rows.push({
        kind: "payment",
        businessDate: e.businessDate,
        principalPaise: 0,
        amountPaise: e.amountPaise,
        seq: null,
        details: { method: "upi" },
      });
    if (e.kind === "penal" && !e.undone)
      rows.push({ kind: "penal", businessDate: e.businessDate, principalPaise: 0, amountPaise: e.amountPaise, seq: e.seq, details: {} });
  }
  const settled = replay(terms, events, end).settlement;
  if (settled)
    rows.push({ kind: "closure", businessDate: settled.on, principalPaise: 0, amountPaise: 0, seq: null, details: { how: settled.how } });
  return rows;
}

describe("the statement of account", () => {
  it("ties: the opening balance plus each line's debit less its credit is the closing balance, for any period of any history", () => {
    fc.assert(
      fc.property(
        loanArb,
        paymentsArb,
        fc.integer({ min: 0, max: 1250 }),
        fc.integer({ min: 0, max: 400 }),
        (terms, payments, startDay, length) => {
          const { events, end } = withPayments(terms, payments);
          const rows = ledgerRows(terms, events, end);
          const from = addDays(terms.disbursalDate, startDay);
          const to = addDays(from, length);
          const statement = buildStatement(
            { from, to, disbursalDate: terms.disbursalDate },
            replay(terms, events, openingDay(from)),
            replay(terms, events, to),
            rows,
          );
          expect(statement.closingPaise).toBe(owedBalance(replay(terms, events, to)));
          let running = statement.openingPaise;
          for (const l of statement.lines) {
            expect(l.debitPaise).toBeGreaterThanOrEqual(0);
            expect(l.creditPaise).toBeGreaterThanOrEqual(0);
            running += l.debitPaise - l.creditPaise;
            expect(l.balancePaise).toBe(running);
            expect(l.text).not.toMatch(/pay_|plink_|pm_/);
          }
          // A statement from the disbursal opens at nothing owed.
          const whole = buildStatement(
            { from: terms.disbursalDate, to, disbursalDate: terms.disbursalDate },
            replay(terms, events, openingDay(terms.disbursalDate)),
            replay(terms, events, to),
            rows,
          );
          expect(whole.openingPaise).toBe(0);
          expect(whole.closingPaise).toBe(statement.closingPaise);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("says how each payment was made in words, never by a gateway's id", () => {
    expect(paymentText({ method: "upi", methodDetail: "612345678901", providerPaymentId: "pay_X" })).toBe(
      "Payment by UPI, reference 612345678901",
    );
    expect(paymentText({ method: "card", methodDetail: "1111" })).toBe("Payment by card ending 1111");
    expect(paymentText({ mode: "NEFT", bankReference: "N12345" })).toBe("Payment by NEFT, reference N12345");
    expect(paymentText({ providerPaymentId: "pay_X", reference: "pm_abc" })).toBe("Payment received online");
  });

  it("a missed instalment and its penal charge, then the payment: the lines in order with the balance after each", () => {
    const terms = emiTerms(1_00_000_00, 1800, 12, "2026-01-10");
    const first = terms.instalments[0]!;
    const events: ServicingEvent[] = [
      { kind: "penal", id: "c1", seq: 1, amountPaise: 500_00, businessDate: addDays(first.dueDate, 1) },
      {
        kind: "payment",
        id: "p1",
        amountPaise: first.principalPaise + first.interestPaise + 500_00,
        businessDate: addDays(first.dueDate, 3),
      },
    ];
    const rows = ledgerRows(terms, events, "2026-03-01");
    const s = buildStatement(
      { from: "2026-01-10", to: "2026-02-28", disbursalDate: "2026-01-10" },
      replay(terms, events, "2026-01-09"),
      replay(terms, events, "2026-02-28"),
      rows,
    );
    expect(s.lines.map((l) => [l.text, l.debitPaise, l.creditPaise])).toEqual([
      ["Loan disbursed to your bank account", 1_00_000_00, 0],
      [expect.stringMatching(/^Interest of instalment 1, due on 10 Feb 2026/), first.interestPaise, 0],
      ["Penal charge for instalment 1, not paid by its due date", 500_00, 0],
      ["Payment by UPI", 0, first.principalPaise + first.interestPaise + 500_00],
    ]);
    expect(s.closingPaise).toBe(1_00_000_00 - first.principalPaise);
  });
});
