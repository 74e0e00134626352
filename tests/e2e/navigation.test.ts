import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedApplication } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Finding one's way: the signed-in area's sections (Dashboard, Loans, Profile, Help, notices) on a
// phone and a desktop with the grievance officer in its footer; public pages show a signed-in
// borrower the way back to their account, never "Sign in"; the public menu on a phone is a Menu
// button that opens every page, with or without JavaScript.
let app: TestServer;
let browser: Browser;
let signed: Awaited<ReturnType<typeof signedApplication>>;
let agreementRef = "";
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  signed = await signedApplication(app, "9630000001");
  agreementRef = signed.agreementRef;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function signedInContext(options = PHONE): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const at = signed.cookie.indexOf("=");
  await context.addCookies([{ name: signed.cookie.slice(0, at), value: signed.cookie.slice(at + 1), url: app.url }]);
  return context;
}

describe("the signed-in area's navigation", () => {
  for (const [size, options] of [
    ["360", PHONE],
    ["1280", { viewport: { width: 1280, height: 900 } }],
  ] as const) {
    it(`offers Dashboard, Loans, Profile, Help and notices at ${size} px, with the grievance officer below`, async () => {
      const context = await signedInContext(options);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.url}/User/Dashboard`);
      await waitForHydration(page);
      const nav = page.getByRole("navigation", { name: "Account" });
      for (const name of ["Dashboard", "Loans", "Profile", "Help"])
        await expect(nav.getByRole("link", { name }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole("link", { name: /^Notices/ }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" }).isVisible()).resolves.toBe(true);
      const footer = page.getByRole("contentinfo");
      await expect(footer.textContent()).resolves.toMatch(/Grievance officer.*A\. Demo/);
      await expect(footer.getByRole("link", { name: "Raise a ticket" }).isVisible()).resolves.toBe(true);
      expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `user-dashboard-${size}`);

      for (const [name, path] of [
        ["Loans", "/User/Loans"],
        ["Profile", "/User/Profile"],
        ["Help", "/User/Help"],
      ] as const) {
        await nav.getByRole("link", { name }).click();
        await page.waitForURL(`${app.url}${path}`);
        await expect.poll(() => nav.getByRole("link", { name }).getAttribute("aria-current")).toBe("page");
        expect(await widerThanScreen(page), path).toBeLessThanOrEqual(0);
        await screenshot(page, `user-${name.toLowerCase()}-${size}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("public pages show a signed-in borrower the way back to their account, not 'Sign in'", async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    for (const path of ["/", "/quickStart", "/About", `/success/${signed.ref}`, `/Eagreement/${agreementRef}`]) {
      await page.goto(app.url + path);
      await waitForHydration(page);
      const account = page.getByRole("banner").getByRole("link", { name: "Account" });
      await expect(account.isVisible(), path).resolves.toBe(true);
      await expect(account.getAttribute("href")).resolves.toBe("/User/Dashboard");
      expect(await page.getByRole("link", { name: "Sign in", exact: true }).count(), path).toBe(0);
    }
    await context.close();
    // Signed out, the same pages offer "Sign in".
    const anonymous = await browser.newContext(PHONE);
    const visitor = await anonymous.newPage();
    await visitor.goto(`${app.url}/About`);
    await expect(visitor.getByRole("banner").getByRole("link", { name: "Sign in" }).isVisible()).resolves.toBe(true);
    await anonymous.close();
  });
});

describe("trust markers", () => {
  it("names the lender, its RBI registration and the grievance officer beside every form that takes personal data", async () => {
    const anonymous = await browser.newContext(PHONE);
    const visitor = await anonymous.newPage();
    for (const path of ["/Contact-us", "/quickStart/Otp"]) {
      await visitor.goto(app.url + path);
      await expect(visitor.getByTestId("lender-note").textContent(), path).resolves.toMatch(
        /registered with the RBI \(N-00\.00000 \(demo\)\)\. Complaints: grievance officer A\. Demo/,
      );
    }
    await anonymous.close();
    const context = await signedInContext();
    const page = await context.newPage();
    for (const path of ["/quickStart/Step1", "/User/Profile/components/Bank", "/User/Help/new", `/User/newLoan/Emi/${signed.ref}/Step7`]) {
      await page.goto(app.url + path);
      await expect(page.getByTestId("lender-note").first().textContent(), path).resolves.toContain("registered with the RBI");
    }
    // A drawing, not a stock photo: inline, and hidden from screen readers.
    await page.goto(app.url + "/");
    const drawing = page.locator("#main svg[aria-hidden=true]").first();
    await expect(drawing.isVisible()).resolves.toBe(true);
    await context.close();
  });
});

describe("the public menu on a phone", () => {
  it("is a Menu button that shows every page and closes after one is chosen", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/`);
    await waitForHydration(page);
    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main.getByRole("link", { name: "Contact" }).isVisible()).resolves.toBe(false);
    await main.locator("summary", { hasText: "Menu" }).click();
    for (const name of ["Home", "EMI calculator", "Rates", "About us", "Contact"])
      await expect(main.getByRole("link", { name }).isVisible(), name).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "public-menu-open-360");
    await main.getByRole("link", { name: "Contact" }).click();
    await page.waitForURL(`${app.url}/Contact-us`);
    await expect(main.getByRole("link", { name: "Contact" }).isVisible()).resolves.toBe(false);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("opens without JavaScript", async () => {
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/About`);
    const main = page.getByRole("navigation", { name: "Main" });
    await main.locator("summary", { hasText: "Menu" }).click();
    await main.getByRole("link", { name: "Rates" }).click();
    await page.waitForURL(`${app.url}/Rate-terms`);
    await context.close();
  });
});
