import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchBrowser, PHONE, waitForHydration, watchErrors } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const PUBLIC_ROUTES: Array<[string, RegExp]> = [
  ["/", /Personal loans and salary advances/],
  ["/About", /About/],
  ["/Contact-us", /Contact us/],
  ["/grievance-policy", /Grievance/],
  ["/privacy-policy", /Privacy/],
  ["/terms-and-conditions", /Terms/],
  ["/ClearCache", /Clear this site/],
  ["/homeComponents/top", /Personal loans/],
  ["/homeComponents/choose", /Why choose us/],
  ["/homeComponents/loanProcess", /How a loan works/],
  ["/homeComponents/feedback", /What borrowers say/],
  ["/homeComponents/apk", /Install the app/],
  ["/homeComponents/calculator", /EMI calculator/],
  ["/EmiCalculator", /EMI calculator/],
  ["/Rate-terms", /Rates, fees and terms/],
  ["/homeComponents/component", /Personal loans/],
  ["/quickStart", /Quick start/],
];

describe("public pages in Chromium", () => {
  it.each(PUBLIC_ROUTES)("%s renders on the server with JavaScript off", async (pathname, heading) => {
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(app.url + pathname);
    expect(res?.status()).toBe(200);
    await expect(page.locator("h1").textContent()).resolves.toMatch(heading);
    expect(await page.title()).not.toBe("");
    // Nothing overflows a 360 px screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  });

  it.each(PUBLIC_ROUTES)("%s hydrates without a console error and passes axe-core", async (pathname) => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(app.url + pathname);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("home at 360 px: the figures stay inside their cards, and no greyed Install button before the browser offers to install", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(app.url + "/");
    await waitForHydration(page);
    const spill = await page.evaluate(() =>
      [...document.querySelectorAll("dl .card dd")]
        .filter(
          (dd) =>
            dd.scrollWidth > dd.clientWidth + 1 || dd.getBoundingClientRect().right > dd.closest(".card")!.getBoundingClientRect().right,
        )
        .map((dd) => dd.textContent),
    );
    expect(spill).toEqual([]);
    expect(await page.getByText(/up to ₹/).count()).toBeGreaterThan(0);
    // Headless Chromium offers no install (no beforeinstallprompt): no button, the steps say how.
    expect(await page.getByRole("button", { name: "Install the app" }).count()).toBe(0);
    await page.getByText("tap Share and then “Add to Home Screen”", { exact: false }).waitFor();
    await page.screenshot({ path: "/tmp/issue35-shots/home-360.png", fullPage: true });
    expect(await (await page.request.get(app.url + "/favicon.ico")).status()).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the not-found texts with status 404", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);
    const res = await page.goto(`${app.url}/no/such/page`);
    expect(res?.status()).toBe(404);
    await expect(page.locator("h1").textContent()).resolves.toBe("Page not found: /no/such/page");
    expect(await axeViolations(page)).toEqual([]);
    // Client-side navigation to an unknown path shows the same text.
    await page.goto(app.url + "/");
    await waitForHydration(page);
    await page.evaluate(() =>
      (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate(
        "/somewhere-else",
      ),
    );
    await page.locator("h1", { hasText: "Page not found: /somewhere-else" }).waitFor();
    // The browser logs the 404 answers themselves; nothing else may fail.
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
    await context.close();
  });

  it("moves between pages on the client, the loading bar stays 3 px high", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(app.url + "/");
    await waitForHydration(page);
    const bar = page.getByTestId("loading-bar");
    expect(await bar.evaluate((el) => getComputedStyle(el).height)).toBe("3px");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" }).click();
    await page.waitForURL(/Contact-us$/);
    await page.locator("h1", { hasText: "Contact us" }).waitFor();
    await context.close();
  });
});

describe("confirm dialog and toasts", () => {
  it("ClearCache asks first; cancel keeps the data, confirm clears it and says what it cleared", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(app.url + "/ClearCache");
    await waitForHydration(page);
    await page.evaluate(() => {
      localStorage.setItem("device_id", "abc");
      sessionStorage.setItem("x", "1");
      document.cookie = "visible=1; path=/";
    });

    await page.getByRole("button", { name: "Clear data on this device" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => localStorage.getItem("device_id"))).toBe("abc");

    await page.getByRole("button", { name: "Clear data on this device" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Clear data" }).click();
    const report = page.getByRole("status").filter({ hasText: "Here is what was cleared" });
    await report.waitFor();
    await expect(report.textContent()).resolves.toContain("Local storage: 1 item(s)");
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, ""]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("ClearCache works without JavaScript through Clear-Site-Data", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(app.url + "/ClearCache");
    await page.getByRole("button", { name: "Clear data on this device" }).click();
    await page.waitForURL(/cleared=1/);
    await expect(page.getByRole("status").textContent()).resolves.toContain("asked to clear");
    await context.close();
  });

  it("the contact form shows field errors as you go and the ticket's reference after sending", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    // The checks arrive late (a slow network): a field left before they came is checked when they do.
    let checksAsked = 0;
    await page.route("**/assets/zod-form-*.js", async (route) => {
      checksAsked++;
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto(app.url + "/Contact-us");
    await waitForHydration(page);
    // The checks (Conform's Zod adapter, Zod, the form's schema) are not downloaded until the form is used.
    const beforeUse = scripts.length;
    expect(checksAsked).toBe(0);
    await page.getByLabel("Mobile number").fill("12345");
    await page.getByLabel("Your name").focus();
    await expect.poll(() => checksAsked).toBe(1);
    await page.getByText("Enter a valid 10-digit Indian mobile number").waitFor();
    expect(scripts.slice(beforeUse).length, "modules loaded on first use").toBeGreaterThan(1);
    await page.getByLabel("Your name").fill("Ravi Kumar");
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByLabel("E-mail").fill("ravi@example.com");
    await page.getByLabel("Message").fill("I would like to know about the salary advance.");
    await page.getByRole("button", { name: "Send message" }).click();
    const sent = page.getByTestId("contact-sent");
    await sent.waitFor();
    expect(await sent.textContent()).toMatch(/Its reference is GRV-\d{10}\. Quote it .*e-mailed it to ravi@example\.com/);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the contact form works without JavaScript: errors next to fields, then the reference", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(app.url + "/Contact-us");
    await page.getByLabel("Your name").fill("Ravi Kumar");
    await page.getByLabel("Mobile number").fill("555");
    await page.getByRole("button", { name: "Send message" }).click();
    await page.getByText("Enter a valid 10-digit Indian mobile number").waitFor();
    expect(await page.getByLabel("Your name").inputValue()).toBe("Ravi Kumar");
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByLabel("E-mail").fill("ravi@example.com");
    await page.getByLabel("Message").fill("Please call me about an EMI loan.");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByTestId("contact-sent").textContent()).resolves.toMatch(/Thank you\. We have your message\..*GRV-\d{10}/);
    await context.close();
  });
});

describe("EMI calculator in the browser", () => {
  it("updates the results and the URL as the inputs move, matching the API", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/EmiCalculator?amount=100&rate=12&months=6`);
    await waitForHydration(page);
    await expect(page.getByTestId("emi").textContent()).resolves.toBe("₹17.25");
    await page.getByLabel("Loan amount (₹)", { exact: true }).fill("250000");
    await page.waitForURL(/amount=250000/);
    const api = await (await app.get("/api/emi?amount=250000&rate=12&months=6")).json();
    const expected = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 2 }).format(
      api.emiPaise / 100,
    );
    await expect(page.getByTestId("emi").textContent()).resolves.toBe(expected);
    await page.getByLabel("Tenure (months) slider").focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForURL(/months=7/);
    await expect(page.getByTestId("prepay-result").textContent()).resolves.toMatch(/save ₹/);
    await page.getByLabel("Interest rate (% a year)", { exact: true }).fill("150");
    await page.getByText("Interest rate must be between 0% and 100% a year.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("works as a plain GET form without JavaScript", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/EmiCalculator`);
    await page.getByLabel("Loan amount (₹)", { exact: true }).fill("100");
    await page.getByLabel("Interest rate (% a year)", { exact: true }).fill("12");
    await page.getByLabel("Tenure (months)", { exact: true }).fill("6");
    await page.getByLabel("Processing fee with GST (₹, optional)").fill("");
    await page.getByRole("button", { name: "Calculate" }).click();
    await page.waitForURL(/amount=100&rate=12&months=6/);
    await expect(page.getByTestId("emi").textContent()).resolves.toBe("₹17.25");
    await context.close();
  });
});
