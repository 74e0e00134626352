import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { loanAccounts, loanApplications } from "../../app/server/db/schema.ts";
import { syncCases } from "../../app/server/collections/cases.server.ts";
import { businessToday } from "../../app/server/loan-account/account.server.ts";
import { activeLoan, approvedApplication, signedApplication, signedInStaff } from "../helpers/applications.ts";
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
let ops: { cookie: string };
let credit: { cookie: string };
const SHOTS = "/tmp/issue35-shots";
mkdirSync(SHOTS, { recursive: true });

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }), launchBrowser()]);
  admin = await signedInStaff(app, "admin", "Anil Mehta");
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
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
        "/admin/collections/rules",
        "/admin/autopay",
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

  it("collections: in the operations menu (not the credit officer's), counted on the staff home, opening on the first bucket with a loan", async () => {
    // The loan goes 40 days past due: SMA-1, while SMA-0 is empty.
    const [row] = await app.services.db
      .select({ id: loanApplications.id })
      .from(loanApplications)
      .where(eq(loanApplications.loanNumber, loan.loanNumber));
    await app.services.db
      .update(loanAccounts)
      .set({ dpd: 40, overduePaise: sql`greatest(${loanAccounts.overduePaise}, 100000)` })
      .where(eq(loanAccounts.applicationId, row?.id ?? ""));
    // Its collections case, as the app opens one with every change of a loan's figures (the queue lists cases).
    await syncCases(app.services, { today: businessToday(app.services), applicationIds: [row?.id ?? ""] });
    for (const [label, viewport] of [
      ["1280", { viewport: { width: 1280, height: 900 } }],
      ["360", PHONE],
    ] as const) {
      const { page, errors, context } = await open("/admin", viewport, ops.cookie);
      const tile = page.getByRole("link", { name: /Loans overdue, in collections/ });
      expect(await tile.textContent()).toMatch(/^1\D/);
      await page.screenshot({ path: `${SHOTS}/admin-home-${label}.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Collections" }).click();
      await page.waitForURL(/\/admin\/collections$/);
      await page.getByRole("link", { name: loan.loanNumber }).waitFor();
      expect(await page.locator('[aria-current="page"]').filter({ hasText: "SMA-1" }).count()).toBe(1);
      await page.screenshot({ path: `${SHOTS}/collections-${label}.png`, fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(wider).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
      await context.close();
    }
    const officer = await open("/admin", {}, credit.cookie);
    expect(await officer.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Collections" }).count()).toBe(0);
    expect(await officer.page.getByText("Loans overdue, in collections").count()).toBe(0);
    await officer.context.close();
  }, 90_000);

  it("disburses only after a confirmation that names the amount and the account, without JavaScript", async () => {
    const approved = await approvedApplication(app, "9400000403", credit, { name: "Sunita Rao" });
    const { page, context } = await open(`/admin/applications/${approved.ref}`, { ...PHONE, javaScriptEnabled: false }, ops.cookie);
    await page.getByTestId("disburse").click();
    const step = page.getByTestId("disburse-confirmation");
    await step.waitFor();
    const text = (await step.textContent()) ?? "";
    expect(text).toMatch(/Amount \(net\)₹[\d,]+/);
    expect(text).toMatch(/To the accountX+\d{4}/);
    await page.screenshot({ path: `${SHOTS}/disburse-confirm-360.png`, fullPage: false });
    // The same step with JavaScript (axe runs in the page) passes axe.
    const withJs = await open(`/admin/applications/${approved.ref}?disburse=confirm`, PHONE, ops.cookie);
    await withJs.page.getByTestId("disburse-confirmation").waitFor();
    expect(await axeViolations(withJs.page)).toEqual([]);
    await withJs.context.close();
    const [before] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, approved.ref));
    expect(before?.status).toBe("approved");
    await step.getByRole("button", { name: /^Yes, pay ₹/ }).click();
    await page.getByText("Payout requested").first().waitFor({ timeout: 10_000 });
    await context.close();
  }, 90_000);

  it("the borrower's header keeps Sign out on the first line at 360 px with unread notices; the loan kinds list", async () => {
    const { page, errors, context } = await open("/User/Loans/Emi", PHONE, loan.cookie);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Your EMI loans");
    await page.getByRole("link", { name: new RegExp(loan.loanNumber) }).waitFor();
    expect(Number(await page.locator("[data-unread]").getAttribute("data-unread"))).toBeGreaterThan(0);
    const bell = await page.getByRole("link", { name: /^Notices/ }).boundingBox();
    const signOut = await page.getByRole("button", { name: "Sign out" }).boundingBox();
    expect(Math.abs((bell?.y ?? 0) - (signOut?.y ?? 999))).toBeLessThan(8);
    expect((signOut?.height ?? 99) < 50).toBe(true);
    await page.screenshot({ path: `${SHOTS}/user-loans-emi-360.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
