import { readFileSync } from "node:fs";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthLabel } from "../../app/domain/books/reports.ts";
import { signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The finance pages in Chromium (docs/product.md "The lender's books"), as finance on a demo
// installation whose books are posted: the trial balance, an account's ledger, a CSV downloaded,
// the Tally file read by the browser's XML parser, a month closed; axe clean on every page, and
// nothing wider than a 360 px phone.
let app: TestServer;
let browser: Browser;
let finance: { cookie: string };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ SEED_DEMO_LOANS: "true" }), launchBrowser()]);
  finance = await signedInStaff(app, "finance", "Farah Iyer");
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function open(path: string, options: BrowserContextOptions = DESKTOP) {
  const context = await browser.newContext({ ...options, acceptDownloads: true });
  const at = finance.cookie.indexOf("=");
  await context.addCookies([{ name: finance.cookie.slice(0, at), value: finance.cookie.slice(at + 1), url: app.url }]);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(app.url + path);
  await waitForHydration(page);
  return { page, errors, context };
}

async function clean(page: Page, name: string) {
  expect(await axeViolations(page), name).toEqual([]);
  expect(await widerThanScreen(page), `${name} is wider than the screen`).toBeLessThanOrEqual(0);
}

describe("the finance pages in the browser", () => {
  it("trial balance, an account's ledger, a CSV downloaded and a month closed, axe clean throughout", async () => {
    const { page, errors, context } = await open("/admin/books");
    await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Books" }).waitFor();
    await expect(page.getByTestId("trial-balance-agree").textContent()).resolves.toMatch(/the debits and the credits agree: ₹[\d,.]+ each/);
    await clean(page, "trial balance");
    await screenshot(page, "books-trial-balance-1280");

    // Into an account: its ledger for the month to date, from the trial balance.
    await page.getByRole("link", { name: "Loans receivable (principal)" }).click();
    await page.waitForURL(/\/admin\/books\/accounts\/loans_receivable\?from=/);
    await page.getByRole("heading", { level: 1, name: "1101 Loans receivable (principal)" }).waitFor();
    await clean(page, "ledger");
    // The ledger since the books began: the disbursal's line is there.
    await page.getByLabel("From", { exact: true }).fill("2020-01-01");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/from=2020-01-01/);
    await expect(page.getByTestId("ledger-line").first().textContent()).resolves.toContain("disbursal");
    await clean(page, "ledger since 2020");
    await screenshot(page, "books-ledger-1280");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("ledger-csv").click()]);
    expect(download.suggestedFilename()).toMatch(/^ledger-1101-2020-01-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), "utf8");
    expect(csv.split("\r\n")[0]).toBe("entry_date,entry_no,kind,narration,loan_number,provider_ref,debit,credit,balance,balance_side");
    expect(csv).toMatch(/\r\n\d{4}-\d{2}-\d{2},\d+,disbursal,/);

    // The journal, and its Tally file through the browser's own XML parser.
    await page.goto(`${app.url}/admin/books/journal`);
    await waitForHydration(page);
    await page.getByTestId("journal-entry").first().waitFor();
    await clean(page, "journal");
    const tally = await page.evaluate(async () => {
      const xml = await (await fetch("/admin/books/journal.xml")).text();
      const doc = new DOMParser().parseFromString(xml, "application/xml");
      const vouchers = [...doc.querySelectorAll("ENVELOPE > BODY > IMPORTDATA > REQUESTDATA > TALLYMESSAGE > VOUCHER")];
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        vouchers: vouchers.length,
        unbalanced: vouchers.filter(
          (v) =>
            [...v.querySelectorAll("ALLLEDGERENTRIES\\.LIST > AMOUNT")].reduce((s, a) => s + Math.round(Number(a.textContent) * 100), 0) !==
            0,
        ).length,
      };
    });
    expect(tally.error).toBeNull();
    expect(tally.vouchers).toBeGreaterThan(0);
    expect(tally.unbalanced).toBe(0);

    for (const path of ["/admin/books/portfolio", "/admin/books/income", "/admin/books/rules"]) {
      await page.goto(app.url + path);
      await waitForHydration(page);
      await clean(page, path);
    }

    // The first month of the books, closed with a note.
    await page.goto(`${app.url}/admin/books/periods`);
    await waitForHydration(page);
    await clean(page, "periods");
    const heading = (await page.getByRole("heading", { name: /^Next to close: / }).textContent()) ?? "";
    const label = heading.replace("Next to close: ", "");
    const button = page.getByRole("button", { name: `Close ${label}` });
    // An empty note is refused in the browser, beside the field.
    await button.click();
    await page.getByText("Write a note for the file (what was checked).").waitFor();
    await page.getByLabel("Note for the file").fill("Bank statement reconciled; suspense clear");
    await button.click();
    await page.getByText(`${label} is closed.`).first().waitFor();
    const month = await page.getByTestId("period").filter({ hasText: label }).getAttribute("data-month");
    expect(monthLabel(month ?? "")).toBe(label);
    await expect(page.getByTestId("period").filter({ hasText: label }).getByTestId("period-state").textContent()).resolves.toBe("Closed");
    await clean(page, "periods after closing");
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("fits a 360 px phone: the trial balance and a ledger scroll inside their own tables", async () => {
    for (const path of ["/admin/books", "/admin/books/accounts/interest_receivable?from=2020-01-01", "/admin/books/journal"]) {
      const { page, errors, context } = await open(path, PHONE);
      await clean(page, `${path} on a phone`);
      if (path === "/admin/books") await screenshot(page, "books-trial-balance-360");
      if (path.includes("interest_receivable")) await screenshot(page, "books-ledger-360");
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 60_000);
});
