import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { emiPaise } from "../../app/domain/loan-math.ts";
import { applicationDeviations, auditLog, loanApplications, payouts, policyEvaluations } from "../../app/server/db/schema.ts";
import { catchUpServicing } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, allTicked, signedApplication, signedInStaff, signTerms, startedApplication } from "../helpers/applications.ts";
import { formatRupees } from "../../app/domain/money.ts";
import { completeProfile, defaultProfile, goodPan } from "../fixtures/kyc.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { shownMarkup } from "../helpers/english.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// Monday 23 November 2026, 10:00 in India; a test that moves the clock puts it back.
const MONDAY = new Date("2026-11-23T04:30:00Z");
let clock = MONDAY;

let app: TestServer;
let asha: { cookie: string; userId: string };
let ravi: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer(
    // The bureau stand-in answers a PAN ending in Z after 2 s; a page waits half a second.
    { LOCAL_PAYOUT_SETTLE_SECONDS: "0", BUREAU_TIMEOUT_SECONDS: "0.5", LOCAL_BUREAU_SLOW_SECONDS: "2" },
    { now: () => clock },
  );
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
let serial = 0;
const mobile = () => `96300${String(++serial).padStart(5, "0")}`;
/** A new borrower signed in with a mobile of their own. */
const newBorrower = async () => {
  const m = mobile();
  return { ...(await signedInBorrower(app, m)), mobile: m };
};

/** A salary advance of ₹10,000 started, chosen and signed by a borrower who has a complete profile: its reference. */
async function signedSalaryAdvance(b: { cookie: string; mobile: string }) {
  const ref = await startedApplication(app, b.cookie, "salaryAdvance");
  const step = (s: string) => `/User/newLoan/salaryAdvance/${ref}/${s}`;
  expect((await postForm(app, step("Step0"), { amount: "10000" }, { cookie: b.cookie })).status).toBe(302);
  expect((await postForm(app, step("Step1"), { purpose: "medical", disbursalConsent: "yes" }, { cookie: b.cookie })).status).toBe(302);
  expect((await page(step("Step5"), b.cookie)).status).toBe(200);
  const documentId = /name="documentId" value="([0-9a-f-]{36})"/.exec(await html(await page(step("Step6"), b.cookie)))?.[1] ?? "";
  await postForm(app, step("Step6"), { intent: "send" }, { cookie: b.cookie });
  const code =
    /\b(\d{6})\b/.exec(
      readOutbox(app.dataDir)
        .filter((m) => m.to === b.mobile)
        .at(-1)?.text ?? "",
    )?.[1] ?? "";
  expect((await postForm(app, step("Step6"), { intent: "sign", documentId, accept: "yes", code }, { cookie: b.cookie })).status).toBe(302);
  return ref;
}

/** The largest amount Step0 offers at 12 months (its tenure list says "12 months — up to ₹X"). */
const offerAt12 = async (ref: string, cookie: string) => {
  const text = await html(await page(`/User/newLoan/Emi/${ref}/Step0`, cookie));
  const m = /12 months — up to ₹([\d,]+)/.exec(text);
  return m ? Number(m[1]?.replaceAll(",", "")) * 100 : null;
};

describe("the offer", () => {
  it("shrinks a second loan's offer by the first loan's EMI, and the review names the first loan", async () => {
    clock = MONDAY;
    const b = await activeLoan(app, mobile(), asha, ops);
    const [first] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, b.ref));
    const firstEmi = emiPaise(first?.amountPaise ?? 0, first?.offer?.rateBps ?? 0, 12);
    const ref = await startedApplication(app, b.cookie, "Emi");
    const second = await offerAt12(ref, b.cookie);
    // ₹60,000 income: half of it for all EMIs, the first loan's included (the same 14% band).
    expect(second).not.toBeNull();
    expect(emiPaise(second ?? 0, 1400, 12) + firstEmi).toBeLessThanOrEqual(30_000_00);
    expect(emiPaise((second ?? 0) + 1_000_00, 1400, 12) + firstEmi).toBeGreaterThan(30_000_00);
    // Signed for what fits, the review's policy table names the first loan among the obligations.
    await signTerms(app, { cookie: b.cookie, mobile: b.mobile, ref, amount: "50000", tenure: "12" });
    const review = await html(await page(`/admin/applications/${ref}`, asha.cookie));
    expect(review).toContain(`our loans ${formatRupees(firstEmi)}`);
    expect(review).toMatch(/data-testid="rule-active_loans" data-outcome="pass"/);
    // A borrower with the same profile and no loan with us is offered more.
    const fresh = await newBorrower();
    await completeProfile(app, fresh.cookie, defaultProfile(), fresh.mobile);
    const freshRef = await startedApplication(app, fresh.cookie, "Emi");
    expect(await offerAt12(freshRef, fresh.cookie)).toBeGreaterThan(second ?? 0);
  });

  it("refuses a bureau score below the cut-off: no offer, the reason in plain words, never the score", async () => {
    clock = MONDAY;
    const b = await newBorrower();
    // The stand-in scores ABCPx2000x 420 (docs/product.md "Credit policy").
    await completeProfile(app, b.cookie, defaultProfile({ pan: "ABCPW2000K" }), b.mobile);
    const ref = await startedApplication(app, b.cookie, "Emi");
    const text = await html(await page(`/User/newLoan/Emi/${ref}/Step0`, b.cookie));
    expect(text).toContain("We cannot offer you an EMI loan right now");
    expect(text).toContain("Your credit history does not meet our lending policy at present.");
    // Shown nowhere (the page's data holds message numbers of its own, "_420" among them).
    expect(shownMarkup(text)).not.toContain("420");
    expect(text).not.toContain('name="amount"');
    const refused = await postForm(app, `/User/newLoan/Emi/${ref}/Step0`, { amount: "50000", tenure: "12" }, { cookie: b.cookie });
    expect(refused.status).toBe(302);
    expect((await row(ref)).amountPaise).toBeNull();
  });

  it("creates no draft on a page view; a start is a POST, and two at once make one", async () => {
    clock = MONDAY;
    const b = await newBorrower();
    await completeProfile(app, b.cookie, defaultProfile(), b.mobile);
    const view = await page("/User/newLoan/Emi", b.cookie);
    expect(view.status).toBe(200);
    expect(await html(view)).toContain("Start my EMI loan application");
    expect(await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, b.userId))).toHaveLength(0);
    const [one, two] = await Promise.all([
      postForm(app, "/User/newLoan/Emi", {}, { cookie: b.cookie }),
      postForm(app, "/User/newLoan/Emi", {}, { cookie: b.cookie }),
    ]);
    expect(one.headers.get("location")).toBe(two.headers.get("location"));
    expect(await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, b.userId))).toHaveLength(1);
    // A borrower with a draft of that kind is taken to it.
    expect((await page("/User/newLoan/Emi", b.cookie)).headers.get("location")).toBe(one.headers.get("location"));
  });

  it("asks for a fresh check when the profile's date of birth changes: a check made for other facts counts for nothing", async () => {
    clock = MONDAY;
    const b = await newBorrower();
    const profile = defaultProfile();
    await completeProfile(app, b.cookie, profile, b.mobile);
    const ref = await startedApplication(app, b.cookie, "Emi");
    expect(await offerAt12(ref, b.cookie)).not.toBeNull();
    const changed = await postForm(
      app,
      "/User/Profile/components/Profile",
      {
        fullName: profile.name,
        dateOfBirth: "1991-06-15",
        gender: "female",
        email: profile.email,
        pan: profile.pan,
        aadhaar: "234123412346",
        maritalStatus: "married",
        consentKyc: "on",
      },
      { cookie: b.cookie },
    );
    expect(changed.status).toBe(302);
    const text = await html(await page(`/User/newLoan/Emi/${ref}/Step0`, b.cookie));
    expect(text).not.toContain('name="amount"');
    expect(text).toContain('name="consentBureau"');
    // Asked again with consent, the offer is back.
    await postForm(app, `/User/newLoan/Emi/${ref}/Step0`, { intent: "credit_check", consentBureau: "yes" }, { cookie: b.cookie });
    expect(await offerAt12(ref, b.cookie)).not.toBeNull();
  });

  it("gives no offer while the bureau is slow, says an SMS will follow, and a job sends it with the answer", async () => {
    clock = MONDAY;
    const b = await newBorrower();
    // A PAN ending in Z: the stand-in answers after 2 s, the page waits half a second.
    await completeProfile(app, b.cookie, defaultProfile({ pan: `${goodPan().slice(0, 9)}Z` }), b.mobile);
    const started = await postForm(app, "/User/newLoan/Emi", {}, { cookie: b.cookie });
    const step0 = started.headers.get("location") ?? "";
    const asked = await postForm(app, step0, { intent: "credit_check", consentBureau: "on" }, { cookie: b.cookie });
    expect(toastOf(asked)).toBe("The credit bureau is slow to answer");
    const waiting = await html(await page(step0, b.cookie));
    expect(waiting).toContain("We are waiting for the credit bureau");
    expect(waiting).not.toContain('name="amount"');
    const sms = await vi.waitFor(
      () => {
        const found = readOutbox(app.dataDir).find((m) => m.to === b.mobile && /answer to the credit check/.test(m.text));
        if (!found) throw new Error("no SMS yet");
        return found;
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(sms.text).toContain(step0);
    expect(await html(await page(step0, b.cookie))).toContain('name="amount"');
  });
});

describe("a borrower with an overdue amount", () => {
  it("cannot start a new loan (the POST is refused with the reason), and the dashboard leads with paying it", async () => {
    clock = MONDAY;
    const b = await activeLoan(app, mobile(), asha, ops);
    try {
      // A month and five days on, the first instalment is unpaid.
      clock = new Date(MONDAY.getTime() + 35 * 86_400_000);
      await catchUpServicing(app.services);
      const refused = await postForm(app, "/User/newLoan/salaryAdvance", {}, { cookie: b.cookie });
      expect(refused.status).toBe(403);
      const why = await html(refused);
      expect(why).toMatch(
        /You have ₹[\d,.]+ overdue on your loans with us\. Pay it first: a new loan opens once your loans are up to date\./,
      );
      expect(await app.services.db.select().from(loanApplications).where(eq(loanApplications.userId, b.userId))).toHaveLength(1);
      const dashboard = await html(await page("/User/Dashboard", b.cookie));
      const overdue = dashboard.indexOf('data-testid="overdue-first"');
      expect(overdue).toBeGreaterThan(0);
      expect(overdue).toBeLessThan(dashboard.indexOf("Your applications"));
      expect(dashboard).toMatch(/Pay ₹[\d,.]+ overdue/);
      expect(dashboard).toContain("A new loan is not open to you now.");
      expect(dashboard).not.toContain(">Apply for an EMI loan<");
    } finally {
      clock = MONDAY;
    }
  });

  it("who went overdue after approval is not disbursed, and the refusal is kept with the policy's table", async () => {
    clock = MONDAY;
    const first = await activeLoan(app, mobile(), asha, ops);
    // A second loan, signed and approved while the first is up to date.
    const ref = await signedSalaryAdvance(first);
    for (const fields of [{ intent: "take" }, allTicked(), { intent: "approve" }]) await act(ref, asha.cookie, fields);
    expect((await row(ref)).status).toBe("approved");
    try {
      clock = new Date(MONDAY.getTime() + 35 * 86_400_000);
      await catchUpServicing(app.services);
      const res = await act(ref, ops.cookie, { intent: "disburse", confirm: "yes" });
      expect(toastOf(res)).toContain("The credit policy stops this disbursal now");
      const a = await row(ref);
      expect(a.status).toBe("approved");
      expect(await app.services.db.select().from(payouts).where(eq(payouts.applicationId, a.id))).toHaveLength(0);
      const [kept] = await app.services.db
        .select()
        .from(policyEvaluations)
        .where(and(eq(policyEvaluations.applicationId, a.id), eq(policyEvaluations.stage, "disbursal")));
      expect(kept?.result).toBe("fail");
      expect(kept?.rules.find((r) => r.code === "own_overdue")?.outcome).toBe("fail");
    } finally {
      clock = MONDAY;
    }
  });
});

describe("a deviation", () => {
  it("approved by one officer with a written reason waits for a second, who is not the first", async () => {
    clock = MONDAY;
    // The stand-in scores ABCPx5500x 630: within the policy only as a deviation.
    const b = await signedApplication(app, mobile(), { pan: "ABCPD5500K" });
    await act(b.ref, asha.cookie, { intent: "take" });
    await act(b.ref, asha.cookie, allTicked());
    const review = await html(await page(`/admin/applications/${b.ref}`, asha.cookie));
    expect(review).toContain("The amount signed passes only with a deviation");
    expect(review).toMatch(/data-testid="rule-bureau_score" data-outcome="deviation"/);
    expect(toastOf(await act(b.ref, asha.cookie, { intent: "approve" }))).toBe(
      "This approval is a deviation from the credit policy: write why it is acceptable.",
    );
    const empty = await act(b.ref, asha.cookie, { intent: "approve", deviationReason: "ok" });
    expect(empty.status).toBe(400);
    expect(await html(empty)).toContain("Write why this deviation is acceptable: what supports the loan (at least 10 characters).");
    const reason = "Salary slips show 6 years with the same employer; the low score is from one old card.";
    expect(toastOf(await act(b.ref, asha.cookie, { intent: "approve", deviationReason: reason }))).toContain("A second approver, not you");
    expect((await row(b.ref)).status).toBe("under_review");
    expect(toastOf(await act(b.ref, asha.cookie, { intent: "confirm_deviation" }))).toBe(
      "You proposed this deviation: a second approver, not you, confirms it.",
    );
    // Operations may not confirm one.
    expect((await act(b.ref, ops.cookie, { intent: "confirm_deviation" })).status).toBe(403);
    expect(toastOf(await act(b.ref, ravi.cookie, { intent: "confirm_deviation" }))).toContain("Deviation confirmed");
    const a = await row(b.ref);
    expect(a).toMatchObject({ status: "approved", decidedBy: ravi.userId });
    const [deviation] = await app.services.db.select().from(applicationDeviations).where(eq(applicationDeviations.applicationId, a.id));
    expect(deviation).toMatchObject({ proposedBy: asha.userId, confirmedBy: ravi.userId, reason, rules: ["bureau_score"] });
    const [audit] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, a.id), eq(auditLog.action, "application.deviation_approved")));
    expect(audit).toMatchObject({ actorUserId: ravi.userId, details: { firstApprover: asha.userId, secondApprover: ravi.userId, reason } });
    const kept = await app.services.db.select().from(policyEvaluations).where(eq(policyEvaluations.applicationId, a.id));
    expect(kept.map((k) => [k.stage, k.result, k.policyVersion]).sort()).toEqual(
      [
        ["decision", "deviation", 1],
        ["offer", "deviation", 1],
        ["review", "deviation", 1],
        ["signing", "deviation", 1],
      ].sort(),
    );
  });

  it("is refused when the policy refuses outright: a hard stop is never overridden", async () => {
    clock = MONDAY;
    const b = await signedApplication(app, mobile());
    // The same borrower's salary advance is rejected meanwhile: a rejection in the last 30 days stops the EMI loan too.
    const advance = await signedSalaryAdvance(b);
    expect(
      (await act(advance, ravi.cookie, { intent: "reject", reason: "income", note: "Salary credits do not match the slips." })).status,
    ).toBe(302);
    await act(b.ref, asha.cookie, { intent: "take" });
    await act(b.ref, asha.cookie, allTicked());
    const review = await html(await page(`/admin/applications/${b.ref}`, asha.cookie));
    expect(review).toContain("The credit policy refuses this application");
    expect(review).toMatch(/data-testid="rule-recent_rejection" data-outcome="fail"/);
    const res = await act(b.ref, asha.cookie, { intent: "approve", deviationReason: "I know this borrower; the rejection was a mistake." });
    expect(toastOf(res)).toBe("The credit policy refuses this application: it cannot be approved.");
    expect((await row(b.ref)).status).toBe("under_review");
    expect(await app.services.db.select().from(applicationDeviations)).not.toContainEqual(
      expect.objectContaining({ reason: expect.stringContaining("I know") }),
    );
  });
});
