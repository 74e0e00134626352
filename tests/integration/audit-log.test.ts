import { and, count, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, loanApplications } from "../../app/server/db/schema.ts";
import { allTicked, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { postForm } from "../helpers/http.ts";
import { parseCsv } from "../helpers/csv.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The audit log viewer and its CSV export (PRODUCT.md §12), over rows written by real staff actions.
// The actions happen on a test clock in October 2026; a few rows (written with the database's own
// time) fall on the real day, well away from the dates filtered on here.
let clock = new Date("2026-10-16T05:00:00Z"); // Friday 16 Oct 2026, 10:30 in India.
const now = () => clock;

type Staff = { cookie: string; userId: string };
let app: TestServer;
let admin: Staff;
let asha: Staff;
let ravi: Staff;
let first: { ref: string; id: string; mobile: string };
let second: { ref: string; id: string; mobile: string };

const NOTE = '=cmd, "quoted" note text';
const AGENT = '=HYPERLINK("http://evil.example","x")';

const html = async (res: Response) =>
  (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
const page = (path: string, who: Staff) => app.get(path, { headers: { Cookie: who.cookie } });
const act = (ref: string, who: Staff, fields: Record<string, string> | URLSearchParams, headers: Record<string, string> = {}) =>
  postForm(app, `/admin/applications/${ref}`, fields, { cookie: who.cookie, headers });
const must302 = async (res: Promise<Response>) => expect((await res).status).toBe(302);

/** What the page shows of each row: its time, who, action and whether it links to an application. */
function rowsOf(text: string) {
  const body = text.split('data-testid="audit-row"').slice(1);
  return body.map((r) => ({
    at: /<time dateTime="([^"]+)"/.exec(r)?.[1] ?? "",
    who: /data-testid="audit-who"[^>]*>([^<]*)/.exec(r)?.[1] ?? "",
    action: /data-testid="audit-action"[^>]*>([^<]*)/.exec(r)?.[1] ?? "",
    ref: /href="\/admin\/applications\/([a-z2-7]{26})"/.exec(r)?.[1] ?? null,
  }));
}
const totalOf = (text: string) => {
  const m = /data-testid="audit-count"[^>]*>(?:Showing [\d,]+–[\d,]+ of ([\d,]+)|(Nothing matches))/.exec(text);
  if (!m) throw new Error("no count on the page");
  return m[2] ? 0 : Number(m[1]?.replaceAll(",", ""));
};
const dbCount = async (where: SQL | undefined) => (await app.services.db.select({ n: count() }).from(auditLog).where(where))[0]?.n ?? 0;

beforeAll(async () => {
  app = await startTestServer({}, { now });
  admin = await signedInStaff(app, "admin", "Meera Iyer");
  asha = await signedInStaff(app, "credit", "Asha Rao");
  ravi = await signedInStaff(app, "credit", "Ravi Kumar");
  // Friday: Asha takes the first application (from a browser whose user agent is a formula) and rejects it.
  first = await signedApplication(app, "9810000001");
  await must302(act(first.ref, asha, { intent: "take" }, { "User-Agent": AGENT }));
  clock = new Date("2026-10-16T06:00:00Z");
  await must302(act(first.ref, asha, { intent: "reject", reason: "policy", note: NOTE }));
  // Monday 19 Oct, 00:30 in India (still Sunday in UTC): Ravi takes the second and works the checklist.
  clock = new Date("2026-10-18T19:00:00Z");
  second = await signedApplication(app, "9810000002");
  await must302(act(second.ref, ravi, { intent: "take" }));
  for (let i = 0; i < 6; i++) {
    clock = new Date(clock.getTime() + 60_000);
    await must302(act(second.ref, ravi, allTicked()));
    await must302(act(second.ref, ravi, { intent: "checklist" }));
  }
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

describe("the audit log page", () => {
  it("lists the staff actions and status changes newest first, with who did them", async () => {
    const res = await page("/admin/audit?action=loan.status", admin);
    expect(res.status).toBe(200);
    const text = await html(res);
    const rows = rowsOf(text);
    const times = rows.map((r) => r.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(rows.every((r) => r.action === "loan.status")).toBe(true);
    // Ravi's take of the second application is the newest status change; Asha's rejection and take follow.
    expect(rows[0]).toMatchObject({ who: "Ravi Kumar", ref: second.ref });
    const ashas = rows.filter((r) => r.who === "Asha Rao");
    expect(ashas).toHaveLength(2);
    expect(ashas.every((r) => r.ref === first.ref)).toBe(true);
    expect(text).toContain("Credit officer");
    // The rejection's details read as key: value pairs, not JSON.
    expect(text).toContain("rejectionReason:");
    expect(text).not.toContain('"rejectionReason"');
    expect(text).toContain(`/admin/applications/${first.ref}`);
    // The borrower's own status changes say "Borrower".
    expect(rows.some((r) => r.who === "Borrower")).toBe(true);
    expect(totalOf(text)).toBe(await dbCount(eq(auditLog.action, "loan.status")));
  });

  it("filters by who did it", async () => {
    const text = await html(await page(`/admin/audit?actor=${asha.userId}`, admin));
    const rows = rowsOf(text);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.who === "Asha Rao")).toBe(true);
    expect(totalOf(text)).toBe(await dbCount(eq(auditLog.actorUserId, asha.userId)));
    // The select offers the staff by name, Asha chosen.
    expect(text).toMatch(new RegExp(`<option value="${asha.userId}" selected="">Asha Rao \\(Credit officer\\)</option>`));
    const borrowers = await html(await page("/admin/audit?actor=borrower", admin));
    expect(rowsOf(borrowers).every((r) => r.who === "Borrower")).toBe(true);
    expect(totalOf(borrowers)).toBe(await dbCount(eq(auditLog.actorRole, "borrower")));
  });

  it("filters by the borrower's mobile number, with or without +91", async () => {
    const expected = await dbCount(and(eq(auditLog.subjectType, "loan_application"), eq(auditLog.subjectId, first.id)));
    expect(expected).toBeGreaterThan(3);
    for (const mobile of ["9810000001", "+919810000001", "+91 98100 00001"]) {
      const text = await html(await page(`/admin/audit?borrower=${encodeURIComponent(mobile)}`, admin));
      const rows = rowsOf(text);
      expect(rows.every((r) => r.ref === first.ref)).toBe(true);
      expect(totalOf(text)).toBe(expected);
    }
    const nobody = await html(await page("/admin/audit?borrower=9999999999", admin));
    expect(rowsOf(nobody)).toHaveLength(0);
    expect(nobody).toContain("No borrower has this mobile number.");
  });

  it("filters by action", async () => {
    const text = await html(await page("/admin/audit?action=review.checklist", admin));
    expect(rowsOf(text).every((r) => r.action === "review.checklist" && r.who === "Ravi Kumar")).toBe(true);
    expect(totalOf(text)).toBe(60);
    // The select offers the actions present.
    expect(text).toContain('<option value="review.checklist" selected="">review.checklist</option>');
    expect(text).toContain('<option value="loan.status">loan.status</option>');
  });

  it("filters by India-time dates, both days included", async () => {
    // 16 Oct: the first application's rows (signing, take, rejection).
    const friday = await html(await page("/admin/audit?from=2026-10-16&to=2026-10-16", admin));
    const fridayRows = rowsOf(friday);
    expect(fridayRows.length).toBeGreaterThan(0);
    expect(fridayRows.every((r) => r.ref === first.ref)).toBe(true);
    expect(totalOf(friday)).toBe(
      await dbCount(
        and(gte(auditLog.createdAt, new Date("2026-10-15T18:30:00Z")), lt(auditLog.createdAt, new Date("2026-10-16T18:30:00Z"))),
      ),
    );
    // 19 Oct in India began at 18:30 UTC on the 18th: the second application's rows are on the 19th.
    const monday = await html(await page("/admin/audit?from=2026-10-19&to=2026-10-19", admin));
    expect(rowsOf(monday).every((r) => r.ref === second.ref)).toBe(true);
    const secondRows = await dbCount(and(eq(auditLog.subjectType, "loan_application"), eq(auditLog.subjectId, second.id)));
    expect(totalOf(monday)).toBe(secondRows);
    expect(totalOf(await html(await page("/admin/audit?from=2026-10-17&to=2026-10-18", admin)))).toBe(0);
    // From alone, and the dates the wrong way round.
    expect(totalOf(await html(await page("/admin/audit?to=2026-10-18", admin)))).toBe(totalOf(friday));
    const swapped = await html(await page("/admin/audit?from=2026-10-19&to=2026-10-16", admin));
    expect(totalOf(swapped)).toBe(totalOf(friday) + secondRows);
    expect(swapped).toContain("wrong way round");
  });

  it("pages 50 at a time with next and previous links", async () => {
    const total = await dbCount(undefined);
    expect(total).toBeGreaterThan(50);
    const one = await html(await page("/admin/audit", admin));
    expect(totalOf(one)).toBe(total);
    const pageOne = rowsOf(one);
    expect(pageOne).toHaveLength(50);
    expect(one).toContain('href="/admin/audit?page=2"');
    expect(one).not.toContain('rel="prev"');
    const two = await html(await page("/admin/audit?page=2", admin));
    const pageTwo = rowsOf(two);
    expect(pageTwo).toHaveLength(Math.min(50, total - 50));
    expect(two).toContain('rel="prev"');
    expect(two).toContain(`Showing 51–${50 + pageTwo.length} of ${total}`);
    expect((pageOne.at(-1)?.at ?? "") >= (pageTwo[0]?.at ?? "")).toBe(true);
    // The filters travel with the page links.
    const filtered = await html(await page("/admin/audit?action=review.checklist", admin));
    expect(filtered).toContain('href="/admin/audit?action=review.checklist&page=2"');
    const past = await html(await page("/admin/audit?page=400", admin));
    expect(past).toContain("Page 400 is past the end");
    expect(past).toContain("Go to the first page");
  });

  it("answers hostile or invalid parameters with the defaults and a short notice, never an error", async () => {
    const defaults = totalOf(await html(await page("/admin/audit", admin)));
    for (const query of [
      "page=-1",
      "page=abc",
      "page=1e9",
      "action=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
      "from=garbage",
      "to=2026-02-30",
      "actor=%27%20or%201%3D1--",
      "borrower=12345",
      "borrower=" + "9".repeat(5000),
      "page=1&page=2&action[]=x",
    ]) {
      const res = await page(`/admin/audit?${query}`, admin);
      expect(res.status, query).toBe(200);
      const text = await res.text();
      expect(text, query).not.toContain("<script>alert");
      if (!query.startsWith("page=1&")) expect(text, query).toContain("Not understood, so not applied");
      expect(totalOf(await html(new Response(text))), query).toBe(defaults);
    }
    const empty = await html(await page("/admin/audit?action=no.such_action", admin));
    expect(empty).toContain("No audit entry matches these filters.");
    expect(empty).toContain("Clear the filters");
  });
});

describe("the CSV export", () => {
  it("gives an administrator the filtered rows as CSV, quoted and safe for spreadsheets, and audits the export", async () => {
    const expected = await dbCount(and(eq(auditLog.subjectType, "loan_application"), eq(auditLog.subjectId, first.id)));
    const pageText = await html(await page("/admin/audit?borrower=9810000001", admin));
    expect(pageText).toContain('href="/admin/audit.csv?borrower=9810000001"');
    const res = await page("/admin/audit.csv?borrower=%2B919810000001&page=3", admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const [header, ...rows] = parseCsv(await res.text());
    expect(header).toEqual([
      "time_ist",
      "actor_name",
      "actor_role",
      "action",
      "subject_type",
      "subject_id",
      "subject_reference",
      "borrower_mobile",
      "details_json",
      "ip",
      "user_agent",
    ]);
    expect(rows).toHaveLength(expected);
    const col = (name: string) => header?.indexOf(name) ?? -1;
    for (const r of rows) {
      expect(r).toHaveLength(11);
      expect(r[col("subject_id")]).toBe(first.id);
      expect(r[col("subject_reference")]).toBe(first.ref);
      expect(r[col("borrower_mobile")]).toBe("9810000001");
    }
    // Newest first: the rejection, at 11:30 in India.
    const rejection = rows[0] ?? [];
    expect(rejection[col("time_ist")]).toBe("2026-10-16 11:30:00");
    expect(rejection[col("actor_name")]).toBe("Asha Rao");
    expect(rejection[col("actor_role")]).toBe("credit");
    expect(JSON.parse(rejection[col("details_json")] ?? "")).toMatchObject({ to: "rejected", rejectionReason: "policy", note: NOTE });
    // The user agent that was a formula is text now.
    const take = rows.find((r) => r[col("user_agent")]?.includes("HYPERLINK"));
    expect(take?.[col("user_agent")]).toBe(`'${AGENT}`);
    expect(take?.[col("action")]).toBe("loan.status");
    // The export is itself in the log, with its filters.
    const [exported] = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "audit.exported"), eq(auditLog.actorUserId, admin.userId)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(exported).toMatchObject({ actorUserId: admin.userId, actorRole: "admin" });
    expect(exported?.details).toMatchObject({ filters: { borrower: "9810000001", actor: null, action: null }, rows: expected });
    const listed = await html(await page("/admin/audit?action=audit.exported", admin));
    expect(rowsOf(listed)[0]).toMatchObject({ who: "Meera Iyer", action: "audit.exported" });
  });

  it("exports everything when unfiltered, and not its own row", async () => {
    const before = await dbCount(undefined);
    const exportsBefore = await dbCount(eq(auditLog.action, "audit.exported"));
    const res = await page("/admin/audit.csv", admin);
    expect(res.status).toBe(200);
    const [, ...rows] = parseCsv(await res.text());
    expect(rows).toHaveLength(before);
    const times = rows.map((r) => r[0] ?? "");
    expect(times).toEqual([...times].sort().reverse());
    // Earlier exports are in it; this one is not.
    expect(rows.filter((r) => r[3] === "audit.exported")).toHaveLength(exportsBefore);
    expect(await dbCount(undefined)).toBe(before + 1);
  });

  it("is refused to a credit officer, who sees no download link", async () => {
    const res = await page("/admin/audit.csv", asha);
    expect(res.status).toBe(403);
    const text = await html(await page("/admin/audit", asha));
    expect(text).not.toContain("Download CSV");
    expect(text).not.toContain("/admin/audit.csv");
    expect(await html(await page("/admin/audit", admin))).toContain("Download CSV");
  });

  it("leaves no way to change the log: a POST to the page is not accepted", async () => {
    const before = await dbCount(undefined);
    const res = await postForm(app, "/admin/audit", { intent: "delete" }, { cookie: admin.cookie });
    expect(res.status).toBe(405);
    expect(await dbCount(undefined)).toBe(before);
    const [a] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.id, first.id));
    expect(a?.status).toBe("rejected");
  });
});
