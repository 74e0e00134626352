import { count, desc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactMessages } from "../../app/server/db/schema.ts";
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
const storedCount = async () => (await app.services.db.select({ n: count() }).from(contactMessages))[0]?.n ?? 0;

const valid = {
  name: "Asha Verma",
  mobile: "+91 98765 43210",
  email: "asha@example.com",
  message: "Please tell me how the salary advance is repaid.",
};

describe("contact form", () => {
  it("stores a valid message and shows a toast after the redirect", async () => {
    const before = await storedCount();
    const res = await post(valid);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/Contact-us");
    const cookie = res.headers.get("set-cookie")?.split(";")[0] ?? "";
    expect(cookie).toMatch(/^__flash=/);
    expect(await storedCount()).toBe(before + 1);
    const [row] = await app.services.db.select().from(contactMessages).orderBy(desc(contactMessages.id)).limit(1);
    expect(row).toMatchObject({ name: "Asha Verma", mobile: "9876543210", email: "asha@example.com", status: "new" });

    const page = await app.get("/Contact-us", { headers: { Cookie: cookie } });
    const html = await page.text();
    expect(html).toContain("Thank you. We have your message.");
    // The flash is consumed: the answer clears it.
    expect(page.headers.get("set-cookie")).toMatch(/^__flash=/);
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
    expect(res.status).toBe(302);
    expect(await storedCount()).toBe(before);
  });
});

describe("contact form rate limit (counted in the database)", () => {
  it("refuses the 4th message in an hour from one address, saying when to try again", async () => {
    const ip = "198.51.100.7";
    for (let i = 0; i < 3; i++) expect((await post(valid, ip)).status).toBe(302);
    const before = await storedCount();
    const refused = await post(valid, ip);
    expect(refused.status).toBe(429);
    const html = await refused.text();
    expect(html).toMatch(/Please try again after \d{1,2}:\d{2}\s?(am|pm)/i);
    expect(html).toContain('value="Asha Verma"');
    expect(await storedCount()).toBe(before);
    // Another address is not affected.
    expect((await post(valid, "198.51.100.8")).status).toBe(302);
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const direct = await startTestServer({ CONTACT_LIMIT_PER_HOUR: "2" });
    try {
      expect((await post(valid, "192.0.2.1", direct)).status).toBe(302);
      expect((await post(valid, "192.0.2.2", direct)).status).toBe(302);
      expect((await post(valid, "192.0.2.3", direct)).status).toBe(429);
    } finally {
      await direct.stop();
    }
  });
});
