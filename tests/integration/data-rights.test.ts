import { and, eq, getTableName, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime } from "../../app/domain/india-date.ts";
import type { IsoDate } from "../../app/domain/loan-math.ts";
import { runBureauDay } from "../../app/server/bureau/daily.server.ts";
import { pullCreditReport } from "../../app/server/credit/pull.server.ts";
import {
  auditLog,
  borrowerDocuments,
  bureauRecords,
  bureauRuns,
  consents,
  creditChecks,
  dataNominees,
  dataRequests,
  notifications,
  users,
} from "../../app/server/db/schema.ts";
import { notify } from "../../app/server/notifications/notify.server.ts";
import { CONSENT_PURPOSES, CONSENT_TEXT } from "../../app/domain/privacy/consents.ts";
import { ANSWER_WITHIN_DAYS, BREACH_REPORT_HOURS, DATA_ITEMS, RECIPIENT_KINDS, RETENTION_YEARS } from "../../app/domain/privacy/notice.ts";
import { BORROWER_TABLES } from "../../app/server/privacy/tables.server.ts";
import { activeLoan, signedInStaff, staffSessionAgain } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";

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

  it("keeps a reminder in the app but sends no SMS once reminders are withdrawn; a required notice still goes", async () => {
    const smsBefore = readOutbox(app.config.dataDir).filter((m) => m.to === b.mobile).length;
    await notify(app.services, {
      userId: b.userId,
      event: "due_soon",
      key: "privacy-test:1",
      data: { loanNumber: "SL0000001", amountPaise: 100_000, dueDate: "2026-03-05", loanPath: "/User/Loans" },
    } as Parameters<typeof notify>[1]);
    await notify(app.services, {
      userId: b.userId,
      event: "staff_notice",
      key: "privacy-test:2",
      data: { title: "A word", message: "Please call us.", urgent: true },
    } as Parameters<typeof notify>[1]);
    await waitForJobs(app, "notify");
    const notices = await app.services.db.select().from(notifications).where(eq(notifications.userId, b.userId));
    expect(notices.map((n) => n.event).sort()).toEqual(["due_soon", "staff_notice"]);
    const sms = readOutbox(app.config.dataDir).filter((m) => m.to === b.mobile);
    expect(sms.length - smsBefore).toBe(1);
    expect(sms.at(-1)?.text).toContain("new message");
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
    has(await text(await app.get(PAGE, { headers: { Cookie: b.cookie } })), "Your nominee is Meera Sharma (Brother or sister)");
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
    hasNot(page, "Kept until");
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
    expect(told.map((n) => n.event)).toEqual(["data_request_answered"]);
  }, 180_000);
});
