import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NOTIFICATION_EVENTS, type NoticeData, type NotificationEvent } from "../../app/domain/notifications.ts";
import { smsParts } from "../../app/domain/sms.ts";
import type { Language } from "../../app/i18n/languages.ts";
import { breachNotice, noticeEmail, paidWords, renderNotice } from "../../app/server/notifications/render.server.ts";
import { plainTranslator } from "../../app/i18n/plain-format.ts";
import { englishWords } from "../helpers/english.ts";

// Every notice a borrower can get, written out in English and in Hindi (docs/product.md
// "Languages"): each variant of each event with sample data, every placeholder filled, no English
// word left in the Hindi outside the kept terms and the values given (the brand, staff's own words,
// the bank's reason, names); SMS in Hindi go as Unicode; and the words come out the same under
// plain Node (the daily run and the seed), where Vite's alias of use-intl's formatter is absent.

const link = (p: string) => `https://sugam.in${p}`;
const BRAND = "Sugam Loans";
const contact = { name: "A. Demo", phone: "+91 22 4000 0000", email: "grievance@example.invalid" };
const breach = {
  ...{ reference: "BR-7K2M9Q4X", lender: "Demo NBFC Ltd", contact, dataItems: ["pan", "address"] },
  ...{ discoveredAt: new Date("2026-03-05T04:00:00Z"), occurredAt: new Date("2026-03-04T16:45:00Z") },
  description: "A storage bucket was open to the internet for two days.",
  consequences: "Someone could try to use your PAN",
  mitigation: "We closed the bucket and rotated every key",
  borrowerSteps: "Watch your credit report",
};
const loan = { loanNumber: "SL12345678", loanPath: "/User/Loans/Emi/SL12345678" };
const dunning = { ...loan, amountPaise: 18_336_84, dpd: 31, grievancePath: "/grievance-policy", grievancePhone: "+91 22 4000 0001" };

/** Each event's variants: every branch its words have. */
const SAMPLES: { [E in NotificationEvent]: NoticeData[E][] } = {
  application_signed: [{ applicationId: "a1", reference: "k7qx2m4p-0000", agreementRef: "AG-1" }],
  application_asked: [{ reference: "k7qx2m4p-0000" }],
  application_approved: [
    { reference: "k7qx2m4p", product: "emi", amountPaise: 1_00_000_00, accountMasked: "XXXX1234" },
    { reference: "k7qx2m4p", product: "salary_advance", amountPaise: 20_000_00, accountMasked: null, autopayPath: "/x/Step7" },
  ],
  application_rejected: [{ reference: "k7qx2m4p", statusPath: "/User/newLoan/Emi/K7QX2M4P/Step7" }],
  loan_disbursed: [
    {
      applicationId: "a1",
      amountPaise: 95_000_00,
      accountMasked: "XXXX1234",
      utr: "HDFCN52026030212345678",
      firstDuePaise: 9_168_42,
      firstDueDate: "2026-04-05",
      ...loan,
    },
    {
      applicationId: "a1",
      amountPaise: 95_000_00,
      accountMasked: "XXXX1234",
      utr: null,
      firstDuePaise: 9_168_42,
      firstDueDate: "2026-04-05",
      ...loan,
    },
  ],
  disbursal_utr: [{ amountPaise: 95_000_00, utr: "HDFCN52026030212345678", ...loan }],
  disbursal_reversed: [{ amountPaise: 95_000_00, accountMasked: "XXXX1234", loanNumber: "SL12345678" }],
  revised_kfs: [{ applicationId: "a1", ...loan }],
  due_soon: [{ ...loan, amountPaise: 9_168_42, dueDate: "2026-04-05" }],
  due_today: [{ ...loan, amountPaise: 9_168_42, dueDate: "2026-04-05" }],
  payment_received: [
    {
      ...loan,
      amountPaise: 9_168_42,
      on: "2026-04-05",
      paid: { interestPaise: 1_000_00, principalPaise: 8_168_42, penalPaise: 0, keptPaise: 0, returnedPaise: 0 },
      next: { kind: "due", dueDate: "2026-05-05", instalmentPaise: 9_168_42, coveredPaise: 0, amountPaise: 9_168_42 },
    },
    {
      ...loan,
      amountPaise: 20_000_00,
      on: "2026-04-05",
      paid: { interestPaise: 1_000_00, principalPaise: 8_000_00, penalPaise: 500_00, keptPaise: 9_000_00, returnedPaise: 1_500_00 },
      next: { kind: "due", dueDate: "2026-05-05", instalmentPaise: 9_168_42, coveredPaise: 9_168_42, amountPaise: 0 },
    },
    {
      ...loan,
      amountPaise: 5_000_00,
      on: "2026-04-05",
      paid: null,
      next: { kind: "due", dueDate: "2026-05-05", instalmentPaise: 9_168_42, coveredPaise: 5_000_00, amountPaise: 4_168_42 },
    },
    { ...loan, amountPaise: 100_00, on: "2026-04-05", paid: null, next: { kind: "overdue", amountPaise: 4_000_00 } },
    { ...loan, amountPaise: 100_00, on: "2026-04-05", paid: null, next: { kind: "done" } },
  ],
  penal_charged: [{ ...loan, amountPaise: 450_00, seq: 2, dueDate: "2026-05-05", duePaise: 9_618_42 }],
  loan_closed: [{ ...loan, on: "2026-06-01" }],
  loan_cancelled: [{ ...loan, on: "2026-03-04" }],
  loan_reopened: [loan],
  refund_processed: [
    { ...loan, amountPaise: 500_00, accountMasked: "XXXX1234", utr: "HDFCN52026030212345678" },
    { ...loan, amountPaise: 500_00, accountMasked: "XXXX1234", utr: null },
  ],
  staff_notice: [
    { title: "Office closed on Friday", message: "Our office is closed on Friday.", urgent: true },
    { title: "Office closed on Friday", message: "Our office is closed on Friday.", urgent: false },
  ],
  ticket_raised: [
    { reference: "TK-7K2M9Q", path: "/User/Help/TK-7K2M9Q" },
    { reference: "TK-7K2M9Q", path: "/User/Help/TK-7K2M9Q", withinDays: 21 },
  ],
  ticket_answered: [
    { reference: "TK-7K2M9Q", path: "/User/Help/TK-7K2M9Q", resolved: true },
    { reference: "TK-7K2M9Q", path: "/User/Help/TK-7K2M9Q", resolved: false },
  ],
  credit_report_ready: [{ path: "/User/newLoan/Emi/K7QX2M4P/Step0" }],
  application_returned: [
    { reference: "k7qx2m4p", maxAmountPaise: 50_000_00, path: "/User/newLoan/Emi/K7QX2M4P/Step0" },
    { reference: "k7qx2m4p", maxAmountPaise: 0, path: "/User/newLoan/Emi/K7QX2M4P/Step0" },
  ],
  autopay_notice: [
    { ...loan, amountPaise: 9_168_42, presentOn: "2026-04-05", mandate: "upi_autopay", accountMasked: "XXXX1234" },
    { ...loan, amountPaise: 9_168_42, presentOn: "2026-04-05", mandate: "enach", accountMasked: "XXXX1234" },
  ],
  autopay_bounced: [
    { ...loan, amountPaise: 9_168_42, presentOn: "2026-04-05", reason: "Insufficient funds", again: null },
    {
      ...loan,
      amountPaise: 9_168_42,
      presentOn: "2026-04-05",
      reason: "Insufficient funds",
      again: { amountPaise: 9_618_42, presentOn: "2026-04-08" },
    },
  ],
  autopay_excess: [{ ...loan, amountPaise: 9_168_42, presentOn: "2026-04-05", refundOn: "2026-04-08", accountMasked: "XXXX1234" }],
  dunning_gentle: [dunning],
  dunning_firm: [dunning],
  dunning_letter: [{ ...dunning, sendId: "s1" }],
  bureau_reported: [
    { ...loan, asOf: "2026-06-30", dpd: 45, overduePaise: 18_336_84, reported: "past_due" },
    { ...loan, asOf: "2026-06-30", dpd: 200, overduePaise: 18_336_84, reported: "written_off" },
    { ...loan, asOf: "2026-06-30", dpd: 0, overduePaise: 0, reported: "settled" },
  ],
  data_request_received: [
    { reference: "DR-7K2M9Q", kind: "correction", dueOn: "2026-04-05", path: "/User/Profile/privacy" },
    { reference: "DR-7K2M9Q", kind: "erasure", dueOn: "2026-04-05", path: "/User/Profile/privacy" },
  ],
  data_request_answered: [
    { reference: "DR-7K2M9Q", done: true, path: "/User/Profile/privacy" },
    { reference: "DR-7K2M9Q", done: false, path: "/User/Profile/privacy" },
  ],
  data_breach: [breach],
};

/** What a Hindi notice may show in Latin letters: the values it is given (the brand, staff's and the bank's words, names). */
const VALUES = [
  BRAND,
  "Our office is closed on Friday.",
  "Office closed on Friday",
  "Insufficient funds",
  "TransUnion CIBIL",
  "Equifax",
  "Experian",
  "CRIF High Mark",
  "XXXX1234",
  breach.description,
  breach.consequences,
  breach.mitigation,
  breach.borrowerSteps,
  breach.lender,
  breach.contact.name,
  // References as the borrower quotes them.
  "K7QX2M4P",
  "TK-7K2M9Q",
  "DR-7K2M9Q",
  breach.reference,
];

const render = (event: NotificationEvent, data: NoticeData[NotificationEvent], language: Language) =>
  renderNotice(event, data as never, { brand: BRAND, link, language });

const all = () => NOTIFICATION_EVENTS.flatMap((event) => SAMPLES[event].map((data, i) => ({ event, data, i })));

describe("every notice in both languages", () => {
  it("has a sample of every event", () => {
    for (const event of NOTIFICATION_EVENTS) expect(SAMPLES[event].length, event).toBeGreaterThan(0);
  });

  it("fills every placeholder in both languages, on every channel, with the same page and attachments", () => {
    for (const { event, data, i } of all()) {
      const en = render(event, data, "en");
      const hi = render(event, data, "hi");
      for (const n of [en, hi])
        for (const text of [n.title, n.body, n.sms ?? ""]) expect(text, `${event}#${i}`).not.toMatch(/undefined|NaN|\{|\}| {2}/);
      expect(hi.path).toBe(en.path);
      expect(hi.attachments).toEqual(en.attachments);
      expect(hi.daytimeOnly).toBe(en.daytimeOnly);
      expect(hi.sms === null).toBe(en.sms === null);
    }
  });

  it("writes the Hindi in Hindi: no English word outside the kept terms and the values given", () => {
    const left: string[] = [];
    for (const { event, data, i } of all()) {
      const hi = render(event, data, "hi");
      for (const [channel, text] of [
        ["title", hi.title],
        ["body", hi.body],
        ["sms", hi.sms ?? ""],
      ] as const) {
        // Staff's own notice is their words, as typed (staff pages are English).
        if (event === "staff_notice" && channel !== "sms") continue;
        const words = englishWords(text, VALUES);
        if (words.length) left.push(`${event}#${i}.${channel}: ${words.join(" ")}`);
      }
    }
    expect(left).toEqual([]);
  });

  it("keeps the English words as they were", () => {
    expect(render("due_today", SAMPLES.due_today[0]!, "en")).toMatchObject({
      title: "₹9,168.42 due today",
      body: "₹9,168.42 for loan SL12345678 is due today, 5 Apr 2026. Pay in the app to stay on time.",
      sms: "Sugam Loans: ₹9,168.42 for loan SL12345678 is due today. Pay at https://sugam.in/User/Loans/Emi/SL12345678",
    });
    expect(render("loan_disbursed", SAMPLES.loan_disbursed[1]!, "en").sms).toContain("UTR to follow.");
    expect(render("payment_received", SAMPLES.payment_received[1]!, "en").body).toBe(
      "We received ₹20,000 for loan SL12345678 on 5 Apr 2026. It paid ₹1,000 of interest, ₹8,000 of principal and ₹500 of penal charges. ₹9,000 is kept for your next instalment. The processing fee and its GST, ₹1,500, are returned to you under the cooling-off rule. Your next instalment, ₹9,168.42 on 5 May 2026 (loan SL12345678), is already paid by your advance payment.",
    );
    expect(render("payment_received", SAMPLES.payment_received[4]!, "en").body).toBe(
      "We received ₹100 for loan SL12345678 on 5 Apr 2026. Thank you.",
    );
    expect(render("application_approved", SAMPLES.application_approved[0]!, "en").body).toContain(
      "Your EMI loan of ₹1,00,000 (application K7QX2M4P) is approved.",
    );
  });

  it("writes dates in Hindi and amounts alike in both", () => {
    const hi = render("due_soon", SAMPLES.due_soon[0]!, "hi");
    expect(hi.title).toBe("5 अप्रैल 2026 को ₹9,168.42 चुकाने हैं");
    expect(hi.sms).toBe(
      "Sugam Loans: लोन SL12345678 के ₹9,168.42 5 अप्रैल 2026 को चुकाने हैं। यहाँ चुकाएँ: https://sugam.in/User/Loans/Emi/SL12345678",
    );
    const t = plainTranslator("hi", "notices");
    expect(paidWords(SAMPLES.payment_received[1]!.paid, t, "hi")).toContain("₹1,000 ब्याज, ₹8,000 मूलधन और ₹500 देर से भुगतान का शुल्क");
  });

  it("sends each Hindi SMS as Unicode, its parts counted at 70 (67 when split)", () => {
    for (const { event, data } of all()) {
      const sms = render(event, data, "hi").sms;
      if (sms) expect(smsParts(sms).encoding, event).toBe("ucs2");
    }
    expect(smsParts("a".repeat(160))).toEqual({ encoding: "gsm7", units: 160, parts: 1 });
    expect(smsParts("a".repeat(161))).toEqual({ encoding: "gsm7", units: 161, parts: 2 });
    expect(smsParts("[]".repeat(40))).toEqual({ encoding: "gsm7", units: 160, parts: 1 });
    expect(smsParts("क".repeat(70))).toEqual({ encoding: "ucs2", units: 70, parts: 1 });
    expect(smsParts("क".repeat(71))).toEqual({ encoding: "ucs2", units: 71, parts: 2 });
    expect(smsParts("क".repeat(135))).toEqual({ encoding: "ucs2", units: 135, parts: 3 });
    // The rupee sign is not in the GSM alphabet: an English SMS with an amount goes as Unicode too.
    expect(smsParts("₹100 due").encoding).toBe("ucs2");
  });

  it("frames the e-mail in the language", () => {
    const frame = { brand: BRAND, link, lenderName: "Demo NBFC Ltd", officer: breach.contact };
    const hi = noticeEmail(render("due_today", SAMPLES.due_today[0]!, "hi"), frame, "hi");
    expect(hi.subject).toBe("Sugam Loans: आज ₹9,168.42 चुकाने हैं");
    expect(englishWords(hi.text, VALUES)).toEqual([]);
    const en = noticeEmail(render("due_today", SAMPLES.due_today[0]!, "en"), frame, "en");
    expect(en.text).toContain("Dear borrower,");
    expect(en.text).toContain("Sugam Loans, a service of Demo NBFC Ltd.");
  });

  it("is the breach notice the staff page shows, in each language", () => {
    const sender = { brand: BRAND, lender: breach.lender, contact: breach.contact, link };
    expect(render("data_breach", breach, "hi")).toMatchObject(breachNotice(breach, sender, "hi"));
    expect(breachNotice(breach, sender, "hi").body).toContain("5 मार्च 2026");
  });

  it("renders alike under plain Node, with no Vite alias (the daily run, the seed)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const script = `
      const { renderNotice } = await import(${JSON.stringify(path.join(root, "app/server/notifications/render.server.ts"))});
      const data = ${JSON.stringify(SAMPLES.payment_received[1])};
      const c = (language) => ({ brand: "Sugam Loans", link: (p) => "https://sugam.in" + p, language });
      console.log(JSON.stringify([renderNotice("payment_received", data, c("en")), renderNotice("payment_received", data, c("hi"))]));`;
    // Node 24 (the project's, engines) runs TypeScript as it stands, without Vite's alias.
    const [command, args] = [process.execPath, ["--input-type=module", "-e", script]] as const;
    const out = execFileSync(command, [...args], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
    const [en, hi] = JSON.parse(out.trim().split("\n").at(-1) ?? "[]") as ReturnType<typeof renderNotice>[];
    expect(en).toEqual(render("payment_received", SAMPLES.payment_received[1]!, "en"));
    expect(hi).toEqual(render("payment_received", SAMPLES.payment_received[1]!, "hi"));
  }, 30_000);
});
