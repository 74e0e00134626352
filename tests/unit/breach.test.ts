import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { fromIstDateTimeInput, indiaTime, istDateTimeInput } from "../../app/domain/india-date.ts";
import { breachNotice, renderNotice } from "../../app/server/notifications/render.server.ts";
import { breachDue, breachFormSchema, parseBreachReference, parseMobiles } from "../../app/domain/privacy/breach.ts";
import { BOARD_REPORT, type BreachFacts, boardReport, fillBlanks, TO_COMPLETE } from "../../app/domain/privacy/breach-drafts.ts";

// The breach register's rules (DPDP Rules, 2025, rule 7): the form, the 72 hours, and the two drafts.
const now = indiaTime("2026-03-05", "12:00");

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return parseWithZod(data, { schema: breachFormSchema(now) });
};
const valid = {
  discoveredAt: "2026-03-05T09:30",
  occurredAt: "2026-03-04T22:15",
  description: "A copy of the KYC table was readable on a misconfigured storage bucket of our document service.",
  dataItems: ["pan", "address"],
  consequences: "Someone may try to open loans in your name with your PAN.",
  mitigation: "We closed the bucket, rotated every key and asked the host to delete copies.",
  borrowerSteps: "Never share a one-time code; check your credit report for loans you did not take.",
  scope: "listed",
  mobiles: "98765 43210\n+91 9876543211, 09876543210\n\n9876543212",
};
const errorsOf = (fields: Record<string, string | string[]>) => {
  const s = form(fields);
  return s.status === "success" ? {} : (s.error ?? {});
};

describe("the breach form", () => {
  it("accepts a full record: India times, the data items, the listed numbers once each in their 10-digit form", () => {
    const s = form(valid);
    expect(s.status).toBe("success");
    if (s.status !== "success") return;
    expect(s.value.discoveredAt.toISOString()).toBe("2026-03-05T04:00:00.000Z");
    expect(s.value.occurredAt?.toISOString()).toBe("2026-03-04T16:45:00.000Z");
    expect(s.value.dataItems).toEqual(["pan", "address"]);
    expect(s.value.mobiles).toEqual(["9876543210", "9876543211", "9876543212"]);
  });

  it("takes one ticked item, no time of occurrence, and every borrower without numbers (any typed are dropped)", () => {
    const s = form({ ...valid, dataItems: "mobile", occurredAt: "", scope: "all" });
    expect(s.status).toBe("success");
    if (s.status === "success") expect(s.value).toMatchObject({ dataItems: ["mobile"], occurredAt: null, mobiles: [] });
  });

  it("refuses a time in the future, an occurrence after the awareness and a time that does not exist, each next to its field", () => {
    expect(errorsOf({ ...valid, discoveredAt: "2026-03-05T12:01" }).discoveredAt).toEqual([
      "When you became aware of the breach cannot be in the future.",
    ]);
    expect(errorsOf({ ...valid, occurredAt: "2026-03-05T10:00" }).occurredAt).toEqual([
      "It cannot have happened after you became aware of it.",
    ]);
    expect(errorsOf({ ...valid, discoveredAt: "2026-02-30T10:00" }).discoveredAt?.[0]).toMatch(/as a date and a time/);
    expect(errorsOf({ ...valid, discoveredAt: "" }).discoveredAt?.[0]).toMatch(/^Give when you became aware/);
    // The order is said even while another field is wrong.
    expect(errorsOf({ ...valid, description: "", occurredAt: "2026-03-05T10:00" })).toHaveProperty("occurredAt");
  });

  it("refuses no data item or one we do not keep, and words too short or too long", () => {
    expect(errorsOf({ ...valid, dataItems: [] }).dataItems).toEqual(["Tick each kind of personal data involved."]);
    expect(errorsOf({ ...valid, dataItems: ["pan", "blood_group"] })["dataItems[1]"]).toEqual([
      "That is not a kind of personal data we keep.",
    ]);
    expect(errorsOf({ ...valid, description: "Leak" }).description?.[0]).toMatch(/at least 20 characters/);
    expect(errorsOf({ ...valid, consequences: "x".repeat(2001) }).consequences?.[0]).toMatch(/under 2,000 characters/);
    for (const field of ["mitigation", "borrowerSteps", "consequences"]) expect(errorsOf({ ...valid, [field]: "" })).toHaveProperty(field);
    expect(errorsOf({ ...valid, scope: "some" }).scope).toEqual(["Choose who the breach affected."]);
  });

  it("refuses a listed breach without numbers or with something that is not a mobile number, naming it", () => {
    expect(errorsOf({ ...valid, mobiles: " \n, " }).mobiles?.[0]).toMatch(/^List the mobile number of each affected borrower/);
    expect(errorsOf({ ...valid, mobiles: "9876543210\n12345\n5876543210" }).mobiles?.[0]).toMatch(
      /^Not a mobile number: 12345, 5876543210\./,
    );
  });

  it("reads numbers however they are separated", () => {
    expect(parseMobiles("9876543210;9876543210 , +91-98765-43211\n0 98765 43212\nabc")).toEqual({
      mobiles: ["9876543210", "9876543211", "9876543212"],
      invalid: ["abc"],
    });
  });

  it("reads and writes a datetime-local value as India time", () => {
    const at = fromIstDateTimeInput("2026-03-05T23:45");
    expect(at?.toISOString()).toBe("2026-03-05T18:15:00.000Z");
    expect(istDateTimeInput(at!)).toBe("2026-03-05T23:45");
    expect(fromIstDateTimeInput("2026-03-05 23:45")).toBeNull();
    expect(fromIstDateTimeInput("2026-03-05T24:10")).toBeNull();
  });

  it("knows a breach's reference", () => {
    expect(parseBreachReference("br-0123abcd")).toBe("BR-0123ABCD");
    expect(parseBreachReference("BR-0123ABCI")).toBeNull();
    expect(parseBreachReference("DR-0123ABCD")).toBeNull();
  });
});

describe("the Board's report is due 72 hours from becoming aware", () => {
  const aware = indiaTime("2026-03-05", "09:30");
  it("counts the hours left, then says it is late", () => {
    expect(breachDue(aware, aware)).toEqual({ due: indiaTime("2026-03-08", "09:30"), late: false, text: "72 hours left" });
    expect(breachDue(aware, indiaTime("2026-03-08", "08:00")).text).toBe("1 hour left");
    expect(breachDue(aware, indiaTime("2026-03-08", "09:00")).text).toBe("less than an hour left");
    expect(breachDue(aware, indiaTime("2026-03-08", "09:31"))).toMatchObject({ late: true, text: "LATE" });
  });
  it("once reported, says whether it was in time", () => {
    expect(breachDue(aware, now, indiaTime("2026-03-07", "10:00"))).toMatchObject({ late: false, text: "reported in time" });
    expect(breachDue(aware, now, indiaTime("2026-03-09", "10:00"))).toMatchObject({ late: true, text: "reported late" });
  });
});

const facts: BreachFacts = {
  reference: "BR-7K2M9Q4X",
  discoveredAt: indiaTime("2026-03-05", "09:30"),
  occurredAt: indiaTime("2026-03-04", "22:15"),
  description: valid.description,
  dataItems: ["pan", "address"],
  consequences: valid.consequences,
  mitigation: "We closed the bucket, rotated every key and asked the host to delete copies",
  borrowerSteps: valid.borrowerSteps,
};
const lender = {
  name: "Demo NBFC Ltd",
  rbiRegistration: "N-14.03268",
  cin: "U65999MH2020PLC123456",
  address: "1 Demo Road, Mumbai 400001",
  grievanceOfficer: { name: "A. Demo", phone: "+91 22 4000 0000", email: "grievance@example.invalid" },
};
const sender = {
  brand: "Sugam Loans",
  lender: lender.name,
  contact: lender.grievanceOfficer,
  link: (p: string) => `https://sugam.example${p}`,
};
const unfilled = /undefined|null|NaN|\{[A-Za-z]+\}/;

describe("the notice to an affected borrower (rule 7(1))", () => {
  it("says what happened, when and which data; its consequences; our measures; the borrower's; and who answers", () => {
    const notice = breachNotice(facts, sender, "en");
    for (const part of [
      facts.description,
      "When it happened: 4 Mar 2026, 10:15 pm.",
      "On 5 Mar 2026, 9:30 am, Demo NBFC Ltd, which runs Sugam Loans, became aware",
      "PAN and Address and PIN code",
      `What this may mean for you: ${facts.consequences}`,
      // Staff's words end with a full stop when they did not.
      `What we have done and are doing: ${facts.mitigation}.`,
      `What you can do to protect yourself: ${facts.borrowerSteps}`,
      "contact A. Demo, our grievance officer, on +91 22 4000 0000 or at grievance@example.invalid, and quote the reference BR-7K2M9Q4X.",
    ])
      expect(notice.body).toContain(part);
    expect(notice.sms).toBe(
      "Sugam Loans: a personal data breach may have affected your data. What happened and what you can do: https://sugam.example/User/Notifications Questions: +91 22 4000 0000, quote BR-7K2M9Q4X.",
    );
    for (const text of [notice.title, notice.body, notice.sms]) expect(text).not.toMatch(unfilled);
    expect(breachNotice({ ...facts, occurredAt: null }, sender).body).toContain("When it happened: not known yet.");
  });

  it("is whole in Hindi too, every blank filled", () => {
    const notice = breachNotice({ ...facts, occurredAt: null }, sender, "hi");
    expect(notice.body).toContain("यह कब हुआ: अभी ज्ञात नहीं।");
    expect(notice.body).toContain("PAN और पता और पिन कोड");
    expect(notice.body).toContain("संदर्भ BR-7K2M9Q4X बताएँ");
    for (const text of [notice.title, notice.body, notice.sms]) expect(text).not.toMatch(unfilled);
    // The same blanks in each language: tests/unit/i18n.test.ts checks the catalogue's `notices.data_breach`.
  });

  it("is the data_breach notification's words on every channel, told at any hour", () => {
    const rendered = renderNotice(
      "data_breach",
      { ...facts, lender: lender.name, contact: lender.grievanceOfficer },
      { brand: "Sugam Loans", link: sender.link, language: "en" },
    );
    expect(rendered).toMatchObject({ ...breachNotice(facts, sender), daytimeOnly: false, attachments: [] });
    const hindi = renderNotice(
      "data_breach",
      { ...facts, lender: lender.name, contact: lender.grievanceOfficer },
      { brand: "Sugam Loans", link: sender.link, language: "hi" },
    );
    expect(hindi).toMatchObject({ ...breachNotice(facts, sender, "hi"), daytimeOnly: false, attachments: [] });
  });
});

describe("the report to the Data Protection Board (rule 7(2))", () => {
  const context = { brand: "Sugam Loans", lender, scope: "listed" as const, affected: 3, told: 0, noticesSentAt: null, now };
  const report = boardReport(facts, { ...context, due: indiaTime("2026-03-08", "09:30") });

  it("names the lender, its address and the person who answers for it", () => {
    for (const part of [
      "Data Fiduciary: Demo NBFC Ltd, which provides the digital lending service Sugam Loans.",
      "Registered address: 1 Demo Road, Mumbai 400001.",
      "RBI registration: N-14.03268. CIN: U65999MH2020PLC123456.",
      "Person who can answer for us: A. Demo, Grievance Officer, telephone +91 22 4000 0000, e-mail grievance@example.invalid.",
      "Our reference for this breach: BR-7K2M9Q4X.",
    ])
      expect(report).toContain(part);
  });

  it("has every item of rule 7(2)(a) and (b), filled from the record", () => {
    for (const part of [
      `1. Description of the breach, its nature and where it occurred: ${facts.description}`,
      "2. Extent: the personal data involved is PAN and Address and PIN code. Data Principals affected: 3 borrowers, each named in our register.",
      "3. Timing: the breach occurred on 4 Mar 2026, 10:15 pm. We became aware of it on 5 Mar 2026, 9:30 am.",
      `4. Likely impact: ${facts.consequences}`,
      "BY 8 Mar 2026, 9:30 am (rule 7(2)(b))",
      `(i) Updated and detailed information on the description: ${facts.description}`,
      "(ii) The broad facts of the events, circumstances and reasons leading to the breach:",
      `(iii) Measures implemented or proposed to mitigate risk: ${facts.mitigation}.`,
      "(iv) Findings regarding the person who caused the breach:",
      "(v) Remedial measures taken to prevent the breach happening again:",
      "(vi) Report on the intimations given to affected Data Principals: The affected borrowers have not been sent the notice yet.",
    ])
      expect(report).toContain(part);
    // What the record cannot hold is marked for the sender to write, and nothing else is left blank.
    expect(report.split(TO_COMPLETE)).toHaveLength(4);
    expect(report).not.toMatch(unfilled);
  });

  it("reports the notices sent, and a breach of every borrower", () => {
    const sent = boardReport(
      { ...facts, occurredAt: null },
      {
        ...context,
        scope: "all",
        affected: 2512,
        told: 1000,
        noticesSentAt: indiaTime("2026-03-05", "10:00"),
        due: indiaTime("2026-03-08", "09:30"),
      },
    );
    expect(sent).toContain("Data Principals affected: every borrower account, 2,512 at the time of this draft.");
    expect(sent).toContain("the breach occurred at a time not yet known.");
    expect(sent).toContain("From 5 Mar 2026, 10:00 am each affected borrower was sent the notice");
    expect(sent).toContain("1,000 of 2,512 had been sent it by 5 Mar 2026, 12:00 pm.");
    expect(sent).not.toMatch(unfilled);
  });
});

describe("a template's blanks", () => {
  it("are each filled once, a value's own braces kept as typed; a blank without a value is refused", () => {
    expect(fillBlanks("{a} and {b}", { a: "{b}", b: "x" })).toBe("{b} and x");
    expect(() => fillBlanks("{a} and {c}", { a: "1" })).toThrow("{c}");
    expect(BOARD_REPORT).toContain("{intimations}");
  });
});
