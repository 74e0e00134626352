import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime } from "../../app/domain/india-date.ts";
import { loadList } from "../../app/server/aml/lists.server.ts";
import { amlMatches, amlScreenings, auditLog, payouts } from "../../app/server/db/schema.ts";
import { screenedAt } from "../../app/server/aml/screen.server.ts";
import { activeLoan, approvedApplication, signedInStaff, staffSessionAgain } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { originOf, pageAs, postForm, toastOf } from "../helpers/http.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { userIdOf } from "../helpers/realtime.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Sanctions screening wired in (docs/product.md "Sanctions screening"): the sample lists loaded, a
// borrower whose KYC name is a listed person's spelling variant held at disbursal until compliance
// clears the match; a list loaded later catching an existing borrower, confirmed, freezing refunds;
// nothing of it shown to other staff or to the borrower.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let admin: { cookie: string; userId: string };
let compliance: { cookie: string; userId: string };
const client = { ip: "127.0.0.1", userAgent: "test" };
const sample = (name: string) => readFileSync(path.resolve(import.meta.dirname, "../../reference-data/sanctions", name), "utf8");

beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  admin = await signedInStaff(app, "admin", "Anil Kumar");
  compliance = await signedInStaff(app, "compliance", "Chitra Menon");
  for (const [source, file] of [
    ["un_consolidated", "un-consolidated-sample.xml"],
    ["uapa_51a", "uapa-51a-sample.csv"],
    ["wmd_12a", "wmd-12a-sample.csv"],
  ] as const) {
    const loaded = await loadList(app.services, { source, fileName: file, text: sample(file), by: null });
    expect(loaded.ok).toBe(true);
  }
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

const page = (pathname: string, cookie: string) => pageAs(app, pathname, cookie);

describe("sanctions screening", { shuffle: false }, () => {
  it("holds the disbursal of a borrower who may be a listed person until compliance clears the match; other staff learn only that it waits", async () => {
    // Listed (UAPA sample) as "Mohammad Yaqoob Bhat", born 1979: the borrower's KYC name is a spelling variant.
    const held = await approvedApplication(app, "9786500001", credit, { name: "Mohd Yakub Bhat", dateOfBirth: "1979-05-10" });
    // Screened at onboarding: the signing queued it, before anyone tried to pay out.
    await waitForJobs(app, "aml-screen");
    expect(await screenedAt(app.services, held.userId)).not.toBeNull();
    expect(await app.services.db.select().from(amlMatches).where(eq(amlMatches.userId, held.userId))).toHaveLength(1);
    const res = await postForm(app, `/admin/applications/${held.ref}`, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie });
    expect(toastOf(res)).toBe("This loan is on hold with compliance: nothing was sent. It can be paid out once they release it.");
    expect(await app.services.db.select().from(payouts).where(eq(payouts.applicationId, held.id))).toEqual([]);
    const [match] = await app.services.db.select().from(amlMatches).where(eq(amlMatches.userId, held.userId));
    expect(match).toMatchObject({ source: "uapa_51a", listedName: "Mohammad Yaqoob Bhat", status: "possible", dob: "agrees" });
    // Nobody outside compliance and administrators sees it: the page answers 403, the application page names no list.
    expect((await page("/admin/aml", ops.cookie)).status).toBe(403);
    expect((await page("/admin/aml", credit.cookie)).status).toBe(403);
    const review = await page(`/admin/applications/${held.ref}`, ops.cookie);
    expect(review.html).not.toMatch(/Yaqoob|sanctions|UAPA|possible match/i);
    const dashboard = await page("/User/Dashboard", held.cookie);
    expect(dashboard.html).not.toMatch(/Yaqoob|sanctions|UAPA|compliance/i);
    expect((await page("/admin/aml", held.cookie)).status).not.toBe(200);

    // Compliance reads why, and clears it with a note (a note too short is refused next to the field).
    const queue = await page("/admin/aml", compliance.cookie);
    expect(queue.html).toContain("Mohd Yakub Bhat");
    expect(queue.html).toContain("Mohammad Yaqoob Bhat");
    const short = await postForm(
      app,
      "/admin/aml",
      { intent: "decide", match: match!.id, decision: "cleared", note: "Not him" },
      { cookie: compliance.cookie },
    );
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("in at least 20 characters");
    const cleared = await postForm(
      app,
      "/admin/aml",
      {
        intent: "decide",
        match: match!.id,
        decision: "cleared",
        note: "Different father's name and PAN history; Aadhaar photo does not match the listing.",
      },
      { cookie: compliance.cookie },
    );
    expect(toastOf(cleared)).toBe("Cleared: a different person. The loan may be paid out.");
    const again = await postForm(
      app,
      "/admin/aml",
      { intent: "decide", match: match!.id, decision: "confirmed", note: "Changed my mind about this one, twenty chars." },
      { cookie: compliance.cookie },
    );
    expect(toastOf(again)).toBe("A colleague decided this match already: see it below.");
    const [row] = await app.services.db.select().from(amlMatches).where(eq(amlMatches.id, match!.id));
    expect(row).toMatchObject({ status: "cleared", decidedBy: compliance.userId });
    const [auditRow] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "aml.clear"), eq(auditLog.subjectId, match!.id)));
    expect(auditRow?.actorUserId).toBe(compliance.userId);
    // The audit log keeps the decision for compliance and administrators only.
    expect((await page("/admin/audit?action=aml.clear", compliance.cookie)).html).toContain("aml.clear");
    expect((await page("/admin/audit", ops.cookie)).html).not.toMatch(/aml\.(clear|list_load)/);
    // Released: the loan is paid out.
    const paid = await postForm(app, `/admin/applications/${held.ref}`, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie });
    expect(paid.status).toBe(302);
    expect(toastOf(paid)).not.toContain("on hold");
  });

  it("screens every borrower again when a list is loaded; a confirmed match freezes the account: no refund out, reported within 24 hours", async () => {
    clock.now = indiaTime("2026-03-10", "11:00");
    await Promise.all([credit, ops, admin, compliance].map((s) => staffSessionAgain(app, s)));
    const loan = await activeLoan(app, "9786500002", credit, ops, { name: "Ravindra Kumar Saxena", dateOfBirth: "1981-11-23" });
    const userId = await userIdOf(app, "9786500002");
    // Overpaid (paid off with more than was owed): a refund is due.
    const recorded = await postForm(
      app,
      `/admin/loans/${loan.loanNumber}`,
      { intent: "record_payment", amount: "150000.00", mode: "NEFT", reference: "UTRAMLOVER01", date: "2026-03-10" },
      { cookie: ops.cookie },
    );
    expect(recorded.status).toBe(302);
    // A new version of the WMD Act list names him.
    const csv = `${sample("wmd-12a-sample.csv").trimEnd()}\nWMD-12A-990,individual,Ravindra Kumar Saxena,R. K. Saxena,1981-11-23,Indian,2026-03-09,S.O. 990(E) (FICTIONAL SAMPLE)\n`;
    const loaded = await loadList(app.services, {
      source: "wmd_12a",
      fileName: "wmd-12a-2026-03-09.csv",
      text: csv,
      by: { staff: { id: compliance.userId, role: "compliance" }, client },
    });
    expect(loaded.ok).toBe(true);
    await waitForJobs(app, "aml-rescreen");
    const [match] = await app.services.db.select().from(amlMatches).where(eq(amlMatches.userId, userId));
    expect(match).toMatchObject({ source: "wmd_12a", ref: "WMD-12A-990", status: "possible" });
    const [screening] = await app.services.db.select().from(amlScreenings).where(eq(amlScreenings.userId, userId));
    expect(screening?.listIds).toContain(loaded.ok ? loaded.listId : -1);
    const confirmed = await postForm(
      app,
      "/admin/aml",
      {
        intent: "decide",
        match: match!.id,
        decision: "confirmed",
        note: "Same name, date of birth and PAN as in the notification; confirmed with FIU.",
      },
      { cookie: compliance.cookie },
    );
    expect(toastOf(confirmed)).toBe(
      "Confirmed: the borrower's account is frozen. Report it to FIU-IND within 24 hours: its report is drafted.",
    );
    // Frozen: the refund due is not sent.
    const refund = await postForm(app, `/admin/loans/${loan.loanNumber}`, { intent: "refund" }, { cookie: admin.cookie });
    expect(toastOf(refund)).toBe("This borrower's account is on hold with compliance: no money can be sent out.");
    expect(await app.services.db.select({ id: payouts.id }).from(payouts).where(eq(payouts.applicationId, loan.id))).toHaveLength(1);
    // The report: due within 24 hours of the confirmation, then marked made with its reference.
    expect((await page("/admin/aml", compliance.cookie)).html).toContain("Report to FIU-IND by 11 Mar 2026");
    const reported = await postForm(
      app,
      "/admin/aml",
      { intent: "report", match: match!.id, reference: "FIU/STR/2026/000123" },
      { cookie: compliance.cookie },
    );
    expect(toastOf(reported)).toBe("Marked reported, with its reference.");
    expect((await page("/admin/aml", admin.cookie)).html).toContain("reference FIU/STR/2026/000123");
  });

  it("loads a list through the page's form, a large file included, and refuses one that does not read, naming the line", async () => {
    // 2,000 more made-up entries: a file well over the 100 kB of an ordinary form.
    const letters = (n: number) => Array.from({ length: 4 }, (_, k) => String.fromCharCode(97 + (Math.floor(n / 26 ** k) % 26))).join("");
    const rows = Array.from(
      { length: 2000 },
      (_, i) => `UAPA-BIG-${i},individual,Zqx ${letters(i)} Vrmlnq,,1950,,,S.O. 9${i}(E) (FICTIONAL SAMPLE)`,
    );
    const csv = `${sample("uapa-51a-sample.csv").trimEnd()}\n${rows.join("\n")}\n`;
    expect(csv.length).toBeGreaterThan(100_000);
    const upload = (name: string, body: string) => {
      const form = new FormData();
      form.set("source", "uapa_51a");
      form.set("file", new Blob([body], { type: "text/csv" }), name);
      return app.get("/admin/aml", { method: "POST", body: form, headers: { Cookie: compliance.cookie, Origin: originOf(app) } });
    };
    const loaded = await upload("uapa-51a-big.csv", csv);
    expect(toastOf(loaded)).toBe("Loaded 2010 entries of the UAPA section 51A list: every borrower is being screened again.");
    await waitForJobs(app, "aml-rescreen");
    const bad = await upload("broken.csv", "ref,kind\nX,individual\n");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Nothing was loaded.");
    // Operations may not load a list.
    const form = new FormData();
    form.set("source", "uapa_51a");
    form.set("file", new Blob([csv], { type: "text/csv" }), "x.csv");
    const refused = await app.get("/admin/aml", { method: "POST", body: form, headers: { Cookie: ops.cookie, Origin: originOf(app) } });
    expect(refused.status).toBe(403);
  });
});
