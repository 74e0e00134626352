import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  applicationRequests,
  auditLog,
  borrowerDocuments,
  creditChecks,
  loanApplications,
  reviewChecklist,
  users,
} from "../../app/server/db/schema.ts";
import { CHECKLIST_ITEMS } from "../../app/domain/review.ts";
import { signedApplication, signedInStaff } from "../helpers/applications.ts";
import { postForm, postUpload, toastOf } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { shownMarkup } from "../helpers/english.ts";

// Monday 23 November 2026, 10:00 in India.
let clock = new Date("2026-11-23T04:30:00Z");
const now = () => clock;

let app: TestServer;
let asha: { cookie: string; userId: string };
let ravi: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({}, { now });
  asha = await signedInStaff(app, "credit", "Asha Rao");
  ravi = await signedInStaff(app, "credit", "Ravi Kumar");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const page = (path: string, cookie: string) => app.get(path, { headers: { Cookie: cookie } });
const act = (ref: string, cookie: string, fields: Record<string, string> | URLSearchParams) =>
  postForm(app, `/admin/applications/${ref}`, fields, { cookie });
const row = async (ref: string) =>
  (
    await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref))
  )[0] as typeof loanApplications.$inferSelect;
const auditsOf = (id: string) =>
  app.services.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "loan_application"), eq(auditLog.subjectId, id)))
    .orderBy(auditLog.id);
const smsTo = (mobile: string, pattern: RegExp) =>
  vi.waitFor(
    () => {
      const found = readOutbox(app.dataDir).find((m) => m.to === mobile && pattern.test(m.text));
      if (!found) throw new Error(`no SMS to ${mobile} matching ${pattern}`);
      return found;
    },
    { timeout: 15_000, interval: 200 },
  );
const tickAll = (ref: string, cookie: string) =>
  act(ref, cookie, new URLSearchParams([["intent", "checklist"], ...CHECKLIST_ITEMS.map((i) => ["items", i])]));

let serial = 0;
/** A PAN whose four digits set the stand-in bureau's score (8000 → 780). */
const panWith = (digits: string) => `ABCP${"QRSTUVWXYZ"[serial % 10]}${digits}${"ABCDEFGHJK"[Math.floor(serial / 10) % 10]}`;
const signed = (digits = "8000") => {
  serial++;
  return signedApplication(app, `97000${String(serial).padStart(5, "0")}`, { pan: panWith(digits) });
};

describe("taking an application", () => {
  it("moves it to under review assigned to the officer, keeps the checks pulled before the offer while fresh, and shows them", async () => {
    const b = await signed("8000");
    // The PAN and the bureau were checked before the offer (Step0), with the borrower's consent.
    const checksOf = () => app.services.db.select().from(creditChecks).where(eq(creditChecks.userId, b.userId));
    const checks = await checksOf();
    expect(checks.map((c) => [c.kind, c.purpose, c.applicationId]).sort()).toEqual([
      ["bureau", "offer", null],
      ["pan", "offer", null],
    ]);
    const res = await act(b.ref, asha.cookie, { intent: "take" });
    expect(res.status).toBe(302);
    const a = await row(b.ref);
    expect(a.status).toBe("under_review");
    expect(a.assignedTo).toBe(asha.userId);
    // Asking again (a double click, another officer) pulls nothing twice.
    expect((await act(b.ref, asha.cookie, { intent: "checks" })).status).toBe(302);
    expect(toastOf(await act(b.ref, ravi.cookie, { intent: "checks" }))).toBe(
      "Take this application first: it is under review by another officer.",
    );
    expect(toastOf(await act(b.ref, asha.cookie, { intent: "take" }))).toBe("The application is yours to review.");
    // The report is days, not 30, old: nothing is pulled again at review. The take's credit-checks
    // job (and any report job it queued) decides that: once it has run, a pull would be a third row.
    await waitForJobs(app, ["credit-checks", "credit-report"]);
    expect(await checksOf()).toHaveLength(2);
    expect(checks.find((c) => c.kind === "bureau")?.result).toMatchObject({ score: 780, monthlyEmiPaise: 0, seriousDelinquency: false });
    const text = await html(await page(`/admin/applications/${b.ref}`, asha.cookie));
    expect(text).toContain("Valid, an individual's PAN");
    expect(text).toContain("780");
    expect(text).toContain("Excellent (750–900)");
    expect(text).toContain("The amount signed passes the credit policy in force.");
    expect(text).toContain("Policy version 1");
    expect(text).toContain("Officer: you");
    expect((await auditsOf(b.id)).map((r) => (r.details as { to?: string }).to)).toEqual(["draft", "signed", "under_review"]);
  });

  it("lets one of two officers take it; the other must choose to take it over, which is audited", async () => {
    const b = await signed("6000");
    const [first, second] = await Promise.all([act(b.ref, asha.cookie, { intent: "take" }), act(b.ref, ravi.cookie, { intent: "take" })]);
    expect([first.status, second.status]).toEqual([302, 302]);
    const winner = (await row(b.ref)).assignedTo;
    expect([asha.userId, ravi.userId]).toContain(winner);
    const loser = winner === asha.userId ? ravi : asha;
    // The loser's plain "Take" did not reassign it.
    expect((await row(b.ref)).assignedTo).toBe(winner);
    expect((await act(b.ref, loser.cookie, { intent: "take_over" })).status).toBe(302);
    expect((await row(b.ref)).assignedTo).toBe(loser.userId);
    const over = (await auditsOf(b.id)).filter((r) => r.action === "application.taken_over");
    expect(over).toHaveLength(1);
    expect(over[0]?.details).toMatchObject({ from: winner, to: loser.userId });
  });

  it("refuses staff without the decide permission, and a borrower (403), changing nothing", async () => {
    const b = await signed("7000");
    expect((await act(b.ref, ops.cookie, { intent: "take" })).status).toBe(403);
    expect((await act(b.ref, b.cookie, { intent: "take" })).status).toBe(403);
    expect((await row(b.ref)).status).toBe("signed");
    // Operations may read it.
    expect((await page(`/admin/applications/${b.ref}`, ops.cookie)).status).toBe(200);
    expect((await page(`/admin/applications/${"a".repeat(26)}`, ops.cookie)).status).toBe(404);
  });
});

describe("the queue", () => {
  it("filters, searches by mobile, name, PAN's last 4 and reference, and keeps it all in the URL", async () => {
    const b = await signed("8123");
    const [user] = await app.services.db.select().from(users).where(eq(users.id, b.userId));
    const q = async (query: string) => html(await page(`/admin/applications?${query}`, asha.cookie));
    expect(await q(`q=${b.mobile}`)).toContain(`/admin/applications/${b.ref}`);
    expect(await q(`q=%2B91+${b.mobile}`)).toContain(`/admin/applications/${b.ref}`);
    expect(await q(`q=${b.ref.toUpperCase()}`)).toContain(`/admin/applications/${b.ref}`);
    // The first 10 characters, as the queue shows them.
    expect(await q(`q=${b.ref.toUpperCase().slice(0, 10)}`)).toContain(`/admin/applications/${b.ref}`);
    const last4 = (await q(`q=${panWith("8123").slice(-4)}`)) as string;
    expect(last4).toContain(`/admin/applications/${b.ref}`);
    expect(await q(`q=neha`)).toContain(`/admin/applications/${b.ref}`);
    expect(await q(`q=nobody-like-this`)).toContain("No application matches these filters.");
    expect(await q(`view=approved&q=${b.mobile}`)).not.toContain(`/admin/applications/${b.ref}`);
    expect(await q(`view=signed&product=salary_advance&q=${b.mobile}`)).not.toContain(`/admin/applications/${b.ref}`);
    await act(b.ref, ravi.cookie, { intent: "take" });
    expect(await q(`mine=1&q=${b.mobile}`)).not.toContain(`/admin/applications/${b.ref}`);
    expect(await html(await page(`/admin/applications?mine=1&q=${b.mobile}`, ravi.cookie))).toContain(`/admin/applications/${b.ref}`);
    // Hostile or unknown parameters fall back to the defaults instead of failing.
    expect((await page(`/admin/applications?view=%27;drop&page=-4&product=x&q=${"%25_".repeat(80)}`, asha.cookie)).status).toBe(200);
    expect(user?.mobile).toBe(b.mobile);
  });

  it("pages through, oldest first, with the age in working hours", async () => {
    // 30 signed applications submitted one working hour apart, inserted directly.
    const made: string[] = [];
    for (let i = 0; i < 30; i++) {
      const [u] = await app.services.db
        .insert(users)
        .values({ mobile: `96000${String(i).padStart(5, "0")}`, mobileVerifiedAt: clock, role: "borrower" })
        .returning({ id: users.id });
      const reference =
        `pagequeue${String.fromCharCode(97 + (i % 26))}${"a".repeat(16)}`.slice(0, 24) + "a" + String.fromCharCode(98 + Math.floor(i / 26));
      made.push(reference);
      await app.services.db.insert(loanApplications).values({
        reference,
        userId: u!.id,
        product: "salary_advance",
        status: "signed",
        amountPaise: 1_000_000,
        signedAt: new Date(Date.parse("2026-11-16T04:30:00Z") + i * 60_000),
      });
    }
    const first = await html(await page("/admin/applications?view=signed&product=salary_advance", asha.cookie));
    expect(first).toContain("Showing 1–25 of 30");
    expect(first).toContain(`/admin/applications/${made[0]}`);
    expect(first).not.toContain(`/admin/applications/${made[29]}`);
    // Submitted last Monday 10:00: a whole working week (5 × 9 h) ago.
    expect(first).toContain("5 working days");
    const second = await html(await page("/admin/applications?view=signed&product=salary_advance&page=2", asha.cookie));
    expect(second).toContain("Showing 26–30 of 30");
    expect(second).toContain(`/admin/applications/${made[29]}`);
    expect(second).toContain('rel="prev"');
    expect(await html(await page("/admin/applications?view=signed&product=salary_advance&page=9", asha.cookie))).toContain(
      "Page 9 is past the end: there are 30.",
    );
    const home = await html(await page("/admin", asha.cookie));
    expect(home).toContain("over the target of one working day");
    await app.services.db.delete(loanApplications).where(eq(loanApplications.product, "salary_advance"));
  });
});

describe("the checklist and approval", () => {
  it("stores each item with who and when; approval needs all five; the borrower gets an SMS", async () => {
    const b = await signed("8100");
    await act(b.ref, asha.cookie, { intent: "take" });
    await act(
      b.ref,
      asha.cookie,
      new URLSearchParams([
        ["intent", "checklist"],
        ["items", "identity"],
        ["items", "selfie"],
      ]),
    );
    let items = await app.services.db.select().from(reviewChecklist).where(eq(reviewChecklist.applicationId, b.id));
    expect(items.map((i) => i.item).sort()).toEqual(["identity", "selfie"]);
    expect(items.every((i) => i.checked && i.checkedBy === asha.userId)).toBe(true);
    const early = await act(b.ref, asha.cookie, { intent: "approve" });
    expect(early.status).toBe(302);
    expect((await row(b.ref)).status).toBe("under_review");
    expect(toastOf(early)).toBe("Tick every item of the checklist before approving.");
    // Another officer cannot tick or approve it.
    await tickAll(b.ref, ravi.cookie);
    items = await app.services.db.select().from(reviewChecklist).where(eq(reviewChecklist.applicationId, b.id));
    expect(items).toHaveLength(2);
    // Unticking is stored too.
    await act(
      b.ref,
      asha.cookie,
      new URLSearchParams([
        ["intent", "checklist"],
        ["items", "identity"],
      ]),
    );
    items = await app.services.db.select().from(reviewChecklist).where(eq(reviewChecklist.applicationId, b.id));
    expect(items.find((i) => i.item === "selfie")?.checked).toBe(false);
    expect((await act(b.ref, asha.cookie, { intent: "checklist", items: "not-an-item" })).status).toBe(400);
    await tickAll(b.ref, asha.cookie);
    expect((await act(b.ref, ravi.cookie, { intent: "approve" })).status).toBe(302);
    expect((await row(b.ref)).status).toBe("under_review");
    expect((await act(b.ref, asha.cookie, { intent: "approve" })).status).toBe(302);
    const a = await row(b.ref);
    expect(a.status).toBe("approved");
    expect(a.decidedBy).toBe(asha.userId);
    const sms = await smsTo(b.mobile, /is approved/);
    expect(sms.text).toContain(b.ref.slice(0, 8).toUpperCase());
    expect(sms.text).toContain("₹1,00,000");
    const audits = await auditsOf(b.id);
    expect(audits.filter((r) => r.action === "review.checklist").length).toBe(2 + 1 + 4);
    expect(audits.at(-1)).toMatchObject({ action: "loan.status", actorUserId: asha.userId, actorRole: "credit" });
    // Approving twice changes nothing.
    expect((await act(b.ref, asha.cookie, { intent: "approve" })).status).toBe(302);
    expect((await auditsOf(b.id)).length).toBe(audits.length);
    const dashboard = await html(await page("/User/Dashboard", b.cookie));
    expect(dashboard).toContain("Approved");
  });
});

describe("asking the borrower for more", () => {
  it("shows the question on the borrower's dashboard with an SMS; the answer returns it to the officer", async () => {
    const b = await signed("8200");
    await act(b.ref, asha.cookie, { intent: "take" });
    const empty = await act(b.ref, asha.cookie, { intent: "ask", message: "short" });
    expect(empty.status).toBe(400);
    expect(await html(empty)).toContain("at least 10 characters");
    expect((await act(b.ref, asha.cookie, { intent: "ask", message: "Which company paid your salary in October?" })).status).toBe(302);
    expect((await act(b.ref, asha.cookie, { intent: "ask", message: "A second question at the same time?" })).status).toBe(302);
    const open = await app.services.db.select().from(applicationRequests).where(eq(applicationRequests.applicationId, b.id));
    expect(open).toHaveLength(1);
    await smsTo(b.mobile, /we need one more thing/);
    const dashboard = await html(await page("/User/Dashboard", b.cookie));
    expect(dashboard).toContain("Waiting for you");
    expect(dashboard).toContain("Which company paid your salary in October?");
    // Approval waits for the answer.
    await tickAll(b.ref, asha.cookie);
    await act(b.ref, asha.cookie, { intent: "approve" });
    expect((await row(b.ref)).status).toBe("under_review");
    // Another borrower cannot answer it.
    const other = await signedInBorrower(app, "9711111111");
    await postForm(app, "/User/Dashboard", { request: open[0]!.id, answer: "Not mine" }, { cookie: other.cookie });
    const noAnswer = await postForm(app, "/User/Dashboard", { request: open[0]!.id, answer: "" }, { cookie: b.cookie });
    expect(noAnswer.status).toBe(400);
    expect(await html(noAnswer)).toContain("Write your answer to the question.");
    expect(
      (await app.services.db.select().from(applicationRequests).where(eq(applicationRequests.id, open[0]!.id)))[0]?.answeredAt,
    ).toBeNull();
    const answered = await postForm(app, "/User/Dashboard", { request: open[0]!.id, answer: "Acme Textiles Ltd" }, { cookie: b.cookie });
    expect(answered.status).toBe(302);
    expect(shownMarkup(await html(await page("/User/Dashboard", b.cookie)))).not.toContain("Waiting for you");
    const queue = await html(await page(`/admin/applications?q=${b.mobile}`, asha.cookie));
    expect(queue).toContain("Borrower answered");
    expect(await html(await page(`/admin/applications/${b.ref}`, asha.cookie))).toContain("Acme Textiles Ltd");
    expect((await act(b.ref, asha.cookie, { intent: "approve" })).status).toBe(302);
    expect((await row(b.ref)).status).toBe("approved");
    const actions = (await auditsOf(b.id)).map((r) => r.action);
    expect(actions).toContain("application.asked");
    expect(actions).toContain("application.answered");
  });

  it("asks for a document again: the answer needs a new upload of it", async () => {
    const b = await signed("8300");
    await act(b.ref, asha.cookie, { intent: "take" });
    await act(b.ref, asha.cookie, {
      intent: "ask",
      documentKind: "salary_slip_1",
      message: "The latest salary slip is cut off at the bottom.",
    });
    const [request] = await app.services.db.select().from(applicationRequests).where(eq(applicationRequests.applicationId, b.id));
    const before = await postForm(app, "/User/Dashboard", { request: request!.id }, { cookie: b.cookie });
    expect(before.status).toBe(400);
    expect(await html(before)).toContain("Upload your Salary slip, latest month again first");
    clock = new Date(clock.getTime() + 60_000);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array(64).fill(7), 0xff, 0xd9]);
    expect(
      (await postUpload(app, "/User/Profile/components/Documents", { kind: "salary_slip_1", bytes: jpeg, name: "slip.jpg" }, b.cookie))
        .status,
    ).toBe(302);
    expect((await postForm(app, "/User/Dashboard", { request: request!.id }, { cookie: b.cookie })).status).toBe(302);
    const [after] = await app.services.db.select().from(applicationRequests).where(eq(applicationRequests.id, request!.id));
    expect(after?.answeredAt).not.toBeNull();
  });
});

describe("rejection", () => {
  it("needs a reason and a note; the borrower reads the reason in plain words, gets an SMS, and may apply again after 30 days", async () => {
    const b = await signed("7200");
    const bad = await act(b.ref, asha.cookie, { intent: "reject", reason: "", note: "" });
    expect(bad.status).toBe(400);
    const badText = await html(bad);
    expect(badText).toContain("Choose the reason the borrower will be told.");
    expect(badText).toContain("Write a note for the file");
    expect((await row(b.ref)).status).toBe("signed");
    // Rejected straight from signed, without taking it.
    const res = await act(b.ref, asha.cookie, {
      intent: "reject",
      reason: "credit_history",
      note: "Bureau score 420, two overdue accounts.",
    });
    expect(res.status).toBe(302);
    const a = await row(b.ref);
    expect(a).toMatchObject({ status: "rejected", rejectionReason: "credit_history", decidedBy: asha.userId, assignedTo: asha.userId });
    expect(a.decisionNote).toBe("Bureau score 420, two overdue accounts.");
    await smsTo(b.mobile, /could not approve/);
    const told =
      "We could not approve this application because your credit history does not meet our lending policy at present. You can apply again from 23 Dec 2026.";
    expect(await html(await page(`/User/newLoan/Emi/${b.ref}/Step7`, b.cookie))).toContain(told);
    expect(await html(await page(`/failure/${b.ref}`, b.cookie))).toContain(told);
    expect(await html(await page("/User/Dashboard", b.cookie))).toContain(told);
    // The note stays with staff.
    expect(await html(await page("/User/Dashboard", b.cookie))).not.toContain("two overdue accounts");
    const last = (await auditsOf(b.id)).at(-1);
    expect(last?.details).toMatchObject({ from: "signed", to: "rejected", rejectionReason: "credit_history" });
    // The credit policy: no new application of either kind for 30 days; the page says why and the POST is refused.
    const reason = "We could not approve your last application. You can apply again from 23 Dec 2026.";
    for (const kind of ["Emi", "salaryAdvance"]) {
      expect(await html(await page(`/User/newLoan/${kind}`, b.cookie))).toContain(reason);
      const refused = await postForm(app, `/User/newLoan/${kind}`, {}, { cookie: b.cookie });
      expect(refused.status).toBe(403);
      expect(await html(refused)).toContain(reason);
    }
    expect(await html(await page("/User/Dashboard", b.cookie))).toContain(reason);
    const saved = clock;
    clock = new Date("2026-12-23T04:30:00Z");
    try {
      expect((await postForm(app, "/User/newLoan/Emi", {}, { cookie: b.cookie })).headers.get("location")).toMatch(/Step0$/);
    } finally {
      clock = saved;
    }
    // Cannot be decided again.
    expect((await act(b.ref, asha.cookie, { intent: "take" })).status).toBe(302);
    expect((await row(b.ref)).status).toBe("rejected");
  });
});

describe("documents and the signed agreement on the review page", () => {
  it("shows each document inline on request and audits every view", async () => {
    const b = await signed("8400");
    const [doc] = await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, b.userId));
    const review = await html(await page(`/admin/applications/${b.ref}?doc=${doc!.id}`, ravi.cookie));
    expect(review).toContain(`src="/admin/documents/${doc!.id}"`);
    expect((await page(`/admin/documents/${doc!.id}`, ravi.cookie)).status).toBe(200);
    const views = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "kyc.document_viewed"), eq(auditLog.subjectId, doc!.id)));
    expect(views).toHaveLength(1);
    expect(views[0]?.actorUserId).toBe(ravi.userId);
    const pdf = await page(`/admin/applications/${b.ref}/agreement.pdf`, ops.cookie);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const opened = (await auditsOf(b.id)).filter((r) => r.action === "loan.agreement_viewed");
    expect(opened).toHaveLength(1);
    expect(opened[0]?.actorUserId).toBe(ops.userId);
  });
});
