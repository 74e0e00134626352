import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  caseChange,
  DEFAULT_DUNNING_STEPS,
  dueStep,
  type DunningStep,
  dunningHeld,
  DUNNING_FORM_ROWS,
  dunningFormSchema,
  dunningFormValues,
  dunningRulesSchema,
  dunningStepsEqual,
  dunningStepText,
  inContactHours,
  noticeChannels,
  promiseOutcome,
  promiseSchema,
} from "../../app/domain/collections.ts";
import { indiaTime } from "../../app/domain/india-date.ts";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { daytime } from "../../app/domain/notifications.ts";

const day = (n: number) => addDays("2026-04-01", n);

describe("collections rules", () => {
  it("open a case exactly while an active loan is past due", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.integer({ min: -5, max: 400 }), fc.boolean(), (open, dpd, loanActive) => {
        const change = caseChange({ open, dpd, loanActive });
        const openAfter = change === "open" ? true : change === "close" ? false : open;
        expect(openAfter).toBe(loanActive && dpd > 0);
      }),
    );
  });

  it("keep a promise exactly when the payments dated within it add up to its amount, else break it after its date", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 1_00_000_00 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 7 }),
        fc.array(fc.record({ amountPaise: fc.integer({ min: 1, max: 50_000_00 }), at: fc.integer({ min: 0, max: 40 }) }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 40 }),
        (amountPaise, made, length, paid, today) => {
          const promise = { amountPaise, madeOn: day(made), dueOn: day(made + length), status: "open" as const };
          const payments = paid.map((p) => ({ amountPaise: p.amountPaise, businessDate: day(p.at) }));
          const within = payments
            .filter((p) => p.businessDate >= promise.madeOn && p.businessDate <= promise.dueOn)
            .reduce((s, p) => s + p.amountPaise, 0);
          const outcome = promiseOutcome(promise, payments, day(today));
          if (within >= amountPaise) expect(outcome).toBe("kept");
          else expect(outcome).toBe(day(today) > promise.dueOn ? "broken" : "open");
          expect(promiseOutcome({ ...promise, status: "cancelled" }, payments, day(today))).toBe("cancelled");
        },
      ),
    );
  });

  it("send the latest step reached once, never an earlier one after it, and each step at most once", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 30 }), (dpds) => {
        const sent = new Set<number>();
        for (const dpd of dpds) {
          const step = dueStep(DEFAULT_DUNNING_STEPS, dpd, sent);
          if (!step) continue;
          expect(step.dpd).toBeLessThanOrEqual(dpd);
          expect(sent.has(step.dpd)).toBe(false);
          // No later step is reached that it skips.
          expect(DEFAULT_DUNNING_STEPS.some((s) => s.dpd > step.dpd && s.dpd <= dpd)).toBe(false);
          sent.add(step.dpd);
        }
      }),
    );
  });

  it("hold a reminder while paused, a debit is in progress, a promise is open or one went that day", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (paused, debitInProgress, promiseOpen, sentThatDay) => {
        const held = dunningHeld({ paused, debitInProgress, promiseOpen, sentThatDay });
        expect(held === null).toBe(!paused && !debitInProgress && !promiseOpen && !sentThatDay);
      }),
    );
  });

  it("send reminders made at any hour only between 08:00 and 19:00, and contact only then", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 * 24 * 30 }), (minute) => {
        const made = new Date(indiaTime("2026-04-01", "00:00").getTime() + minute * 60_000);
        expect(inContactHours(daytime(made))).toBe(true);
        expect(daytime(made).getTime()).toBeGreaterThanOrEqual(made.getTime());
      }),
    );
    expect(inContactHours(indiaTime("2026-04-01", "07:59"))).toBe(false);
    expect(inContactHours(indiaTime("2026-04-01", "08:00"))).toBe(true);
    expect(inContactHours(indiaTime("2026-04-01", "18:59"))).toBe(true);
    expect(inContactHours(indiaTime("2026-04-01", "19:00"))).toBe(false);
  });

  it("take a promise from today to 7 days ahead only, and rules with one step a day that each do something", () => {
    const today: IsoDate = "2026-04-10";
    const schema = promiseSchema(today);
    expect(schema.safeParse({ intent: "promise", amount: "2,500", dueOn: "2026-04-17" }).success).toBe(true);
    expect(schema.safeParse({ intent: "promise", amount: "2500", dueOn: "2026-04-18" }).error?.issues[0]?.message).toBe(
      "Choose a date from today to 7 days ahead (10 Apr 2026 to 17 Apr 2026).",
    );
    expect(schema.safeParse({ intent: "promise", amount: "2500", dueOn: "2026-04-09" }).success).toBe(false);
    expect(schema.safeParse({ intent: "promise", amount: "0.5", dueOn: "2026-04-12" }).success).toBe(false);
    expect(dunningRulesSchema.safeParse(DEFAULT_DUNNING_STEPS).success).toBe(true);
    expect(
      dunningRulesSchema.safeParse([...DEFAULT_DUNNING_STEPS, { dpd: 3, channels: ["email"], tone: "firm", callTask: false }]).success,
    ).toBe(false);
    expect(dunningRulesSchema.safeParse([{ dpd: 5, channels: [], tone: "firm", callTask: false }]).success).toBe(false);
    expect(noticeChannels(["letter"]).sort()).toEqual(["email", "sms"]);
  });
});

describe("every collections reminder", () => {
  it("names the loan, the amount, how to pay and how to complain, on every channel it has words for", async () => {
    const { renderNotice } = await import("../../app/server/notifications/render.server.ts");
    const context = { brand: "Sugam Loans", link: (path: string) => `https://sugam.example${path}`, language: "en" as const };
    const data = {
      loanNumber: "SL12345678",
      loanPath: "/User/Loans/Emi/SL12345678",
      amountPaise: 9_168_42,
      dpd: 12,
      grievancePath: "/grievance-policy",
      grievancePhone: "+91 80 4000 0000",
    };
    for (const event of ["dunning_gentle", "dunning_firm", "dunning_letter"] as const) {
      const n = renderNotice(event, event === "dunning_letter" ? { ...data, sendId: "s1" } : data, context);
      expect(n.daytimeOnly).toBe(true);
      for (const text of [n.body, n.sms ?? ""]) {
        expect(text).toContain("SL12345678");
        expect(text).toContain("₹9,168.42");
        expect(text).toContain("+91 80 4000 0000");
      }
      // How to pay: the SMS links the loan's page; the in-app notice and the e-mail open it (its path).
      expect(n.sms).toContain("https://sugam.example/User/Loans/Emi/SL12345678");
      expect(n.body).toContain("Pay now");
      expect(n.body).toContain("https://sugam.example/grievance-policy");
      expect(n.path).toBe(data.loanPath);
    }
  });
});

describe("the dunning rules form", () => {
  const issues = (input: Record<string, string>) =>
    Object.fromEntries((dunningFormSchema.safeParse(input).error?.issues ?? []).map((i) => [i.path.join(".") || "form", i.message]));

  it("turns the rows into the rules, in order of days, and back", () => {
    const values = dunningFormValues(DEFAULT_DUNNING_STEPS);
    const parsed = dunningFormSchema.safeParse({ ...values, reason: "  The same again  " });
    expect(parsed.data).toEqual({ reason: "The same again", steps: DEFAULT_DUNNING_STEPS });
    const reordered = dunningFormSchema.safeParse({
      dpd0: "9",
      email0: "on",
      tone0: "firm",
      dpd1: "2",
      sms1: "on",
      push1: "on",
      tone1: "gentle",
      call1: "on",
      dpd2: "4",
      remove2: "on",
      reason: "Two steps",
    });
    expect(reordered.data?.steps).toEqual([
      { dpd: 2, channels: ["sms", "push"], tone: "gentle", callTask: true },
      { dpd: 9, channels: ["email"], tone: "firm", callTask: false },
    ]);
    expect(dunningStepsEqual(reordered.data?.steps ?? [], [...(reordered.data?.steps ?? [])].reverse())).toBe(true);
    expect(dunningStepsEqual(DEFAULT_DUNNING_STEPS, reordered.data?.steps ?? [])).toBe(false);
  });

  it("puts each problem on its row's field, and no step at all or too many on the form", () => {
    expect(issues({ dpd0: "0", sms0: "on", tone0: "gentle", reason: "Testing" })).toEqual({
      dpd0: "The day past due must be a whole number from 1 to 720.",
    });
    expect(issues({ dpd0: "2.5", sms0: "on", tone0: "gentle", reason: "Testing" }).dpd0).toBeDefined();
    expect(issues({ dpd0: "721", sms0: "on", tone0: "gentle", reason: "Testing" }).dpd0).toBeDefined();
    expect(issues({ dpd0: "3", sms0: "on", tone0: "gentle", dpd4: "3", call4: "on", tone4: "firm", reason: "Testing" })).toEqual({
      dpd4: "Step 1 is already on day 3: each day has one step.",
    });
    expect(issues({ dpd0: "3", tone0: "gentle", reason: "Testing" })).toEqual({
      dpd0: "This step sends no message and makes no call task: tick a channel or the call task, or remove the step.",
    });
    expect(issues({ dpd0: "3", sms0: "on", reason: "Testing" })).toEqual({ tone0: "Choose the tone of the message." });
    expect(issues({ dpd0: "3", sms0: "on", tone0: "loud", reason: "Testing" })).toEqual({ tone0: "Choose the tone of the message." });
    expect(issues({ dpd0: "3", sms0: "on", tone0: "gentle", remove0: "on" })).toEqual({
      form: "Keep at least one step.",
      reason: "Say why it changes.",
    });
    expect(issues({ dpd0: "3", sms0: "on", tone0: "gentle", reason: "abc" }).reason).toMatch(/at least 5 characters/);
    const full: Record<string, string> = { reason: "Every row filled" };
    for (let i = 0; i < DUNNING_FORM_ROWS; i++)
      Object.assign(full, { [`dpd${i}`]: String(i + 1), [`sms${i}`]: "on", [`tone${i}`]: "gentle" });
    expect(issues(full)).toEqual({ form: "At most 20 steps." });
  });

  it("says each step in words", () => {
    expect(DEFAULT_DUNNING_STEPS.map(dunningStepText)).toEqual([
      "Day 1: SMS and push, gentle",
      "Day 3: SMS, gentle",
      "Day 7: e-mail, firm, and a call task",
      "Day 15: a call task only, no message",
      "Day 30: letter, formal",
    ]);
  });

  it("accepts exactly what the stored rules' schema accepts (fast-check)", () => {
    const row = fc.record({
      dpd: fc.oneof(fc.integer({ min: 0, max: 725 }).map(String), fc.constant("")),
      channels: fc.subarray(["sms", "push", "email", "letter"] as const),
      tone: fc.constantFrom("gentle", "firm", "letter", ""),
      callTask: fc.boolean(),
      remove: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: DUNNING_FORM_ROWS }), (rows) => {
        const input: Record<string, string> = { reason: "Checked by properties" };
        rows.forEach((r, i) => {
          if (r.dpd) input[`dpd${i}`] = r.dpd;
          if (r.tone) input[`tone${i}`] = r.tone;
          for (const c of r.channels) input[`${c}${i}`] = "on";
          if (r.callTask) input[`call${i}`] = "on";
          if (r.remove) input[`remove${i}`] = "on";
        });
        const steps = rows
          .filter((r) => r.dpd && !r.remove)
          .map((r) => ({ dpd: Number(r.dpd), channels: [...r.channels], tone: r.tone, callTask: r.callTask }));
        const parsed = dunningFormSchema.safeParse(input);
        expect(parsed.success).toBe(dunningRulesSchema.safeParse(steps).success);
        if (parsed.success) expect(dunningStepsEqual(parsed.data.steps, steps as DunningStep[])).toBe(true);
      }),
    );
  });
});
