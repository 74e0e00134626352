import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeLoan, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, waitForHydration, watchErrors } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Borrower search, the borrower page, the audit log and staff accounts in Chromium: axe clean on a
// desktop and a 360 px phone, nothing wider than the phone's screen, and the search and the
// invitation working as plain forms and with JavaScript.
let app: TestServer;
let browser: Browser;
let admin: { cookie: string };
let borrowerId = "";
let loan: { loanNumber: string; cookie: string };

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }), launchBrowser()]);
  admin = await signedInStaff(app, "admin", "Anil Mehta");
  const credit = await signedInStaff(app, "credit", "Asha Rao");
  const ops = await signedInStaff(app, "operations", "Omar Shaikh");
  const b = await signedApplication(app, "9400000401", { name: "Kavya Menon" });
  borrowerId = b.userId;
  loan = await activeLoan(app, "9400000402", credit, ops, { name: "Ravi Kumar" });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function open(path: string, options: Parameters<Browser["newContext"]>[0] = {}, cookie = admin.cookie) {
  const context = await browser.newContext(options);
  const at = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: app.url }]);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(app.url + path);
  if (options.javaScriptEnabled !== false) await waitForHydration(page);
  return { page, errors, context };
}

describe("back-office pages in the browser", () => {
  for (const [label, viewport] of [
    ["desktop", { viewport: { width: 1280, height: 900 } }],
    ["phone", PHONE],
  ] as const) {
    it(`borrowers, a borrower, the audit log, staff accounts, products, holidays and the credit policy pass axe on a ${label}`, async () => {
      for (const path of [
        "/admin/borrowers?q=kavya",
        `/admin/borrowers/${borrowerId}`,
        "/admin/audit",
        "/admin/staff",
        "/admin/products",
        "/admin/holidays",
        `/admin/loans/${loan.loanNumber}`,
        "/admin/collections",
        "/admin/policy",
      ]) {
        const { page, errors, context } = await open(path, viewport);
        expect(await axeViolations(page), path).toEqual([]);
        const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(wider, `${path} is wider than the screen`).toBeLessThanOrEqual(0);
        expect(errors, path).toEqual([]);
        await context.close();
      }
    }, 90_000);

    it(`the borrower's loans and loan page pass axe on a ${label}, nothing wider than the screen`, async () => {
      for (const path of ["/User/Loans", `/User/Loans/Emi/${loan.loanNumber}`, `/User/Loans/Emi/${loan.loanNumber}?on=2099-01-01`]) {
        const { page, errors, context } = await open(path, viewport, loan.cookie);
        expect(await axeViolations(page), path).toEqual([]);
        const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(wider, `${path} is wider than the screen`).toBeLessThanOrEqual(0);
        expect(errors, path).toEqual([]);
        await context.close();
      }
    }, 60_000);
  }

  it("searches for a borrower and invites a colleague, with JavaScript", async () => {
    const { page, context } = await open("/admin/borrowers");
    await page.getByLabel("Search").fill("Kavya");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: "Kavya Menon" }).click();
    await page.getByRole("heading", { name: "Kavya Menon" }).waitFor();
    await page.goto(`${app.url}/admin/staff`);
    await waitForHydration(page);
    await page.getByLabel("Name").fill("Priya Nair");
    await page.getByLabel("Work e-mail").fill("priya@lender.example");
    await page.getByLabel("Role", { exact: true }).selectOption("operations");
    await page.getByRole("button", { name: "Create the link" }).click();
    await expect.poll(() => page.getByTestId("enrol-link").textContent()).toMatch(/\/admin\/enrol\/[\w-]{20,}/);
    await context.close();
  }, 60_000);

  it("searches with JavaScript off", async () => {
    const { page, context } = await open("/admin/borrowers", { javaScriptEnabled: false });
    await page.getByLabel("Search").fill("9400000401");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: "Kavya Menon" }).waitFor();
    await context.close();
  }, 60_000);
});
