import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendCode, verifyCode } from "../../app/server/otp/otp.server.ts";
import { createHttpSms } from "../../app/server/sms/sms.server.ts";
import { latestCode, readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let clock = new Date("2026-11-22T06:00:00Z");
const now = () => clock;
const advance = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ OTP_PER_IP_PER_HOUR: "8" }, { now });
});
afterAll(async () => {
  await app?.stop();
});

let n = 0;
const mobile = () => `97${String(4_000_000 + n++).padStart(8, "0")}`;
const send = (target: string, ip = "203.0.113.1") =>
  sendCode(app.services, { target, purpose: "sign_in", ip, message: (c) => `${c} is your code` });

describe("one-time codes", () => {
  it("are 6 digits, sent by SMS to the outbox, and stored only as a hash", async () => {
    const m = mobile();
    expect((await send(m)).ok).toBe(true);
    const code = latestCode(app.dataDir, m);
    expect(code).toMatch(/^\d{6}$/);
    const { rows } = (await app.services.db.execute(sql`select code_hash from verifications where target = ${m}`)) as unknown as {
      rows: { code_hash: string }[];
    };
    expect(rows[0]?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.code_hash).not.toContain(code);
    expect((await verifyCode(app.services, { target: m, purpose: "sign_in", code })).ok).toBe(true);
    // A code works once.
    expect(await verifyCode(app.services, { target: m, purpose: "sign_in", code })).toMatchObject({ ok: false, reason: "no_code" });
  });

  it("expire after 5 minutes", async () => {
    const m = mobile();
    await send(m);
    const code = latestCode(app.dataDir, m);
    advance(301);
    expect(await verifyCode(app.services, { target: m, purpose: "sign_in", code })).toMatchObject({ ok: false, reason: "expired" });
  });

  it("die after 5 wrong tries, counting down", async () => {
    const m = mobile();
    await send(m);
    const code = latestCode(app.dataDir, m);
    const wrong = code === "999999" ? "000000" : "999999";
    for (const left of [4, 3, 2, 1]) {
      expect(await verifyCode(app.services, { target: m, purpose: "sign_in", code: wrong })).toMatchObject({
        reason: "wrong",
        attemptsLeft: left,
      });
    }
    expect(await verifyCode(app.services, { target: m, purpose: "sign_in", code: wrong })).toMatchObject({ reason: "locked" });
    expect(await verifyCode(app.services, { target: m, purpose: "sign_in", code })).toMatchObject({ reason: "locked" });
  });

  it("can be resent only after 30 seconds, saying how long to wait", async () => {
    const m = mobile();
    await send(m);
    advance(10);
    const refused = await send(m);
    expect(refused).toMatchObject({ ok: false, reason: "resend_too_soon" });
    expect(refused.ok ? "" : refused.message).toContain("in 20 seconds");
    advance(20);
    expect((await send(m)).ok).toBe(true);
  });

  it("allow at most 5 codes a number an hour, then say when to try again", async () => {
    const m = mobile();
    for (let i = 0; i < 5; i++) {
      expect((await send(m, `198.51.100.${i}`)).ok).toBe(true);
      advance(31);
    }
    const refused = await send(m, "198.51.100.99");
    expect(refused).toMatchObject({ ok: false, reason: "number_limit" });
    expect(refused.ok ? "" : refused.message).toMatch(/try again after \d{1,2}:\d{2}\s?(am|pm)/i);
    advance(3600);
    expect((await send(m, "198.51.100.99")).ok).toBe(true);
  });

  it("allow a limited number of codes an address an hour (configuration)", async () => {
    const ip = "192.0.2.77";
    for (let i = 0; i < 8; i++) expect((await send(mobile(), ip)).ok).toBe(true);
    expect(await send(mobile(), ip)).toMatchObject({ ok: false, reason: "ip_limit" });
  });

  it("one code per (target, purpose): a new code replaces the old", async () => {
    const m = mobile();
    await send(m);
    const first = latestCode(app.dataDir, m);
    advance(31);
    await send(m);
    const second = latestCode(app.dataDir, m);
    if (first !== second) {
      expect(await verifyCode(app.services, { target: m, purpose: "sign_in", code: first })).toMatchObject({ reason: "wrong" });
    }
    expect((await verifyCode(app.services, { target: m, purpose: "sign_in", code: second })).ok).toBe(true);
    expect(readOutbox(app.dataDir).filter((s) => s.to === m)).toHaveLength(2);
  });
});

describe("SMS gateway (production)", () => {
  it("posts each message as JSON with the key, and fails on an error answer", async () => {
    const received: { body: string; auth: string | undefined }[] = [];
    let status = 200;
    const gateway = createServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ body, auth: req.headers.authorization });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => gateway.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;
    const sms = createHttpSms({ url, key: "secret-key" }, pino({ level: "silent" }));
    await sms.send({ to: "9876543210", text: "123456 is your code", templateId: "1007" });
    expect(received[0]?.auth).toBe("Bearer secret-key");
    expect(JSON.parse(received[0]?.body ?? "{}")).toEqual({
      to: "+919876543210",
      text: "123456 is your code",
      templateId: "1007",
      unicode: false,
    });
    // Hindi goes as Unicode (UCS-2): the gateway is told so.
    await sms.send({ to: "9876543210", text: "123456 आपका OTP है", templateId: "1008" });
    expect(JSON.parse(received[1]?.body ?? "{}")).toMatchObject({ templateId: "1008", unicode: true });
    status = 503;
    await expect(sms.send({ to: "9876543210", text: "x" })).rejects.toThrow(/503/);
    gateway.close();
  });
});
