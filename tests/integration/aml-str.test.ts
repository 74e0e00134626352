import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { strDueOn } from "../../app/domain/aml/str.ts";
import { readStrXml } from "../../app/domain/aml/str-file-read.ts";
import { indiaTime, todayIST } from "../../app/domain/india-date.ts";
import { decideMatch } from "../../app/server/aml/decide.server.ts";
import { loadList } from "../../app/server/aml/lists.server.ts";
import { holdOf } from "../../app/server/aml/screen.server.ts";
import { draftFromMatch, draftReport } from "../../app/server/aml/str.server.ts";
import { strVersion } from "../../app/server/aml/str-read.server.ts";
import { amlMatches, auditLog, suspiciousReports, users } from "../../app/server/db/schema.ts";
import { goodPan } from "../fixtures/kyc.ts";
import { activeLoan, approvedApplication, signedApplication, signedInStaff } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { pageAs, postForm, toastOf } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Suspicious-transaction reports (docs/product.md "Suspicious-transaction reports"): drafted, sent
// back, changed, reviewed by someone who did not write it, exported as FIU-IND's file and
// acknowledged, every step stored and audited; a confirmed sanctions match drafting its report once;
// nothing of it for other staff or the borrower; a cleared match asked about again when its listed
// entry changes in a new version of a list (docs/product.md "Sanctions screening").
const clock: TestClock = { now: indiaTime("2026-03-02", "11:00") };
let app: TestServer;
type Staff = { cookie: string; userId: string };
let credit: Staff, ops: Staff, support: Staff, finance: Staff, admin: Staff, compliance: Staff, second: Staff;
const client = { ip: "127.0.0.1", userAgent: "test" };
const sample = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../../reference-data/sanctions", name), "utf8");

beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  [credit, ops, support, finance, admin, compliance, second] = await Promise.all([
    signedInStaff(app, "credit", "Asha Rao"),
    signedInStaff(app, "operations", "Omar Shaikh"),
    signedInStaff(app, "support", "Sunita Das"),
    signedInStaff(app, "finance", "Farah Khan"),
    signedInStaff(app, "admin", "Anil Kumar"),
    signedInStaff(app, "compliance", "Chitra Menon"),
    signedInStaff(app, "compliance", "Devika Nair"),
  ]);
  const loaded = await loadList(app.services, { source: "uapa_51a", fileName: "uapa.csv", text: sample("uapa-51a-sample.csv"), by: null });
  expect(loaded.ok).toBe(true);
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const page = (pathname: string, cookie: string) => pageAs(app, pathname, cookie);
const reportOf = async (reference: string) =>
  (await app.services.db.select().from(suspiciousReports).where(eq(suspiciousReports.reference, reference)))[0];
const on = (reference: string, fields: Record<string, string>, who: Staff) =>
  postForm(app, `/admin/aml/reports/${reference}`, fields, { cookie: who.cookie });
const auditOf = async (id: string) =>
  app.services.db
    .select({ action: auditLog.action, by: auditLog.actorUserId, details: auditLog.details })
    .from(auditLog)
    .where(eq(auditLog.subjectId, id))
    .orderBy(asc(auditLog.id));

describe("a suspicious-transaction report", { shuffle: false }, () => {
  const GROUNDS = `Cash repayments just under reporting limits & "structured" <deposits> 'twice'; नकद भुगतान संदिग्ध है।\nReceipts RCPT0001 seen.`;
  let reference = "";
  let loan: Awaited<ReturnType<typeof activeLoan>>;
  let other: Awaited<ReturnType<typeof activeLoan>>;
  const pan = goodPan();

  it("is drafted by compliance about a borrower (the same draft twice is one), with the grounds checked next to the field", async () => {
    loan = await activeLoan(app, "9786700001", credit, ops, { name: "Meera Iyer", dateOfBirth: "1990-02-02", pan });
    other = await activeLoan(app, "9786700002", credit, ops, { name: "Kabir Das", dateOfBirth: "1988-08-08" });
    clock.now = indiaTime("2026-03-05", "11:00");
    for (const [l, ref] of [
      [loan, "RCPT0001"],
      [other, "RCPT0002"],
    ] as const) {
      const paid = await postForm(
        app,
        `/admin/loans/${l.loanNumber}`,
        { intent: "record_payment", amount: "5000.00", mode: "cash", reference: ref, date: "2026-03-05" },
        { cookie: ops.cookie },
      );
      expect(paid.status).toBe(302);
    }
    const fields = { borrower: loan.userId, suspectedAt: "2026-03-05T10:30", periodFrom: "2026-03-01", periodTo: "2026-03-05" };
    const short = await postForm(app, "/admin/aml/reports/new", { ...fields, grounds: "Odd cash." }, { cookie: compliance.cookie });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("in at least 50 characters");
    const drafted = await postForm(app, "/admin/aml/reports/new", { ...fields, grounds: GROUNDS }, { cookie: compliance.cookie });
    reference = /\/admin\/aml\/reports\/(STR-[0-9A-Z]{8})$/.exec(drafted.headers.get("location") ?? "")?.[1] ?? "";
    expect(toastOf(drafted)).toBe(`Drafted ${reference}: a colleague who did not write it reviews it next.`);
    const again = await postForm(app, "/admin/aml/reports/new", { ...fields, grounds: GROUNDS }, { cookie: compliance.cookie });
    expect(toastOf(again)).toBe(`This draft was saved already as ${reference}.`);
    expect(await app.services.db.select().from(suspiciousReports).where(eq(suspiciousReports.userId, loan.userId))).toHaveLength(1);
    expect(await reportOf(reference)).toMatchObject({
      status: "draft",
      draftedBy: compliance.userId,
      suspectedAt: indiaTime("2026-03-05", "10:30"),
      dueOn: strDueOn(indiaTime("2026-03-05", "10:30"), app.services.config.holidays),
      grounds: GROUNDS,
      matchId: null,
    });
    const list = await page("/admin/aml/reports", compliance.cookie);
    expect(list.html).toContain(reference);
    expect(list.html).toMatch(/working days? left|due today/);
  });

  it("is reviewed by someone who neither drafted nor changed it: sent back, changed, approved", async () => {
    const own = await on(reference, { intent: "review", decision: "approve", note: "" }, compliance);
    expect(toastOf(own)).toBe("You drafted or changed this report: a colleague who did not reviews it.");
    const tooShort = await on(reference, { intent: "review", decision: "send_back", note: "Fix it" }, second);
    expect(tooShort.status).toBe(400);
    const note = "Name the receipts and the dates of each cash payment, please.";
    const back = await on(reference, { intent: "review", decision: "send_back", note }, second);
    expect(toastOf(back)).toBe("Sent back to the drafter with your note.");
    expect(toastOf(await on(reference, { intent: "review", decision: "send_back", note }, second))).toBe("You sent this back already.");
    expect(await reportOf(reference)).toMatchObject({ status: "draft", reviewedBy: second.userId, reviewNote: note });
    expect((await page("/admin/aml/reports", compliance.cookie)).html).toContain("Drafts sent back for changes: 1");
    // An administrator changes it (and so may not review it); a stale form is refused.
    clock.now = indiaTime("2026-03-05", "15:00");
    const row = await reportOf(reference);
    const changed = `${GROUNDS}\nRCPT0001 on 5 March 2026, ₹5,000 in cash at the branch.`;
    const edit = { intent: "edit", version: strVersion(row!), suspectedAt: "2026-03-05T10:30", periodFrom: "2026-03-01" };
    expect(toastOf(await on(reference, { ...edit, periodTo: "2026-03-05", grounds: changed }, admin))).toBe(
      "Draft changed: it awaits review again.",
    );
    expect(toastOf(await on(reference, { ...edit, periodTo: "2026-03-04", grounds: changed }, compliance))).toBe(
      "A colleague changed this draft since you opened it: read it again, then make your change.",
    );
    expect(toastOf(await on(reference, { intent: "review", decision: "approve" }, admin))).toBe(
      "You drafted or changed this report: a colleague who did not reviews it.",
    );
    expect(toastOf(await on(reference, { intent: "review", decision: "approve", note: "Receipts checked." }, second))).toBe(
      "Approved: it can be exported for FIU-IND.",
    );
    expect(toastOf(await on(reference, { intent: "review", decision: "approve" }, second))).toBe("You approved this report already.");
    expect(await reportOf(reference)).toMatchObject({ status: "reviewed", reviewedBy: second.userId, grounds: changed });
    expect((await page("/admin/aml/reports", compliance.cookie)).html).toContain("Reviewed, not exported: 1");
  });

  it("is exported as FIU-IND's file: the borrower's movements of the period and nobody else's; then acknowledged", async () => {
    clock.now = indiaTime("2026-03-06", "16:00");
    expect(toastOf(await on(reference, { intent: "export" }, admin))).toBe("Exported: download the file and upload it on FINnet.");
    expect(toastOf(await on(reference, { intent: "export" }, admin))).toBe(
      "This report was exported already: download the file again below.",
    );
    const row = await reportOf(reference);
    expect(row).toMatchObject({ status: "exported", exportedBy: admin.userId, exportedAt: clock.now });
    const res = await app.get(`/admin/aml/reports/${reference}/file`, { headers: { Cookie: compliance.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${reference}.xml"`);
    const xml = await res.text();
    expect(createHash("sha256").update(xml).digest("hex")).toBe(row?.fileSha256);
    const file = readStrXml(xml);
    expect(file.report.grounds).toBe(row?.grounds);
    expect(file.batchDate).toBe("2026-03-06");
    const account = file.report.accounts.find((a) => a.number === loan.loanNumber);
    expect(account?.persons[0]).toMatchObject({ name: "Meera Iyer", pan, dateOfBirth: "1990-02-02", mobile: "+919786700001" });
    expect(account?.transactions.map((t) => [t.date, t.debitCredit, t.mode])).toEqual([
      [loan.disbursalDate, "D", "E"],
      ["2026-03-05", "C", "C"],
    ]);
    expect(account?.transactions[1]?.amountPaise).toBe(5000_00);
    expect(xml).not.toContain(other.loanNumber);
    expect(xml).not.toContain("Kabir Das");
    expect(xml).not.toContain("RCPT0002");
    // FIU-IND's acknowledgement, once.
    expect(toastOf(await on(reference, { intent: "acknowledge", fiuReference: "FIU/STR/2026/000777" }, compliance))).toBe(
      "FIU-IND's acknowledgement recorded.",
    );
    expect(toastOf(await on(reference, { intent: "acknowledge", fiuReference: "FIU/STR/2026/000777" }, compliance))).toBe(
      "This acknowledgement was recorded already.",
    );
    expect(toastOf(await on(reference, { intent: "acknowledge", fiuReference: "FIU/STR/2026/000999" }, admin))).toBe(
      "FIU-IND's acknowledgement number is recorded already: see it below.",
    );
    expect((await reportOf(reference))?.fiuReference).toBe("FIU/STR/2026/000777");
    const steps = (await auditOf(row!.id)).map((a) => [a.action, a.by]);
    expect(steps).toEqual([
      ["aml.str.draft", compliance.userId],
      ["aml.str.send_back", second.userId],
      ["aml.str.edit", admin.userId],
      ["aml.str.approve", second.userId],
      ["aml.str.export", admin.userId],
      ["aml.str.download", compliance.userId],
      ["aml.str.acknowledge", compliance.userId],
    ]);
  });

  it("is for compliance and administrators only: 403 for every other role, nothing for the borrower", async () => {
    const held = await draftReport(app.services, {
      userId: other.userId,
      content: { suspectedAt: clock.now, periodFrom: "2026-03-01", periodTo: "2026-03-06", grounds: "G".repeat(60) },
      by: { staff: { id: compliance.userId, role: "compliance" }, client },
    });
    const ref = held.ok ? held.reference : "";
    const gets = [
      "/admin/aml/reports",
      "/admin/aml/reports/new",
      `/admin/aml/reports/new?borrower=${other.userId}`,
      `/admin/aml/reports/${ref}`,
      `/admin/aml/reports/${reference}/file`,
    ].map((p) => (cookie: string) => app.get(p, { headers: { Cookie: cookie } }));
    const posts = ["review", "export", "acknowledge", "edit"].map(
      (intent) => (cookie: string) => postForm(app, `/admin/aml/reports/${ref}`, { intent, decision: "approve" }, { cookie }),
    );
    const draft = (cookie: string) =>
      postForm(app, "/admin/aml/reports/new", { borrower: other.userId, grounds: "x".repeat(60) }, { cookie });
    const requests = [...gets, ...posts, draft];
    for (const who of [credit, ops, support, finance, other])
      for (const ask of requests) expect((await ask(who.cookie)).status, `${who.userId}`).toBe(403);
    expect((await reportOf(ref))?.status).toBe("draft");
    // The borrower's pages name nothing of it; other staff's audit log leaves its rows out.
    const dashboard = await page("/User/Dashboard", loan.cookie);
    expect(dashboard.html).not.toMatch(/STR-|suspicious|FIU/i);
    expect((await page("/admin/audit", ops.cookie)).html).not.toMatch(/aml\.str\./);
    expect((await page(`/admin/borrowers/${loan.userId}`, ops.cookie)).html).not.toContain("suspicious-transaction");
    expect((await page("/admin/audit?action=aml.str.export", compliance.cookie)).html).toContain("aml.str.export");
  });
});

describe("a confirmed sanctions match", () => {
  it("drafts its report in the confirmation, once however often it is confirmed", async () => {
    // Listed (UAPA sample) as "Mohammad Yaqoob Bhat", born 1979.
    const held = await approvedApplication(app, "9786700011", credit, { name: "Mohd Yakub Bhat", dateOfBirth: "1979-05-10" });
    await waitForJobs(app, "aml-screen");
    const [match] = await app.services.db.select().from(amlMatches).where(eq(amlMatches.userId, held.userId));
    const note = "Same father's name and PAN history as the notification's annexure.";
    const confirm = () =>
      postForm(app, "/admin/aml", { intent: "decide", match: match!.id, decision: "confirmed", note }, { cookie: compliance.cookie });
    expect(toastOf(await confirm())).toContain("its report is drafted");
    expect(toastOf(await confirm())).toBe("A colleague decided this match already: see it below.");
    const [decided] = await app.services.db.select().from(amlMatches).where(eq(amlMatches.id, match!.id));
    const reports = await app.services.db.select().from(suspiciousReports).where(eq(suspiciousReports.userId, held.userId));
    expect(reports).toHaveLength(1);
    const [since] = await app.services.db.select({ at: users.createdAt }).from(users).where(eq(users.id, held.userId));
    expect(reports[0]).toMatchObject({
      matchId: match!.id,
      status: "draft",
      draftedBy: compliance.userId,
      suspectedAt: decided!.decidedAt,
      dueOn: strDueOn(decided!.decidedAt!, app.services.config.holidays),
      periodFrom: [todayIST(since!.at), todayIST(decided!.decidedAt!)].sort()[0],
      periodTo: todayIST(decided!.decidedAt!),
    });
    expect(reports[0]?.grounds).toContain('UAPA section 51A list, entry UAPA-IV-902 ("Mohammad Yaqoob Bhat")');
    expect(reports[0]?.grounds).toContain(note);
    const again = await app.services.db.transaction((tx) =>
      draftFromMatch({ ...app.services, db: tx }, { matchId: match!.id, by: { staff: { id: second.userId, role: "compliance" }, client } }),
    );
    expect(again.id).toBe(reports[0]?.id);
    const reference = reports[0]!.reference;
    expect((await page("/admin/aml", compliance.cookie)).html).toContain(`/admin/aml/reports/${reference}`);
    // Reviewed by another, exported and acknowledged: the match is reported with FIU-IND's number.
    expect(toastOf(await on(reference, { intent: "review", decision: "approve" }, second))).toBe(
      "Approved: it can be exported for FIU-IND.",
    );
    await on(reference, { intent: "export" }, second);
    await on(reference, { intent: "acknowledge", fiuReference: "FIU/STR/2026/000888" }, second);
    const [reported] = await app.services.db.select().from(amlMatches).where(eq(amlMatches.id, match!.id));
    expect(reported).toMatchObject({ reportReference: "FIU/STR/2026/000888", reportedBy: second.userId });
  });
});

describe("a cleared match", () => {
  it("is asked about again when its listed entry changes in a new version of the list, and stays cleared when it does not", async () => {
    const people = {
      changed: await signedApplication(app, "9786700021", { name: "Mohd Yakub Bhat", dateOfBirth: "1979-07-01" }),
      same: await signedApplication(app, "9786700022", { name: "Gurpreet Singh Randhawa", dateOfBirth: "1987-08-19" }),
      unknown: await signedApplication(app, "9786700023", { name: "Tariq Ahmad Lone", dateOfBirth: "1975-01-01" }),
    };
    await waitForJobs(app, "aml-screen");
    const matchOf = async (userId: string) => (await app.services.db.select().from(amlMatches).where(eq(amlMatches.userId, userId)))[0]!;
    const note = "Different father's name; the Aadhaar photograph does not match the listing.";
    for (const p of Object.values(people)) {
      const m = await matchOf(p.userId);
      expect(m.entryHash).toMatch(/^[0-9a-f]{64}$/);
      const done = await decideMatch(app.services, {
        matchId: m.id,
        decision: "cleared",
        note,
        staff: { id: compliance.userId, role: "compliance" },
        client,
      });
      expect(done.ok).toBe(true);
    }
    // A match found before fingerprints were kept has none.
    await app.services.db.update(amlMatches).set({ entryHash: null }).where(eq(amlMatches.userId, people.unknown.userId));
    const load = async (edit: (csv: string) => string, fileName: string) => {
      const loaded = await loadList(app.services, { source: "uapa_51a", fileName, text: edit(sample("uapa-51a-sample.csv")), by: null });
      expect(loaded.ok).toBe(true);
      await waitForJobs(app, "aml-rescreen");
    };
    await load(
      (csv) =>
        csv
          .replace("Yakub Bhat; Abu Hamza Kashmiri", "Yakub Bhat; Abu Hamza Kashmiri; Yaqub Bhatt")
          .replace("Tariq Ahmad Lone,Tariq Lone,", "Tariq Ahmad Lone,Tariq Lone; Abu Tariq,"),
      "uapa-v2.csv",
    );
    const reopened = await matchOf(people.changed.userId);
    expect(reopened).toMatchObject({ status: "possible", decidedAt: null, decidedBy: null, note: null });
    expect(await holdOf(app.services, people.changed.userId)).toBe("possible");
    const [row] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "aml.reopen"), eq(auditLog.subjectId, reopened.id)));
    expect(row?.details).toMatchObject({ ref: "UAPA-IV-902", previous: { status: "cleared", decidedBy: compliance.userId, note } });
    expect(await matchOf(people.same.userId)).toMatchObject({ status: "cleared", note });
    // Unknown before: given its fingerprint now, compared from the next version on.
    const unknown = await matchOf(people.unknown.userId);
    expect(unknown).toMatchObject({ status: "cleared" });
    expect(unknown.entryHash).toMatch(/^[0-9a-f]{64}$/);
    await load((csv) => csv.replace("Tariq Ahmad Lone,Tariq Lone,", "Tariq Ahmad Lone,Tariq Lone; T. A. Lone,"), "uapa-v3.csv");
    expect(await matchOf(people.unknown.userId)).toMatchObject({ status: "possible" });
    expect(await matchOf(people.same.userId)).toMatchObject({ status: "cleared" });
  });
});
