import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_POLICY_RULES, policyDiff, policyFormValues } from "../../app/domain/credit-policy/rules.ts";
import { emiPaise } from "../../app/domain/loan-math.ts";
import { migrate, migrationsDir, openDatabase } from "../../app/server/db/client.ts";
import {
  auditLog,
  creditChecks,
  creditPolicies,
  loanApplications,
  loanSignatures,
  policyEvaluations,
  reviewChecklist,
} from "../../app/server/db/schema.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { allTicked, signedApplication, signedInStaff, signTerms, startedApplication } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

let app: TestServer;
const staff = {} as Record<"adil" | "bina" | "asha" | "cara", { cookie: string; userId: string }>;
beforeAll(async () => {
  app = await startTestServer({}, { now: () => new Date("2026-11-23T04:30:00Z") });
  staff.adil = await signedInStaff(app, "admin", "Adil Khan");
  staff.bina = await signedInStaff(app, "admin", "Bina Shah");
  staff.asha = await signedInStaff(app, "credit", "Asha Rao");
  staff.cara = await signedInStaff(app, "compliance", "Cara Dsouza");
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const page = (pathname: string, cookie: string) => app.get(pathname, { headers: { Cookie: cookie } });
const policy = (cookie: string, fields: Record<string, string>) => postForm(app, "/admin/policy", fields, { cookie });
const inForce = async () => (await app.services.db.select().from(creditPolicies).where(eq(creditPolicies.status, "confirmed"))).length;
let serial = 0;
const mobile = () => `96400${String(++serial).padStart(5, "0")}`;
/** A new borrower signed in with a mobile of their own. */
const newBorrower = async () => {
  const m = mobile();
  return { ...(await signedInBorrower(app, m)), mobile: m };
};

/** Adil proposes these rules (the defaults otherwise) and Bina confirms them: the next version is in force. */
async function putInForce(changes: Record<string, string>, reason: string) {
  const proposed = await policy(staff.adil.cookie, { intent: "propose", ...policyFormValues(DEFAULT_POLICY_RULES), ...changes, reason });
  expect(toastOf(proposed)).toContain("Proposed");
  const [open] = await app.services.db.select().from(creditPolicies).where(eq(creditPolicies.status, "proposed"));
  expect(toastOf(await policy(staff.bina.cookie, { intent: "confirm", proposal: String(open?.id) }))).toContain("is in force");
}
/** Back to the defaults after a test (whatever it left: an open proposal is withdrawn, an unchanged policy left as it is). */
async function restoreDefaults() {
  const [open] = await app.services.db.select().from(creditPolicies).where(eq(creditPolicies.status, "proposed"));
  if (open) await policy(staff.bina.cookie, { intent: "withdraw", proposal: String(open.id) });
  const [latest] = await app.services.db
    .select()
    .from(creditPolicies)
    .where(eq(creditPolicies.status, "confirmed"))
    .orderBy(desc(creditPolicies.version))
    .limit(1);
  if (policyDiff(DEFAULT_POLICY_RULES, { ...DEFAULT_POLICY_RULES, ...latest?.rules }).length)
    await putInForce({}, "Back to the defaults after the test.");
}

const offerAt12 = async (ref: string, cookie: string) => {
  const m = /12 months — up to ₹([\d,]+)/.exec(await html(await page(`/User/newLoan/Emi/${ref}/Step0`, cookie)));
  return m ? Number(m[1]?.replaceAll(",", "")) * 100 : 0;
};

describe("changing the credit policy", () => {
  it("needs a second administrator, and applies only to offers made after it", async () => {
    const b = await newBorrower();
    await completeProfile(app, b.cookie, defaultProfile(), b.mobile);
    const ref = await startedApplication(app, b.cookie, "Emi");
    const before = await offerAt12(ref, b.cookie);
    const versions = await inForce();
    try {
      const proposed = await policy(staff.adil.cookie, {
        intent: "propose",
        ...policyFormValues(DEFAULT_POLICY_RULES),
        maxObligationsBps: "40",
        salaryAdvanceMaxSalaryBps: "40",
        reason: "Tighter after the quarter's review of early defaults.",
      });
      expect(toastOf(proposed)).toBe("Proposed. Another administrator confirms it before it applies.");
      // Proposed, not in force: the offer is as it was.
      expect(await offerAt12(ref, b.cookie)).toBe(before);
      const text = await html(await page("/admin/policy", staff.bina.cookie));
      expect(text).toContain("Proposed, waiting for a second administrator");
      expect(text).toContain("All EMIs, the new one included, as a share of income: 50% → <strong>40%</strong>");
      // A second proposal waits for the first; the proposer cannot confirm it; credit and compliance only read.
      const second = await policy(staff.bina.cookie, {
        intent: "propose",
        ...policyFormValues(DEFAULT_POLICY_RULES),
        minAgeYears: "23",
        reason: "Another change.",
      });
      expect(second.status).toBe(409);
      expect(await html(second)).toContain("A proposal is already waiting for confirmation");
      const [open] = await app.services.db.select().from(creditPolicies).where(eq(creditPolicies.status, "proposed"));
      const proposal = String(open?.id);
      expect(toastOf(await policy(staff.adil.cookie, { intent: "confirm", proposal }))).toBe(
        "You proposed this change: another administrator confirms it.",
      );
      expect((await policy(staff.asha.cookie, { intent: "confirm", proposal })).status).toBe(403);
      expect((await policy(staff.cara.cookie, { intent: "confirm", proposal })).status).toBe(403);
      expect((await page("/admin/policy", staff.asha.cookie)).status).toBe(200);
      expect((await page("/admin/policy", staff.cara.cookie)).status).toBe(200);
      expect(await inForce()).toBe(versions);

      expect(toastOf(await policy(staff.bina.cookie, { intent: "confirm", proposal }))).toContain(`version ${versions + 1} is in force`);
      // Rate-terms states the policy's cap on salary: its cached page is made again.
      await vi.waitFor(
        async () => {
          if (!(await html(await app.get("/Rate-terms"))).includes("at most 40% of your net monthly salary")) throw new Error("old page");
        },
        { timeout: 10_000, interval: 200 },
      );
      const after = await offerAt12(ref, b.cookie);
      expect(after).toBeLessThan(before);
      expect(emiPaise(after, 1400, 12)).toBeLessThanOrEqual(24_000_00);
      // Terms saved now are judged, and kept, under the new version.
      expect((await postForm(app, `/User/newLoan/Emi/${ref}/Step0`, { amount: "50000", tenure: "12" }, { cookie: b.cookie })).status).toBe(
        302,
      );
      const [kept] = await app.services.db.select().from(policyEvaluations).where(eq(policyEvaluations.userId, b.userId));
      expect(kept?.policyVersion).toBe(versions + 1);
      const audits = await app.services.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.subjectType, "credit_policy"), eq(auditLog.subjectId, proposal)));
      expect(audits.map((a) => [a.action, a.actorUserId])).toEqual([
        ["policy.proposed", staff.adil.userId],
        ["policy.confirmed", staff.bina.userId],
      ]);
      const history = await html(await page("/admin/policy", staff.cara.cookie));
      expect(history).toContain(`In force: version ${versions + 1}`);
      expect(history).toContain("Proposed by Adil Khan, confirmed by Bina Shah. Tighter after the quarter's review of early defaults.");
    } finally {
      await restoreDefaults();
    }
  });

  it("sends an application signed for more than the new version allows back to the borrower for a fresh KFS", async () => {
    const b = await newBorrower();
    await completeProfile(app, b.cookie, defaultProfile(), b.mobile);
    const ref = await startedApplication(app, b.cookie, "Emi");
    // ₹3,00,000 over 12 months at 14%: an EMI of about ₹26,900, 45% of ₹60,000.
    await signTerms(app, { cookie: b.cookie, mobile: b.mobile, ref, amount: "3,00,000", tenure: "12" });
    const [signedRow] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    expect(signedRow?.status).toBe("signed");
    const [oldSignature] = await app.services.db.select().from(loanSignatures).where(eq(loanSignatures.applicationId, signedRow!.id));
    try {
      await putInForce({ maxObligationsBps: "30", deviationObligationsBps: "35" }, "Obligations capped at 30% for the festive season.");
      // Taken for review: the checks job judges it by the version in force and sends it back.
      await postForm(app, `/admin/applications/${ref}`, { intent: "take" }, { cookie: staff.asha.cookie });
      await vi.waitFor(
        async () => {
          const [a] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
          if (a?.status !== "draft") throw new Error(`still ${a?.status}`);
        },
        { timeout: 15_000, interval: 200 },
      );
      const [sentBack] = await app.services.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.subjectId, signedRow!.id), eq(auditLog.action, "loan.status")));
      expect(sentBack).toBeDefined();
      const [old] = await app.services.db.select().from(loanSignatures).where(eq(loanSignatures.id, oldSignature!.id));
      expect(old?.supersededAt).not.toBeNull();
      await vi.waitFor(() => {
        if (!readOutbox(app.dataDir).some((m) => m.to === b.mobile && /needs a fresh signature/.test(m.text)))
          throw new Error("no SMS yet");
      });
      // The borrower chooses again within the new offer and signs a fresh KFS.
      const most = await offerAt12(ref, b.cookie);
      expect(emiPaise(most, 1400, 12)).toBeLessThanOrEqual(18_000_00);
      await signTerms(app, { cookie: b.cookie, mobile: b.mobile, ref, amount: String(most / 100), tenure: "12" });
      const signatures = await app.services.db.select().from(loanSignatures).where(eq(loanSignatures.applicationId, signedRow!.id));
      expect(signatures).toHaveLength(2);
      expect(signatures.filter((s) => s.supersededAt === null)).toHaveLength(1);
      const withdrawn = await html(await app.get(`/Eagreement/${oldSignature!.agreementRef}`));
      expect(withdrawn).toContain("This agreement was withdrawn before any money was paid");
      expect(withdrawn).toContain("₹3,00,000");
      const kept = await app.services.db
        .select({ stage: policyEvaluations.stage, version: policyEvaluations.policyVersion })
        .from(policyEvaluations)
        .where(and(eq(policyEvaluations.applicationId, signedRow!.id), inArray(policyEvaluations.stage, ["signing"])));
      expect(new Set(kept.map((k) => k.version)).size).toBe(2);
    } finally {
      await restoreDefaults();
    }
  });

  it("sends back at approval what the officer had checked on the old terms: the checklist and the assignment end", async () => {
    const b = await newBorrower();
    await completeProfile(app, b.cookie, defaultProfile(), b.mobile);
    const ref = await startedApplication(app, b.cookie, "Emi");
    await signTerms(app, { cookie: b.cookie, mobile: b.mobile, ref, amount: "3,00,000", tenure: "12" });
    const review = `/admin/applications/${ref}`;
    expect((await postForm(app, review, { intent: "take" }, { cookie: staff.asha.cookie })).status).toBe(302);
    expect((await postForm(app, review, allTicked(), { cookie: staff.asha.cookie })).status).toBe(302);
    const [taken] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    // The checks the take queued have judged it under the version it was signed by (and kept it).
    const rows = async <T>(query: ReturnType<typeof sql>) => ((await app.services.db.execute(query)) as unknown as { rows: T[] }).rows;
    const [{ schema } = { schema: "" }] = await rows<{ schema: string }>(sql`select current_schema() as schema`);
    const jobs = sql.raw(schema === "public" ? "pgboss.job" : `${schema}_jobs.job`);
    await vi.waitFor(
      async () => {
        const [job] = await rows<{ state: string }>(
          sql`select state from ${jobs} where name = 'credit-checks' and data->>'applicationId' = ${taken!.id}`,
        );
        expect(job?.state).toBe("completed");
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(await app.services.db.select().from(reviewChecklist).where(eq(reviewChecklist.applicationId, taken!.id))).not.toHaveLength(0);
    try {
      await putInForce({ maxObligationsBps: "30", deviationObligationsBps: "35" }, "Obligations capped at 30% for the festive season.");
      await postForm(app, review, { intent: "approve" }, { cookie: staff.asha.cookie });
      const [back] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
      expect(back).toMatchObject({ status: "draft", assignedTo: null, amountPaise: 300_000_00 });
      expect(await app.services.db.select().from(reviewChecklist).where(eq(reviewChecklist.applicationId, taken!.id))).toHaveLength(0);
    } finally {
      await restoreDefaults();
    }
  });

  it("answers a confirmation of no proposal, or of a made-up one, with a refusal and changes nothing", async () => {
    const versions = await inForce();
    for (const proposal of ["", "abc", "-1", "999999"])
      expect(toastOf(await policy(staff.bina.cookie, { intent: "confirm", proposal }))).toBe(
        "This proposal is no longer waiting for confirmation.",
      );
    expect(await inForce()).toEqual(versions);
  });

  it("is refused next to the field when it does not make sense, and stores nothing", async () => {
    const versions = await inForce();
    const res = await policy(staff.adil.cookie, {
      intent: "propose",
      ...policyFormValues(DEFAULT_POLICY_RULES),
      deviationObligationsBps: "40",
      maxExposurePaise: "lots",
      reason: "short",
    });
    expect(res.status).toBe(400);
    const text = await html(res);
    expect(text).toContain("It must be at least the share allowed without a deviation.");
    expect(text).toContain("The exposure limit must be an amount in rupees");
    expect(text).toContain("Say why the policy changes (at least 10 characters)");
    const unchanged = await policy(staff.adil.cookie, {
      intent: "propose",
      ...policyFormValues(DEFAULT_POLICY_RULES),
      reason: "Nothing really changes.",
    });
    expect(unchanged.status).toBe(409);
    expect(await app.services.db.select().from(creditPolicies).where(eq(creditPolicies.status, "proposed"))).toHaveLength(0);
    expect(await inForce()).toBe(versions);
  });
});

describe("the review of an application under a policy", () => {
  it("shows the rule table and the judgements kept, and a credit officer approves what passes", async () => {
    const b = await signedApplication(app, mobile());
    await postForm(app, `/admin/applications/${b.ref}`, { intent: "take" }, { cookie: staff.asha.cookie });
    await postForm(app, `/admin/applications/${b.ref}`, allTicked(), { cookie: staff.asha.cookie });
    const text = await html(await page(`/admin/applications/${b.ref}`, staff.asha.cookie));
    expect(text).toContain("The amount signed passes the credit policy in force.");
    for (const code of ["pan", "bureau", "own_overdue", "active_loans", "bureau_score", "obligations", "exposure"])
      expect(text).toMatch(new RegExp(`data-testid="rule-${code}" data-outcome="pass"`));
    expect(text).toContain("Offer, terms chosen");
    expect(text).toContain("At signing");
    expect(toastOf(await postForm(app, `/admin/applications/${b.ref}`, { intent: "approve" }, { cookie: staff.asha.cookie }))).toBe(
      "Approved. The borrower has an SMS.",
    );
    const borrowerPage = await html(await page(`/admin/borrowers/${b.userId}`, staff.cara.cookie));
    expect(borrowerPage).toContain("Credit policy judgements");
    expect(borrowerPage).toContain("Decision");
  });
});

describe("the credit policy migration", () => {
  it("gives an installation that has products its first version, with the salary cap it had, and the old checks their borrower (and no subject, so that they count for no new decision)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "policy-migration-"));
    const before = path.join(dir, "before");
    mkdirSync(before);
    for (const file of readdirSync(migrationsDir).filter((f) => f.endsWith(".sql") && f < "0020"))
      copyFileSync(path.join(migrationsDir, file), path.join(before, file));
    const database = await openDatabase({ url: undefined, dataDir: dir });
    try {
      const { db } = database;
      await migrate(db, before);
      // As an installation had them: the salary advance capped at 40% of salary, a check pulled at review.
      await db.execute(sql`insert into products (code, name, min_amount_paise, max_amount_paise, amount_step_paise, min_tenure, max_tenure,
        rate_bps, fee_bps, gst_bps, penal_charge_paise, cooling_off_days, salary_cap_bps, salaried_only)
        values ('salary_advance', 'Salary advance', 200000, 10000000, 50000, 7, 45, 8, 300, 1800, 50000, 3, 4000, true)`);
      await db.execute(sql`insert into users (id, mobile) values ('11111111-1111-4111-8111-111111111111', '9000011111')`);
      await db.execute(sql`insert into borrower_profiles (user_id, full_name, date_of_birth, pan_enc, pan_hmac, pan_masked)
        values ('11111111-1111-4111-8111-111111111111', 'Old Borrower', '1990-01-01', 'x', 'hmac-of-the-pan', 'XXXXXX000A')`);
      await db.execute(sql`insert into loan_applications (id, reference, user_id, product, status)
        values ('22222222-2222-4222-8222-222222222222', 'oldapplicationreferenceaaa', '11111111-1111-4111-8111-111111111111', 'emi', 'under_review')`);
      await db.execute(sql`insert into credit_checks (application_id, kind, provider, result, checked_at)
        values ('22222222-2222-4222-8222-222222222222', 'bureau', 'local', '{"score": 700}', now())`);
      expect(await migrate(db)).toContain("0020_credit_policy.sql");
      const [first] = await db.select().from(creditPolicies);
      expect(first).toMatchObject({ version: 1, status: "confirmed", rules: { ...DEFAULT_POLICY_RULES, salaryAdvanceMaxSalaryBps: 4000 } });
      const [check] = await db.select().from(creditChecks);
      expect(check).toMatchObject({
        userId: "11111111-1111-4111-8111-111111111111",
        subjectKey: "",
        status: "done",
        purpose: "review",
      });
      await expect(db.execute(sql`insert into users (email, role) values ('f@lender.example', 'finance')`)).resolves.toBeDefined();
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
    // Migrating a new data directory from scratch is slow on a busy machine.
  }, 120_000);
});
