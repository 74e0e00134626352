import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../app/server/db/client.ts";
import { feedback, users } from "../../app/server/db/schema.ts";
import { seedDemoData } from "../../app/server/db/seed.ts";
import { englishLeft } from "../helpers/english.ts";
import { shownMarkup } from "../helpers/english.ts";
import { startTestServer, TEST_DATABASE_URL, type TestServer } from "../helpers/server.ts";
import { borrowerSessionAgain } from "../helpers/session.ts";
import { DEMO_BORROWER_MOBILE } from "../../app/server/servicing/demo.server.ts";
import { pageAs } from "../helpers/http.ts";
import { logSink } from "../helpers/log-sink.ts";

const shown = shownMarkup;

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

describe(`server on ${TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  it("answers /healthz and /readyz", async () => {
    const health = await app.get("/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await app.get("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: "ready",
      database: TEST_DATABASE_URL ? "postgres" : "pglite",
      realtime: "listening",
      storage: "reachable",
    });
  });

  it("enforces a CSP whose scripts need this response's nonce, and every script carries it", async () => {
    // A page rendered per request (the anonymous cached pages use hashes: page-cache.test.ts).
    const first = await app.get("/Contact-us");
    const csp = first.headers.get("content-security-policy") ?? "";
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).not.toContain("unsafe-eval");
    expect(first.headers.get("content-security-policy-report-only")).toBeNull();
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const second = await app.get("/Contact-us");
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  });

  it("sends security headers and no HSTS in local mode", async () => {
    const res = await app.get("/About");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("returns a request id, and keeps a sane one it was given", async () => {
    const res = await app.get("/healthz");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const given = await app.get("/healthz", { headers: { "X-Request-Id": "edge-1234" } });
    expect(given.headers.get("x-request-id")).toBe("edge-1234");
    const bad = await app.get("/healthz", { headers: { "X-Request-Id": "<script>" } });
    expect(bad.headers.get("x-request-id")).not.toBe("<script>");
  });

  it("compresses HTML and caches hashed assets for a year", async () => {
    const res = await app.get("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const html = await (await app.get("/")).text();
    const assets = [...html.matchAll(/href="(\/assets\/[^"]+\.(?:js|svg))"/g)].map((m) => m[1] as string);
    expect(assets.some((a) => a.endsWith(".svg"))).toBe(true);
    for (const asset of assets) {
      const file = await app.get(asset);
      expect(file.status).toBe(200);
      expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
  });

  it("serves the build's other files by name for an hour, and nothing else from its directory", async () => {
    const robots = await app.get("/robots.txt");
    expect(robots.status).toBe(200);
    expect(robots.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await robots.text()).toContain("User-agent");
    expect((await app.get("/firebase-messaging-sw.js")).status).toBe(200);
    // The server's own build and other paths of the client directory are not files of the site.
    for (const path of ["/../server/index.js", "/%2e%2e/server/index.js", "/robots.txt/", "/index.html"]) {
      const res = await app.get(path);
      expect(res.status, path).toBe(404);
    }
  });

  it("puts the stylesheet inside the page on a first visit, and links the cached file once a session cookie is there", async () => {
    const first = await (await app.get("/Contact-us")).text();
    const inline = /<style id="app-css">([\s\S]*?)<\/style>/.exec(first)?.[1];
    expect(inline).toContain("tailwindcss");
    expect(first).not.toMatch(/<link rel="stylesheet"/);
    const returning = await (await app.get("/Contact-us", { headers: { Cookie: "token=returning-visitor" } })).text();
    expect(returning).not.toContain('id="app-css"');
    const href = /<link rel="stylesheet" href="(\/assets\/app-[^"]+\.css)"/.exec(returning)?.[1];
    const file = await app.get(href as string);
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await file.text()).toBe(inline);
  });

  it("sends no modulepreload links: the page's module script imports its modules, which are all served", async () => {
    for (const [pathname, headers] of [
      ["/", {}],
      ["/Contact-us", { Cookie: "token=returning-visitor" }],
    ] as const) {
      const html = await (await app.get(pathname, { headers })).text();
      expect(html, pathname).not.toContain("modulepreload");
      const imported = [...html.matchAll(/import(?:\(| [^"]*?)"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
      expect(
        imported.some((href) => href.includes("entry.client")),
        pathname,
      ).toBe(true);
      for (const href of imported) expect((await app.get(href)).status, href).toBe(200);
    }
  });

  it.each([
    ["/", "Personal loans and salary advances"],
    ["/About", "About"],
    ["/Contact-us", "Contact us"],
    ["/grievance-policy", "Grievance"],
    ["/privacy-policy", "Privacy"],
    ["/terms-and-conditions", "Terms"],
    ["/ClearCache", "Clear this site"],
    ["/homeComponents/top", "Personal loans"],
    ["/homeComponents/choose", "Why borrowers choose"],
    ["/homeComponents/loanProcess", "How a loan works"],
    ["/homeComponents/feedback", "What borrowers say"],
    ["/homeComponents/apk", "Install"],
    ["/homeComponents/calculator", "Work out your EMI"],
    ["/EmiCalculator", "EMI calculator"],
    ["/Rate-terms", "Rates, fees and terms"],
    ["/homeComponents/component", "How a loan works"],
  ])("renders %s on the server", async (pathname, text) => {
    const res = await app.get(pathname);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(text);
    expect(html.match(/<h1\b/g)).toHaveLength(1);
  });

  it("matches paths ignoring letter case", async () => {
    expect((await app.get("/about")).status).toBe(200);
    expect((await app.get("/CONTACT-US")).status).toBe(200);
    expect((await app.get("/homecomponents/LOANPROCESS")).status).toBe(200);
  });

  it("answers unknown paths with 404 and 'Page not found: {path}'", async () => {
    for (const pathname of ["/no-such-page", "/a/b/c", "/homeComponents/nothing"]) {
      const res = await app.get(pathname);
      expect(res.status, pathname).toBe(404);
      expect(await res.text()).toContain(`Page not found: ${pathname}`);
    }
  });

  it("serves the web app manifest with the brand", async () => {
    const res = await app.get("/manifest.webmanifest");
    expect(res.headers.get("content-type")).toContain("application/manifest+json");
    const manifest = await res.json();
    expect(manifest).toMatchObject({ name: "Sugam Loans", display: "standalone", start_url: "/?source=pwa" });
  });

  it("shows published feedback from the database, marks samples, hides unpublished", async () => {
    await app.services.db.insert(feedback).values([
      { authorName: "Test Person", city: "Nagpur", rating: 5, body: "Published real feedback text", published: true },
      { authorName: "Hidden Person", city: "Agra", rating: 2, body: "Unpublished feedback text", published: false },
    ]);
    const html = shown(await (await app.get("/homeComponents/feedback")).text());
    expect(html).toContain("Published real feedback text");
    expect(html).not.toContain("Unpublished feedback text");
    expect(html).toContain("Sample feedback (demo data)");
  });

  it("quotes the live product data on the home page", async () => {
    const html = (await (await app.get("/")).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("up to ₹5,00,000");
    expect(html).toContain("14% – 24%");
  });

  it("shows the home page and its sections alone in Hindi, the figures as in English and feedback as written", async () => {
    const hindi = { headers: { "Accept-Language": "hi" } };
    const home = shown(await (await app.get("/", hindi)).text()).replaceAll("<!-- -->", "");
    expect(home).toContain('<html lang="hi-IN"');
    expect(home).toContain("<title>पर्सनल लोन और सैलरी एडवांस | Sugam Loans</title>");
    expect(home).toContain("पर्सनल लोन और सैलरी एडवांस, हस्ताक्षर करने से पहले हर रुपये का पूरा हिसाब आपके सामने");
    expect(home).toContain("₹5,00,000 तक");
    expect(home).toContain("14% – 24%");
    expect(home).toContain("ग्राहक Sugam Loans को क्यों चुनते हैं");
    expect(home).toContain("चरण 1: ");
    for (const english of [
      "Personal loans",
      "Why borrowers choose",
      "How a loan works",
      "What borrowers say",
      "Keep Sugam Loans",
      "Step 1",
    ]) {
      expect(home).not.toContain(english);
    }
    const section = shown(await (await app.get("/homeComponents/loanProcess", { headers: { Cookie: "lang=hi" } })).text());
    expect(section).toContain("<title>लोन कैसे मिलता है | Sugam Loans</title>");
    expect(section).toMatch(/<h1[^>]*>लोन कैसे मिलता है<\/h1>/);

    // Published feedback is shown as its author wrote it; everything around it is Hindi.
    const rows = await app.services.db
      .select({ authorName: feedback.authorName, city: feedback.city, body: feedback.body })
      .from(feedback)
      .where(eq(feedback.published, true));
    const { brandName, lender } = app.config.public;
    const allowed = [brandName, lender.name, lender.address, lender.rbiRegistration, lender.cin, ...Object.values(lender.grievanceOfficer)];
    const feedbackPage = (await (await app.get("/homeComponents/feedback", hindi)).text()).replaceAll("<!-- -->", "");
    expect(feedbackPage).toContain("नमूना फ़ीडबैक (डेमो डेटा)");
    expect(englishLeft(feedbackPage, [...allowed, ...rows.flatMap((r) => [r.authorName, r.city, r.body])])).toEqual([]);
  });

  it("applies migrations and the seed idempotently", async () => {
    expect(await migrate(app.services.db)).toEqual([]);
    const before = await app.services.db.select({ n: count() }).from(feedback).where(eq(feedback.isSample, true));
    expect(await seedDemoData(app.services.db)).toEqual({ feedback: 0 });
    expect(await seedDemoData(app.services.db)).toEqual({ feedback: 0 });
    const after = await app.services.db.select({ n: count() }).from(feedback).where(eq(feedback.isSample, true));
    expect(after[0]?.n).toBe(before[0]?.n);
    expect(before[0]?.n).toBeGreaterThan(0);
  });
});

describe("pages rendered in one pass", () => {
  it("renders public, signed-in and error pages without suspending: whole documents with their loader data, nothing logged", async () => {
    const { sink, lines } = logSink();
    const logged = await startTestServer({ LOG_LEVEL: "warn", SEED_DEMO_LOANS: "true" }, { logDestination: sink });
    try {
      const [demo] = await logged.services.db.select({ id: users.id }).from(users).where(eq(users.mobile, DEMO_BORROWER_MOBILE));
      const cookie = await borrowerSessionAgain(logged, demo?.id ?? "");
      const loans = await pageAs(logged, "/User/Loans", cookie);
      const loanPath = /href="(\/User\/Loans\/Emi\/[^"]+)"/.exec(loans.html)?.[1] ?? "";
      expect(loanPath).not.toBe("");
      const pages: [string, string, number][] = [
        ["/Contact-us", "", 200],
        ["/", cookie, 200], // rendered for a session, not from the page cache
        ["/User/Dashboard", cookie, 200],
        [loanPath, cookie, 200],
        ["/User/Profile/components/Address", cookie, 200],
        ["/User/Help", cookie, 200],
        ["/User/Loans/Emi/SL00000000", cookie, 404],
        ["/no/such/page", "", 404],
      ];
      for (const [path, asked, status] of pages) {
        const res = await logged.get(path, asked ? { headers: { cookie: asked } } : {});
        const html = await res.text();
        expect([path, res.status]).toEqual([path, status]);
        expect(html).toMatch(/^<!DOCTYPE html><html lang="en-IN">/);
        expect(html).toContain("streamController.enqueue(");
        expect(html).toContain("streamController.close();");
        expect(html).not.toContain("<!--$!-->");
      }
      expect(
        lines()
          .filter((l) => l.level >= 50 || /streaming renderer/.test(l.msg))
          .map((l) => l.msg),
      ).toEqual([]);
    } finally {
      await logged.stop();
    }
  });
});

describe("production mode", () => {
  let prod: TestServer;
  beforeAll(async () => {
    prod = await startTestServer({
      APP_ENV: "production",
      SESSION_SECRET: "x".repeat(48),
      ENCRYPTION_KEY: "b".repeat(64),
      SMS_GATEWAY_URL: "http://127.0.0.1:9/sms",
      SMS_GATEWAY_KEY: "k",
      PUBLIC_URL: "https://loans.example.in",
      RAZORPAYX_KEY_ID: "rzp_test_x",
      RAZORPAYX_KEY_SECRET: "secret",
      RAZORPAYX_ACCOUNT_NUMBER: "7878780080316316",
      RAZORPAYX_WEBHOOK_SECRET: "webhook-secret",
      RAZORPAYX_API_URL: "http://127.0.0.1:9/v1",
      RAZORPAY_KEY_ID: "rzp_test_y",
      RAZORPAY_KEY_SECRET: "secret",
      RAZORPAY_WEBHOOK_SECRET: "webhook-secret-2",
      SMTP_URL: "smtp://127.0.0.1:2525",
      RAZORPAY_API_URL: "http://127.0.0.1:9/v1",
      BUREAU_MEMBER_ID_CIBIL: "NB12345678",
      BUREAU_MEMBER_ID_EQUIFAX: "EQ12345678",
      BUREAU_MEMBER_ID_EXPERIAN: "EX12345678",
      BUREAU_MEMBER_ID_CRIF: "CR12345678",
    });
  });
  afterAll(async () => {
    await prod?.stop();
  });

  it("sends HSTS and never a stack trace", async () => {
    const res = await prod.get("/");
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const missing = await (await prod.get("/nowhere")).text();
    expect(missing).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it("seeds no demo feedback in production", async () => {
    const html = shown(await (await prod.get("/homeComponents/feedback")).text());
    expect(html).not.toContain("Sample feedback");
    expect(html).toContain("No published feedback yet.");
  });
});
