import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseProxy } from "../helpers/db-proxy.ts";
import { postForm } from "../helpers/http.ts";
import { waitUntilUp } from "../helpers/process.ts";
import { startTestServer, TEST_DATABASE_URL, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// PostgreSQL out of reach (docs/product.md "Protecting data and the service"): a TCP proxy in front
// of it is closed. Pages that need the database answer 503 with the site's own "we'll be back" page
// and Retry-After, public pages already cached are still served, and all is well once it is back.
const proxy = databaseProxy(new URL(TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"));
let app: TestServer;

describe.skipIf(!TEST_DATABASE_URL)("PostgreSQL out of reach", () => {
  beforeAll(async () => {
    await proxy.start();
    app = await startTestServer({ DATABASE_URL: proxy.url() });
  }, 120_000);
  afterAll(async () => {
    // Back, so that the server stops cleanly.
    await proxy.start().catch(() => {});
    await app?.stop();
    await proxy.kill();
  });

  const expectWeWillBeBack = async (res: Response, what: string) => {
    expect(res.status, what).toBe(503);
    expect(res.headers.get("retry-after"), what).toBe("30");
    expect(res.headers.get("cache-control"), what).toBe("no-store");
    const html = await res.text();
    expect(html, what).toContain("<h1>We'll be back shortly</h1>");
    expect(html, what).toContain('<html lang="en-IN">');
    expect(html, what).toContain('<main id="main">');
    expect(html, what).toContain("If you were sending a form, it may not have been saved.");
    expect(html, what).not.toMatch(/<script/i);
  };

  it('answers 503 with the "we\'ll be back" page and Retry-After, keeps serving cached public pages, and recovers', async () => {
    const { cookie } = await signedInBorrower(app, "9811100501");
    const about = await app.get("/About");
    expect(about.status).toBe(200);
    const aboutHtml = await about.text();

    await proxy.kill();
    try {
      // Cached before the outage: served as it was.
      const cached = await app.get("/About");
      expect(cached.status).toBe(200);
      expect(await cached.text()).toBe(aboutHtml);
      // Public pages not cached yet, which read the database (published feedback).
      await expectWeWillBeBack(await app.get("/"), "/");
      await expectWeWillBeBack(await app.get("/homeComponents/feedback"), "/homeComponents/feedback");
      // Signing in: the code cannot be stored, so it is not sent.
      await expectWeWillBeBack(await postForm(app, "/quickStart/Otp", { intent: "send", mobile: "9811100502" }), "sign-in");
      // A signed-in page: the session cannot be read.
      await expectWeWillBeBack(await app.get("/User/Dashboard", { headers: { Cookie: cookie } }), "/User/Dashboard");
      // Not the database: an unknown page is still the not-found page.
      expect((await app.get("/no-such-page")).status).toBe(404);
    } finally {
      await proxy.start();
    }
    await waitUntilUp(`${app.url}/readyz`, 200);
    const home = await app.get("/");
    expect(home.status).toBe(200);
    expect((await app.get("/User/Dashboard", { headers: { Cookie: cookie } })).status).toBe(200);
  }, 120_000);
});
