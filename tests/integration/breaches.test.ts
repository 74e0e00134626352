import { and, eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { istDateTimeInput } from "../../app/domain/india-date.ts";
import { auditLog, dataBreachBorrowers, dataBreaches, notifications, users } from "../../app/server/db/schema.ts";
import { sendNoticePart } from "../../app/server/privacy/breaches.server.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { jobsOf, waitForJobs } from "../helpers/jobs.ts";
import { noticesOf } from "../helpers/notices.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// The personal-data breach register (DPDP Rules, 2025, rule 7): compliance records a breach of
// three listed borrowers (an unknown number refused first, nothing stored), sends the notices (each
// of the three told once on every channel, a fourth borrower not at all, sending again telling no
// one twice), marks the Board's report made; a breach of every borrower told over 2,500 accounts in
// parts by the job, each once, even when a part runs again. Other roles are refused.
let app: TestServer;
let compliance: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
const borrowers: { mobile: string; userId: string; cookie: string }[] = [];

beforeAll(async () => {
  app = await startTestServer();
  compliance = await signedInStaff(app, "compliance", "Chitra Menon");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  for (const mobile of ["9712300001", "9712300002", "9712300003", "9712300004"])
    borrowers.push({ mobile, ...(await signedInBorrower(app, mobile)) });
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const page = async (pathname: string, cookie: string) => {
  const res = await app.get(pathname, { headers: { Cookie: cookie } });
  return { status: res.status, html: (await res.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'") };
};

/** The form as the page sends it: every field, the ticked items each once. */
const breachForm = (fields: Record<string, string>, items = ["mobile", "pan"]) => {
  const at = (hoursAgo: number) => istDateTimeInput(new Date(Date.now() - hoursAgo * 3600_000));
  const form = new URLSearchParams({
    discoveredAt: at(2),
    occurredAt: at(30),
    description: "A service provider's support tool exposed borrowers' records to an outside party for six hours.",
    consequences: "Calls or messages pretending to be us, asking for a one-time code.",
    mitigation: "We revoked the tool's access and are reviewing every record it read.",
    borrowerSteps: "Never share a one-time code or PIN; tell us about any call that asks for one.",
    ...fields,
  });
  for (const item of items) form.append("dataItems", item);
  return form;
};

const referenceOf = (res: Response) => /\/admin\/privacy\/breaches\/(BR-[0-9A-Z]{8})$/.exec(res.headers.get("location") ?? "")?.[1] ?? "";
const smsTo = (mobile: string, reference: string) => readOutbox(app.dataDir).filter((m) => m.to === mobile && m.text.includes(reference));
const auditRows = (action: string, subjectId: string) =>
  app.services.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.subjectId, subjectId)));

describe("the breach register", { shuffle: false }, () => {
  let reference = "";
  let breachId = "";

  it("refuses a listed number that is no borrower's, naming it, and stores nothing", async () => {
    const res = await postForm(
      app,
      "/admin/privacy/breaches/new",
      breachForm({ scope: "listed", mobiles: `${borrowers[0]!.mobile}\n9000000009, 8000000008` }),
      { cookie: compliance.cookie },
    );
    expect(res.status).toBe(400);
    expect((await res.text()).replaceAll("<!-- -->", "")).toContain(
      "No borrower has these numbers: 9000000009, 8000000008. Nothing was recorded.",
    );
    expect(await app.services.db.select().from(dataBreaches)).toEqual([]);
  });

  it("records a breach of three listed borrowers, audited, and shows both drafts", async () => {
    const [a, b, c] = borrowers;
    const res = await postForm(
      app,
      "/admin/privacy/breaches/new",
      breachForm({ scope: "listed", mobiles: `${a!.mobile}, +91 ${b!.mobile}\n0${c!.mobile}\n${a!.mobile}` }),
      { cookie: compliance.cookie },
    );
    expect(res.status).toBe(302);
    reference = referenceOf(res);
    expect(toastOf(res)).toBe(`Recorded as ${reference}. Send the borrowers' notices and the Board's report from here.`);
    const [breach] = await app.services.db.select().from(dataBreaches).where(eq(dataBreaches.reference, reference));
    breachId = breach!.id;
    expect(breach).toMatchObject({ scope: "listed", dataItems: ["mobile", "pan"], recordedBy: compliance.userId, noticesSentAt: null });
    const listed = await app.services.db.select().from(dataBreachBorrowers).where(eq(dataBreachBorrowers.breachId, breachId));
    expect(listed.map((l) => l.userId).sort()).toEqual([a!.userId, b!.userId, c!.userId].sort());
    expect(await auditRows("privacy.breach.record", breachId)).toMatchObject([{ actorUserId: compliance.userId }]);

    const shown = await page(`/admin/privacy/breaches/${reference}`, compliance.cookie);
    expect(shown.status).toBe(200);
    for (const part of [
      "Intimation of a personal data breach to the Data Protection Board of India",
      "(vi) Report on the intimations given to affected Data Principals: The affected borrowers have not been sent the notice yet.",
      "Data Principals affected: 3 borrowers, each named in our register.",
      "A personal data breach may affect you",
      "What you can do to protect yourself: Never share a one-time code or PIN",
      "व्यक्तिगत डेटा के उल्लंघन का असर आप पर हो सकता है",
      "72 hours after we became aware: 69 hours left",
    ])
      expect(shown.html).toContain(part);
    const drafts = [...shown.html.matchAll(/<textarea[^>]*>([^<]*)<\/textarea>/g)].map((m) => m[1] ?? "");
    expect(drafts).toHaveLength(3);
    for (const draft of drafts) expect(draft).not.toMatch(/undefined|\{[A-Za-z]+\}/);
  });

  it("refuses other staff and borrowers", async () => {
    for (const cookie of [ops.cookie, borrowers[0]!.cookie]) {
      expect((await page("/admin/privacy/breaches", cookie)).status).toBe(403);
      expect((await page(`/admin/privacy/breaches/${reference}`, cookie)).status).toBe(403);
      const sent = await postForm(app, `/admin/privacy/breaches/${reference}`, { intent: "notify", confirm: "yes" }, { cookie });
      expect(sent.status).toBe(403);
    }
    expect((await app.services.db.select().from(dataBreaches).where(eq(dataBreaches.id, breachId)))[0]?.noticesSentAt).toBeNull();
  });

  it("tells each of the three once on every channel, and no one else; sending again tells no one twice", async () => {
    const unticked = await postForm(app, `/admin/privacy/breaches/${reference}`, { intent: "notify" }, { cookie: compliance.cookie });
    expect(unticked.status).toBe(400);
    const sent = await postForm(
      app,
      `/admin/privacy/breaches/${reference}`,
      { intent: "notify", confirm: "yes" },
      { cookie: compliance.cookie },
    );
    expect(toastOf(sent)).toBe("The notices are on their way to every affected borrower.");
    await waitForJobs(app, ["breach-notices", "notify"]);
    const told = async () => {
      for (const [i, b] of borrowers.entries()) {
        const notices = await noticesOf(app, b.userId, "data_breach");
        expect(notices, b.mobile).toHaveLength(i < 3 ? 1 : 0);
        expect(smsTo(b.mobile, reference), b.mobile).toHaveLength(i < 3 ? 1 : 0);
      }
    };
    await told();
    const [notice] = await noticesOf(app, borrowers[0]!.userId, "data_breach");
    expect(notice).toMatchObject({ title: "A personal data breach may affect you", path: "/User/Notifications" });
    expect(notice?.body).toContain(`quote the reference ${reference}`);
    expect(notice?.smsTemplateId).toBe(app.config.smsTemplates.en.data_breach);
    const marks = await app.services.db.select().from(dataBreachBorrowers).where(eq(dataBreachBorrowers.breachId, breachId));
    expect(marks.every((m) => m.notifiedAt !== null)).toBe(true);
    // The borrower reads it in the app.
    expect((await page("/User/Notifications", borrowers[1]!.cookie)).html).toContain("A personal data breach may affect you");

    const again = await postForm(
      app,
      `/admin/privacy/breaches/${reference}`,
      { intent: "notify", confirm: "yes" },
      { cookie: compliance.cookie },
    );
    expect(toastOf(again)).toBe("Sent again to any affected borrower not told yet: nobody is told twice.");
    await waitForJobs(app, ["breach-notices", "notify"]);
    await told();
    expect(await auditRows("privacy.breach.notify", breachId)).toHaveLength(2);
    const [breach] = await app.services.db.select().from(dataBreaches).where(eq(dataBreaches.id, breachId));
    expect(breach?.noticesSentBy).toBe(compliance.userId);
    expect((await page(`/admin/privacy/breaches/${reference}`, compliance.cookie)).html).toContain("3 of 3 borrowers told so far.");
  });

  it("marks the Board's report made once, with its reference, audited; the register shows it", async () => {
    const empty = await postForm(
      app,
      `/admin/privacy/breaches/${reference}`,
      { intent: "report", boardReference: "" },
      { cookie: compliance.cookie },
    );
    expect(empty.status).toBe(400);
    const made = await postForm(
      app,
      `/admin/privacy/breaches/${reference}`,
      { intent: "report", boardReference: "DPB/BR/2026/0042" },
      { cookie: compliance.cookie },
    );
    expect(toastOf(made)).toBe("Marked: the report was made to the Data Protection Board.");
    const twice = await postForm(
      app,
      `/admin/privacy/breaches/${reference}`,
      { intent: "report", boardReference: "DPB/X" },
      { cookie: compliance.cookie },
    );
    expect(toastOf(twice)).toBe("A colleague marked the Board's report made already.");
    const [breach] = await app.services.db.select().from(dataBreaches).where(eq(dataBreaches.id, breachId));
    expect(breach).toMatchObject({ boardReference: "DPB/BR/2026/0042", boardReportedBy: compliance.userId });
    expect(await auditRows("privacy.breach.board_report", breachId)).toMatchObject([{ details: { boardReference: "DPB/BR/2026/0042" } }]);
    const register = await page("/admin/privacy/breaches", compliance.cookie);
    expect(register.html).toContain(reference);
    expect(register.html).toContain("reported in time");
    expect(register.html).toContain("3 of 3");
  });

  it("tells every borrower once, 2,500 accounts and more, a part at a time; a part run again tells no one twice", async () => {
    const many = Array.from({ length: 2500 }, (_, i) => ({ mobile: `93${String(i).padStart(8, "0")}`, role: "borrower" as const }));
    await app.services.db.insert(users).values(many);
    const disabled = await signedInBorrower(app, "9712300099");
    await app.services.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.userId));
    const res = await postForm(app, "/admin/privacy/breaches/new", breachForm({ scope: "all" }, ["identity"]), {
      cookie: compliance.cookie,
    });
    const everyone = referenceOf(res);
    expect(everyone).not.toBe("");
    const [breach] = await app.services.db.select().from(dataBreaches).where(eq(dataBreaches.reference, everyone));
    const sent = await postForm(
      app,
      `/admin/privacy/breaches/${everyone}`,
      { intent: "notify", confirm: "yes" },
      { cookie: compliance.cookie },
    );
    expect(sent.status).toBe(302);
    await waitForJobs(app, "breach-notices", { timeout: 120_000 });
    const parts = (await jobsOf(app, "breach-notices")).filter((j) => j.data?.breachId === breach!.id);
    const perBorrower = () =>
      app.services.db
        .select({ userId: users.id, n: sql<number>`count(${notifications.id})::int` })
        .from(users)
        .leftJoin(notifications, and(eq(notifications.userId, users.id), like(notifications.dedupeKey, `data_breach:${breach!.id}:%`)))
        .where(eq(users.role, "borrower"))
        .groupBy(users.id);
    const counts = await perBorrower();
    expect(counts.length).toBeGreaterThan(2504);
    expect(counts.filter((c) => c.userId !== disabled.userId && c.n !== 1)).toEqual([]);
    expect(counts.find((c) => c.userId === disabled.userId)?.n).toBe(0);
    // A part of at most 1,000 each: three or more parts, one after another.
    expect(parts.length).toBeGreaterThanOrEqual(3);

    // A crash between a part's notices and its marks, then the job again: the marks come back, no second notice.
    const some = counts.slice(0, 50).map((c) => c.userId);
    await app.services.db
      .update(dataBreachBorrowers)
      .set({ notifiedAt: null })
      .where(and(eq(dataBreachBorrowers.breachId, breach!.id), inArray(dataBreachBorrowers.userId, some)));
    expect(await sendNoticePart(app.services, { breachId: breach!.id, after: null })).toBe(50);
    expect(await sendNoticePart(app.services, { breachId: breach!.id, after: null })).toBe(0);
    expect((await perBorrower()).filter((c) => c.userId !== disabled.userId && c.n !== 1)).toEqual([]);
    expect((await page(`/admin/privacy/breaches/${everyone}`, compliance.cookie)).html).toMatch(
      new RegExp(`${(counts.length - 1).toLocaleString("en-IN")} of ${(counts.length - 1).toLocaleString("en-IN")} borrowers told so far`),
    );
    // Every message sent: one SMS to each borrower (the ones inserted here have no other notice).
    await waitForJobs(app, "notify", { timeout: 300_000 });
    const sms = readOutbox(app.dataDir).filter((m) => m.text.includes(everyone));
    expect(sms).toHaveLength(counts.length - 1);
    expect(new Set(sms.map((m) => m.to)).size).toBe(counts.length - 1);
  }, 400_000);
});
