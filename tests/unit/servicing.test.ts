import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "../../app/domain/loan-math.ts";
import {
  advanceCover,
  nextDue,
  payoffQuote,
  payoffWithAdvance,
  coolingOffQuote,
  loanAprBps,
  replay,
  type ServicingEvent,
  bucketOf,
} from "../../app/domain/loans/servicing.ts";
import { dailyRun } from "../../app/domain/loans/daily.ts";
import { advanceTerms, applyRun, emiTerms, loanArb, paymentsArb, runDays, withPayments } from "../fixtures/servicing.ts";

describe("servicing: the ledger replayed", () => {
  it("allocations add up to each payment, nothing goes negative, and money in equals money accounted for", () => {
    fc.assert(
      fc.property(loanArb, paymentsArb, (terms, payments) => {
        const { events, end } = withPayments(terms, payments);
        const s = replay(terms, events, end);
        for (const e of events) {
          if (e.kind !== "payment") continue;
          const a = s.allocations.get(e.id);
          expect(a).toBeDefined();
          if (!a) continue;
          expect(a.interestPaise + a.principalPaise + a.penalPaise + a.advancePaise + a.accruedInterestPaise + a.excessPaise).toBe(
            e.amountPaise,
          );
          for (const part of [a.interestPaise, a.principalPaise, a.penalPaise, a.accruedInterestPaise, a.excessPaise])
            expect(part).toBeGreaterThanOrEqual(0);
        }
        for (const r of s.instalments) {
          expect(r.paidInterestPaise).toBeGreaterThanOrEqual(0);
          expect(r.paidPrincipalPaise).toBeGreaterThanOrEqual(0);
          expect(r.paidInterestPaise).toBeLessThanOrEqual(r.interestPaise);
          expect(r.paidPrincipalPaise).toBeLessThanOrEqual(r.principalPaise);
          expect(r.principalPaise).toBeGreaterThanOrEqual(0);
        }
        for (const p of s.penals) expect(p.paidPaise).toBeLessThanOrEqual(p.amountPaise);
        expect(s.advancePaise).toBeGreaterThanOrEqual(0);
        expect(s.outstandingPrincipalPaise).toBeGreaterThanOrEqual(0);
        expect(s.refundDuePaise).toBeGreaterThanOrEqual(0);
        const paidIn = events.reduce((sum, e) => sum + (e.kind === "payment" ? e.amountPaise : 0), 0);
        // The processing fee and GST a cooling-off exit returns is principal repaid without money.
        expect(s.interestPaidPaise + s.principalRepaidPaise + s.penalPaidPaise + s.advancePaise + s.refundDuePaise).toBe(
          paidIn + s.feeReturnedPaise,
        );
        if (s.settlement) expect(s.principalRepaidPaise).toBe(terms.principalPaise);
      }),
      { numRuns: 200 },
    );
  });

  it("paying the payoff quote on its date closes the loan to the paisa", () => {
    fc.assert(
      fc.property(loanArb, paymentsArb, fc.integer({ min: 0, max: 900 }), (terms, payments, onDay) => {
        const on = addDays(terms.disbursalDate, onDay);
        const before = withPayments(
          terms,
          payments.filter((p) => p.day < onDay).map((p) => ({ ...p, coolingOff: false })),
        ).events.filter((e) => e.businessDate < on);
        const earlier = runDays(terms, before, addDays(on, -1));
        if (replay(terms, earlier, on).settlement) return;
        const quote = payoffQuote(terms, earlier, on);
        expect(quote.totalPaise).toBe(quote.principalPaise + quote.interestPaise + quote.overduePaise + quote.penalPaise);
        const paid = runDays(terms, [...earlier, { kind: "payment", id: "payoff", amountPaise: quote.totalPaise, businessDate: on }], on);
        const s = replay(terms, paid, on);
        expect(s.settlement?.on).toBe(on);
        expect(s.refundDuePaise).toBe(0);
        expect(s.principalRepaidPaise).toBe(terms.principalPaise);
        // One paisa less does not close it.
        if (quote.totalPaise > 1) {
          const short = runDays(
            terms,
            [...earlier, { kind: "payment", id: "short", amountPaise: quote.totalPaise - 1, businessDate: on }],
            on,
          );
          expect(replay(terms, short, on).settlement).toBeNull();
        }
      }),
      { numRuns: 200 },
    );
  });

  it("the figures a page shows agree: the advance pays on the due date what the page says it covers, and the quote's principal is the outstanding principal not yet due less the advance", () => {
    fc.assert(
      fc.property(loanArb, paymentsArb, fc.integer({ min: 0, max: 900 }), (terms, payments, onDay) => {
        const on = addDays(terms.disbursalDate, onDay);
        const { events } = withPayments(
          terms,
          payments.map((p) => ({ ...p, coolingOff: false })),
        );
        const upTo = events.filter((e) => e.businessDate <= on);
        const s = replay(terms, upTo, on);
        if (s.settlement) return;
        // Principal outstanding = disbursed − repaid; the quote's principal = what of it is not yet due, less the advance held.
        expect(s.outstandingPrincipalPaise).toBe(terms.principalPaise - s.principalRepaidPaise);
        const dueUnpaidPrincipal = s.instalments
          .filter((r) => r.dueDate <= on)
          .reduce((sum, r) => sum + r.principalPaise - r.paidPrincipalPaise, 0);
        const { quote, advancePaise } = payoffWithAdvance(terms, upTo, on);
        expect(advancePaise).toBe(s.advancePaise);
        expect(quote.principalPaise).toBe(Math.max(0, s.outstandingPrincipalPaise - dueUnpaidPrincipal - s.advancePaise));
        // What the advance covers never exceeds it, and the next instalment's parts add up.
        const cover = [...advanceCover(s).values()];
        expect(cover.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(s.advancePaise);
        const next = nextDue(s);
        if (!next) return;
        expect(next.coveredPaise + next.amountPaise).toBe(next.instalmentPaise);
        expect(next.amountPaise).toBeGreaterThanOrEqual(0);
        // With no other payment, on its due date exactly what the page said is left to pay is unpaid.
        if (next.dueDate > on) {
          const then = replay(terms, runDays(terms, upTo, next.dueDate), next.dueDate);
          const r = then.instalments.find((x) => x.seq === next.seq);
          if (!then.settlement && r)
            expect(r.principalPaise + r.interestPaise - r.paidPrincipalPaise - r.paidInterestPaise).toBe(next.amountPaise);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("running the daily job twice for a day equals running it once", () => {
    fc.assert(
      fc.property(loanArb, paymentsArb, fc.integer({ min: 0, max: 1200 }), (terms, payments, dayN) => {
        const day = addDays(terms.disbursalDate, dayN);
        const { events } = withPayments(terms, payments);
        const upTo = events.filter((e) => e.kind !== "penal" || e.businessDate < day);
        const once = applyRun(upTo, dailyRun(terms, upTo, day));
        const twice = applyRun(once, dailyRun(terms, once, day));
        expect(twice).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });
});

describe("servicing: worked examples", () => {
  const terms = emiTerms(1_00_000_00, 1800, 12, "2026-01-10");
  const emi = (terms.instalments[0]?.principalPaise ?? 0) + (terms.instalments[0]?.interestPaise ?? 0);

  it("a missed instalment: overdue, days past due, one ₹500 penal charge the day after, its bucket", () => {
    const events = runDays(terms, [{ kind: "payment", id: "p1", amountPaise: emi, businessDate: "2026-02-10" }], "2026-04-20");
    const s = replay(terms, events, "2026-04-20");
    expect(s.instalments.map((r) => r.status).slice(0, 4)).toEqual(["paid", "overdue", "overdue", "upcoming"]);
    expect(s.overduePaise).toBe(
      (terms.instalments[1]?.principalPaise ?? 0) +
        (terms.instalments[1]?.interestPaise ?? 0) +
        (terms.instalments[2]?.principalPaise ?? 0) +
        (terms.instalments[2]?.interestPaise ?? 0),
    );
    // 2026-03-10 is a Tuesday: the charge for instalment 2 comes on 2026-03-11; instalment 3 on 2026-04-11.
    expect(s.penals.map((p) => [p.seq, p.amountPaise, p.businessDate])).toEqual([
      [2, 50_000, "2026-03-11"],
      [3, 50_000, "2026-04-11"],
    ]);
    expect(s.dpd).toBe(41);
    expect(bucketOf(s.dpd)).toBe("SMA-1");
  });

  it("an on-time payment that arrives after the charge reverses it; a due date on a Sunday is on time on Monday", () => {
    const levied = runDays(terms, [], "2026-02-12");
    expect(levied.filter((e) => e.kind === "penal")).toHaveLength(1);
    const late = runDays(terms, [...levied, { kind: "payment", id: "p1", amountPaise: emi, businessDate: "2026-02-10" }], "2026-02-13");
    expect(late.filter((e) => e.kind === "penal")).toHaveLength(0);
    // 2026-05-10 is a Sunday: paid on Monday 11th, no charge.
    const sunday = runDays(terms, [], "2026-05-09");
    const paidMonday = runDays(
      terms,
      [...sunday, { kind: "payment", id: "p2", amountPaise: 5 * emi, businessDate: "2026-05-11" }],
      "2026-05-13",
    );
    const charges = paidMonday.filter((e) => e.kind === "penal").map((e) => (e.kind === "penal" ? e.seq : 0));
    expect(charges).not.toContain(5);
  });

  it("an unpaid part of ₹100 or less draws no penal charge; more draws the smaller of ₹500 and that part", () => {
    const small = runDays(terms, [{ kind: "payment", id: "p1", amountPaise: emi - 10_000, businessDate: "2026-02-10" }], "2026-02-20");
    expect(small.filter((e) => e.kind === "penal")).toHaveLength(0);
    const some = runDays(terms, [{ kind: "payment", id: "p1", amountPaise: emi - 30_000, businessDate: "2026-02-10" }], "2026-02-20");
    expect(some.filter((e) => e.kind === "penal").map((e) => (e.kind === "penal" ? e.amountPaise : 0))).toEqual([30_000]);
  });

  it("the payoff contract: principal not yet due, interest from the last due date, overdue and penal", () => {
    const events = runDays(terms, [{ kind: "payment", id: "p1", amountPaise: emi, businessDate: "2026-02-10" }], "2026-03-20");
    const q = payoffQuote(terms, events, "2026-03-20");
    const notDue = terms.instalments.slice(2).reduce((s, i) => s + i.principalPaise, 0);
    expect(q.principalPaise).toBe(notDue);
    expect(q.interestPaise).toBe(Math.floor((2 * notDue * 1800 * 10 + 365 * 10_000) / (2 * 365 * 10_000)));
    expect(q.overduePaise).toBe((terms.instalments[1]?.principalPaise ?? 0) + (terms.instalments[1]?.interestPaise ?? 0));
    expect(q.penalPaise).toBe(50_000);
    // A date ahead counts the charge the daily job will have levied by then.
    expect(payoffQuote(terms, events, "2026-04-11").penalPaise).toBe(100_000);
  });

  it("a prepayment of principal shortens the loan with the EMI unchanged", () => {
    const events = runDays(
      terms,
      [
        { kind: "payment", id: "p1", amountPaise: emi, businessDate: "2026-02-10" },
        { kind: "payment", id: "p2", amountPaise: 30_000_00, businessDate: "2026-02-20", prepay: true },
      ],
      "2026-03-10",
    );
    const s = replay(terms, events, "2026-03-10");
    expect(s.instalments.length).toBeLessThan(12);
    const rows = s.instalments.slice(2, -1);
    for (const r of rows) expect(r.principalPaise + r.interestPaise).toBe(emi);
    expect(s.advancePaise).toBe(0);
    expect(s.principalRepaidPaise + s.instalments.slice(2).reduce((sum, r) => sum + r.principalPaise, 0)).toBe(terms.principalPaise);
  });

  it("the cooling-off exit: the net amount received and its cost at the APR for the days used, never more than the payoff; ends the loan", () => {
    // ₹1,00,000 at 18% for 12 months, disbursed 10 January with ₹2,360 of fee and GST kept back: ₹97,640 received.
    const apr = loanAprBps(terms);
    expect(apr).toBeGreaterThan(1800);
    // On the disbursal day: the net amount, nothing more (closing the loan would cost the whole principal).
    const sameDay = coolingOffQuote(terms, [], "2026-01-10");
    expect(sameDay.totalPaise).toBe(terms.netDisbursedPaise);
    expect(sameDay.totalPaise).toBeLessThan(payoffQuote(terms, [], "2026-01-10").totalPaise);
    // Three days later: the net amount and net × APR × 3 ÷ 365, half-up.
    const q = coolingOffQuote(terms, [], "2026-01-13");
    expect(q).toMatchObject({
      principalPaise: terms.netDisbursedPaise,
      interestPaise: Math.floor((2 * terms.netDisbursedPaise * apr * 3 + 365 * 10_000) / (2 * 365 * 10_000)),
    });
    const s = replay(
      terms,
      [{ kind: "payment", id: "x", amountPaise: q.totalPaise, businessDate: "2026-01-13", coolingOff: true }],
      "2026-01-13",
    );
    expect(s.settlement?.how).toBe("cooling_off");
    expect(s.refundDuePaise).toBe(0);
    expect(s.outstandingPrincipalPaise).toBe(0);
    expect(s.feeReturnedPaise).toBe(terms.principalPaise - terms.netDisbursedPaise);
    // A paisa less is not an exit: it is kept as an advance.
    const short = replay(
      terms,
      [{ kind: "payment", id: "y", amountPaise: q.totalPaise - 1, businessDate: "2026-01-13", coolingOff: true }],
      "2026-01-13",
    );
    expect(short.settlement).toBeNull();
  });

  it("the cooling-off exit is never more than the payoff for the same date, for any loan and day of the period", () => {
    fc.assert(
      fc.property(loanArb, fc.integer({ min: 0, max: 3 }), (t, day) => {
        const on = addDays(t.disbursalDate, day);
        const exit = coolingOffQuote(t, [], on);
        expect(exit.totalPaise).toBeLessThanOrEqual(payoffQuote(t, [], on).totalPaise);
        const s = replay(t, [{ kind: "payment", id: "x", amountPaise: exit.totalPaise, businessDate: on, coolingOff: true }], on);
        expect(s.settlement?.how).toBe("cooling_off");
        expect(s.refundDuePaise).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it("a salary advance's payoff is its principal and interest for the days used, at most to its due date", () => {
    const sa = advanceTerms(10_000_00, "2026-01-10", 1);
    const due = sa.instalments[0];
    expect(due?.dueDate).toBe("2026-02-01");
    expect(payoffQuote(sa, [], "2026-01-20").totalPaise).toBe(10_000_00 + (10_000_00 * 8 * 10) / 10_000);
    expect(payoffQuote(sa, [], "2026-02-01").totalPaise).toBe((due?.principalPaise ?? 0) + (due?.interestPaise ?? 0));
    const late = runDays(sa, [], "2026-02-05");
    expect(payoffQuote(sa, late, "2026-02-05").totalPaise).toBe((due?.principalPaise ?? 0) + (due?.interestPaise ?? 0) + 50_000);
  });

  it("an advance is money paid, not principal repaid: interest still accrues, and paying the quote less a paisa leaves a paisa", () => {
    const loan = emiTerms(1_00_000_00, 2400, 12, "2025-01-10");
    const paid = loan.instalments.slice(0, 3).map((i, n): ServicingEvent => ({
      kind: "payment",
      id: `i${n}`,
      amountPaise: i.principalPaise + i.interestPaise,
      businessDate: i.dueDate,
    }));
    const quote = payoffQuote(loan, paid, "2025-05-09");
    const almost: ServicingEvent[] = [
      ...paid,
      { kind: "payment", id: "almost", amountPaise: quote.totalPaise - 1, businessDate: "2025-05-09" },
    ];
    const after = payoffQuote(loan, almost, "2025-05-09");
    expect(after.totalPaise).toBe(1);
    const closed = replay(loan, [...almost, { kind: "payment", id: "last", amountPaise: 1, businessDate: "2025-05-09" }], "2025-05-09");
    expect(closed.settlement?.on).toBe("2025-05-09");
    expect(closed.refundDuePaise).toBe(0);
    // A salary advance part-paid early still owes the interest on its principal.
    const sa = { ...advanceTerms(10_000_00, "2026-01-10", 1), rateBps: 10 };
    const part: ServicingEvent[] = [{ kind: "payment", id: "part", amountPaise: 10_050_00, businessDate: "2026-01-20" }];
    expect(payoffQuote(sa, [], "2026-01-20").totalPaise).toBe(10_100_00);
    expect(payoffQuote(sa, part, "2026-01-20").totalPaise).toBe(50_00);
    expect(payoffQuote(sa, part, "2026-01-21").totalPaise).toBe(60_00);
  });

  it("a penal charge waived or reversed is never levied again nor quoted", () => {
    const levied = runDays(terms, [], "2026-02-12");
    const penal = levied.find((e) => e.kind === "penal");
    if (!penal || penal.kind !== "penal") throw new Error("no charge");
    const waived = levied.map((e): ServicingEvent => (e.id === penal.id && e.kind === "penal" ? { ...e, undone: true } : e));
    expect(payoffQuote(terms, waived, "2026-02-20").penalPaise).toBe(0);
    expect(dailyRun(terms, waived, "2026-02-20").levy).toEqual([]);
  });
});
