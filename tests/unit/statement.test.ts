import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { replay, type LoanTerms, type ServicingEvent } from "../../app/domain/loans/servicing.ts";
import { buildStatement, openingDay, owedBalance, paymentText, type StatementRow } from "../../app/domain/loans/statement.ts";
import { eventsFrom } from "../../app/server/loan-account/account.server.ts";
import { emiTerms, loanArb, paymentsArb, withPayments } from "../fixtures/servicing.ts";

type Row = StatementRow & { id: string; refId: string | null; paymentId: string | null; prepay: boolean | null; purpose: string | null };

/**
 * The ledger rows the app writes for a history: the disbursal, each payment and penal charge, and
 * the closure; then staff's later corrections (`undo[k]`: the k-th payment or penal charge reversed
 * or waived that many days after it; negative: left alone), which undo their entry from their own date.
 */
function ledgerRows(terms: LoanTerms, events: readonly ServicingEvent[], end: IsoDate, undo: readonly number[] = []): Row[] {
  let n = 0;
  const row = (r: Partial<Row> & Pick<Row, "kind" | "businessDate">): Row => ({
    id: `r${n++}`,
    principalPaise: 0,
    amountPaise: 0,
    seq: null,
    details: {},
    refId: null,
    paymentId: null,
    prepay: null,
    purpose: null,
    ...r,
  });
  const rows: Row[] = [row({ kind: "disbursal", businessDate: terms.disbursalDate, principalPaise: terms.principalPaise })];
  const byDate = [...events].sort((a, b) => (a.businessDate < b.businessDate ? -1 : a.businessDate > b.businessDate ? 1 : 0));
  for (const e of byDate) {
    if (e.kind === "payment")
      rows.push(
        row({
          kind: "payment",
          businessDate: e.businessDate,
          amountPaise: e.amountPaise,
          paymentId: e.id,
          prepay: e.prepay ?? false,
          purpose: e.coolingOff ? "cooling_off" : "due",
          details: { method: "upi" },
        }),
      );
    if (e.kind === "penal" && !e.undone)
      rows.push(row({ kind: "penal", businessDate: e.businessDate, amountPaise: e.amountPaise, seq: e.seq }));
  }
  const settled = replay(terms, events, end).settlement;
  if (settled) rows.push(row({ kind: "closure", businessDate: settled.on, details: { how: settled.how } }));
  const undoable = rows.filter((r) => r.kind === "payment" || r.kind === "penal");
  undo.forEach((days, k) => {
    const target = undoable[k];
    if (!target || days < 0) return;
    rows.push(
      row({
        kind: target.kind === "payment" ? "payment_reversal" : "penal_waiver",
        businessDate: addDays(target.businessDate, days),
        amountPaise: target.amountPaise,
        seq: target.seq,
        refId: target.id,
        paymentId: target.paymentId,
        details: { reason: "A correction by staff" },
      }),
    );
  });
  // The ledger in the order written: by date (a stable sort keeps each day's order).
  return rows.sort((a, b) => (a.businessDate < b.businessDate ? -1 : a.businessDate > b.businessDate ? 1 : 0));
}

/** The loan at the end of `day` as the ledger stood then, as the statement's PDF replays it. */
const asItStood = (terms: LoanTerms, rows: readonly Row[], day: IsoDate) =>
  replay(terms, eventsFrom(rows.filter((r) => r.businessDate <= day) as unknown as Parameters<typeof eventsFrom>[0]), day);

type Payments = Parameters<typeof withPayments>[1];

/**
 * The tie for one history and period (the property below, and the histories it once found): the
 * statement of `startDay`..`startDay + length` after disbursal, the ledger as it stood at each end.
 */
function tiesFor(terms: LoanTerms, payments: Payments, startDay: number, length: number, undo: readonly number[]) {
  const { events, end } = withPayments(terms, payments);
  const rows = ledgerRows(terms, events, end, undo);
  const from = addDays(terms.disbursalDate, startDay);
  const to = addDays(from, length);
  const closing = asItStood(terms, rows, to);
  const statement = buildStatement(
    { from, to, disbursalDate: terms.disbursalDate },
    asItStood(terms, rows, openingDay(from)),
    closing,
    rows,
  );
  expect(statement.closingPaise).toBe(owedBalance(closing));
  let running = statement.openingPaise;
  for (const l of statement.lines) {
    expect(l.debitPaise).toBeGreaterThanOrEqual(0);
    expect(l.creditPaise).toBeGreaterThanOrEqual(0);
    running += l.debitPaise - l.creditPaise;
    expect(l.balancePaise).toBe(running);
    expect(l.text).not.toMatch(/pay_|plink_|pm_/);
  }
  // A statement from the disbursal opens at nothing owed and closes at the same balance.
  const whole = buildStatement(
    { from: terms.disbursalDate, to, disbursalDate: terms.disbursalDate },
    asItStood(terms, rows, openingDay(terms.disbursalDate)),
    closing,
    rows,
  );
  expect(whole.openingPaise).toBe(0);
  expect(whole.closingPaise).toBe(statement.closingPaise);
  return statement;
}

describe("the statement of account", () => {
  it("ties: the opening balance plus each line's debit less its credit is the closing balance, for any period of any history, corrections included", () => {
    fc.assert(
      fc.property(
        loanArb,
        paymentsArb,
        fc.integer({ min: 0, max: 1250 }),
        fc.integer({ min: 0, max: 400 }),
        fc.array(fc.integer({ min: -3, max: 90 }), { maxLength: 6 }),
        (terms, payments, startDay, length, undo) => {
          tiesFor(terms, payments, startDay, length, undo);
        },
      ),
      {
        numRuns: 150,
        // Histories a run once found: an exit undone by a reversed payment, before and after an instalment fell due.
        examples: [
          [
            emiTerms(1_00_000_00 / 10, 1400, 3, "2026-01-30"),
            [{ day: 0, amountPaise: 976_400, prepay: false, coolingOff: true }],
            30,
            0,
            [30],
          ],
          [
            emiTerms(1_00_000_00 / 10, 1400, 3, "2025-01-01"),
            [{ day: 0, amountPaise: 976_400, prepay: false, coolingOff: true }],
            1,
            0,
            [1],
          ],
        ],
      },
    );
  });

  it("ties when a reversal makes a later payment the one that settled, before the period: its interest is charged at the reversal", () => {
    // A property run found it: a salary advance foreclosed on its disbursal day by exactly the
    // principal, then one day's payoff (principal and a day's interest) paid the next day, all of it
    // excess; the first payment reversed on day 2. The loan stays closed, but on day 1 by the second
    // payment, with that day's ₹1.60 interest: a statement of day 2 alone owes it, not −₹1.60.
    const terms: LoanTerms = {
      kind: "salary_advance",
      principalPaise: 200000,
      netDisbursedPaise: 192920,
      rateBps: 8,
      disbursalDate: "2025-01-01",
      instalments: [{ seq: 1, dueDate: "2025-02-01", principalPaise: 200000, interestPaise: 4960 }],
      penalPaise: 50000,
      penalTolerancePaise: 10000,
      coolingOffDays: 3,
      holidays: [],
    };
    const payments = [
      { day: 0, amountPaise: 200000, prepay: false, coolingOff: false },
      { day: 1, amountPaise: 200160, prepay: false, coolingOff: false },
    ];
    const statement = tiesFor(terms, payments, 2, 0, [2]);
    expect(statement.openingPaise).toBe(-200160);
    expect(statement.lines.map((l) => [l.date, l.text, l.debitPaise, l.creditPaise, l.balancePaise])).toEqual([
      ["2025-01-03", "Payment reversed: A correction by staff", 200000, 0, -160],
      ["2025-01-03", "Interest from the last due date to the closing date of 2 Jan 2025, as the correction leaves it", 160, 0, 0],
    ]);
    expect(statement.closingPaise).toBe(0);
  });

  it("ties when a waiver changes a prepayment before the period: the interest it recomputes of an instalment already due is credited at the waiver", () => {
    // A property run found it: a penal charge waived two months later leaves ₹500 more of a "prepay
    // principal" payment as advance, so the loan shortened on 1 May by 25 paise more and instalment
    // 5 (due 1 Jun, before the period) owes 1 paisa less interest.
    const terms = emiTerms(1_00_000_00 / 10, 1400, 5, "2025-01-01");
    const statement = tiesFor(terms, [{ day: 92, amountPaise: 828_241, prepay: true, coolingOff: false }], 152, 0, [0, 0, 61]);
    expect(statement.lines.map((l) => [l.date, l.text, l.debitPaise, l.creditPaise])).toEqual([
      ["2025-06-02", "Penal charge for instalment 3 waived: A correction by staff", 0, 500_00],
      ["2025-06-02", "Interest of instalment 5, due on 1 Jun 2025, recomputed after the correction: ₹23.87 instead of ₹23.88", 0, 1],
    ]);
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
