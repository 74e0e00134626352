import { describe, expect, it } from "vitest";
import { applicationTimeline as timelineOf, type TimelineFacts } from "../../app/domain/loans/timeline.ts";
import { said } from "../helpers/messages.ts";

/** The timeline with its words said in English (the domain gives catalogue keys). */
const applicationTimeline = (f: TimelineFacts) => {
  const t = timelineOf(f);
  return { next: said(t.next), steps: t.steps.map((s) => ({ ...s, label: said(s.label) })) };
};

const base = {
  signedOn: "2026-01-23",
  decidedOn: null,
  disbursedOn: null,
  waitingForYou: false,
  payoutInFlight: false,
  holidays: ["2026-01-26"],
};

describe("an application's timeline", () => {
  it("promises a decision by the end of the next working day after signing (a weekend and a holiday skipped)", () => {
    // Signed on Friday 23 January 2026; Monday 26 January is Republic Day.
    const t = applicationTimeline({ ...base, status: "signed" });
    expect(t.next).toBe("Next a credit officer decides, by the end of 27 Jan 2026. We send you an SMS either way.");
    expect(t.steps.map((s) => s.state)).toEqual(["done", "now", "todo", "todo"]);
  });

  it("says it is the borrower's turn while a request is open", () => {
    const t = applicationTimeline({ ...base, status: "under_review", waitingForYou: true });
    expect(t.steps[1]?.state).toBe("waiting_for_you");
    expect(t.next).toMatch(/^Next it is your turn/);
  });

  it("promises the money by the end of the working day after approval, then says when it was sent", () => {
    const approved = applicationTimeline({ ...base, status: "approved", decidedOn: "2026-01-27" });
    expect(approved.next).toBe(
      "Next we send the money to your bank account, by the end of 28 Jan 2026. We send you an SMS with the bank's reference.",
    );
    const paid = applicationTimeline({ ...base, status: "active", decidedOn: "2026-01-27", disbursedOn: "2026-01-28" });
    expect(paid.next).toBeNull();
    expect(paid.steps.at(-1)).toEqual({ key: "money", label: "Money sent to your bank account on 28 Jan 2026", state: "done" });
  });

  it("ends at a rejection or a cancellation with nothing next", () => {
    expect(applicationTimeline({ ...base, status: "rejected", decidedOn: "2026-01-27" }).steps.at(-1)).toMatchObject({
      state: "stopped",
      label: "Not approved on 27 Jan 2026",
    });
    expect(applicationTimeline({ ...base, status: "cancelled" }).next).toBeNull();
  });
});
