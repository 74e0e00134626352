import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The EMI calculator as a person uses it: the fee follows our product's rule for the amount chosen
// until a fee is typed, so the APR is the real one; an error hides the figures it would make stale;
// on a phone the monthly table fits the screen.
let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const apiApr = async (query: string) =>
  `${((await (await app.get(`/api/emi?${query}`)).json()) as { aprPercent: number }).aprPercent.toFixed(2)}%`;

describe("the EMI calculator", () => {
  it("charges our fee for the amount chosen until one is typed, so the APR is the real one", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/EmiCalculator`);
    await waitForHydration(page);
    await expect(page.getByTestId("fee-hint").textContent()).resolves.toContain("our own fee for this amount is used: ₹2,360");
    await page.getByLabel("Loan amount (₹)", { exact: true }).fill("500000");
    await page.getByLabel("Tenure (months)", { exact: true }).fill("36");
    await page.waitForURL(/amount=500000&rate=18&months=36$/);
    // 2% of ₹5,00,000 = ₹10,000, plus 18% GST = ₹11,800 (not the ₹2,360 of the example amount).
    await expect(page.getByTestId("fee-hint").textContent()).resolves.toContain("₹11,800");
    await expect(page.getByTestId("net").textContent()).resolves.toBe("₹4,88,200");
    const apr = await page.getByTestId("apr").textContent();
    expect(apr).toBe(await apiApr("amount=500000&rate=18&months=36&fee=11800"));
    expect(apr).not.toBe("18.34%");

    // A fee typed stays what it is when the amount moves.
    await page.getByLabel("Processing fee with GST (₹, optional)").fill("0");
    await page.getByLabel("Loan amount (₹)", { exact: true }).fill("300000");
    await expect.poll(() => page.getByTestId("apr").textContent()).toBe(await apiApr("amount=300000&rate=18&months=36&fee=0"));
    await expect(page.getByLabel("Processing fee with GST (₹, optional)").inputValue()).resolves.toBe("0");
    await expect(page.getByTestId("fee-hint").textContent()).resolves.toContain("The fee you typed.");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("hides the figures while a field is wrong, instead of showing stale ones beside the error", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${app.url}/EmiCalculator`);
    await waitForHydration(page);
    await page.getByTestId("emi").waitFor();
    await page.getByLabel("Loan amount (₹)", { exact: true }).fill("");
    await page.getByText("Amount is missing.").waitFor();
    await page.getByTestId("calc-invalid").waitFor();
    expect(await page.getByTestId("emi").count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Repayment schedule" }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Loan amount (₹)", { exact: true }).fill("100000");
    await page.getByTestId("emi").waitFor();
    // The same from the server, for an address with a wrong figure.
    await page.goto(`${app.url}/EmiCalculator?amount=&rate=12&months=6`);
    await page.getByText("Amount is missing.").waitFor();
    expect(await page.getByTestId("emi").count()).toBe(0);
    await context.close();
  });

  it("fits the monthly schedule on a 360 px phone", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${app.url}/EmiCalculator?amount=500000&rate=24&months=12`);
    await waitForHydration(page);
    const monthly = page.getByRole("region", { name: "Repayments by month" });
    await monthly.getByRole("columnheader", { name: "Balance (₹)" }).waitFor();
    const overflow = await monthly.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow, "the monthly table is wider than its box").toBeLessThanOrEqual(0);
    const balance = await monthly.getByRole("columnheader", { name: "Balance (₹)" }).boundingBox();
    expect((balance?.x ?? 0) + (balance?.width ?? 0)).toBeLessThanOrEqual(360);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "calculator-360");
    await context.close();
  });

  it("shows no figures for new inputs until its check has loaded, and offers Calculate when it cannot load", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    // The check arrives late: meanwhile the figures of the first inputs are not shown beside new ones.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/calculator-input-*.js", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${app.url}/EmiCalculator?amount=100000&rate=12&months=12`);
    await waitForHydration(page);
    const emiBefore = await page.getByTestId("emi").textContent();
    await page.getByLabel("Loan amount (₹)", { exact: true }).fill("250000");
    await page.getByTestId("calc-pending").getByText("Working out the figures…").waitFor();
    expect(await page.getByTestId("emi").count()).toBe(0);
    release();
    await page.getByTestId("emi").waitFor();
    const api = (await (await app.get("/api/emi?amount=250000&rate=12&months=12&fee=5900")).json()) as { emiPaise: number };
    const expected = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 2 }).format(
      api.emiPaise / 100,
    );
    await expect(page.getByTestId("emi").textContent()).resolves.toBe(expected);
    expect(expected).not.toBe(emiBefore);
    await context.close();

    // The check cannot be loaded at all (offline): Calculate sends the form and the server answers.
    const offline = await browser.newContext(PHONE);
    const again = await offline.newPage();
    await again.route("**/assets/calculator-input-*.js", (route) => route.abort());
    await again.goto(`${app.url}/EmiCalculator?amount=100000&rate=12&months=12`);
    await waitForHydration(again);
    await again.getByLabel("Loan amount (₹)", { exact: true }).fill("250000");
    await again.getByText("Press Calculate to see the figures for these inputs.").waitFor();
    await again.getByRole("button", { name: "Calculate" }).click();
    await again.getByTestId("emi").waitFor();
    expect(new URL(again.url()).searchParams.get("amount")?.replace(/\D/g, "")).toBe("250000");
    await expect(again.getByTestId("emi").textContent()).resolves.toBe(expected);
    await offline.close();
  });

  it("keeps its figures when the page it is on is loaded again by a link, before anything is typed", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    let checkRequested = false;
    await page.route("**/assets/calculator-input-*.js", async (route) => {
      checkRequested = true;
      await route.continue();
    });
    await page.goto(`${app.url}/`);
    await waitForHydration(page);
    const emi = await page.getByTestId("emi").textContent();
    // The logo's link to the home page: the same page's data again, equal but new.
    const reloaded = page.waitForResponse((response) => response.url().includes(".data"));
    await page
      .getByRole("link", { name: /Sugam Loans home/i })
      .first()
      .click();
    await reloaded;
    await expect(page.getByTestId("emi").textContent()).resolves.toBe(emi);
    expect(await page.getByTestId("calc-pending").count()).toBe(0);
    expect(checkRequested, "nothing was typed: the check is not needed").toBe(false);
    await context.close();
  });
});
