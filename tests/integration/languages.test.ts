import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedback, users } from "../../app/server/db/schema.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { englishLeft, shownMarkup } from "../helpers/english.ts";
import { originOf, postForm } from "../helpers/http.ts";
import { startTestServer, TEST_DATABASE_URL, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";
import { PUBLIC_PAGES } from "../../scripts/public-pages.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

const html = async (res: Response) => (await res.text()).replace(/<!-- -->/g, "");
const has = (page: string, text: string) => expect(page.includes(text), `the page shows "${text}"`).toBe(true);

/** What a Hindi page may show in Latin letters besides the kept terms: the configured names and addresses. */
function configValues(): string[] {
  const { brandName, lender } = app.config.public;
  return [
    brandName,
    lender.name,
    lender.address,
    lender.rbiRegistration,
    lender.cin,
    lender.grievanceOfficer.name,
    lender.grievanceOfficer.phone,
    lender.grievanceOfficer.email,
  ];
}

/** The public pages built in Hindi so far, each with Accept-Language and with the cookie. */
const HINDI_PUBLIC_PAGES = [
  ...PUBLIC_PAGES,
  "/homeComponents/component",
  "/homeComponents/top",
  "/homeComponents/choose",
  "/homeComponents/loanProcess",
  "/homeComponents/feedback",
  "/homeComponents/apk",
  "/EmiCalculator?amount=250000&tenure=24&rate=14",
  "/no-such-page",
  "/Eagreement/aaaaaaaaaaaaaaaaaaaaaaaaaa/pdf",
];

/** What borrowers wrote, published on the home page as written. */
async function publishedFeedback(): Promise<string[]> {
  const rows = await app.services.db.select().from(feedback).where(eq(feedback.published, true));
  return rows.flatMap((row) => [row.body, row.authorName, row.city]);
}

describe(`the visitor's language (${TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, { shuffle: false }, () => {
  it("answers in Hindi when the browser prefers it, in English otherwise, and says which", async () => {
    const hi = await app.get("/About", { headers: { "Accept-Language": "hi-IN,hi;q=0.9,en-IN;q=0.8" } });
    expect(hi.status).toBe(200);
    expect(hi.headers.get("content-language")).toBe("hi-IN");
    expect(hi.headers.get("vary")).toMatch(/Accept-Language/);
    const hiPage = await html(hi);
    has(hiPage, '<html lang="hi-IN"');
    has(hiPage, "हमारे बारे में");
    has(hiPage, "सीधे मुख्य भाग पर जाएँ");
    // The switch offers the other language, named in it.
    has(hiPage, 'lang="en-IN"');

    for (const accept of [undefined, "en-GB,en;q=0.9", "ta-IN", "fr, hi;q=0"]) {
      const res = await app.get("/About", accept ? { headers: { "Accept-Language": accept } } : {});
      const page = await html(res);
      expect(res.headers.get("content-language"), accept).toBe("en-IN");
      has(page, '<html lang="en-IN"');
      has(page, "About us");
      expect(page.includes("हमारे बारे में"), accept).toBe(false);
    }
  });

  it("keeps one copy of each cached page per language: both served from the cache, neither in the other's words", async () => {
    const get = (headers: Record<string, string>) => app.get("/About", { headers });
    const en1 = await get({});
    const hi1 = await get({ "Accept-Language": "hi" });
    const hiCookie = await get({ Cookie: "lang=hi" });
    const en2 = await get({ Cookie: "lang=en", "Accept-Language": "hi" });
    for (const res of [en1, hi1, hiCookie, en2]) {
      // Served from the cache: an ETag, and no nonce in the policy.
      expect(res.headers.get("etag")).toBeTruthy();
      expect(res.headers.get("content-security-policy")).not.toContain("nonce-");
    }
    expect(hi1.headers.get("etag")).toBe(hiCookie.headers.get("etag"));
    expect(en1.headers.get("etag")).toBe(en2.headers.get("etag"));
    expect(hi1.headers.get("etag")).not.toBe(en1.headers.get("etag"));
    has(await html(hiCookie), "हमारे बारे में");
    expect((await html(en2)).includes("हमारे बारे में")).toBe(false);
    expect(hi1.headers.get("vary")).toMatch(/Accept-Language/);
  });

  it("switches with the header's form: the cookie for a year, back to the same page, and the same twice is the same", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await postForm(app, "/language", { lang: "hi", returnTo: "/About?x=1" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/About?x=1");
      const cookie = res.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(/^lang=hi; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly/);
    }
    const back = await postForm(app, "/language", { lang: "en", returnTo: "/" });
    expect(back.headers.get("set-cookie")).toMatch(/^lang=en;/);
  });

  it("goes back only to a page of this site, and refuses what is not a language or not from this site", async () => {
    for (const returnTo of [
      "//evil.example/x",
      "https://evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      "/a b",
      "x".repeat(3000),
    ]) {
      const res = await postForm(app, "/language", { lang: "hi", returnTo });
      expect(res.status, returnTo).toBe(302);
      expect(res.headers.get("location"), returnTo).toBe("/");
    }
    const bad = await postForm(app, "/language", { lang: "fr", returnTo: "/" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("set-cookie")).toBeNull();
    // Another site's form: refused before it sets anything.
    const foreign = await app.get("/language", {
      method: "POST",
      body: new URLSearchParams({ lang: "hi", returnTo: "/" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("set-cookie")).toBeNull();
    expect(originOf(app)).not.toBe("https://evil.example");
  });

  it("remembers a signed-in borrower's language on the account, for messages; staff accounts and pages stay English", async () => {
    const borrower = await signedInBorrower(app, "9811177001");
    const res = await postForm(app, "/language", { lang: "hi", returnTo: "/User/Dashboard" }, { cookie: borrower.cookie });
    expect(res.status).toBe(302);
    const [row] = await app.services.db.select({ language: users.language }).from(users).where(eq(users.id, borrower.userId));
    expect(row?.language).toBe("hi");
    await postForm(app, "/language", { lang: "en", returnTo: "/" }, { cookie: borrower.cookie });
    const [after] = await app.services.db.select({ language: users.language }).from(users).where(eq(users.id, borrower.userId));
    expect(after?.language).toBe("en");

    const staff = await signedInStaff(app, "operations", "Lang Staff");
    await postForm(app, "/language", { lang: "hi", returnTo: "/admin" }, { cookie: staff.cookie });
    const [staffRow] = await app.services.db.select({ language: users.language }).from(users).where(eq(users.id, staff.userId));
    expect(staffRow?.language).toBe("en");
    const admin = await app.get("/admin", { headers: { Cookie: `${staff.cookie}; lang=hi`, "Accept-Language": "hi" } });
    expect(admin.status).toBe(200);
    const adminPage = await html(admin);
    has(adminPage, '<html lang="en-IN"');
    expect(admin.headers.get("content-language")).toBe("en-IN");
    expect(/[\u0900-\u097F]/.test(shownMarkup(adminPage))).toBe(false);
  });

  it("shows no English sentence on the public pages built in Hindi", async () => {
    for (const path of HINDI_PUBLIC_PAGES) {
      for (const headers of [{ "Accept-Language": "hi" }, { Cookie: "lang=hi" }] as Record<string, string>[]) {
        const res = await app.get(path, { headers });
        const page = await html(res);
        has(page, '<html lang="hi-IN"');
        expect(englishLeft(page, [...configValues(), ...(await publishedFeedback())]), `${path} in Hindi`).toEqual([]);
      }
    }
  });
});
