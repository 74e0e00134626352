import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_RISK_BAND_ROWS } from "../../app/server/db/reference-data.ts";
import { DEMO_ADMIN_EMAIL } from "../../app/server/db/seed.ts";
import { feedback, riskBands, users } from "../../app/server/db/schema.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { pageAs, postForm, toastOf } from "../helpers/http.ts";
import { jobTable } from "../helpers/jobs.ts";
import { type Fleet, type Machine, openEventStream, startMachines } from "../helpers/machines.ts";
import { emiProductForm } from "../helpers/products.ts";
import { readEmails } from "../helpers/notices.ts";
import { latestCode, readOutbox } from "../helpers/outbox.ts";
import { setCookieValue } from "../helpers/process.ts";
import { userIdOf } from "../helpers/realtime.ts";
import { TEST_DATABASE_URL } from "../helpers/server.ts";
import { authenticatorCode, enrolledStaff } from "../helpers/totp.ts";

// PRODUCT.md §21: two app machines behind one load balancer share one PostgreSQL; nothing a
// request needs lives only on the machine that wrote it. Each machine is the built app in a
// process of its own with a data directory of its own (its own SMS and e-mail outbox), both on one
// schema. A user's requests go to either machine; what each test checks is what a user would notice.
let fleet: Fleet;
let a: Machine;
let b: Machine;
let admin: { cookie: string; userId: string };

const OTP_PER_NUMBER = 3;

beforeAll(async () => {
  if (!TEST_DATABASE_URL) return;
  fleet = await startMachines(["a", "b"], {
    OTP_PER_NUMBER_PER_HOUR: String(OTP_PER_NUMBER),
    OTP_PER_IP_PER_HOUR: "1000",
    OTP_RESEND_SECONDS: "0",
    OTP_MAX_ATTEMPTS: "2",
    CONTACT_LIMIT_PER_HOUR: "1000",
  });
  [a, b] = fleet.machines as [Machine, Machine];
  admin = await signedInStaff(a, "admin", "Anil Mehta");
}, 120_000);
afterAll(async () => {
  await fleet?.stop();
});

/** Asks `machine` for a sign-in code to `mobile`: the answer and its pending sign-in cookie. */
async function sendCode(machine: Machine, mobile: string) {
  const res = await postForm(machine, "/quickStart/Otp", { intent: "send", mobile, redirectTo: "/User/Dashboard" });
  return { res, pending: setCookieValue(res, "otp_pending") ?? "" };
}
/** Sends `code` to `machine` for the pending sign-in; the answer and the session cookie it sets, if any. */
async function verify(machine: Machine, pending: string, code: string, deviceId: string) {
  const res = await postForm(machine, "/quickStart/Otp", { intent: "verify", code, deviceId }, { cookie: pending });
  return { res, token: setCookieValue(res, "token") };
}
/** A borrower's sign-in with the code sent through `sender` (read from its outbox), entered through `verifier`. */
async function signIn(sender: Machine, verifier: Machine, mobile: string, deviceId: string) {
  const { pending } = await sendCode(sender, mobile);
  const { res, token } = await verify(verifier, pending, latestCode(sender.dataDir, mobile), deviceId);
  expect(res.status).toBe(302);
  if (!token) throw new Error(`no session for ${mobile}`);
  return token;
}
const smsTo = (machine: Machine, mobile: string) => readOutbox(machine.dataDir).filter((m) => m.to === mobile);
const signedInMobile = (html: string) => /data-testid="signed-in-mobile"[^>]*>([^<]+)</.exec(html)?.[1];

describe.skipIf(!TEST_DATABASE_URL)("two app machines sharing one PostgreSQL", () => {
  it("both machines, started together on a new database, are up, and it was seeded once", async () => {
    for (const m of [a, b]) expect((await m.get("/readyz")).status).toBe(200);
    const rows = async (table: typeof riskBands | typeof feedback) => (await a.services.db.select({ n: count() }).from(table))[0]?.n;
    // The Rate-terms table and the home page's sample feedback, once each (not once per machine).
    expect(await rows(riskBands)).toBe(DEFAULT_RISK_BAND_ROWS.length);
    expect(await rows(feedback)).toBe(4);
    expect(await a.services.db.select().from(users).where(eq(users.email, DEMO_ADMIN_EMAIL))).toHaveLength(1);
  });

  it("a borrower signed in on machine A is signed in on machine B", async () => {
    const mobile = "9800020001";
    const token = await signIn(a, a, mobile, "phone-1");
    // The SMS went out from A, whose outbox has it; B wrote none.
    expect(smsTo(a, mobile)).toHaveLength(1);
    expect(smsTo(b, mobile)).toHaveLength(0);
    const onB = await pageAs(b, "/User/Dashboard", token);
    expect(onB.status).toBe(200);
    expect(signedInMobile(onB.html)).toBe("+91 98000 20001");
    // B does check: without the cookie it sends the visitor to sign in.
    expect((await b.get("/User/Dashboard")).headers.get("location")).toBe("/quickStart/Otp?redirectTo=%2FUser%2FDashboard");
  });

  it("signing in on another device through B ends the session on A and tells A's open page", async () => {
    const mobile = "9800020002";
    const first = await signIn(a, a, mobile, "phone-old");
    const page = await openEventStream(`${a.url}/api/events?device=phone-old`, first);
    expect(page.status).toBe(200);
    await page.heard("ready");
    try {
      const second = await signIn(b, b, mobile, "phone-new");
      // The page open on A hears it ("Someone else logged in!") ...
      await page.heard("displaced");
      // ... and its cookie no longer opens a page on either machine; the new device's opens both.
      for (const m of [a, b]) {
        const old = await m.get("/User/Dashboard", { headers: { Cookie: first } });
        expect(old.status).toBe(302);
        expect(old.headers.get("location")).toMatch(/^\/quickStart\/Otp\?/);
        expect((await pageAs(m, "/User/Dashboard", second)).status).toBe(200);
      }
    } finally {
      page.close();
    }
  });

  it("a borrower's page open on A is in the presence list served by B, and B's device reload reaches it", async () => {
    const mobile = "9800020003";
    // The load balancer sent the code's request to A and the code itself to B: one sign-in.
    const token = await signIn(a, b, mobile, "phone-3");
    const userId = await userIdOf(a, mobile);
    const online = async () => (await pageAs(b, "/admin/presence", admin.cookie)).html.includes(`Reload device of +91 ${mobile}`);
    expect(await online()).toBe(false);
    // The staff page on B listens for presence changes, as the list page does.
    const staffPage = await openEventStream(`${b.url}/admin/presence/events`, admin.cookie);
    expect(staffPage.status).toBe(200);
    const borrowerPage = await openEventStream(`${a.url}/api/events?device=phone-3`, token);
    try {
      await borrowerPage.heard("ready");
      await staffPage.heard("presence");
      expect(await online()).toBe(true);

      const sent = await postForm(b, "/admin/presence", { userId }, { cookie: admin.cookie });
      expect(sent.status).toBe(302);
      expect(toastOf(sent)).toBe(`Reload sent to ${mobile}'s open pages.`);
      await borrowerPage.heard("reload");

      // The page on A closes: B's list drops the borrower, and its staff page is told.
      borrowerPage.close();
      await staffPage.heard("presence", 2);
      expect(await online()).toBe(false);
    } finally {
      borrowerPage.close();
      staffPage.close();
    }
  });

  it("staff sign in with the password on B and the authenticator code on A, and that code is spent on both", async () => {
    const email = "officer@lender.example";
    const password = "mango tree at dusk 1987";
    const { secret } = await enrolledStaff(a, { email, role: "support", password });
    const passwordStep = async (m: Machine) => {
      const res = await postForm(m, "/admin/login", { intent: "password", email, password });
      expect(res.status).toBe(302);
      return setCookieValue(res, "staff_pending") ?? "";
    };
    const codeStep = (m: Machine, pending: string, otp: string) =>
      postForm(m, "/admin/login", { intent: "totp", otp }, { cookie: pending });

    const { otp } = await authenticatorCode(secret);
    const signedIn = await codeStep(a, await passwordStep(b), otp);
    expect(signedIn.status).toBe(302);
    const cookie = setCookieValue(signedIn, "token") ?? "";
    for (const m of [a, b]) expect((await pageAs(m, "/admin/presence", cookie)).status).toBe(200);
    // The same code again, through B this time: already used.
    const replay = await codeStep(b, await passwordStep(b), otp);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("That code was already used.");
  });

  it("counts sign-in codes and wrong tries across both machines", async () => {
    const mobile = "9800020004";
    // The hourly allowance, spent on A and B in turn; the next code is refused by either.
    const sends = [a, b, a];
    expect(sends).toHaveLength(OTP_PER_NUMBER);
    let pending = "";
    for (const m of sends) {
      const sent = await sendCode(m, mobile);
      expect(sent.res.status).toBe(302);
      pending = sent.pending;
    }
    for (const m of [b, a]) {
      const refused = await sendCode(m, mobile);
      expect(refused.res.status).toBe(429);
      expect((await refused.res.text()).replaceAll("&#x27;", "'")).toContain("Too many codes were sent to this number in the last hour.");
    }
    expect(smsTo(a, mobile)).toHaveLength(2);
    expect(smsTo(b, mobile)).toHaveLength(1);

    // The last code (sent by A) with two wrong tries, one on each machine: dead on both.
    const code = latestCode(a.dataDir, mobile);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect((await verify(b, pending, wrong, "phone-4")).res.status).toBe(400);
    const second = await verify(a, pending, wrong, "phone-4");
    expect(second.res.status).toBe(400);
    expect(await second.res.text()).toContain("it no longer works after 2 wrong tries");
    const right = await verify(b, pending, code, "phone-4");
    expect(right.res.status).toBe(400);
    expect(right.token).toBeUndefined();
  });

  it("a product changed by staff on B shows on A's cached public page", async () => {
    const rates = async (m: Machine) => (await (await m.get("/Rate-terms")).text()).replaceAll("<!-- -->", "");
    // A renders the page and keeps it (a second request is answered from its cache).
    const first = await a.get("/Rate-terms");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect((await a.get("/Rate-terms", { headers: { "If-None-Match": etag ?? "" } })).status).toBe(304);
    expect(await rates(a)).not.toContain("₹654 for each missed instalment");

    const emi = emiProductForm({ penalCharge: "654", note: "Penal charge reviewed" });
    const saved = await postForm(b, "/admin/products", emi, { cookie: admin.cookie });
    expect(toastOf(saved)).toMatch(/^Saved as version \d+\./);
    // A hears of it through PostgreSQL (NOTIFY) moments after B answered (its cache would keep the page a minute).
    const savedAt = Date.now();
    let askedAt = savedAt;
    while (!(await rates(a)).includes("₹654 for each missed instalment")) {
      expect(Date.now() - savedAt).toBeLessThan(5_000);
      askedAt = Date.now();
    }
    expect(askedAt - savedAt).toBeLessThan(1_000);
  });

  it("jobs sent by requests on A run once each, on either machine", async () => {
    const contacts = 8;
    const references: string[] = [];
    for (let i = 0; i < contacts; i++) {
      const res = await postForm(a, "/Contact-us", {
        name: "Asha Verma",
        mobile: "9876543210",
        email: `asha.${i}.${Date.now()}@example.com`,
        message: `Please tell me how the salary advance is repaid (${i}).`,
        once: crypto.randomUUID(),
      });
      expect(res.status).toBe(200);
      const reference = /Its reference is <strong[^>]*>(GRV-\d{10})</.exec(await res.text())?.[1];
      expect(reference).toBeTruthy();
      references.push(reference ?? "");
    }
    const table = await jobTable(a);
    const jobs = async () =>
      (
        (await a.services.db.execute(sql`select state, retry_count from ${table} where name = 'ticket-email'`)) as unknown as {
          rows: { state: string; retry_count: number }[];
        }
      ).rows;
    await vi.waitFor(async () => expect((await jobs()).filter((j) => j.state === "completed")).toHaveLength(contacts), {
      timeout: 15_000,
      interval: 100,
    });
    expect((await jobs()).every((j) => j.retry_count === 0)).toBe(true);
    // Each acknowledgement was written once, by one machine or the other.
    const mails = (m: Machine) => readEmails(m.dataDir).map((e) => /^X-Ticket-Reference: (\S+)\r?$/m.exec(e.raw)?.[1]);
    const fromA = mails(a);
    const fromB = mails(b);
    expect([...fromA, ...fromB].sort()).toEqual([...references].sort());
  });
});
