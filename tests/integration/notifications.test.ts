import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, lte, sql } from "drizzle-orm";
// The reference implementation of RFC 8188 that web-push itself uses (types in tests/http-ece.d.ts).
import { decrypt } from "http_ece";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import type { NotificationEvent } from "../../app/domain/notifications.ts";
import { graceDate } from "../../app/domain/loans/servicing.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { loanInstalments, notificationDeliveries, notifications, pushSubscriptions, revisedKfs } from "../../app/server/db/schema.ts";
import { createSmtpEmail } from "../../app/server/email/email.server.ts";
import { deliverNotice, notify } from "../../app/server/notifications/notify.server.ts";
import { pushEndpointAllowed } from "../../app/server/push/push.server.ts";
import { catchUpServicing, runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { todayIST } from "../../app/domain/india-date.ts";
import { activeLoan, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { originOf, postForm } from "../helpers/http.ts";
import { emailsFor, noticesOf } from "../helpers/notices.ts";
import { jobsOf, jobTable, waitForJobs } from "../helpers/jobs.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Every event of a loan told once on each channel (docs/product.md "Notifications"): the SMS in the
// outbox, the e-mail file with its PDF, the in-app row; a job run again sends nothing again; a
// reminder made at night waits for 08:00; web push encrypted for the device and dropped when gone;
// e-mail over SMTP to a local SMTP server.
let clock = new Date("2026-03-02T05:30:00Z");
let app: TestServer;
let credit: { cookie: string; userId: string };
let ops: { cookie: string; userId: string };
let support: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }, { now: () => clock });
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  support = await signedInStaff(app, "support", "Sara Khan");
});
afterAll(async () => {
  await app?.stop();
});

const atIST = (day: IsoDate, time: string) => new Date(`${day}T${time}:00+05:30`);
async function cookieFor(userId: string) {
  const { setCookie } = await createUserSession(app.services, {
    userId,
    deviceId: `d-${clock.getTime()}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return setCookie.split(";")[0] ?? "";
}

/** The one notice of `event`, delivered: its SMS (when it sends one), its e-mail and its in-app row. */
async function told(userId: string, mobile: string, event: NotificationEvent, sms: RegExp | null) {
  const [notice, ...others] = await noticesOf(app, userId, event);
  expect(others, `one ${event} notice`).toHaveLength(0);
  if (!notice) throw new Error(`no ${event} notice`);
  await vi.waitFor(
    async () => {
      const done = await app.services.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, notice.id));
      expect(done.map((d) => `${d.channel}:${d.status}`).sort()).toEqual(sms ? ["email:sent", "sms:sent"] : ["email:sent"]);
    },
    { timeout: 15_000, interval: 100 },
  );
  if (sms) expect(readOutbox(app.dataDir).filter((m) => m.to === mobile && sms.test(m.text))).toHaveLength(1);
  else expect(notice.sms).toBeNull();
  const [email, ...moreEmails] = emailsFor(app.dataDir, notice.id);
  expect(moreEmails).toHaveLength(0);
  expect(email?.raw).toMatch(/^To: [a-z0-9.]+@example\.com\r?$/m);
  return { notice, email: email?.raw ?? "" };
}

describe("notices of a loan's life", () => {
  it("tells each event once on every channel, with the PDFs attached where they belong", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const mobile = "9720000001";
    const b = await activeLoan(app, mobile, credit, ops, { email: "meera.one@example.com" });
    const signed = await told(b.userId, mobile, "application_signed", /You signed your .* loan agreement .*\/Eagreement\//);
    expect(signed.email).toMatch(/Content-Type: application\/pdf; name=signed-agreement\.pdf/);
    // An EMI loan is paid out once autopay is active: the approval leads there.
    await told(b.userId, mobile, "application_approved", /is approved\. Set up autopay at \S+\/Step7 and we send the money/);
    // Sent by the payout's job, its link on this server's own address (no PUBLIC_URL here), port and all.
    await told(
      b.userId,
      mobile,
      "loan_disbursed",
      new RegExp(`Loan ${b.loanNumber}: first instalment.* ${app.url}/User/Loans/Emi/${b.loanNumber}$`),
    );
    // Signed on a Monday with the disbursal assumed the next working day, paid the same day: the dates moved.
    const [revised] = await app.services.db.select().from(revisedKfs).where(eq(revisedKfs.applicationId, b.id));
    expect(revised).toBeDefined();
    const kfs = await told(b.userId, mobile, "revised_kfs", /changed from your signed KFS/);
    expect(kfs.email).toMatch(/name=revised-kfs\.pdf/);

    // The reminders: made by the daily run at 00:30, 3 days before and on the due date.
    const [first] = await app.services.db
      .select()
      .from(loanInstalments)
      .where(and(eq(loanInstalments.applicationId, b.id), eq(loanInstalments.seq, 1)));
    if (!first) throw new Error("no first instalment");
    clock = atIST(addDays(first.dueDate, -3), "00:30");
    await runServicingDay(app.services, addDays(first.dueDate, -3));
    const soon = await told(b.userId, mobile, "due_soon", new RegExp(`for loan ${b.loanNumber} is due on`));
    expect(soon.notice.availableAt).toEqual(atIST(addDays(first.dueDate, -3), "08:00"));
    clock = atIST(first.dueDate, "00:30");
    await runServicingDay(app.services, first.dueDate);
    await runServicingDay(app.services, first.dueDate); // the day run again: no second reminder
    await told(b.userId, mobile, "due_today", new RegExp(`for loan ${b.loanNumber} is due today`));

    // Unpaid past its grace day: the penal charge and its notice.
    clock = atIST(addDays(graceDate(first.dueDate, app.services.config.holidays), 1), "00:30");
    await catchUpServicing(app.services);
    await told(b.userId, mobile, "penal_charged", /penal charge of ₹500 was added as its own line/);

    // A payment recorded by operations: what it paid.
    const loanPage = `/admin/loans/${b.loanNumber}`;
    const today = todayIST(clock);
    const paid = await postForm(
      app,
      loanPage,
      { intent: "record_payment", amount: "1,000", date: today, mode: "NEFT", reference: "UTRN0001" },
      ops,
    );
    expect(paid.status).toBe(302);
    const received = await told(b.userId, mobile, "payment_received", new RegExp(`we received ₹1,000 for loan ${b.loanNumber}`));
    expect(received.notice.body).toMatch(/It paid ₹[\d,.]+ of interest/);

    // Paid off at the quote: closed, with the no-dues certificate attached.
    const cookie = await cookieFor(b.userId);
    const quote = (await (await app.get(`/api/loans/${b.loanNumber}/payoff?on=${today}`, { headers: { Cookie: cookie } })).json()) as {
      totalPaise: number;
    };
    const rupees = (quote.totalPaise / 100).toFixed(2);
    expect(
      (await postForm(app, loanPage, { intent: "record_payment", amount: rupees, date: today, mode: "NEFT", reference: "UTRN0002" }, ops))
        .status,
    ).toBe(302);
    const closed = await told(b.userId, mobile, "loan_closed", new RegExp(`loan ${b.loanNumber} is fully repaid and closed`));
    expect(closed.email).toMatch(new RegExp(`name=no-dues-${b.loanNumber}\\.pdf`));
    expect(closed.email).toMatch(/^Content-Type: multipart\/mixed/m);

    // A notice from support: without SMS; urgent, with the one fixed registered SMS.
    const staffPage = `/admin/borrowers/${b.userId}`;
    const plain = {
      intent: "notice",
      once: "2a8f3b4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
      title: "Your documents",
      message: "We have your bank statement, thank you.",
    };
    expect((await postForm(app, staffPage, plain, support)).status).toBe(302);
    expect((await postForm(app, staffPage, plain, support)).status).toBe(302); // sent twice: one notice
    const [quiet] = await noticesOf(app, b.userId, "staff_notice");
    expect(quiet).toMatchObject({ title: "Your documents", sms: null, sentBy: support.userId });
    await vi.waitFor(async () => expect(emailsFor(app.dataDir, quiet?.id ?? "")).toHaveLength(1), { timeout: 10_000 });
    const urgent = { ...plain, once: "3b9f4c5e-2d3e-4f60-9bac-1d2e3f4a5b6c", title: "Please call us", urgent: "on" };
    expect((await postForm(app, staffPage, urgent, support)).status).toBe(302);
    await vi.waitFor(
      () =>
        expect(
          readOutbox(app.dataDir).filter(
            (m) => m.to === mobile && /You have a new message from .*\. Open the app to read it\./.test(m.text),
          ),
        ).toHaveLength(1),
      {
        timeout: 10_000,
      },
    );
    // The staff page shows what was sent and how; the audit log has it.
    const staffHtml = await (await app.get(staffPage, { headers: { Cookie: support.cookie } })).text();
    expect(staffHtml).toContain("Please call us");
    expect(staffHtml).toMatch(/SMS sent/);
    // An invalid notice is answered next to its field and stores nothing.
    const bad = await postForm(
      app,
      staffPage,
      { intent: "notice", once: "4c0f5d6e-3e4f-4a71-8cbd-2e3f4a5b6c7d", title: "", message: "x" },
      support,
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Give the notice a title.");

    // Every notice's job run again, twice at once: nothing is sent a second time.
    const smsBefore = readOutbox(app.dataDir).length;
    const mine = await app.services.db.select().from(notifications).where(eq(notifications.userId, b.userId));
    const emailsBefore = mine.map((n) => emailsFor(app.dataDir, n.id).length);
    await Promise.all(mine.flatMap((n) => [deliverNotice(app.services, n.id), deliverNotice(app.services, n.id)]));
    expect(readOutbox(app.dataDir).length).toBe(smsBefore);
    expect(mine.map((n) => emailsFor(app.dataDir, n.id).length)).toEqual(emailsBefore);

    // The borrower's list: every notice, newest first; mark one read and all read; another's id is 404.
    const list = await (await app.get("/User/Notifications", { headers: { Cookie: cookie } })).text();
    expect(list).toContain("Please call us");
    expect(list).toContain(`Loan ${b.loanNumber} is closed`);
    // Unread among the notices that are out (the penal notice made at 00:30 waits for 08:00).
    const unread = () =>
      app.services.db
        .select({ n: sql<number>`count(*)::int` })
        .from(notifications)
        .where(and(eq(notifications.userId, b.userId), sql`read_at is null`, lte(notifications.availableAt, clock)));
    expect((await unread())[0]?.n).toBeGreaterThan(5);
    const opened = await postForm(app, "/User/Notifications", { intent: "open", id: closed.notice.id }, { cookie });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`/User/Loans/Emi/${b.loanNumber}`);
    const stranger = await signedApplication(app, "9720000009", { email: "someone.else@example.com" });
    expect((await postForm(app, "/User/Notifications", { intent: "read", id: closed.notice.id }, { cookie: stranger.cookie })).status).toBe(
      404,
    );
    const before = await (await app.get("/User/Notifications", { headers: { Cookie: cookie } })).text();
    expect(before).toMatch(/aria-label="Notices, \d+ unread"/);
    // Without JavaScript the action's own answer is the page: its bell says nothing is unread.
    const readAll = await postForm(app, "/User/Notifications", { intent: "read-all" }, { cookie });
    expect(readAll.status).toBe(200);
    expect((await unread())[0]?.n).toBe(0);
    const after = await readAll.text();
    expect(after).toContain('aria-label="Notices"');
    expect(after).not.toMatch(/Notices, \d+ unread/);
  }, 120_000);

  it("tells a borrower what the credit team asks and why an application was rejected", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const mobile = "9720000002";
    const b = await signedApplication(app, mobile, { email: "ravi.two@example.com" });
    const act = (fields: Record<string, string>) => postForm(app, `/admin/applications/${b.ref}`, fields, credit);
    expect((await act({ intent: "take" })).status).toBe(302);
    expect((await act({ intent: "ask", message: "Which company paid your salary in October?" })).status).toBe(302);
    await told(b.userId, mobile, "application_asked", /we need one more thing for your loan application/);
    expect((await act({ intent: "reject", reason: "policy", note: "Not within policy today." })).status).toBe(302);
    const rejected = await told(
      b.userId,
      mobile,
      "application_rejected",
      /we could not approve your loan application .* The reason is at http/,
    );
    expect(rejected.notice.path).toBe(`/User/newLoan/Emi/${b.ref}/Step7`);
  }, 60_000);
});

describe("the 08:00–19:00 window", () => {
  it("holds a reminder made at 21:00 until 08:00 the next morning", async () => {
    const b = await signedApplication(app, "9720000003", { email: "window@example.com" });
    // A real evening ahead: the queue waits by the database's own clock.
    const evening = todayIST(new Date(Date.now() + 86_400_000));
    clock = atIST(evening, "21:00");
    const id = await app.services.db.transaction((tx) =>
      notify(
        { ...app.services, db: tx },
        {
          userId: b.userId,
          event: "due_today",
          key: "window-check",
          data: { loanNumber: "SL99999999", loanPath: "/User/Loans", amountPaise: 123_400, dueDate: evening },
        },
      ),
    );
    const morning = atIST(addDays(evening, 1), "08:00");
    const [row] = await app.services.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, id ?? ""));
    expect(row?.availableAt).toEqual(morning);
    const held = async () => (await jobsOf(app, "notify")).find((j) => j.data?.notificationId === id);
    expect(new Date((await held())?.start_after ?? 0)).toEqual(morning);
    // A later job on the same queue, due now, for no notice (its job does nothing): once it has been
    // worked, the worker has looked for due notify jobs since the held one was stored, oldest first.
    // Had the held one been due, it would have been taken with it or before it, and sent.
    await app.services.jobs.send("notify", { notificationId: randomUUID() });
    await waitForJobs(app, "notify");
    expect((await held())?.state).toBe("created");
    const sent = () => readOutbox(app.dataDir).filter((m) => m.text.includes("SL99999999"));
    expect(sent()).toHaveLength(0);
    // Not in the list or the bell before it is out.
    const cookie = b.cookie;
    expect(await (await app.get("/User/Notifications", { headers: { Cookie: cookie } })).text()).not.toContain("SL99999999");
    // The morning comes.
    clock = morning;
    await app.services.db.execute(
      sql`update ${await jobTable(app)} set start_after = now() where name = 'notify' and data->>'notificationId' = ${id}`,
    );
    await vi.waitFor(() => expect(sent()).toHaveLength(1), { timeout: 15_000, interval: 200 });
    expect(await (await app.get("/User/Notifications", { headers: { Cookie: await cookieFor(b.userId) } })).text()).toContain(
      "₹1,234 due today",
    );
  }, 60_000);
});

/** A push service on this machine: keeps what it is sent, answers with `status`. */
async function fakePushService() {
  const received: { headers: IncomingMessage["headers"]; body: Buffer }[] = [];
  const state = { status: 201 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(state.status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/push/device-1`;
  return { received, state, endpoint, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("web push", () => {
  it("sends each notice encrypted for the device's keys, signed with the VAPID key; drops the device when the service says it is gone", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await signedApplication(app, "9720000004", { email: "push@example.com" });
    // The signature's own notice is out before this device subscribes.
    await told(b.userId, "9720000004", "application_signed", /You signed your/);
    const service = await fakePushService();
    const device = createECDH("prime256v1");
    device.generateKeys();
    const auth = randomBytes(16).toString("base64url");
    const subscription = {
      endpoint: service.endpoint,
      expirationTime: null,
      keys: { p256dh: device.getPublicKey().toString("base64url"), auth },
    };
    const post = (body: unknown, headers: Record<string, string> = {}, method = "POST") =>
      fetch(new URL("/api/push/subscriptions", app.url), {
        method,
        headers: { "Content-Type": "application/json", Origin: originOf(app), Cookie: b.cookie, ...headers },
        body: JSON.stringify(body),
      });
    // Refused: no session, another site, a body that is not a subscription, an oversized one.
    expect((await post(subscription, { Cookie: "" })).status).toBe(401);
    expect((await post(subscription, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ endpoint: service.endpoint })).status).toBe(400);
    const oversized = await post({ ...subscription, keys: { ...subscription.keys, auth: "x".repeat(5000) } });
    expect(oversized.status).toBe(400);
    expect(await oversized.json()).toEqual({ error: "Send the browser's push subscription as JSON (at most 4 kB)." });
    expect((await post(subscription)).status).toBe(201);
    expect((await post(subscription)).status).toBe(201); // the same device again: still one
    expect(await app.services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, b.userId))).toHaveLength(1);

    const staffPage = `/admin/borrowers/${b.userId}`;
    const notice = {
      intent: "notice",
      once: "5d1f6e7f-4f50-4b82-9dce-3f4a5b6c7d8e",
      title: "Hello from support",
      message: "Your loan is on its way.",
    };
    expect((await postForm(app, staffPage, notice, support)).status).toBe(302);
    await vi.waitFor(() => expect(service.received).toHaveLength(1), { timeout: 10_000, interval: 100 });
    const [push] = service.received;
    expect(push?.headers["content-encoding"]).toBe("aes128gcm");
    expect(push?.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${app.services.push?.publicKey}$`));
    const clear = decrypt(push?.body ?? Buffer.alloc(0), { version: "aes128gcm", privateKey: device, authSecret: auth });
    const [stored] = await noticesOf(app, b.userId, "staff_notice");
    expect(JSON.parse(clear.toString("utf8"))).toEqual({
      title: "Hello from support",
      body: "Your loan is on its way.",
      url: "/User/Notifications",
      tag: stored?.id,
    });

    // The browser unsubscribed long ago: the push service answers 410 and the device is dropped.
    service.state.status = 410;
    expect((await postForm(app, staffPage, { ...notice, once: "6e2f7f80-5061-4c93-8edf-4a5b6c7d8e9f" }, support)).status).toBe(302);
    await vi.waitFor(
      async () =>
        expect(await app.services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, b.userId))).toHaveLength(0),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
    const gone = await app.services.db
      .select()
      .from(notificationDeliveries)
      .where(and(eq(notificationDeliveries.channel, "push"), eq(notificationDeliveries.status, "gone")));
    expect(gone).toHaveLength(1);
    // DELETE forgets a device; so does signing out on it.
    const devices = () => app.services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, b.userId));
    expect((await post(subscription)).status).toBe(201);
    expect((await post({ endpoint: service.endpoint }, {}, "DELETE")).status).toBe(204);
    expect(await devices()).toHaveLength(0);
    expect((await post(subscription)).status).toBe(201);
    expect(await devices()).toHaveLength(1);
    expect((await postForm(app, "/auth/sign-out", {}, { cookie: b.cookie })).status).toBe(302);
    expect(await devices()).toHaveLength(0);
    await service.close();
  }, 60_000);

  it("sends only to known push services in production", () => {
    expect(pushEndpointAllowed("https://fcm.googleapis.com/fcm/send/abc", true)).toBe(true);
    expect(pushEndpointAllowed("https://updates.push.services.mozilla.com/wpush/v2/abc", true)).toBe(true);
    expect(pushEndpointAllowed("https://web.push.apple.com/abc", true)).toBe(true);
    expect(pushEndpointAllowed("http://fcm.googleapis.com/fcm/send/abc", true)).toBe(false);
    expect(pushEndpointAllowed("https://169.254.169.254/latest/meta-data", true)).toBe(false);
    expect(pushEndpointAllowed("https://fcm.googleapis.com.evil.example/x", true)).toBe(false);
    expect(pushEndpointAllowed("http://127.0.0.1:9/push", false)).toBe(true);
    expect(pushEndpointAllowed("file:///etc/passwd", false)).toBe(false);
  });
});

describe("e-mail over SMTP", () => {
  it("hands the message with its PDF to the SMTP server, and fails (to be tried again) when the server refuses", async () => {
    const messages: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith("@refused.example")) callback(new Error("550 No such mailbox"));
        else callback();
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          messages.push(Buffer.concat(chunks).toString("utf8"));
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    const port = (smtp.server.address() as AddressInfo).port;
    const sender = createSmtpEmail(
      { url: `smtp://127.0.0.1:${port}`, from: "Sugam Loans <notices@example.invalid>" },
      pino({ level: "silent" }),
    );
    const pdf = new TextEncoder().encode("%PDF-1.7\n%test\n");
    await sender.send({
      to: "meera@example.com",
      subject: "Sugam Loans: Loan SL12345678 is closed",
      text: "Your no-dues certificate is attached.",
      attachments: [{ filename: "no-dues-SL12345678.pdf", content: pdf, contentType: "application/pdf" }],
      headers: { "X-Notice-Id": "n-1" },
    });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^Subject: Sugam Loans: Loan SL12345678 is closed\r$/m);
    expect(messages[0]).toMatch(/^To: meera@example\.com\r$/m);
    expect(messages[0]).toMatch(/Content-Type: application\/pdf; name=no-dues-SL12345678\.pdf/);
    await expect(sender.send({ to: "x@refused.example", subject: "s", text: "t", attachments: [] })).rejects.toThrow(/550|No such mailbox/);
    expect(messages).toHaveLength(1);
    await new Promise<void>((r) => smtp.close(() => r()));
  });
});
