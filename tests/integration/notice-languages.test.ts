import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { shortReference } from "../../app/domain/loans/application.ts";
import type { NotificationEvent } from "../../app/domain/notifications.ts";
import { notificationDeliveries, users } from "../../app/server/db/schema.ts";
import { notify } from "../../app/server/notifications/notify.server.ts";
import { signedApplication, signedInStaff } from "../helpers/applications.ts";
import { englishWords } from "../helpers/english.ts";
import { postForm } from "../helpers/http.ts";
import { emailsFor, noticesOf, readEmails } from "../helpers/notices.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// A borrower who reads Hindi (users.language = 'hi') is told in Hindi on every channel: the in-app
// notice, the SMS (Unicode, with the Hindi DLT template id) and the e-mail; an English borrower
// still in English; the sign-in code's SMS in the language of the page that asked for it.
let clock = new Date("2026-03-02T05:30:00Z");
let app: TestServer;
let credit: { cookie: string; userId: string };
beforeAll(async () => {
  app = await startTestServer({}, { now: () => clock });
  credit = await signedInStaff(app, "credit", "Asha Rao");
});
afterAll(async () => {
  await app?.stop();
});

const DEVANAGARI = /[\u0900-\u097F]/;

/** An RFC 2047 header value and a quoted-printable or base64 body, decoded: what the reader sees. */
function readEmail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const bytes = (s: string) => {
    const out: number[] = [];
    for (let i = 0; i < s.length; i++) {
      if (s[i] === "=" && /^[0-9A-F]{2}$/i.test(s.slice(i + 1, i + 3))) {
        out.push(parseInt(s.slice(i + 1, i + 3), 16));
        i += 2;
      } else out.push(s.charCodeAt(i));
    }
    return Buffer.from(out).toString("utf8");
  };
  const subjectRaw = /^Subject: (.*)$/im.exec(head)?.[1] ?? "";
  const subject = subjectRaw
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, value: string) =>
      kind.toLowerCase() === "b" ? Buffer.from(value, "base64").toString("utf8") : bytes(value.replace(/_/g, " ")),
    );
  const encoding = /^Content-Transfer-Encoding: (\S+)/im.exec(head)?.[1]?.toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? bytes(body.replace(/=\r?\n/g, ""))
        : body;
  return { subject, text: text.replace(/\r\n/g, "\n") };
}

/** The one notice of `event` to the borrower, once its SMS and e-mail went: the row, the SMS and the e-mail as read. */
async function delivered(userId: string, mobile: string, event: NotificationEvent) {
  const [notice, ...others] = await noticesOf(app, userId, event);
  expect(others).toHaveLength(0);
  if (!notice) throw new Error(`no ${event} notice`);
  await vi.waitFor(
    async () => {
      const done = await app.services.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.notificationId, notice.id));
      expect(done.map((d) => `${d.channel}:${d.status}`).sort()).toEqual(["email:sent", "sms:sent"]);
    },
    { timeout: 15_000, interval: 100 },
  );
  const sms = readOutbox(app.dataDir).filter((m) => m.to === mobile && m.text === notice.sms);
  expect(sms).toHaveLength(1);
  const [email] = emailsFor(app.dataDir, notice.id);
  if (!email) throw new Error(`no e-mail of ${event}`);
  return { notice, sms: sms[0]!, email: readEmail(email.raw) };
}

const brand = () => app.config.public.brandName;
/** What a Hindi message may show in Latin letters besides the kept terms: links, the brand, the lender's and the officer's names. */
const allowed = () => [app.config.messageOrigin, brand(), app.config.public.lender.name, app.config.public.lender.grievanceOfficer.name];

describe("notices in the borrower's language", () => {
  it("tells a Hindi borrower in Hindi on every channel, and an English one in English", async () => {
    const hi = await signedApplication(app, "9730000001", { email: "hindi.one@example.com" });
    const en = await signedApplication(app, "9730000002", { email: "english.one@example.com" });
    // The language switch while signed in sets this (migration 0034).
    await app.services.db.update(users).set({ language: "hi" }).where(eq(users.id, hi.userId));

    // The credit team asks each for one more thing (through the staff page, as it happens).
    for (const b of [hi, en]) {
      await postForm(app, `/admin/applications/${b.ref}`, { intent: "take" }, credit);
      const asked = await postForm(
        app,
        `/admin/applications/${b.ref}`,
        { intent: "ask", message: "Your October salary slip, please." },
        credit,
      );
      expect(asked.status).toBe(302);
    }
    // A data request and a payment, as the privacy page and the ledger tell them.
    const loanPath = "/User/Loans/Emi/SL00000042";
    for (const b of [hi, en]) {
      await notify(app.services, {
        userId: b.userId,
        event: "data_request_received",
        key: `t:${b.userId}`,
        data: { reference: "DR-7K2M9Q", kind: "correction", dueOn: "2026-04-01", path: "/User/Profile/privacy" },
      });
      await notify(app.services, {
        userId: b.userId,
        event: "payment_received",
        key: `t:${b.userId}`,
        data: {
          loanNumber: "SL00000042",
          loanPath,
          amountPaise: 9_168_42,
          on: "2026-03-02",
          paid: { interestPaise: 1_000_00, principalPaise: 8_168_42, penalPaise: 0, keptPaise: 0, returnedPaise: 0 },
          next: { kind: "due", dueDate: "2026-04-02", instalmentPaise: 9_168_42, coveredPaise: 0, amountPaise: 9_168_42 },
        },
      });
    }

    const templates = app.config.smsTemplates;
    for (const event of ["application_asked", "data_request_received", "payment_received"] as const) {
      const h = await delivered(hi.userId, hi.mobile, event);
      for (const text of [h.notice.title, h.notice.body, h.sms.text, h.email.subject, h.email.text]) {
        expect(text, event).toMatch(DEVANAGARI);
        expect(englishWords(text, [...allowed(), shortReference(hi.ref), "DR-7K2M9Q"]), `${event}: ${text}`).toEqual([]);
      }
      expect(h.notice.smsTemplateId).toBe(templates.hi[event]);
      // The notice keeps the language it was written in: its e-mail's frame follows it, not a later switch.
      expect(h.notice.language).toBe("hi");
      expect(h.sms.templateId).toBe(templates.hi[event]);
      expect(h.sms.encoding).toBe("ucs2");
      expect(h.sms.parts).toBe(Math.ceil(h.sms.text.length / (h.sms.text.length > 70 ? 67 : 70)));
      expect(h.email.text).toContain(h.notice.body);
      expect(h.email.text).toContain("प्रिय ग्राहक,");

      const e = await delivered(en.userId, en.mobile, event);
      for (const text of [e.notice.title, e.notice.body, e.sms.text, e.email.subject, e.email.text]) expect(text).not.toMatch(DEVANAGARI);
      expect(e.sms.templateId).toBe(templates.en[event]);
      expect(e.notice.language).toBe("en");
      expect(e.sms.templateId).not.toBe(h.sms.templateId);
      expect(e.email.text).toContain("Dear borrower,");
      expect(e.email.text).toContain(e.notice.body);
    }
    const asked = await delivered(hi.userId, hi.mobile, "data_request_received");
    expect(asked.notice.body).toBe(
      "हमें अपनी जानकारी सुधारने का आपका अनुरोध DR-7K2M9Q मिल गया है। हम 1 अप्रैल 2026 तक जवाब देंगे; इसकी स्थिति अपनी प्रोफ़ाइल के गोपनीयता पेज पर देखें।",
    );
    expect(asked.email.subject).toBe(`${brand()}: हमें आपका अनुरोध DR-7K2M9Q मिल गया है`);
    const received = await delivered(hi.userId, hi.mobile, "payment_received");
    expect(received.notice.title).toBe("हमें ₹9,168.42 मिल गए");
    const paid = await delivered(en.userId, en.mobile, "payment_received");
    expect(paid.notice.body).toBe(
      "We received ₹9,168.42 for loan SL00000042 on 2 Mar 2026. It paid ₹1,000 of interest and ₹8,168.42 of principal. Next due: ₹9,168.42 on 2 Apr 2026 (loan SL00000042).",
    );
  }, 90_000);

  it("sends the sign-in code in the language of the page that asked for it, with that language's template", async () => {
    for (const [mobile, lang] of [
      ["9730000011", "hi"],
      ["9730000012", "en"],
    ] as const) {
      const res = await postForm(app, "/quickStart/Otp", { intent: "send", mobile }, { headers: { Cookie: `lang=${lang}` } });
      expect(res.status).toBe(302);
      const sms = readOutbox(app.dataDir)
        .filter((m) => m.to === mobile)
        .at(-1);
      expect(sms?.templateId).toBe(app.config.smsTemplates[lang].otp);
      expect(sms?.text).toMatch(/^\d{6} /);
      if (lang === "hi") {
        expect(sms?.text).toMatch(DEVANAGARI);
        expect(sms?.encoding).toBe("ucs2");
        expect(englishWords(sms?.text ?? "", allowed())).toEqual([]);
      } else expect(sms?.text).toContain("is your");
    }
  }, 30_000);

  it("acknowledges a contact-form message in the language of the page it was sent from", async () => {
    const res = await postForm(
      app,
      "/Contact-us",
      { once: crypto.randomUUID(), name: "Kiran Das", mobile: "9730000021", email: "kiran.hi@example.com", message: "क्या आप लोन देते हैं?" },
      { headers: { Cookie: "lang=hi" } },
    );
    expect(res.status).toBe(200);
    const reference = /(GRV-\d{10})/.exec(await res.text())?.[1] ?? "";
    expect(reference).not.toBe("");
    const mail = await vi.waitFor(
      () => {
        const [found] = readEmails(app.dataDir).filter((m) => m.raw.includes(`X-Ticket-Reference: ${reference}`));
        if (!found) throw new Error("no acknowledgement yet");
        return readEmail(found.raw);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(mail.subject).toBe(`${brand()}: हमें आपका संदेश ${reference} मिल गया है`);
    expect(mail.text).toContain("प्रिय Kiran Das,");
    expect(englishWords(mail.text, [...allowed(), "Kiran Das", reference])).toEqual([]);
  }, 30_000);
});
