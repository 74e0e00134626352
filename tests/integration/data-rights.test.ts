import { and, eq, getTableName, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime } from "../../app/domain/india-date.ts";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { CONSENT_PURPOSES, CONSENT_TEXT } from "../../app/domain/privacy/consents.ts";
import {
  ANSWER_WITHIN_DAYS,
  BREACH_REPORT_HOURS,
  DATA_ITEM_IDS,
  DATA_ITEMS,
  RECIPIENT_KINDS,
  RETENTION_YEARS,
} from "../../app/domain/privacy/notice.ts";
import { erasurePlan } from "../../app/domain/privacy/requests.ts";
import hiNotice from "../../app/i18n/messages/hi/notice.ts";
import { runBureauDay } from "../../app/server/bureau/daily.server.ts";
import { pullCreditReport } from "../../app/server/credit/pull.server.ts";
import {
  amlMatches,
  auditLog,
  borrowerDocuments,
  borrowerProfiles,
  bureauRecords,
  bureauRuns,
  consents,
  creditChecks,
  dataNominees,
  dataRequests,
  journalEntries,
  loanAccounts,
  loanApplications,
  notifications,
  payouts,
  sanctionsLists,
  suspiciousReports,
  users,
} from "../../app/server/db/schema.ts";
import { cancelApplication } from "../../app/server/loans/cancel.server.ts";
import { notify } from "../../app/server/notifications/notify.server.ts";
import { applyAnswer } from "../../app/server/payouts/answer.server.ts";
import { recordBreach, sendBreachNotices, sendNoticePart } from "../../app/server/privacy/breaches.server.ts";
import { eraseExpired } from "../../app/server/privacy/erase.server.ts";
import { erasureFacts } from "../../app/server/privacy/rights.server.ts";
import { BORROWER_TABLES } from "../../app/server/privacy/tables.server.ts";
import { queueReminders } from "../../app/server/servicing/daily.server.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { activeLoan, signedInStaff, staffSessionAgain, startedApplication } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { pdfKeysOf } from "../helpers/stored-pdf.ts";

// Data rights (docs/product.md "Data rights"): consents withdrawn from the profile with their stated
// effect (the bureau consent stops enquiries, not reporting; the messages consent keeps reminders in
// the app), a nominee, corrections and erasures answered from the compliance queue, and an erasure
// that leaves exactly what the law keeps.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let compliance: { cookie: string; userId: string };
let serial = 0;
const PAGE = "/User/Profile/privacy";

beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  compliance = await signedInStaff(app, "compliance", "Kavya Menon");
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const at = (day: IsoDate, time: `${number}:${number}` = "11:00") => {
  clock.now = indiaTime(day, time);
};
const fresh = () => Promise.all([credit, ops, compliance].map((s) => staffSessionAgain(app, s)));
const mobileOf = () => `96500${String(++serial).padStart(5, "0")}`;
const text = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");
// A page's HTML is long: a failure names what was looked for, not the page.
const has = (html: string, part: string) => expect(html.includes(part), `the page has "${part}"`).toBe(true);
const hasNot = (html: string, part: string) => expect(html.includes(part), `the page has no "${part}"`).toBe(false);
const matches = (html: string, re: RegExp) => expect(re.test(html), `the page matches ${re}`).toBe(true);

async function borrowerWithProfile() {
  const mobile = mobileOf();
  const b = await signedInBorrower(app, mobile);
  await completeProfile(app, b.cookie, defaultProfile({ name: "Ritu Sharma" }), mobile);
  return { ...b, mobile };
}

const latestConsent = async (userId: string, purpose: string) => {
  const rows = await app.services.db
    .select()
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.purpose, purpose)))
    .orderBy(consents.createdAt, consents.id);
  return { count: rows.length, latest: rows.at(-1) };
};

describe("consents on the privacy page", { shuffle: false }, () => {
  let b: Awaited<ReturnType<typeof borrowerWithProfile>>;
  beforeAll(async () => {
    at("2026-03-02");
    b = await borrowerWithProfile();
  }, 120_000);

  it("shows each consent with its state and what withdrawing does, to its owner only", async () => {
    const res = await app.get(PAGE, { headers: { Cookie: b.cookie } });
    expect(res.status).toBe(200);
    const html = await text(res);
    has(html, "KYC checks");
    has(html, "You cannot apply for a new loan until you give it again.");
    has(html, "Give it again here, or when an offer asks for your credit check.");
    matches(html, /data-testid="consent-kyc-state">Given on/);
    matches(html, /data-testid="consent-bureau_enquiry-state">You have not given this consent\./);
    expect((await app.get(PAGE)).status).toBe(302);
    expect((await app.get(PAGE, { headers: { Cookie: compliance.cookie } })).status).not.toBe(200);
  });

  it("withdraws and gives again in one step each, logged with time and address; the same tap twice logs once", async () => {
    const before = await latestConsent(b.userId, "communications");
    const withdraw = { intent: "consent", purpose: "communications", granted: "no" };
    const first = await postForm(app, PAGE, withdraw, { cookie: b.cookie });
    expect(first.status).toBe(302);
    expect(toastOf(first)).toBe("Reminders and updates now stay in the app only.");
    const again = await postForm(app, PAGE, withdraw, { cookie: b.cookie });
    expect(toastOf(again)).toBe("Nothing changed: your answer was already that.");
    const after = await latestConsent(b.userId, "communications");
    expect(after.count).toBe(before.count + 1);
    expect(after.latest).toMatchObject({ granted: false, ip: expect.any(String) });
    expect((await postForm(app, PAGE, { intent: "consent", purpose: "marketing", granted: "no" }, { cookie: b.cookie })).status).toBe(400);
  });

  it("keeps an update in the app but sends no SMS once reminders and updates are withdrawn; a required notice still goes; given again, they go", async () => {
    const smsTo = () => readOutbox(app.config.dataDir).filter((m) => m.to === b.mobile);
    const before = smsTo().length;
    const update = (key: string) =>
      notify(app.services, { userId: b.userId, event: "credit_report_ready", key, data: { path: "/quickStart/Step5" } });
    await update("privacy-test:1");
    await notify(app.services, {
      userId: b.userId,
      event: "staff_notice",
      key: "privacy-test:2",
      data: { title: "A word", message: "Please call us.", urgent: true },
    });
    await waitForJobs(app, "notify");
    const notices = await app.services.db.select().from(notifications).where(eq(notifications.userId, b.userId));
    expect(notices.map((n) => n.event).sort()).toEqual(["credit_report_ready", "staff_notice"]);
    expect(
      smsTo()
        .slice(before)
        .map((m) => m.text.includes("new message")),
    ).toEqual([true]);
    // Given again: the next update goes by SMS too.
    await postForm(app, PAGE, { intent: "consent", purpose: "communications", granted: "yes" }, { cookie: b.cookie });
    await update("privacy-test:3");
    await waitForJobs(app, "notify");
    expect(
      smsTo()
        .slice(before)
        .map((m) => m.text.includes("credit check")),
    ).toEqual([false, true]);
  });
});

describe("the bureau enquiry's consent", { shuffle: false }, () => {
  it("once withdrawn stops every new enquiry, while the loan is still reported to the bureaus", async () => {
    at("2026-03-02");
    await fresh();
    const loan = await activeLoan(app, mobileOf(), credit, ops);
    const cookie = loan.cookie;
    const res = await postForm(app, PAGE, { intent: "consent", purpose: "bureau_enquiry", granted: "no" }, { cookie });
    expect(toastOf(res)).toBe("Your consent for credit bureau enquiries is withdrawn: we make no new enquiry about you.");
    const checksBefore = await app.services.db.select().from(creditChecks).where(eq(creditChecks.userId, loan.userId));
    const pulled = await pullCreditReport(app.services, { userId: loan.userId, purpose: "review", then: "/", timeoutMs: 5_000 });
    expect(pulled).toEqual({ state: "no_consent" });
    const checksAfter = await app.services.db.select().from(creditChecks).where(eq(creditChecks.userId, loan.userId));
    expect(checksAfter.length).toBe(checksBefore.length);
    // The fortnight's files still carry the loan.
    at("2026-03-16", "10:00");
    await runBureauDay(app.services);
    const reported = await app.services.db
      .select({ bureau: bureauRuns.bureau })
      .from(bureauRecords)
      .innerJoin(bureauRuns, eq(bureauRuns.id, bureauRecords.runId))
      .where(and(eq(bureauRecords.applicationId, loan.id), eq(bureauRecords.heldBack, false)));
    expect(new Set(reported.map((r) => r.bureau)).size).toBe(4);
    // Given again, an enquiry may be made again.
    await postForm(app, PAGE, { intent: "consent", purpose: "bureau_enquiry", granted: "yes" }, { cookie });
    const again = await pullCreditReport(app.services, { userId: loan.userId, purpose: "review", then: "/", timeoutMs: 5_000 });
    expect(again.state).toBe("done");
  }, 180_000);
});

describe("the privacy policy", () => {
  it("says what the code does: every item collected, every consent's effect, every recipient, the retention and answer times", async () => {
    const html = (await text(await app.get("/privacy-policy"))).replaceAll("&#x27;", "'");
    for (const item of DATA_ITEMS) {
      has(html, item.en.what);
      has(html, item.en.why);
    }
    for (const purpose of CONSENT_PURPOSES) has(html, CONSENT_TEXT[purpose].withdrawEffect);
    for (const label of Object.values(RECIPIENT_KINDS)) has(html, label);
    has(html, `KYC records are kept for ${RETENTION_YEARS.kyc} years after the relationship ends`);
    has(html, `loan and accounting records for ${RETENTION_YEARS.loan} years after a loan ends`);
    has(html, `We answer each request within ${ANSWER_WITHIN_DAYS} days.`);
    has(html, `within ${BREACH_REPORT_HOURS} hours of finding it`);
  });

  it("says the same in Hindi, with the items and recipients in Hindi only", async () => {
    const html = await text(await app.get("/privacy-policy", { headers: { "Accept-Language": "hi" } }));
    has(html, "<h1>गोपनीयता नीति</h1>");
    for (const id of DATA_ITEM_IDS) {
      has(html, hiNotice.items[id].what);
      has(html, hiNotice.items[id].why);
    }
    for (const item of DATA_ITEMS) hasNot(html, item.en.why);
    for (const label of Object.values(hiNotice.recipients)) has(html, label);
    has(html, `KYC रिकॉर्ड हमारे साथ आपका संबंध ख़त्म होने के बाद ${RETENTION_YEARS.kyc} साल तक`);
    has(html, `हम हर अनुरोध का जवाब ${ANSWER_WITHIN_DAYS} दिनों के अंदर देते हैं।`);
  });
});

describe("a nominee", { shuffle: false }, () => {
  it("is checked like any form, saved, changed (the old one kept as removed) and removed", async () => {
    at("2026-03-03");
    const b = await borrowerWithProfile();
    const bad = await postForm(
      app,
      PAGE,
      { intent: "nominee", name: "R2D2", relationship: "spouse", mobile: "12345" },
      { cookie: b.cookie },
    );
    expect(bad.status).toBe(400);
    has(await text(bad), "Enter a valid 10-digit Indian mobile number");
    const own = await postForm(
      app,
      PAGE,
      { intent: "nominee", name: "Kiran Sharma", relationship: "spouse", mobile: b.mobile },
      { cookie: b.cookie },
    );
    has(await text(own), "must be someone else");
    const fields = { intent: "nominee", name: "Kiran Sharma", relationship: "spouse", mobile: "9812345678", email: "" };
    expect((await postForm(app, PAGE, fields, { cookie: b.cookie })).status).toBe(302);
    expect((await postForm(app, PAGE, { ...fields, name: "Meera Sharma", relationship: "sibling" }, { cookie: b.cookie })).status).toBe(
      302,
    );
    const rows = await app.services.db.select().from(dataNominees).where(eq(dataNominees.userId, b.userId)).orderBy(dataNominees.id);
    expect(rows.map((r) => [r.name, r.removedAt === null])).toEqual([
      ["Kiran Sharma", false],
      ["Meera Sharma", true],
    ]);
    const shown = await text(await app.get(PAGE, { headers: { Cookie: b.cookie } }));
    has(shown, "<dd>Meera Sharma</dd>");
    has(shown, "<dd>Brother or sister</dd>");
    hasNot(shown, "Kiran Sharma");
    await postForm(app, PAGE, { intent: "remove_nominee" }, { cookie: b.cookie });
    has(await text(await app.get(PAGE, { headers: { Cookie: b.cookie } })), "You have not named a nominee.");
  }, 120_000);
});

describe("a correction", { shuffle: false }, () => {
  it("is acknowledged with its 30-day date, answered once from the compliance queue, audited, and the borrower told", async () => {
    at("2026-03-04");
    await fresh();
    const b = await borrowerWithProfile();
    const short = await postForm(app, PAGE, { intent: "correction", area: "loan", wrong: "x", correct: "" }, { cookie: b.cookie });
    expect(short.status).toBe(400);
    has(await text(short), "Say a little more about what is wrong.");
    const res = await postForm(
      app,
      PAGE,
      { intent: "correction", area: "loan", wrong: "A payment of ₹5,000 on 1 March is missing.", correct: "Add it: UTR 123456789012." },
      { cookie: b.cookie },
    );
    expect(res.status).toBe(302);
    const [request] = await app.services.db.select().from(dataRequests).where(eq(dataRequests.userId, b.userId));
    expect(request).toMatchObject({ kind: "correction", status: "open", dueOn: "2026-04-03" });
    await waitForJobs(app, "notify");
    expect(
      readOutbox(app.config.dataDir)
        .filter((m) => m.to === b.mobile)
        .at(-1)?.text,
    ).toContain(`request ${request?.reference}`);
    const reference = request?.reference ?? "";
    // Not for other staff.
    expect((await app.get("/admin/privacy", { headers: { Cookie: credit.cookie } })).status).toBe(403);
    expect(
      (await postForm(app, "/admin/privacy", { reference, outcome: "done", answer: "x".repeat(30) }, { cookie: ops.cookie })).status,
    ).toBe(403);
    const queue = await text(await app.get("/admin/privacy", { headers: { Cookie: compliance.cookie } }));
    has(queue, reference);
    has(queue, "30 days left");
    const tooShort = await postForm(app, "/admin/privacy", { reference, outcome: "done", answer: "ok" }, { cookie: compliance.cookie });
    expect(tooShort.status).toBe(400);
    const answer = "We found the payment and added it to your loan on 5 March.";
    const done = await postForm(app, "/admin/privacy", { reference, outcome: "done", answer }, { cookie: compliance.cookie });
    expect(toastOf(done)).toBe(`Answered ${reference}: the borrower is told.`);
    const twice = await postForm(
      app,
      "/admin/privacy",
      { reference, outcome: "refused", answer: `${answer} Again.` },
      { cookie: compliance.cookie },
    );
    expect(toastOf(twice)).toContain("answered this request already");
    const [answered] = await app.services.db.select().from(dataRequests).where(eq(dataRequests.reference, reference));
    expect(answered).toMatchObject({ status: "done", answer, answeredBy: compliance.userId });
    const audits = await app.services.db.select().from(auditLog).where(eq(auditLog.action, "privacy.request.answer"));
    expect(audits.filter((a) => (a.details as { reference?: string }).reference === reference)).toHaveLength(1);
    const page = await text(await app.get(PAGE, { headers: { Cookie: b.cookie } }));
    has(page, answer);
    has(page, "Answered: done as you asked.");
  }, 120_000);
});

/** How many rows each borrower table holds about `userId`. */
async function rowsAbout(userId: string) {
  const counts: Record<string, number> = {};
  for (const entry of BORROWER_TABLES) {
    const [row] = await app.services.db
      .select({ n: sql<number>`count(*)::int` })
      .from(entry.table)
      .where(entry.where(userId));
    counts[getTableName(entry.table)] = row?.n ?? 0;
  }
  return counts;
}

describe("an erasure", { shuffle: false }, () => {
  it("of a borrower who never borrowed erases every record and empties the account, leaving the request as its record", async () => {
    at("2026-03-05");
    await fresh();
    const b = await borrowerWithProfile();
    const other = await borrowerWithProfile();
    const otherBefore = await rowsAbout(other.userId);
    const page = await text(await app.get(PAGE, { headers: { Cookie: b.cookie } }));
    // The plan as shown (the page's messages, sent with it, hold "Kept until {date}" whatever the plan).
    hasNot(/data-testid="erasure-plan">.*?<\/ul>/s.exec(page)?.[0] ?? "", "Kept until");
    has(page, 'data-testid="erasure-plan"');
    const missing = await postForm(app, PAGE, { intent: "erasure" }, { cookie: b.cookie });
    has(await text(missing), "Tick the box to confirm");
    expect((await postForm(app, PAGE, { intent: "erasure", understood: "yes" }, { cookie: b.cookie })).status).toBe(302);
    const again = await postForm(app, PAGE, { intent: "erasure", understood: "yes" }, { cookie: b.cookie });
    has(await text(again), "already being answered");
    const [request] = await app.services.db.select().from(dataRequests).where(eq(dataRequests.userId, b.userId));
    const docs = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, b.userId));
    expect(docs.length).toBeGreaterThan(0);
    const res = await postForm(
      app,
      "/admin/privacy",
      { reference: request?.reference ?? "", outcome: "done", answer: "We erased all your data as you asked; nothing had to be kept." },
      { cookie: compliance.cookie },
    );
    expect(toastOf(res)).toMatch(/^Answered, and erased: \d+ records and \d+ files\.$/);
    const after = await rowsAbout(b.userId);
    const left = Object.entries(after)
      .filter(([, n]) => n > 0)
      .map(([t]) => t);
    expect(left.sort()).toEqual(["data_requests", "users"]);
    const [account] = await app.services.db.select().from(users).where(eq(users.id, b.userId));
    expect(account).toMatchObject({ mobile: null, name: null });
    expect(account?.erasedAt).not.toBeNull();
    for (const d of docs) expect(await app.services.storage.exists(d.storageKey)).toBe(false);
    // Signed out everywhere; another borrower untouched.
    expect((await app.get(PAGE, { headers: { Cookie: b.cookie } })).status).toBe(302);
    expect(await rowsAbout(other.userId)).toEqual(otherBefore);
    // The last word went to the number the account had.
    expect(
      readOutbox(app.config.dataDir)
        .filter((m) => m.to === b.mobile)
        .at(-1)?.text,
    ).toContain(`answered your request ${request?.reference}`);
  }, 120_000);

  it("of a borrower with a closed loan keeps exactly the KYC and loan records, with until when, and erases the rest", async () => {
    at("2026-03-06");
    await fresh();
    const loan = await activeLoan(app, mobileOf(), credit, ops);
    // Cancelled in the cooling-off period: the loan ends today.
    await app.services.db.execute(sql`update loan_applications set status = 'cancelled' where id = ${loan.id}`);
    await app.services.db.execute(sql`update loan_accounts set settled_on = '2026-03-06' where application_id = ${loan.id}`);
    await postForm(
      app,
      PAGE,
      { intent: "nominee", name: "Kiran Rao", relationship: "spouse", mobile: "9812345670" },
      { cookie: loan.cookie },
    );
    const page = await text(await app.get(PAGE, { headers: { Cookie: loan.cookie } }));
    has(page, "Kept until 6 Mar 2031, then erased.");
    has(page, "Kept until 6 Mar 2034, then erased.");
    const before = await rowsAbout(loan.userId);
    // The KFS, the signed agreement and (paid a day early) the revised KFS, in file storage.
    const pdfKeys = await pdfKeysOf(app, loan.id);
    expect(pdfKeys.length).toBeGreaterThanOrEqual(2);
    const pdfsStored = async () => Promise.all(pdfKeys.map((k) => app.services.storage.exists(k)));
    await postForm(app, PAGE, { intent: "erasure", understood: "yes" }, { cookie: loan.cookie });
    const [request] = await app.services.db
      .select()
      .from(dataRequests)
      .where(and(eq(dataRequests.userId, loan.userId), eq(dataRequests.kind, "erasure")));
    await postForm(
      app,
      "/admin/privacy",
      {
        reference: request?.reference ?? "",
        outcome: "done",
        answer: "We erased what the law does not make us keep; the rest is listed on your page.",
      },
      { cookie: compliance.cookie },
    );
    const after = await rowsAbout(loan.userId);
    for (const entry of BORROWER_TABLES) {
      const name = getTableName(entry.table);
      if (name === "data_requests" || name === "notifications" || name === "notification_deliveries") continue;
      if (entry.keep === "none") expect([name, after[name]]).toEqual([name, 0]);
      else expect([name, after[name]]).toEqual([name, before[name]]);
    }
    const [account] = await app.services.db.select().from(users).where(eq(users.id, loan.userId));
    expect(account?.mobile).toBe(loan.mobile);
    // Told in the app, where the answer stays with the records kept.
    const told = await app.services.db.select().from(notifications).where(eq(notifications.userId, loan.userId));
    expect(told.filter((n) => n.event === "data_request_answered")).toHaveLength(1);

    // The daily run erases the KYC records the day after their 5 years, the loan records after their 8.
    // (Other tests' erasures in this file may be due too: what is checked is this borrower's rows.)
    const profileRows = () => app.services.db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, loan.userId));
    at("2031-03-06");
    await eraseExpired(app.services);
    expect(await profileRows()).toHaveLength(1);
    at("2031-03-07");
    expect(await eraseExpired(app.services)).toBeGreaterThanOrEqual(1);
    expect(await profileRows()).toHaveLength(0);
    const later = await rowsAbout(loan.userId);
    for (const entry of BORROWER_TABLES) {
      const name = getTableName(entry.table);
      // The notices are loan records: the answer's own notice was added since.
      if (name === "notifications" || name === "notification_deliveries") expect(later[name]).toBeGreaterThanOrEqual(before[name] ?? 0);
      else if (entry.keep === "loan") expect([name, later[name]]).toEqual([name, before[name]]);
      else if (name !== "users" && name !== "data_requests") expect([name, later[name]]).toEqual([name, 0]);
    }
    const [emptied] = await app.services.db.select().from(users).where(eq(users.id, loan.userId));
    expect(emptied).toMatchObject({ mobile: null, name: null });
    // The loan's PDFs are loan records: kept with them, and removed from storage with their rows.
    expect(await pdfsStored()).toEqual(pdfKeys.map(() => true));
    at("2034-03-07");
    expect(await eraseExpired(app.services)).toBeGreaterThanOrEqual(1);
    expect(await pdfsStored()).toEqual(pdfKeys.map(() => false));
    // What stays: the request, the emptied account, and the lender's books with the loan's money trail (its application bare).
    const last = await rowsAbout(loan.userId);
    const BOOKS = [
      "journal_entries",
      "journal_lines",
      "book_positions",
      "accrual_basis",
      "month_end_classes",
      "statement_lines",
      "recon_exceptions",
    ];
    const left = Object.entries(last)
      .filter(([, n]) => n > 0)
      .map(([t]) => t);
    const TRAIL = ["loan_applications", "loan_ledger", "payouts", "payments"];
    expect(left.filter((t) => !BOOKS.includes(t) && !TRAIL.includes(t)).sort()).toEqual(["data_requests", "users"]);
    expect(left).toContain("loan_ledger");
    expect(left).toContain("journal_entries");
    const [bare] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, loan.id));
    expect(bare).toMatchObject({ disbursalAccount: null, offer: null, purposeDetails: null, reference: loan.ref });

    // Done: this borrower's request has every group erased, and is passed over from now on.
    const [finished] = await app.services.db
      .select()
      .from(dataRequests)
      .where(and(eq(dataRequests.userId, loan.userId), eq(dataRequests.kind, "erasure")));
    expect((finished?.details as { erasedGroups?: string[] } | undefined)?.erasedGroups).toEqual(["kyc", "loan", "other"]);
  }, 180_000);
});

// At their edges, first written as reproductions by a review: a withdrawn bureau consent and the
// report on file, retention that ends, a returned disbursal, the breach register and the screening
// record kept through an erasure, a nominee saved twice at once, reminders with and without the
// messages consent, one erasure answered twice at once.
async function askAndAnswerErasure(userId: string, cookie: string) {
  await postForm(app, PAGE, { intent: "erasure", understood: "yes" }, { cookie });
  const [request] = await app.services.db
    .select()
    .from(dataRequests)
    .where(and(eq(dataRequests.userId, userId), eq(dataRequests.kind, "erasure"), eq(dataRequests.status, "open")));
  return postForm(
    app,
    "/admin/privacy",
    { reference: request?.reference ?? "", outcome: "done", answer: "We erased what the law does not make us keep." },
    { cookie: compliance.cookie },
  );
}

describe("bureau consent withdrawn", () => {
  it("still gets a new offer from the report on file, though the page says no new offer until it is given again", async () => {
    at("2026-03-02");
    const mobile = mobileOf();
    const b = await signedInBorrower(app, mobile);
    await completeProfile(app, b.cookie, defaultProfile({ name: "Ritu Sharma" }), mobile);
    // Step0's credit check (consent given, PAN and bureau asked): an offer.
    const ref = await startedApplication(app, b.cookie, "Emi");
    const step0 = `/User/newLoan/Emi/${ref}/Step0`;
    expect(await text(await app.get(step0, { headers: { Cookie: b.cookie } }))).not.toContain('data-testid="credit-check-ask"');
    // Withdrawn: "we cannot make you a new offer or review a new application until you give it again".
    await postForm(app, PAGE, { intent: "consent", purpose: "bureau_enquiry", granted: "no" }, { cookie: b.cookie });
    const after = await text(await app.get(step0, { headers: { Cookie: b.cookie } }));
    expect(after, "the offer page asks for the bureau consent again").toContain('data-testid="credit-check-ask"');
  }, 120_000);
});

describe("an erasure's plan", () => {
  it("erases KYC and loan records once their retention has ended", async () => {
    at("2026-03-03");
    await fresh();
    const loan = await activeLoan(app, mobileOf(), credit, ops);
    // The loan ended nine years ago: KYC retention (5 y) and loan retention (8 y) are both over.
    await app.services.db.execute(sql`update loan_applications set status = 'closed' where id = ${loan.id}`);
    await app.services.db.execute(sql`update loan_accounts set settled_on = '2017-01-10' where application_id = ${loan.id}`);
    const plan = erasurePlan(await erasureFacts(app.services, loan.userId), "2026-03-03");
    expect(plan.map((i) => [i.group, i.action, i.until])).toEqual([
      ["kyc", "erase", null],
      ["loan", "erase", null],
      ["other", "erase", null],
    ]);
  }, 180_000);

  it("of a borrower whose disbursal was returned and who then cancelled keeps the loan and KYC records, and the answer goes through", async () => {
    at("2026-03-04");
    await fresh();
    const loan = await activeLoan(app, mobileOf(), credit, ops);
    const [p] = await app.services.db.select().from(payouts).where(eq(payouts.applicationId, loan.id));
    // The bank returns the disbursal: back to approved, the ledger and the journals keep disbursal and reversal.
    const applied = await applyAnswer(app.services, p?.id ?? "", {
      providerPayoutId: p?.providerPayoutId ?? "x",
      state: "reversed",
      utr: p?.utr ?? null,
      failureReason: "Beneficiary account closed",
      at: clock.now,
    });
    expect(applied).toBe("reversed");
    const cancelled = await cancelApplication(app.services, {
      userId: loan.userId,
      applicationId: loan.id,
      client: { ip: "127.0.0.1", userAgent: "test" } as never,
    });
    expect(cancelled).toEqual({ ok: true });
    const booked = await app.services.db.select().from(journalEntries).where(eq(journalEntries.applicationId, loan.id));
    expect(booked.length).toBeGreaterThan(0);
    const facts = await erasureFacts(app.services, loan.userId);
    // Carried out: the plan says erase everything; the journals refuse to be deleted, the answer throws.
    const res = await askAndAnswerErasure(loan.userId, loan.cookie);
    const [request] = await app.services.db
      .select({ status: dataRequests.status })
      .from(dataRequests)
      .where(and(eq(dataRequests.userId, loan.userId), eq(dataRequests.kind, "erasure")));
    const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, loan.id));
    // Money left the lender and came back: accounting records the law keeps 8 years; the answer goes through.
    expect({
      facts,
      plan: erasurePlan(facts, "2026-03-04").map((i) => `${i.group}:${i.action}`),
      answer: res.status,
      request: request?.status,
      application: row?.status,
    }).toEqual({
      facts,
      plan: ["kyc:keep", "loan:keep", "other:erase"],
      answer: 302,
      request: "done",
      application: "cancelled",
    });
    expect((await app.services.db.select().from(journalEntries).where(eq(journalEntries.applicationId, loan.id))).length).toBe(
      booked.length,
    );
  }, 180_000);
});

const rowsOf = <T>(r: unknown) => ("rows" in (r as object) ? (r as { rows: T[] }).rows : (r as T[]));

describe("the breach register after an erasure that keeps the account", () => {
  const staff = () => ({ id: compliance.userId, role: "compliance" });
  const client = { ip: "127.0.0.1", userAgent: "test" } as never;
  const form = (scope: "all" | "listed", mobiles: string[]) =>
    ({
      discoveredAt: new Date(clock.now.getTime() - 3_600_000),
      occurredAt: null,
      description: "A support tool exposed borrowers' records to an outside party.",
      dataItems: ["mobile"],
      consequences: "Calls pretending to be us.",
      mitigation: "Access revoked, records reviewed.",
      borrowerSteps: "Never share a one-time code.",
      scope,
      mobiles,
    }) as never;
  const breachId = async (reference: string) =>
    rowsOf<{ id: string }>(await app.services.db.execute(sql`select id from data_breaches where reference = ${reference}`))[0]?.id ?? "";
  const told = async (userId: string) =>
    (await app.services.db.select().from(notifications).where(eq(notifications.userId, userId))).filter((n) => n.event === "data_breach")
      .length;
  const listed = async (id: string) =>
    rowsOf<{ n: number }>(
      await app.services.db.execute(sql`select count(*)::int as n from data_breach_borrowers where breach_id = ${id}`),
    )[0]?.n;
  async function closedLoanBorrower(day: IsoDate) {
    at(day);
    await fresh();
    const loan = await activeLoan(app, mobileOf(), credit, ops);
    await app.services.db.execute(sql`update loan_applications set status = 'closed' where id = ${loan.id}`);
    await app.services.db.execute(sql`update loan_accounts set settled_on = ${day} where application_id = ${loan.id}`);
    return loan;
  }

  it("keeps a listed borrower in the breach (affected and told counts stay)", async () => {
    const loan = await closedLoanBorrower("2026-03-05");
    const recorded = await recordBreach(app.services, { form: form("listed", [loan.mobile]), staff: staff(), client });
    if (!recorded.ok) throw new Error("not recorded");
    const id = await breachId(recorded.reference);
    await sendBreachNotices(app.services, { reference: recorded.reference, staff: staff(), client });
    await sendNoticePart(app.services, { breachId: id, after: null });
    expect([await told(loan.userId), await listed(id)]).toEqual([1, 1]);
    await askAndAnswerErasure(loan.userId, loan.cookie);
    expect(await listed(id), "the register still lists the borrower the breach affected").toBe(1);
  }, 180_000);

  it("does not tell a borrower of an every-borrower breach a second time when the notices are sent again", async () => {
    const loan = await closedLoanBorrower("2026-03-06");
    const recorded = await recordBreach(app.services, { form: form("all", []), staff: staff(), client });
    if (!recorded.ok) throw new Error("not recorded");
    const id = await breachId(recorded.reference);
    await sendBreachNotices(app.services, { reference: recorded.reference, staff: staff(), client });
    await sendNoticePart(app.services, { breachId: id, after: null });
    expect(await told(loan.userId)).toBe(1);
    await askAndAnswerErasure(loan.userId, loan.cookie);
    const before = await told(loan.userId);
    // "Sending again tells no one twice."
    await sendBreachNotices(app.services, { reference: recorded.reference, staff: staff(), client });
    await sendNoticePart(app.services, { breachId: id, after: null });
    expect((await told(loan.userId)) - before, "data_breach notices created after the erasure").toBe(0);
  }, 180_000);
});

describe("a nominee", () => {
  it("saved twice at once leaves one nominee in force", async () => {
    at("2026-03-06");
    const mobile = mobileOf();
    const b = await signedInBorrower(app, mobile);
    const fields = (name: string) => ({ intent: "nominee", name, relationship: "spouse", mobile: "9812345678", email: "" });
    // A flaky network resends the form: twelve saves at once (the race shows on PostgreSQL; PGlite runs them one by one).
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await postForm(app, PAGE, fields(`Kiran ${"ABCDEFGHIJKL"[i]} Sharma`), { cookie: b.cookie });
        return res.status;
      }),
    );
    expect(
      statuses.every((s) => s === 302),
      String(statuses),
    ).toBe(true);
    const inForce = (await app.services.db.select().from(dataNominees).where(eq(dataNominees.userId, b.userId))).filter(
      (r) => r.removedAt === null,
    );
    expect(inForce.length).toBe(1);
  }, 60_000);
});

describe("an erasure of a borrower under a suspicious-transaction report", () => {
  it("keeps the KYC record that identifies the report's subject (PMLA s. 12)", async () => {
    at("2026-03-07");
    await fresh();
    const mobile = mobileOf();
    const b = await signedInBorrower(app, mobile);
    await completeProfile(app, b.cookie, defaultProfile({ name: "Ritu Sharma" }), mobile);
    const [list] = await app.services.db
      .insert(sanctionsLists)
      .values({
        source: "uapa_51a",
        fileName: "uapa-review.csv",
        fileSha256: "e".repeat(64),
        persons: [],
        personCount: 0,
        loadedAt: clock.now,
      } as never)
      .returning();
    const [match] = await app.services.db
      .insert(amlMatches)
      .values({
        userId: b.userId,
        listId: list!.id,
        source: "uapa_51a",
        ref: "UAPA-R-1",
        listedName: "Ritu Sharma",
        scoreMilli: 900,
        nameMilli: 950,
        dob: "unknown",
        why: "test",
        status: "confirmed",
        foundAt: clock.now,
        decidedAt: clock.now,
        note: "Confirmed.",
      } as never)
      .returning();
    await app.services.db.insert(suspiciousReports).values({
      reference: "STR-REVIEW01",
      userId: b.userId,
      matchId: match!.id,
      suspectedAt: clock.now,
      dueOn: "2026-03-25",
      periodFrom: "2026-03-01",
      periodTo: "2026-03-07",
      grounds: "Confirmed sanctions match at onboarding.",
      draftedAt: clock.now,
      updatedAt: clock.now,
    } as never);
    const res = await askAndAnswerErasure(b.userId, b.cookie);
    expect(res.status).toBe(302);
    const profile = await app.services.db.select().from(borrowerProfiles).where(eq(borrowerProfiles.userId, b.userId));
    const docs = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, b.userId));
    const [account] = await app.services.db.select().from(users).where(eq(users.id, b.userId));
    expect({ profiles: profile.length, documents: docs.length > 0, mobile: account?.mobile ?? null }).toEqual({
      profiles: 1,
      documents: true,
      mobile,
    });
  }, 120_000);
});

async function reminderSmsAfter(consent: "delete" | "withdraw", day: IsoDate) {
  at(day);
  await fresh();
  const loan = await activeLoan(app, mobileOf(), credit, ops);
  if (consent === "delete")
    // An account with no answer on record for reminders and updates (never asked).
    await app.services.db.execute(sql`delete from consents where user_id = ${loan.userId} and purpose = 'communications'`);
  else await postForm(app, PAGE, { intent: "consent", purpose: "communications", granted: "no" }, { cookie: loan.cookie });
  // The figures the night's run caches: the first instalment due in 3 days.
  const dueOn = addDays(day, 37);
  await app.services.db
    .update(loanAccounts)
    .set({ nextDueDate: dueOn, nextDuePaise: 897_871 })
    .where(eq(loanAccounts.applicationId, loan.id));
  const remindOn = addDays(dueOn, -3);
  at(remindOn, "09:00");
  expect(await queueReminders(app.services, remindOn)).toBeGreaterThan(0);
  await waitForJobs(app, "notify");
  const told = await app.services.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, loan.userId), eq(notifications.event, "due_soon")));
  expect(told.length).toBe(1);
  return readOutbox(app.config.dataDir)
    .filter((m) => m.to === loan.mobile)
    .map((m) => m.text)
    .filter((t) => t.includes("is due on") && t.includes("Pay at"));
}

describe("reminders and the messages consent", () => {
  it("withdrawn: a real due_soon reminder stays in the app", async () => {
    expect(await reminderSmsAfter("withdraw", "2026-03-09")).toEqual([]);
  }, 120_000);
  it("never asked (an account from before the question): the reminder goes by SMS", async () => {
    expect(await reminderSmsAfter("delete", "2026-03-10")).toHaveLength(1);
  }, 120_000);
});

describe("two compliance officers answering one erasure at once", () => {
  it("erase once: one answer goes, the others are told a colleague answered", async () => {
    at("2026-03-11");
    await fresh();
    const mobile = mobileOf();
    const b = await signedInBorrower(app, mobile);
    await completeProfile(app, b.cookie, defaultProfile({ name: "Ritu Sharma" }), mobile);
    await postForm(app, PAGE, { intent: "erasure", understood: "yes" }, { cookie: b.cookie });
    const [request] = await app.services.db.select().from(dataRequests).where(eq(dataRequests.userId, b.userId));
    const answer = (outcome: string) =>
      postForm(
        app,
        "/admin/privacy",
        { reference: request?.reference ?? "", outcome, answer: "We have answered your erasure request today." },
        { cookie: compliance.cookie },
      );
    const results = await Promise.all([answer("done"), answer("refused"), answer("done")]);
    expect(results.map((r) => r.status)).toEqual([302, 302, 302]);
    const [after] = await app.services.db.select().from(dataRequests).where(eq(dataRequests.userId, b.userId));
    expect(after?.status).not.toBe("open");
  }, 120_000);
});
