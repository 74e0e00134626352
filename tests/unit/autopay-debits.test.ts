import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, type IsoDate, isWorkingDay } from "../../app/domain/loan-math.ts";
import { indiaTime } from "../../app/domain/india-date.ts";
import {
  debitAmount,
  excessText,
  nextDebitText,
  noticeDay,
  noticeIsInTime,
  presentationDate,
  representationDate,
} from "../../app/domain/loans/autopay.ts";
import { daytime } from "../../app/domain/notifications.ts";
import { replay, type LoanTerms, type ServicingEvent } from "../../app/domain/loans/servicing.ts";
import { emiArb, emiTerms, runDays } from "../fixtures/servicing.ts";

describe("when an autopay debit is announced and presented", () => {
  it("presents UPI AutoPay on the due date and e-NACH on the next working day after a weekend or holiday", () => {
    // 2026-04-04 is a Saturday; 2026-04-06 a Monday made a holiday.
    expect(presentationDate("2026-04-04", "upi_autopay", [])).toBe("2026-04-04");
    expect(presentationDate("2026-04-04", "enach", [])).toBe("2026-04-06");
    expect(presentationDate("2026-04-04", "enach", ["2026-04-06"])).toBe("2026-04-07");
    expect(presentationDate("2026-04-02", "enach", [])).toBe("2026-04-02");
    // A bounce is presented again 3 working days later (Thursday → Tuesday over a weekend).
    expect(representationDate("2026-04-02", [])).toBe("2026-04-07");
  });

  it("sends the notice 2 days before, from 08:00: always at least 24 hours before the debit when made by 19:00 that day", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2000 }).map((n) => addDays("2026-01-01", n)),
        fc.integer({ min: 0, max: 19 * 60 - 1 }),
        (presentOn, minute) => {
          const day = noticeDay(presentOn);
          const made = new Date(indiaTime(day, "00:00").getTime() + minute * 60_000);
          const goesOut = daytime(made);
          expect(noticeIsInTime(goesOut, presentOn)).toBe(true);
          expect(indiaTime(presentOn, "00:00").getTime() - goesOut.getTime()).toBeGreaterThanOrEqual(24 * 3_600_000);
        },
      ),
      { numRuns: 300 },
    );
    // A notice that would go out less than 24 hours before is not in time.
    expect(noticeIsInTime(indiaTime("2026-04-01", "08:00"), "2026-04-02")).toBe(false);
    expect(noticeIsInTime(indiaTime("2026-04-01", "00:00"), "2026-04-02")).toBe(true);
  });

  it("never takes more than is due, than the notice named or than the mandate's maximum", () => {
    fc.assert(
      fc.property(fc.nat(10_00_000_00), fc.nat(10_00_000_00), fc.integer({ min: 1, max: 10_00_000_00 }), (due, notice, max) => {
        const amount = debitAmount({ duePaise: due, noticePaise: notice, maxAmountPaise: max });
        expect(amount).toBeGreaterThanOrEqual(0);
        expect(amount).toBeLessThanOrEqual(due);
        expect(amount).toBeLessThanOrEqual(notice);
        expect(amount).toBeLessThanOrEqual(max);
        expect(amount).toBe(Math.min(due, notice, max));
      }),
    );
  });
});

/** Instalment `seq`'s unpaid part on `asOf`. */
const unpaidOf = (terms: LoanTerms, events: readonly ServicingEvent[], asOf: IsoDate, seq: number) => {
  const r = replay(terms, events, asOf).instalments.find((i) => i.seq === seq);
  return r ? r.principalPaise + r.interestPaise - r.paidPrincipalPaise - r.paidInterestPaise : 0;
};

describe("a debit in progress in the replay", () => {
  it("keeps its instalment from being past due: no days past due, no penal charge, not overdue, until it is answered", () => {
    const terms = emiTerms(1_00_000_00, 1800, 6, "2026-01-10");
    const first = terms.instalments[0];
    if (!first) throw new Error("no instalment");
    const pending: ServicingEvent = {
      kind: "debit_pending",
      id: "d1",
      seq: 1,
      amountPaise: first.principalPaise + first.interestPaise,
      businessDate: first.dueDate,
    };
    const later = addDays(first.dueDate, 4);
    const inProgress = replay(terms, [pending], later);
    expect(inProgress.instalments[0]?.status).toBe("debit_in_progress");
    expect(inProgress).toMatchObject({ dpd: 0, overduePaise: 0, debitInProgressPaise: pending.amountPaise, penalsWarranted: [] });
    // It succeeded: a payment of the presentation date, on time.
    const paid = replay(terms, [{ kind: "payment", id: "p1", amountPaise: pending.amountPaise, businessDate: first.dueDate }], later);
    expect(paid).toMatchObject({ dpd: 0, overduePaise: 0, penalsWarranted: [] });
    expect(paid.instalments[0]?.status).toBe("paid");
    // It bounced: past due from its due date, and its one penal charge is warranted from the day after its grace date.
    const bounced = replay(terms, [], later);
    expect(bounced.dpd).toBe(4);
    expect(bounced.penalsWarranted).toEqual([expect.objectContaining({ seq: 1 })]);
  });

  it("over random loans and debits: while in progress never a charge or a day past due for it; once answered, at most the one charge", () => {
    fc.assert(
      fc.property(
        emiArb,
        fc.nat(40),
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom<"succeeds" | "bounces">("succeeds", "bounces"),
        (terms, pick, answerAfter, outcome) => {
          const r = terms.instalments[pick % terms.instalments.length];
          if (!r) return;
          // Everything before it paid on its due date; this one is debited on its presentation date.
          const before: ServicingEvent[] = terms.instalments
            .filter((i) => i.seq < r.seq)
            .map((i) => ({ kind: "payment", id: `p${i.seq}`, amountPaise: i.principalPaise + i.interestPaise, businessDate: i.dueDate }));
          const presentOn = presentationDate(r.dueDate, "enach", terms.holidays);
          expect(isWorkingDay(presentOn, terms.holidays)).toBe(true);
          const due = unpaidOf(terms, before, presentOn, r.seq);
          const pending: ServicingEvent = { kind: "debit_pending", id: "d", seq: r.seq, amountPaise: due, businessDate: presentOn };
          const answeredOn = addDays(presentOn, answerAfter);
          // Each day it is in progress: the daily run charges nothing for it and it is not past due.
          const running = runDays(terms, [...before, pending], answeredOn);
          expect(running.filter((e) => e.kind === "penal" && e.seq === r.seq)).toEqual([]);
          const s = replay(terms, running, answeredOn);
          expect(s.dpd).toBe(0);
          expect(s.overduePaise).toBe(0);
          // Answered: a success is on time; a bounce brings at most the one charge, however long the run goes on.
          const rest = running.filter((e) => e.kind !== "debit_pending");
          const answered =
            outcome === "succeeds"
              ? [...rest, { kind: "payment", id: "d", amountPaise: due, businessDate: presentOn } as ServicingEvent]
              : rest;
          const after = runDays(terms, answered, addDays(answeredOn, 40));
          const charges = after.filter((e) => e.kind === "penal" && e.seq === r.seq);
          if (outcome === "succeeds") expect(charges).toEqual([]);
          else expect(charges.length).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("a debit that paid an instalment already paid", () => {
  it("refunded out of the advance, leaves the loan as if it had never been debited; kept, pays the next instalment", () => {
    fc.assert(
      fc.property(emiArb, fc.nat(40), fc.integer({ min: 1, max: 2 }), (terms, pick, refundAfter) => {
        const r = terms.instalments[pick % terms.instalments.length];
        const next = terms.instalments.find((i) => i.seq === (r?.seq ?? 0) + 1);
        if (!r) return;
        const paidOnTime: ServicingEvent[] = terms.instalments
          .filter((i) => i.seq <= r.seq)
          .map((i) => ({ kind: "payment", id: `p${i.seq}`, amountPaise: i.principalPaise + i.interestPaise, businessDate: i.dueDate }));
        const presentOn = presentationDate(r.dueDate, "enach", terms.holidays);
        const due = r.principalPaise + r.interestPaise;
        const debit: ServicingEvent = { kind: "payment", id: "d", amountPaise: due, businessDate: presentOn };
        const refundOn = addDays(presentOn, refundAfter);
        const twice = [...paidOnTime, debit];
        const held = replay(terms, twice, refundOn);
        if (held.settlement) return; // it paid the loan off: refunded as an overpayment at closure instead
        expect(held.allocations.get("d")?.advancePaise).toBe(due);
        expect(held.advancePaise).toBe(due);
        const refund: ServicingEvent = { kind: "refund", id: "r", amountPaise: due, businessDate: refundOn, fromAdvance: true };
        const until = next ? addDays(next.dueDate, 3) : addDays(refundOn, 30);
        const refunded = replay(terms, [...twice, refund], until);
        const never = replay(terms, paidOnTime, until);
        for (const key of ["outstandingPrincipalPaise", "advancePaise", "refundDuePaise", "dpd", "overduePaise", "penalDuePaise"] as const)
          expect(refunded[key]).toBe(never[key]);
        expect(refunded.instalments.map((i) => i.status)).toEqual(never.instalments.map((i) => i.status));
        // Kept as an advance: the next instalment is paid on its due date from it, nothing owed back.
        const kept = replay(terms, twice, until);
        expect(kept.refundDuePaise).toBe(0);
        if (next && next.dueDate <= until && !kept.settlement) {
          const nextState = kept.instalments.find((i) => i.seq === next.seq);
          expect((nextState?.paidPrincipalPaise ?? 0) + (nextState?.paidInterestPaise ?? 0)).toBe(
            Math.min(due, next.principalPaise + next.interestPaise),
          );
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe("the loan page's autopay sentences", () => {
  const base = { kind: "enach" as const, maxAmountPaise: 15_000_00, holidays: [] as IsoDate[] };
  it("say the next debit before its notice: its amount at most the maximum, its e-NACH date, or why there is none", () => {
    // 2026-04-04 is a Saturday: e-NACH presents on Monday 6 April.
    const early = indiaTime("2026-03-20", "10:00");
    expect(nextDebitText({ ...base, next: { dueDate: "2026-04-04", amountPaise: 9_000_00 }, noticeAt: early })).toBe(
      "Next debit: ₹9,000 on 6 Apr 2026 for the instalment due on 4 Apr 2026. You get a notice two days before.",
    );
    expect(nextDebitText({ ...base, next: { dueDate: "2026-04-04", amountPaise: 20_000_00 }, noticeAt: early })).toContain(
      "Pay the other ₹5,000 with Pay now.",
    );
    expect(nextDebitText({ ...base, next: { dueDate: "2026-04-04", amountPaise: 0 }, noticeAt: early })).toContain(
      "your advance payment pays it",
    );
    // Less than 24 hours before its presentation: not debited, and the borrower is told to pay it.
    expect(
      nextDebitText({ ...base, next: { dueDate: "2026-04-04", amountPaise: 9_000_00 }, noticeAt: indiaTime("2026-04-05", "08:00") }),
    ).toContain("will not be debited");
  });

  it("say what becomes of a debit that paid an instalment already paid, one sentence per decision", () => {
    const d = { excessPaise: 4_500_00, presentOn: "2026-04-06" as IsoDate, excessRefundOn: "2026-04-07" as IsoDate };
    expect(excessText({ ...d, excessPaise: 0, excessChoice: null })).toBeNull();
    expect(excessText({ ...d, excessChoice: null })).toBe(
      "The debit of 6 Apr 2026 paid ₹4,500 for an instalment you had already paid. We will refund ₹4,500 to your bank account on 7 Apr 2026, unless you keep it as an advance towards your next instalments.",
    );
    expect(excessText({ ...d, excessChoice: "keep" })).toContain("as an advance");
    expect(excessText({ ...d, excessChoice: "refund" })).toContain("refunded");
    expect(excessText({ ...d, excessChoice: "none" })).toContain("used for what the loan owed");
  });
});
