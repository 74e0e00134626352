import { describe, expect, it } from "vitest";
import {
  answerDueBy,
  answerLateIfRaisedBefore,
  answerLateness,
  answerWithinDays,
  escalation,
  latenessText,
  raiseTicketSchema,
  TICKET_CATEGORIES,
  type TicketCategory,
  type TicketStatus,
  ticketSummary,
} from "../../app/domain/help.ts";

// A ticket's answer is due on an India date: the day it was raised plus 21 days for a dispute of
// credit information, 30 for every other category. Each India day after it, a credit-information
// dispute owes the borrower ₹100. Instants are written in UTC; India is UTC+05:30.
const utc = (iso: string) => new Date(`${iso}Z`);

const ticket = (
  category: TicketCategory,
  createdAt: Date,
  { status = "open", resolvedAt = null }: { status?: TicketStatus; resolvedAt?: Date | null } = {},
) => ({
  reference: "GRV-2026000001",
  subject: "Wrong overdue reported",
  kind: "complaint" as const,
  category,
  status,
  createdAt,
  resolvedAt,
});

// Raised at 10:00 on 1 June 2026 in India.
const raised = utc("2026-06-01T04:30:00");

describe("the answer's due date", () => {
  it("is 21 India days for a dispute of credit information and 30 for every other category", () => {
    expect(answerDueBy(ticket("credit_information", raised))).toBe("2026-06-22");
    for (const category of Object.keys(TICKET_CATEGORIES) as TicketCategory[]) {
      if (category === "credit_information") continue;
      expect(answerWithinDays(category)).toBe(30);
      expect(answerDueBy(ticket(category, raised))).toBe("2026-07-01");
    }
  });

  it("counts from the India day the ticket was raised, not the UTC one", () => {
    // 23:59:59 on 1 June in India, and a second later, 2 June.
    expect(answerDueBy(ticket("credit_information", utc("2026-06-01T18:29:59")))).toBe("2026-06-22");
    expect(answerDueBy(ticket("credit_information", utc("2026-06-01T18:30:00")))).toBe("2026-06-23");
    expect(ticketSummary(ticket("credit_information", utc("2026-06-01T18:30:00")), raised).dueBy).toBe("2026-06-22T18:30:00.000Z");
  });
});

describe("how late the answer is, and the compensation owed", () => {
  it("is on time all through the due India day, even past exactly 21 × 24 hours", () => {
    const open = ticket("credit_information", raised);
    for (const now of [
      utc("2026-06-15T04:30:00"),
      utc("2026-06-22T04:30:00"), // exactly 21 days after it was raised
      utc("2026-06-22T18:29:59.999"), // 23:59:59.999 on 22 June in India
    ]) {
      expect(answerLateness(open, now), now.toISOString()).toEqual({ daysLate: 0, compensationPaise: 0 });
      expect(ticketSummary(open, now).late).toBe(false);
    }
  });

  it("is 1 day late, ₹100, from midnight in India after the due date", () => {
    const now = utc("2026-06-22T18:30:00"); // 00:00 on 23 June in India
    expect(answerLateness(ticket("credit_information", raised), now)).toEqual({ daysLate: 1, compensationPaise: 10_000 });
    expect(ticketSummary(ticket("credit_information", raised), now).late).toBe(true);
    expect(latenessText(answerLateness(ticket("credit_information", raised), now))).toBe("1 day late · ₹100 owed");
  });

  it("grows each day while the ticket is unresolved (open, in progress or waiting for the borrower)", () => {
    const now = utc("2026-06-27T12:00:00"); // 27 June in India: 5 days after 22 June
    for (const status of ["open", "in_progress", "waiting"] as const)
      expect(answerLateness(ticket("credit_information", raised, { status }), now)).toEqual({ daysLate: 5, compensationPaise: 50_000 });
    expect(latenessText(answerLateness(ticket("credit_information", raised), now))).toBe("5 days late · ₹500 owed");
    // Reopened: its resolution is undone, and the days count on to today.
    expect(answerLateness(ticket("credit_information", raised, { status: "in_progress", resolvedAt: null }), now).daysLate).toBe(5);
  });

  it("stops at the resolution when it was resolved late, however long ago that was", () => {
    const resolvedAt = utc("2026-06-25T10:00:00"); // 25 June in India
    const later = utc("2026-09-01T10:00:00");
    for (const status of ["resolved", "closed"] as const)
      expect(answerLateness(ticket("credit_information", raised, { status, resolvedAt }), later)).toEqual({
        daysLate: 3,
        compensationPaise: 30_000,
      });
    // Resolved late is not "late" in the queue's sense (nothing is left to answer), but the amount stays owed.
    expect(ticketSummary(ticket("credit_information", raised, { status: "resolved", resolvedAt }), later).late).toBe(false);
    expect(latenessText(answerLateness(ticket("credit_information", raised, { status: "resolved", resolvedAt }), later))).toBe(
      "3 days late · ₹300 owed",
    );
  });

  it("owes nothing when resolved on time, whenever it is looked at", () => {
    const resolvedAt = utc("2026-06-22T18:00:00"); // 23:30 on the due date in India
    expect(answerLateness(ticket("credit_information", raised, { status: "resolved", resolvedAt }), utc("2026-12-01T00:00:00"))).toEqual({
      daysLate: 0,
      compensationPaise: 0,
    });
    expect(latenessText({ daysLate: 0, compensationPaise: 0 })).toBeNull();
  });

  it("counts other categories late only after 30 days, and owes no compensation for them", () => {
    expect(answerLateness(ticket("repayment", raised), utc("2026-07-01T18:29:59")).daysLate).toBe(0);
    const late = answerLateness(ticket("repayment", raised), utc("2026-07-03T06:00:00"));
    expect(late).toEqual({ daysLate: 2, compensationPaise: 0 });
    expect(latenessText(late)).toBe("2 days late");
  });

  it("finds the same late tickets by the SQL's cut-off as by the due date, at every hour around the boundary", () => {
    for (let h = 0; h < 72; h++) {
      const now = new Date(utc("2026-06-21T00:00:00").getTime() + h * 3_600_000);
      for (const createdAt of [raised, utc("2026-06-01T18:29:59.999"), utc("2026-06-01T18:30:00")]) {
        const t = ticket("credit_information", createdAt);
        const bySql = createdAt < answerLateIfRaisedBefore(now, answerWithinDays("credit_information"));
        expect(bySql, `${createdAt.toISOString()} at ${now.toISOString()}`).toBe(answerLateness(t, now).daysLate > 0);
      }
    }
  });
});

describe("the Ombudsman", () => {
  it("stays at 30 days for a complaint about credit information, though its answer is due in 21", () => {
    const facts = { kind: "complaint" as const, status: "open" as const, createdAt: raised, resolvedAt: null, notAcceptedAt: null };
    expect(escalation(facts, utc("2026-06-26T04:30:00"))).toBeNull();
    expect(escalation(facts, utc("2026-07-01T05:00:00"))).toBe("late");
  });
});

describe("the new-ticket form", () => {
  it("takes a dispute of credit information, in the browser and on the server alike", () => {
    const form = {
      once: crypto.randomUUID(),
      kind: "complaint",
      category: "credit_information",
      subject: "Wrong overdue on CIBIL",
      message: "My credit report shows an overdue EMI that I paid on time.",
    };
    expect(raiseTicketSchema.safeParse(form).success).toBe(true);
    expect(raiseTicketSchema.safeParse({ ...form, category: "bureau" }).success).toBe(false);
    expect(TICKET_CATEGORIES.credit_information).toBe("My credit report (credit bureau information)");
  });
});
