// The loan page's Pay now amounts (payableToday) from the ledger already replayed to today and its
// payoff quote, as the page gives them, are the amounts payableToday works out itself.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "../../app/domain/loan-math.ts";
import { payoffWithAdvance, replay } from "../../app/domain/loans/servicing.ts";
import { payableToday } from "../../app/server/loan-account/read.server.ts";
import { loanArb, paymentsArb, withPayments } from "../fixtures/servicing.ts";

describe("payableToday", () => {
  it("gives the same amounts from the replay and payoff quote it is given as from its own", () => {
    fc.assert(
      fc.property(loanArb, paymentsArb, fc.integer({ min: 0, max: 60 }), (terms, payments, later) => {
        const { events, end } = withPayments(terms, payments);
        const today = addDays(end, later);
        const known = { state: replay(terms, events, today), payoff: payoffWithAdvance(terms, events, today).quote };
        expect(payableToday(terms.kind, terms, events, today, known)).toEqual(payableToday(terms.kind, terms, events, today));
      }),
      { numRuns: 30 },
    );
  });
});
