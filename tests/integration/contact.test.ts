import { count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ticketMessages, tickets } from "../../app/server/db/schema.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { readEmails } from "../helpers/notices.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { postForm } from "../helpers/http.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer({ CONTACT_LIMIT_PER_HOUR: "3", TRUST_PROXY: "loopback" });
});
afterAll(async () => {
  await app?.stop();
});

function post(fields: Record<string, string>, ip = "203.0.113.10", server = app) {
  return postForm(server, "/Contact-us", fields, { headers: { "X-Forwarded-For": ip } });
}
const storedCount = async () => (await app.services.db.select({ n: count() }).from(tickets))[0]?.n ?? 0;
const referenceIn = (html: string) => /Its reference is <strong[^>]*>(GRV-\d{10})</.exec(html)?.[1];

const valid = {
  name: "Asha Verma",
  mobile: "+91 98765 43210",
  email: "asha@example.com",
  message: "Please tell me how the salary advance is repaid.",
};

describe("contact form", () => {
  it("raises a ticket, shows its reference on the page and e-mails it; the same form sent twice is one ticket", async () => {
    const before = await storedCount();
    const once = crypto.randomUUID();
    const res = await post({ ...valid, once });
    expect(res.status).toBe(200);
    const reference = referenceIn(await res.text());
    expect(reference).toMatch(/^GRV-\d{4}\d{6}$/);
    expect(await storedCount()).toBe(before + 1);
    const [row] = await app.services.db.select().from(tickets).orderBy(desc(tickets.createdAt)).limit(1);
    expect(row).toMatchObject({
      reference,
      source: "contact",
      status: "open",
      userId: null,
      contactName: "Asha Verma",
      contactMobile: "9876543210",
      contactEmail: "asha@example.com",
    });
    const messages = await app.services.db
      .select()
      .from(ticketMessages)
      .where(eq(ticketMessages.ticketId, row?.id ?? ""));
    expect(messages.map((m) => [m.author, m.body])).toEqual([["borrower", valid.message]]);
    // The acknowledgement, by e-mail, with the reference.
    await vi.waitFor(
      () => {
        const mail = readEmails(app.dataDir).find((m) => m.raw.includes(`X-Ticket-Reference: ${reference}`));
        expect(mail?.raw).toMatch(/^To: asha@example\.com\r?$/m);
        expect(mail?.raw).toContain(`Its reference is ${reference}`);
      },
      { timeout: 15_000, interval: 100 },
    );

    // Sent again (a double tap, a retry after a lost answer): the same ticket, nothing new.
    const again = await post({ ...valid, once });
    expect(again.status).toBe(200);
    expect(referenceIn(await again.text())).toBe(reference);
    expect(await storedCount()).toBe(before + 1);

    // The acknowledgement never repeats what was typed (the form must not carry a stranger's words in our name).
    const ack = readEmails(app.dataDir).find((m) => m.raw.includes(`X-Ticket-Reference: ${reference}`));
    expect(ack?.raw).not.toContain("salary advance is repaid");

    // The same form twice at once (a double tap without JavaScript): one ticket, no number spent.
    const twice = crypto.randomUUID();
    const [a, b] = await Promise.all([post({ ...valid, once: twice }, "203.0.113.11"), post({ ...valid, once: twice }, "203.0.113.11")]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [ra, rb] = [referenceIn(await a.text()), referenceIn(await b.text())];
    expect(ra).toBe(rb);
    expect(Number(ra?.slice(8))).toBe(Number(reference?.slice(8)) + 1);
    expect(await storedCount()).toBe(before + 2);

    // The page offers a fresh key each time it is shown.
    const page = await (await app.get("/Contact-us")).text();
    expect(page).toMatch(/name="once" value="[0-9a-f-]{36}"/);
  });

  it("answers bad input with 400, a message next to each field, keeps what was typed, stores nothing", async () => {
    const before = await storedCount();
    const res = await post({ name: "Asha 123", mobile: "12345", email: "not-an-email", message: "short" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Use letters and spaces only in your name.");
    expect(html).toContain("Enter a valid 10-digit Indian mobile number");
    expect(html).toContain("Enter a valid e-mail address");
    expect(html).toContain("Write at least 10 characters");
    expect(html).toContain('value="Asha 123"');
    expect(html).toContain('value="not-an-email"');
    expect(html).toMatch(/aria-invalid="true"/);
    expect(await storedCount()).toBe(before);
  });

  it("drops a message whose honeypot field is filled, while looking successful", async () => {
    const before = await storedCount();
    const res = await post({ ...valid, website: "http://spam.example" });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Thank you. We have your message.");
    expect(referenceIn(html)).toBeUndefined();
    expect(await storedCount()).toBe(before);
  });
});

describe("contact form rate limit (counted in the database)", () => {
  it("refuses the 4th message in an hour from one address, saying when to try again", async () => {
    const ip = "198.51.100.7";
    const fields = { ...valid, email: "limits@example.com" };
    for (let i = 0; i < 3; i++) expect((await post(fields, ip)).status).toBe(200);
    const before = await storedCount();
    const refused = await post(fields, ip);
    expect(refused.status).toBe(429);
    const html = await refused.text();
    expect(html).toMatch(/Please try again after \d{1,2}:\d{2}\s?(am|pm)/i);
    expect(html).toContain('value="Asha Verma"');
    expect(await storedCount()).toBe(before);
    // Another address is not affected.
    expect((await post(fields, "198.51.100.8")).status).toBe(200);
  });

  it("takes every message but e-mails one address at most 3 acknowledgements a day, whatever address they come from", async () => {
    const fields = { ...valid, email: "someone.else@example.com" };
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await (await post({ ...fields, once: crypto.randomUUID() }, `192.0.2.${i + 1}`)).text());
    const references = answers.map(referenceIn);
    expect(new Set(references).size).toBe(5);
    const mailed = () => readEmails(app.dataDir).filter((m) => /^To: someone\.else@example\.com\r?$/m.test(m.raw));
    await vi.waitFor(() => expect(mailed()).toHaveLength(3), { timeout: 15_000, interval: 100 });
    expect(answers[2]).toContain("We have e-mailed it to someone.else@example.com.");
    expect(answers[3]).toContain("so this reference is not e-mailed: please note it down.");
    // The fourth and fifth sent no e-mail job, or theirs has been worked and would be in the outbox.
    await waitForJobs(app, "ticket-email");
    expect(mailed()).toHaveLength(3);
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const direct = await startTestServer({ CONTACT_LIMIT_PER_HOUR: "2" });
    try {
      expect((await post(valid, "192.0.2.1", direct)).status).toBe(200);
      expect((await post(valid, "192.0.2.2", direct)).status).toBe(200);
      expect((await post(valid, "192.0.2.3", direct)).status).toBe(429);
    } finally {
      await direct.stop();
    }
  });
});
