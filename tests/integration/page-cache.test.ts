import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { COOKIE_NAMES } from "../../app/server/cookie-names.ts";
import { feedback, products } from "../../app/server/db/schema.ts";
import { CACHED_PAGES } from "../../server/page-cache.ts";
import { startTestServer, TEST_DATABASE_URL, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

/** The raw bytes and headers of a GET (fetch would decode the body). */
function rawGet(path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(new URL(path, app.url), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const scriptSources = (csp: string) => /script-src ([^;]+)/.exec(csp)?.[1]?.split(" ") ?? [];
const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe(`anonymous public pages from the cache (${TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("serves each page the same to every visitor, its inline scripts allowed by hash and no nonce", async () => {
    for (const path of CACHED_PAGES) {
      const first = await rawGet(path);
      expect(first.status, path).toBe(200);
      const html = first.body.toString("utf8");
      const csp = String(first.headers["content-security-policy"]);
      const allowed = scriptSources(csp);
      expect(allowed, path).toContain("'self'");
      expect(csp, path).not.toContain("nonce-");
      expect(csp, path).not.toContain("unsafe-inline' 'sha");
      expect(html, path).not.toContain("nonce=");
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\ssrc=/.test(m[1] ?? ""));
      expect(inline.length, path).toBeGreaterThan(0);
      for (const m of inline) expect(allowed, path).toContain(sha256(m[2] ?? ""));
      expect(first.headers["cache-control"]).toBe("private, no-cache");
      expect(first.headers["set-cookie"]).toBeUndefined();
      expect(first.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(first.headers["permissions-policy"]).toContain("camera=(self)");
      const second = await rawGet(path);
      expect(second.headers.etag, path).toBe(first.headers.etag);
      expect(second.body.equals(first.body), path).toBe(true);
      expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    }
  });

  it("answers If-None-Match with 304, HEAD without a body, and brotli or gzip when asked", async () => {
    const plain = await rawGet("/Rate-terms");
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await rawGet("/Rate-terms", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);

    const br = await rawGet("/Rate-terms", { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("Accept-Encoding");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await rawGet("/Rate-terms", { "accept-encoding": "gzip, br;q=0" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    // The browser's copy in another encoding is still this page.
    expect((await rawGet("/Rate-terms", { "accept-encoding": "br", "if-none-match": String(gz.headers.etag) })).status).toBe(304);

    const head = await rawGet("/Rate-terms", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(plain.body.length));
  });

  it("renders the page for a signed-in borrower, with a query string, or with any of the application's cookies", async () => {
    const { cookie } = await signedInBorrower(app, "9811100001");
    const mine = await rawGet("/", { cookie });
    expect(mine.headers.etag).toBeUndefined();
    expect(String(mine.headers["content-security-policy"])).toMatch(/script-src 'nonce-/);
    // The header's link (every page's messages hold the words for both, so the link is compared).
    expect(mine.body.toString()).toContain('href="/User/Dashboard"');
    const anonymous = (await rawGet("/")).body.toString();
    expect(anonymous).not.toContain('href="/User/Dashboard"');
    expect(anonymous).toContain('href="/quickStart/Otp"');

    const query = await rawGet("/EmiCalculator?amount=200000&tenure=24");
    expect(String(query.headers["content-security-policy"])).toMatch(/script-src 'nonce-/);
    expect(query.headers.etag).toBeUndefined();
    // Each of the application's cookies, alone or among others, is a request of its own.
    // (A space before "=" too: the cookie parsers trim names.)
    for (const ours of Object.values(COOKIE_NAMES).flatMap((name) => [`_ga=GA1.2.3; ${name}=anything`, `${name} =anything`])) {
      const withOurs = await rawGet("/About", { cookie: ours });
      expect(String(withOurs.headers["content-security-policy"]), ours).toMatch(/script-src 'nonce-/);
      expect(withOurs.headers.etag, ours).toBeUndefined();
    }
  });

  it("serves the kept page whatever other cookies come (a load balancer's, an analytics script's)", async () => {
    const kept = await rawGet("/About");
    for (const cookie of ["_ga=GA1.2.3", "AWSALB=abc; csrftoken=xyz", "mytoken=1;  __flashy=2", "x_token=1; otp_pending_not=2"]) {
      const res = await rawGet("/About", { cookie });
      expect(res.status, cookie).toBe(200);
      expect(res.headers.etag, cookie).toBe(kept.headers.etag);
      expect(res.body.equals(kept.body), cookie).toBe(true);
      expect(res.headers["set-cookie"], cookie).toBeUndefined();
    }
    // And a returning visitor with such a cookie is told the page has not changed.
    const again = await rawGet("/About", { cookie: "_ga=GA1.2.3", "if-none-match": String(kept.headers.etag) });
    expect(again.status).toBe(304);
  });

  it("shows a product's change within a second, whoever changed the row", async () => {
    const rates = async () => (await rawGet("/Rate-terms")).body.toString().replaceAll("<!-- -->", "");
    expect(await rates()).not.toContain("₹789 for each missed instalment");
    // Straight to the table, as a script or psql would: the database's trigger tells every process.
    await app.services.db.update(products).set({ penalChargePaise: 78_900 }).where(eq(products.code, "emi"));
    await vi.waitFor(async () => expect(await rates()).toContain("₹789 for each missed instalment"), { timeout: 1_000, interval: 50 });
  });

  it("shows newly published feedback within a second, and drops it when unpublished", async () => {
    const home = async () => (await rawGet("/")).body.toString();
    expect(await home()).not.toContain("Quick and clear, thank you");
    const [row] = await app.services.db
      .insert(feedback)
      .values({ authorName: "Cache Tester", city: "Pune", rating: 5, body: "Quick and clear, thank you", published: true })
      .returning({ id: feedback.id });
    await vi.waitFor(async () => expect(await home()).toContain("Quick and clear, thank you"), { timeout: 1_000, interval: 50 });
    await app.services.db
      .update(feedback)
      .set({ published: false })
      .where(eq(feedback.id, row?.id ?? -1));
    await vi.waitFor(async () => expect(await home()).not.toContain("Quick and clear, thank you"), { timeout: 1_000, interval: 50 });
  });

  it("answers 40 visitors at once with the same page", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => rawGet("/privacy-policy")));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
  });
});
