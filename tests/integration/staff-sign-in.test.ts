import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { createStaffInvite, verifyPassword } from "../../app/server/auth/staff.server.ts";
import { auditLog, sessions, users } from "../../app/server/db/schema.ts";
import { postForm } from "../helpers/http.ts";
import { latestCode } from "../helpers/outbox.ts";
import { setCookieValue } from "../helpers/process.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { authenticatorCode, enrolledStaff } from "../helpers/totp.ts";

let clock = Date.now();
let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ TRUST_PROXY: "loopback" }, { now: () => new Date(clock) });
});
afterAll(async () => {
  await app?.stop();
});

const PASSWORD = "mango tree at dusk 1987";
let n = 0;
/** A staff account with a password and an enrolled authenticator; each test signs in from an address of its own. */
async function staffAccount() {
  const email = `officer${n++}@lender.example`;
  const { userId, secret } = await enrolledStaff(app, { email, role: "support", password: PASSWORD });
  return { email, userId, secret, ip: `198.51.100.${n}` };
}
type Staff = Awaited<ReturnType<typeof staffAccount>>;

/** The password step; resolves to the `staff_pending` cookie. */
async function passwordStep(staff: Staff, password = PASSWORD) {
  const res = await postForm(
    app,
    "/admin/login",
    { intent: "password", email: staff.email, password },
    { headers: { "X-Forwarded-For": staff.ip } },
  );
  expect(res.status).toBe(302);
  const pending = setCookieValue(res, "staff_pending");
  expect(pending).toBeTruthy();
  return pending as string;
}
const codeStep = (staff: Staff, pending: string, otp: string) =>
  postForm(app, "/admin/login", { intent: "totp", otp }, { cookie: pending, headers: { "X-Forwarded-For": staff.ip } });
const wrongCode = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, "0");
const liveSessions = async (userId: string) =>
  (await app.services.db.select().from(sessions).where(eq(sessions.userId, userId))).filter((s) => !s.endedAt).length;

describe("staff second factor", () => {
  it("takes 5 wrong codes per pending sign-in, then sends the person back to the password step", async () => {
    const staff = await staffAccount();
    const pending = await passwordStep(staff);
    const { otp } = await authenticatorCode(staff.secret);
    for (let i = 1; i <= 4; i++) {
      const res = await codeStep(staff, pending, wrongCode(otp));
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(`${5 - i} ${5 - i === 1 ? "try" : "tries"} left`);
    }
    const fifth = await codeStep(staff, pending, wrongCode(otp));
    expect(fifth.status).toBe(400);
    expect(await fifth.text()).toContain("5 wrong codes. Sign in again with your password.");
    // The right code no longer helps this pending sign-in.
    const right = await codeStep(staff, pending, otp);
    expect(right.status).toBe(400);
    expect(await right.text()).toContain("Your sign-in timed out. Start again.");
    expect(await liveSessions(staff.userId)).toBe(0);
    // A new password step, and the right code signs in.
    const again = await codeStep(staff, await passwordStep(staff), otp);
    expect(again.status).toBe(302);
    expect(await liveSessions(staff.userId)).toBe(1);
  });

  it("locks an account's second factor for 15 minutes after 10 wrong codes across sign-ins", async () => {
    const staff = await staffAccount();
    const { otp } = await authenticatorCode(staff.secret);
    for (let round = 0; round < 2; round++) {
      const pending = await passwordStep(staff);
      for (let i = 0; i < 5; i++) await codeStep(staff, pending, wrongCode(otp));
    }
    const pending = await passwordStep(staff);
    const locked = await codeStep(staff, pending, otp);
    expect(locked.status).toBe(429);
    expect(await locked.text()).toContain("its authenticator step is locked until");
    const audits = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, staff.userId), eq(auditLog.action, "staff.totp_locked")));
    expect(audits).toHaveLength(1);
    clock += 16 * 60_000;
    try {
      const res = await codeStep(staff, await passwordStep(staff), (await authenticatorCode(staff.secret)).otp);
      expect(res.status).toBe(302);
    } finally {
      clock -= 16 * 60_000;
    }
  });

  it("accepts a code once: not in a second sign-in, not twice at once", async () => {
    const staff = await staffAccount();
    const { otp } = await authenticatorCode(staff.secret);
    const [a, b] = [await passwordStep(staff), await passwordStep(staff)];
    // The second password step replaced the first pending sign-in.
    expect((await codeStep(staff, a, otp)).status).toBe(400);
    const other = await staffAccount();
    const { otp: otherOtp } = await authenticatorCode(other.secret);
    const first = await codeStep(staff, b, otp);
    expect(first.status).toBe(302);
    const replay = await codeStep(staff, await passwordStep(staff), otp);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("That code was already used.");

    // Two browsers past the password step submit one code at the same moment: one session.
    const browsers = await Promise.all([passwordStep(other), passwordStep(other)]);
    const live = browsers.filter(Boolean);
    expect(live.length).toBe(2);
    const answers = await Promise.all(live.map((p) => codeStep(other, p, otherOtp)));
    expect(answers.filter((r) => r.status === 302).length).toBe(1);
    expect(await liveSessions(other.userId)).toBe(1);
  });

  it("uses the pending cookie once: replayed after sign-in, it signs in nothing", async () => {
    const staff = await staffAccount();
    const pending = await passwordStep(staff);
    const { otp } = await authenticatorCode(staff.secret);
    expect((await codeStep(staff, pending, otp)).status).toBe(302);
    // Forget the code's time step, so that only the cookie's single use stands in the way.
    await app.services.db.update(users).set({ totpLastStep: null }).where(eq(users.id, staff.userId));
    const replay = await codeStep(staff, pending, otp);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("Your sign-in timed out. Start again.");
    expect(await liveSessions(staff.userId)).toBe(1);
  });
});

describe("staff sign-in's page to land on", () => {
  it("is a path of this site, whatever redirectTo said", async () => {
    const staff = await staffAccount();
    const res = await postForm(
      app,
      "/admin/login",
      { intent: "password", email: staff.email, password: PASSWORD, redirectTo: "/\t/evil.example" },
      { headers: { "X-Forwarded-For": staff.ip } },
    );
    const pending = setCookieValue(res, "staff_pending") ?? "";
    const signedIn = await codeStep(staff, pending, (await authenticatorCode(staff.secret)).otp);
    expect(signedIn.status).toBe(302);
    const location = signedIn.headers.get("location") ?? "";
    expect(new URL(location, app.url).origin).toBe(new URL(app.url).origin);
    expect(location.startsWith("//")).toBe(false);
  });
});

describe("staff password step", () => {
  it("takes as long for an unknown e-mail as for a known one (both hash)", async () => {
    const staff = await staffAccount();
    // CPU time (this process runs the server; Argon2's threads count too), not wall time: another
    // test file running at the same moment slows both alike but does not add CPU here.
    const cost = async (email: string) => {
      const before = process.cpuUsage();
      const res = await postForm(
        app,
        "/admin/login",
        { intent: "password", email, password: "not the password at all" },
        { headers: { "X-Forwarded-For": "203.0.113.77" } },
      );
      const used = process.cpuUsage(before);
      expect(res.status).toBe(400);
      return used.user + used.system;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 9; i++) {
      known.push(await cost(staff.email));
      unknown.push(await cost(`nobody${i}@lender.example`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    // Without a hash for unknown accounts the ratio is about 0.4: the request costs little besides Argon2.
    expect(median(unknown) / median(known)).toBeGreaterThan(0.75);
  });
});

describe("the enrolment link", () => {
  it("sets one password when two submissions arrive at once", async () => {
    const { userId, token } = await createStaffInvite(app.services, { email: "twice@lender.example", role: "support" });
    const passwords = ["first password of the two", "second password of the two"];
    const answers = await Promise.all(passwords.map((p) => postForm(app, `/admin/enrol/${token}`, { password: p, password_confirm: p })));
    expect(answers.map((r) => r.status).sort()).toEqual([302, 404]);
    const [user] = await app.services.db.select().from(users).where(eq(users.id, userId));
    const winner = passwords[answers.findIndex((r) => r.status === 302)] ?? "";
    expect(await verifyPassword(user?.passwordHash ?? "", winner)).toBe(true);
    const sets = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, userId), eq(auditLog.action, "staff.password_set")));
    expect(sets).toHaveLength(1);
  });
});

describe("staff are never borrowers", () => {
  it("cannot link a mobile number, open the borrower area or apply", async () => {
    const staff = await staffAccount();
    const { setCookie } = await createUserSession(app.services, {
      userId: staff.userId,
      deviceId: "staff-test",
      ip: "127.0.0.1",
      userAgent: "test",
    });
    const cookie = setCookie.split(";")[0] ?? "";
    const otpPage = await app.get("/quickStart/Otp", { headers: { Cookie: cookie } });
    expect(otpPage.status).toBe(403);
    expect(await otpPage.text()).toContain("Staff accounts cannot use the borrower area");
    const sent = await postForm(app, "/quickStart/Otp", { intent: "send", mobile: "9876500001" }, { cookie });
    const pending = setCookieValue(sent, "otp_pending") ?? "";
    const verify = await postForm(
      app,
      "/quickStart/Otp",
      { intent: "verify", code: latestCode(app.dataDir, "9876500001") },
      { cookie: `${cookie}; ${pending}` },
    );
    expect(verify.status).toBe(400);
    const [after] = await app.services.db.select().from(users).where(eq(users.id, staff.userId));
    expect(after?.mobile).toBeNull();
    for (const path of ["/User/Dashboard", "/User/Profile", "/User/newLoan/Emi", "/quickStart/Step0"]) {
      expect((await app.get(path, { headers: { Cookie: cookie } })).status, path).toBe(403);
    }
  });
});
