import http from "node:http";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerAddresses, borrowerEmployment, sessions, tickets } from "../../app/server/db/schema.ts";
import { originOf, postForm, rawRequest } from "../helpers/http.ts";
import { logSink } from "../helpers/log-sink.ts";
import { latestCode } from "../helpers/outbox.ts";
import { setCookieValue } from "../helpers/process.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

let n = 0;
const borrower = () => signedInBorrower(app, `97100${String(n++).padStart(5, "0")}`);
const liveSession = async (userId: string) =>
  (await app.services.db.select({ endedAt: sessions.endedAt }).from(sessions).where(eq(sessions.userId, userId))).some(
    (s) => s.endedAt === null,
  );
const contactCount = async () => (await app.services.db.select({ n: count() }).from(tickets))[0]?.n ?? 0;

const contact = {
  name: "Asha Verma",
  mobile: "9876543210",
  email: "asha@example.com",
  message: "Please tell me how the salary advance is repaid.",
};

describe("redirects after sign-in", () => {
  it("never leave the site, however the path is disguised, and never answer 500", async () => {
    const { cookie } = await borrower();
    for (const hostile of [
      "/%09/evil.example",
      "/%0a/evil.example",
      "%2F%2Fevil.example",
      "/%5Cevil.example",
      "/%0d%0aSet-Cookie:%20x=1",
      "https://evil.example/",
    ]) {
      const res = await app.get(`/quickStart/Otp?redirectTo=${hostile}`, { headers: { Cookie: cookie } });
      expect(res.status, hostile).toBe(302);
      const location = res.headers.get("location") ?? "";
      expect(new URL(location, app.url).origin, `${hostile} → ${location}`).toBe(originOf(app));
      expect(location.startsWith("//"), location).toBe(false);
      expect(res.headers.get("set-cookie") ?? "").not.toContain("x=1");
    }
  });

  it("after a sign-in with the code, lands on this site whatever redirectTo said", async () => {
    for (const [i, hostile] of ["/\t/evil.example", "/\r\n/evil.example", "//evil.example", "/\\evil.example"].entries()) {
      const mobile = `97109${String(i).padStart(5, "0")}`;
      const sent = await postForm(app, "/quickStart/Otp", { intent: "send", mobile, redirectTo: hostile });
      expect(sent.status).toBe(302);
      const pending = setCookieValue(sent, "otp_pending") ?? "";
      const verified = await postForm(
        app,
        "/quickStart/Otp",
        { intent: "verify", code: latestCode(app.dataDir, mobile) },
        { cookie: pending },
      );
      expect(verified.status, JSON.stringify(hostile)).toBe(302);
      const location = verified.headers.get("location") ?? "";
      expect(new URL(location, app.url).origin, `${JSON.stringify(hostile)} → ${location}`).toBe(originOf(app));
      expect(location.startsWith("//")).toBe(false);
    }
  });

  it("the staff sign-in keeps only a path of this site", async () => {
    const res = await app.get("/admin/login?redirectTo=/%09/evil.example");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toMatch(/name="redirectTo" value="\/\s*\/evil/);
    expect(html).toContain('name="redirectTo" value="/admin"');
  });
});

describe("state-changing requests from another site", () => {
  it("are refused with 403 on pages, sign-out and the session endpoints, and change nothing", async () => {
    const { cookie, userId } = await borrower();
    for (const path of ["/auth/sign-out", "/api/session/clear", "/api/session/renew"]) {
      for (const headers of [
        { Origin: "https://evil.example" },
        { Origin: "null" },
        {} as Record<string, string>,
        { Referer: "https://evil.example/page" },
      ]) {
        const res = await app.get(path, { method: "POST", headers: { Cookie: cookie, ...headers } });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect(await liveSession(userId)).toBe(true);
    const before = await contactCount();
    const page = await app.get("/Contact-us", {
      method: "POST",
      body: new URLSearchParams(contact),
      headers: { Origin: "https://evil.example", Accept: "text/html" },
    });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("sent from another site");
    expect(await contactCount()).toBe(before);
  });

  it("are accepted from this site (Origin, or Referer when a browser sends no Origin)", async () => {
    const { cookie, userId } = await borrower();
    const renew = await app.get("/api/session/renew", {
      method: "POST",
      headers: { Cookie: cookie, Referer: `${app.url}/User/Dashboard` },
    });
    expect(renew.status).toBe(200);
    const renewed = renew.headers.get("set-cookie")?.split(";")[0] ?? "";
    const out = await app.get("/auth/sign-out", { method: "POST", headers: { Cookie: renewed, Origin: originOf(app) } });
    expect(out.status).toBe(302);
    expect(await liveSession(userId)).toBe(false);
  });
});

describe("request bodies", () => {
  it("refuses a declared 50 MB form with 413 before reading it", async () => {
    const started = Date.now();
    // Only the headers and a few bytes are ever sent: an answer proves the body was not awaited.
    const answer = await rawRequest(app, {
      path: "/Contact-us",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(50 * 1024 * 1024), Accept: "text/html" },
      chunks: ["name=a"],
      abortAfter: 5,
    });
    expect(answer?.status).toBe(413);
    expect(answer?.body).toContain("larger than this form accepts (100 kB)");
    expect(answer?.body).toContain('<a href="/Contact-us">Back to the page</a>');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("allows an upload route its file's size but not a form route", async () => {
    const { cookie } = await borrower();
    const big = { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(3 * 1024 * 1024), Cookie: cookie };
    expect(
      (
        await rawRequest(app, {
          path: "/User/Profile/components/Selfie",
          headers: { ...big, "Content-Length": String(3 * 1024 * 1024) },
          chunks: ["--x"],
        })
      )?.status,
    ).toBe(413);
    expect(
      (
        await rawRequest(app, {
          path: "/User/Profile/components/Address",
          headers: { ...big, "Content-Length": String(200 * 1024) },
          chunks: ["--x"],
        })
      )?.status,
    ).toBe(413);
    expect(
      (
        await rawRequest(app, {
          path: "/User/Profile/components/Documents.data",
          headers: { ...big, "Content-Length": String(6 * 1024 * 1024) },
          chunks: ["--x"],
        })
      )?.status,
    ).toBe(413);
  });

  it("answers a body it stops reading half-way with 400 while the rest is still arriving, and the connection serves the next request", async () => {
    const { cookie } = await borrower();
    const tail = Array.from({ length: 20 }, () => "y".repeat(2048));
    const send = (path: string, contentType: string, head: string) =>
      rawRequest(app, {
        path,
        headers: {
          "Content-Type": contentType,
          "Content-Length": String(Buffer.byteLength(head) + tail.length * 2048),
          Cookie: cookie,
          Accept: "application/json",
        },
        chunks: [head, ...tail],
      });
    // A multipart form whose first part has no readable header: busboy gives up at once.
    const upload = await send("/User/Profile/components/Documents", "multipart/form-data; boundary=x", "--x\r\nnot a header\r\n\r\n");
    expect(upload?.status).toBe(400);
    expect(upload?.body).toContain("The upload did not arrive whole");
    // A push subscription over its 4 kB, in pieces.
    const push = await send("/api/push/subscriptions", "application/json", `{"endpoint":"${"x".repeat(5000)}`);
    expect(push?.status).toBe(400);
    expect(push?.body).toContain("at most 4 kB");

    // The same connection, kept alive, answers the next request once the rest was read.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(app.url);
    const exchange = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method: "POST",
            path: "/api/push/subscriptions",
            headers: { Origin: url.origin, Cookie: cookie, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    expect(await exchange(`{"endpoint":"${"x".repeat(20_000)}"}`)).toBe(400);
    expect(await exchange("{}")).toBe(400);
    agent.destroy();
  });

  it("refuses a body of unknown length (chunked) with 411", async () => {
    const answer = await rawRequest(app, {
      path: "/Contact-us",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
      chunks: ["name=a"],
    });
    expect(answer?.status).toBe(411);
  });

  it.each([
    ["application/json", JSON.stringify(contact), 415],
    ["text/plain", "name=Asha", 415],
    ["multipart/form-data", '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAsha\r\n--x--\r\n', 400],
    ["multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAsha', 400],
    ["multipart/form-data; boundary=x", "garbage without any boundary", 400],
  ])("answers a %s body to a form with %d and a message the page shows", async (type, body, status) => {
    const before = await contactCount();
    const res = await app.get("/Contact-us", { method: "POST", body, headers: { "Content-Type": type, Origin: originOf(app) } });
    expect(res.status).toBe(status);
    expect(await res.text()).toMatch(/could not be read|takes a web form/);
    expect(await contactCount()).toBe(before);
  });

  it("answers a null byte in any text field with 400 and stores nothing", async () => {
    const before = await contactCount();
    const res = await postForm(app, "/Contact-us", { ...contact, message: "Hello\u0000 there, a message long enough" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("hidden control character");
    expect(await contactCount()).toBe(before);

    const { cookie, userId } = await borrower();
    const address = await postForm(app, "/User/Profile/components/Address", { line1: "12\u0000 MG Road", pincode: "560001" }, { cookie });
    expect(address.status).toBe(400);
    const employment = await postForm(
      app,
      "/User/Profile/components/Employment",
      { employmentType: "salaried", employerName: "Acme\u0000" },
      { cookie },
    );
    expect(employment.status).toBe(400);
    expect(await app.services.db.select().from(borrowerAddresses).where(eq(borrowerAddresses.userId, userId))).toEqual([]);
    expect(await app.services.db.select().from(borrowerEmployment).where(eq(borrowerEmployment.userId, userId))).toEqual([]);
  });

  it("an empty POST to a form is the form's own errors, not a crash", async () => {
    const res = await app.get("/Contact-us", { method: "POST", headers: { Origin: originOf(app) } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Enter your name.");
  });
});

describe("caching", () => {
  it("marks signed-in pages, steps, signed agreements and the back office private, no-store", async () => {
    const { cookie } = await borrower();
    for (const path of ["/User/Dashboard", "/User/Profile", "/User/Profile/components/Bank", "/quickStart/Step0", "/User/Dashboard.data"]) {
      const res = await app.get(path, { headers: { Cookie: cookie } });
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
    for (const path of [
      "/admin/login",
      "/admin/presence",
      "/Eagreement/AAAAAAAAAAAAAAAAAAAAAAAAAA",
      "/success/AAAAAAAAAAAAAAAAAAAAAAAAAA",
    ]) {
      const res = await app.get(path);
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
    expect((await app.get("/About")).headers.get("cache-control") ?? "").not.toContain("no-store");
  });
});

describe("behind an HTTPS proxy", () => {
  it("with PUBLIC_URL set, accepts this site's forms although the process sees http", async () => {
    const behind = await startTestServer({ PUBLIC_URL: "https://loans.example" });
    try {
      const res = await behind.get("/Contact-us", {
        method: "POST",
        body: new URLSearchParams(contact),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://loans.example", "X-Forwarded-Proto": "https" },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/Its reference is <strong[^>]*>GRV-\d{10}</);
      const foreign = await behind.get("/Contact-us", {
        method: "POST",
        body: new URLSearchParams(contact),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(behind.url).origin },
      });
      expect(foreign.status).toBe(403);
    } finally {
      await behind.stop();
    }
  });
});

describe("the log", () => {
  it("holds no bearer link and no whole mobile number (request lines, SMS lines)", async () => {
    const { sink, text } = logSink();
    const logged = await startTestServer({ LOG_LEVEL: "info" }, { logDestination: sink });
    try {
      const ref = "KZQ3VJ7XH2Q4B6T5NMA3R2LHEQ";
      await logged.get(`/Eagreement/${ref}`);
      await logged.get(`/Eagreement/${ref}/pdf?download=1`);
      await logged.get("/User/newLoan/Emi/ABCDEFGHIJKLMNOPQRSTUVWXYZ/Step5/pdfDisplay?expires=1790000000&signature=c2lnbmF0dXJl");
      await logged.get("/admin/enrol/enrolment-token-secret");
      await postForm(logged, "/quickStart/Otp", { intent: "send", mobile: "9876512345" });
      const log = text();
      expect(log).toContain('"url":"/Eagreement/[ref]"');
      for (const secret of [ref, "c2lnbmF0dXJl", "enrolment-token-secret", "9876512345"]) expect(log, secret).not.toContain(secret);
      expect(log).toContain("XXXXXX2345");
    } finally {
      await logged.stop();
    }
  });
});

describe("keep-alive connections", () => {
  /** One request on a connection the agent keeps for the next; "no answer" after 5 s. */
  function send(agent: http.Agent, method: string, path: string, body?: Buffer, headers: Record<string, string> = {}) {
    const url = new URL(app.url);
    return new Promise<string>((resolve) => {
      const req = http.request(
        { host: url.hostname, port: url.port, method, path, agent, headers: { Origin: url.origin, ...headers } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(String(res.statusCode)));
        },
      );
      const timer = setTimeout(() => {
        resolve("no answer");
        req.destroy();
      }, 5_000);
      req.on("close", () => clearTimeout(timer));
      req.on("error", (error) => resolve(`error ${error.message}`));
      req.end(body);
    });
  }

  it("answer the next request after one answered before its body was read", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    // A 3 MB upload from someone not signed in is sent to sign-in before its body is read.
    const upload = Buffer.alloc(3_000_000, 65);
    const first = await send(agent, "POST", "/User/Profile/components/Documents", upload, {
      "Content-Type": "multipart/form-data; boundary=x",
      "Content-Length": String(upload.length),
    });
    expect(first).toBe("302");
    expect(await send(agent, "GET", "/About")).toBe("200");
    agent.destroy();
  });
});
