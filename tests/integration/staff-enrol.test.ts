import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaffInvite, passwordProblem, verifyPassword } from "../../app/server/auth/staff.server.ts";
import { auditLog, users } from "../../app/server/db/schema.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { postForm } from "../helpers/http.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

const post = (path: string, fields: Record<string, string>) => postForm(app, path, fields);

describe("staff passwords", () => {
  it("need 12 characters and may not be common", () => {
    expect(passwordProblem("short")).toMatch(/at least 12/);
    expect(passwordProblem("password1234")).toMatch(/common passwords/);
    expect(passwordProblem("qwertyuiopasdfgh")).toMatch(/common passwords/);
    expect(passwordProblem("mango tree at dusk 1987")).toBeNull();
  });
});

describe("the one-time enrolment link (npm run admin:create)", () => {
  it("sets the password once, refusing weak ones next to the field, and is then dead", async () => {
    const { userId, token } = await createStaffInvite(app.services, { email: "New.Officer@Lender.example", role: "admin" });
    const [created] = await app.services.db.select().from(users).where(eq(users.id, userId));
    expect(created).toMatchObject({ email: "new.officer@lender.example", role: "admin", passwordHash: null });

    expect((await app.get(`/admin/enrol/${token}`)).status).toBe(200);
    expect((await app.get("/admin/enrol/not-a-real-token")).status).toBe(404);

    const weak = await post(`/admin/enrol/${token}`, { password: "password1234", password_confirm: "password1234" });
    expect(weak.status).toBe(400);
    expect(await weak.text()).toContain("This password is on a list of common passwords.");
    const mismatch = await post(`/admin/enrol/${token}`, {
      password: "mango tree at dusk 1987",
      password_confirm: "mango tree at dusk 1988",
    });
    expect(await mismatch.text()).toContain("The two passwords are not the same.");

    const ok = await post(`/admin/enrol/${token}`, { password: "mango tree at dusk 1987", password_confirm: "mango tree at dusk 1987" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/admin/login");
    const [after] = await app.services.db.select().from(users).where(eq(users.id, userId));
    expect(await verifyPassword(after?.passwordHash ?? "", "mango tree at dusk 1987")).toBe(true);
    expect(after?.passwordHash).toMatch(/^\$argon2/);
    const audits = await app.services.db.select().from(auditLog).where(eq(auditLog.actorUserId, userId));
    expect(audits.map((a) => a.action)).toContain("staff.password_set");

    expect((await app.get(`/admin/enrol/${token}`)).status).toBe(404);
  });

  it("keeps signed-out visitors and borrowers out of /admin", async () => {
    const res = await app.get("/admin/presence");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fpresence");
    expect((await app.get("/admin/presence/events")).status).toBe(401);
  });
});
