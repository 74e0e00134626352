import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, users } from "../../app/server/db/schema.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { postForm, toastOf } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Staff accounts (docs/product.md "Staff accounts"): invite by link, role, disable and enable, a new link; all audited.
let app: TestServer;
let admin: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer();
  admin = await signedInStaff(app, "admin", "Anil Mehta");
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'");
const act = (fields: Record<string, string>, cookie = admin.cookie) => postForm(app, "/admin/staff", fields, { cookie });
const audits = (userId: string) =>
  app.services.db
    .select({ action: auditLog.action, actor: auditLog.actorUserId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "user"), eq(auditLog.subjectId, userId)))
    .orderBy(auditLog.id);
const linkIn = (text: string) => /\/admin\/enrol\/([\w-]+)</.exec(text)?.[1] ?? "";

describe("staff accounts", () => {
  it("invites by a one-time link that opens the enrolment page, and refuses a bad or taken address next to the field", async () => {
    const res = await act({ intent: "invite", name: "Priya Nair", email: "Priya.Nair@Lender.example", role: "operations" });
    expect(res.status).toBe(200);
    const token = linkIn(await html(res));
    expect(token.length).toBeGreaterThan(20);
    expect((await app.get(`/admin/enrol/${token}`)).status).toBe(200);
    const [person] = await app.services.db.select().from(users).where(eq(users.email, "priya.nair@lender.example"));
    expect(person).toMatchObject({ role: "operations", name: "Priya Nair", passwordHash: null });
    expect(await audits(person?.id ?? "")).toMatchObject([{ action: "staff.invited", actor: admin.userId }]);
    const list = await html(await app.get("/admin/staff", { headers: { Cookie: admin.cookie } }));
    expect(list).toContain("Invited, not enrolled yet");

    const bad = await act({ intent: "invite", name: "X", email: "not-an-address", role: "chief" });
    expect(bad.status).toBe(400);
    const text = await html(bad);
    expect(text).toContain("Enter the person&#x27;s name.".replaceAll("&#x27;", "'"));
    expect(text).toContain("Enter a valid e-mail address");
    expect(text).toContain("Choose a role.");
    const taken = await act({ intent: "invite", name: "Priya Again", email: "priya.nair@lender.example", role: "admin" });
    expect(taken.status).toBe(400);
    expect(await html(taken)).toContain("exists already");
    expect(await app.services.db.select().from(users).where(eq(users.email, "priya.nair@lender.example"))).toHaveLength(1);
  });

  it("changes a role, disables (signed out at once) and enables, and gives a new link that replaces the old", async () => {
    const omar = await signedInStaff(app, "credit", "Omar Shaikh");
    expect(toastOf(await act({ intent: "role", userId: omar.userId, role: "support" }))).toBe("Role saved.");
    expect((await app.services.db.select({ role: users.role }).from(users).where(eq(users.id, omar.userId)))[0]?.role).toBe("support");

    expect((await app.get("/admin", { headers: { Cookie: omar.cookie } })).status).toBe(200);
    expect(toastOf(await act({ intent: "disable", userId: omar.userId }))).toMatch(/disabled/);
    const after = await app.get("/admin", { headers: { Cookie: omar.cookie } });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/admin\/login/);
    expect(toastOf(await act({ intent: "enable", userId: omar.userId }))).toBe("Account enabled.");

    const first = linkIn(await html(await act({ intent: "reset", userId: omar.userId })));
    const second = linkIn(await html(await act({ intent: "reset", userId: omar.userId })));
    expect(first).not.toBe(second);
    expect((await app.get(`/admin/enrol/${first}`)).status).toBe(404);
    expect((await app.get(`/admin/enrol/${second}`)).status).toBe(200);
    expect((await audits(omar.userId)).map((a) => a.action)).toEqual([
      "staff.role_changed",
      "staff.disabled",
      "staff.enabled",
      "staff.reset",
      "staff.reset",
    ]);
  });

  it("never lets an administrator change, disable or reset their own account, nor touch a borrower", async () => {
    for (const intent of ["role", "disable", "reset"]) {
      const res = await act({ intent, userId: admin.userId, role: "support" });
      expect(toastOf(res)).toMatch(/your own account/);
    }
    const [me] = await app.services.db.select().from(users).where(eq(users.id, admin.userId));
    expect(me).toMatchObject({ role: "admin", disabledAt: null });
    const [borrower] = await app.services.db.insert(users).values({ mobile: "9822000001", role: "borrower" }).returning({ id: users.id });
    expect(toastOf(await act({ intent: "disable", userId: borrower?.id ?? "" }))).toMatch(/no such staff account/);
    expect(toastOf(await act({ intent: "role", userId: borrower?.id ?? "", role: "admin" }))).toMatch(/no such staff account/);
    expect(toastOf(await act({ intent: "reset", userId: "not-a-uuid" }))).toMatch(/no such staff account/);
    const [still] = await app.services.db
      .select()
      .from(users)
      .where(eq(users.id, borrower?.id ?? ""));
    expect(still).toMatchObject({ role: "borrower", disabledAt: null });
  });
});
