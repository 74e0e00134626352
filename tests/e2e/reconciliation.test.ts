import type { Browser, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settlementCsv } from "../../app/domain/books/statements.ts";
import { signedInStaff } from "../helpers/applications.ts";
import {
  axeViolations,
  launchBrowser,
  PHONE,
  screenshot,
  signedInContext,
  waitForHydration,
  watchErrors,
  widerThanScreen,
} from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The reconciliation page in Chromium (docs/product.md "The lender's books"): a settlement report
// uploaded through the form, its line that the books do not hold in the exceptions queue, resolved
// with a note; axe on a desktop and a 360 px phone, nothing wider than the phone's screen, and the
// form's errors with and without JavaScript.
let app: TestServer;
let browser: Browser;
let finance: { cookie: string };

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  finance = await signedInStaff(app, "finance", "Farah Iqbal");
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const contextWith = (cookie: string, options: BrowserContextOptions = {}) => signedInContext(browser, app.url, cookie, options);

/** A settlement report with one payment the books do not hold, settled now. */
const report = (id: string) =>
  settlementCsv([
    {
      entity_id: id,
      type: "payment",
      debit: 0,
      credit: 500_00 - 1180,
      amount: 500_00,
      currency: "INR",
      fee: 1180,
      tax: 180,
      settled: true,
      created_at: Math.floor(Date.now() / 1000) - 86_400,
      settled_at: Math.floor(Date.now() / 1000),
      settlement_id: "setl_E2eTest000001",
      settlement_utr: "UTRE2E000001",
    },
  ]);

describe("reconciliation in the browser", () => {
  it("imports a settlement report, lists its exception and resolves it with a note; axe clean on a desktop and a phone", async () => {
    for (const [name, options] of [
      ["desktop", { viewport: { width: 1280, height: 900 } }],
      ["phone", PHONE],
    ] as const) {
      const context = await contextWith(finance.cookie, options);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.url}/admin/reconciliation`);
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Reconciliation");
      expect(await axeViolations(page)).toEqual([]);

      // Checked in the browser before anything is sent.
      await page.getByRole("button", { name: "Import the statement" }).click();
      await page.getByText("Choose which statement this is").waitFor();
      await page.getByText("Choose the CSV file to import").waitFor();
      expect(await axeViolations(page)).toEqual([]);

      await page.getByLabel("Statement", { exact: true }).selectOption("gateway_settlement");
      await page
        .getByLabel("CSV file")
        .setInputFiles({ name: `settlement-${name}.csv`, mimeType: "text/csv", buffer: Buffer.from(report(`pay_E2e${name}00001`)) });
      await page.getByRole("button", { name: "Import the statement" }).click();
      await page.getByText("Imported 1 line: 0 matched, 1 to the exceptions queue.").waitFor();
      const item = page.getByTestId("recon-exception").filter({ hasText: `pay_E2e${name}00001` });
      await item.getByText("The statement has a payment of ₹500 that the books do not hold under this id.").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `reconciliation-${name}`);

      await item.getByText("Resolve with a note").click();
      const note = item.getByLabel("How it was resolved");
      await note.fill("Too short");
      await item.getByRole("button", { name: "Resolve" }).click();
      await item.getByText("Say how it was resolved, in at least 10 characters").waitFor();
      await note.fill(`Test payment of the ${name} run, refunded by Razorpay; ticket 99.`);
      await item.getByRole("button", { name: "Resolve" }).click();
      await page.getByText("Resolved, with your note.").waitFor();
      await page
        .getByTestId("resolved-exception")
        .filter({ hasText: `Test payment of the ${name} run, refunded by Razorpay; ticket 99.` })
        .getByText("Farah Iqbal")
        .waitFor();
      expect(
        await page
          .getByTestId("recon-exception")
          .filter({ hasText: `pay_E2e${name}00001` })
          .count(),
      ).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("imports and says what is wrong without JavaScript", async () => {
    const context = await contextWith(finance.cookie, { ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/admin/reconciliation`);
    await page.getByLabel("Statement", { exact: true }).selectOption("payout_statement");
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "wrong.csv", mimeType: "text/csv", buffer: Buffer.from(report("pay_E2eNoScript01")) });
    await page.getByRole("button", { name: "Import the statement" }).click();
    await page.getByText(/Nothing was imported\. The header has no id, source_entity, source_id columns/).waitFor();
    await expect(page.getByLabel("CSV file").getAttribute("aria-invalid")).resolves.toBe("true");
    await page.getByLabel("Statement", { exact: true }).selectOption("gateway_settlement");
    await page
      .getByLabel("CSV file")
      .setInputFiles({ name: "right.csv", mimeType: "text/csv", buffer: Buffer.from(report("pay_E2eNoScript01")) });
    await page.getByRole("button", { name: "Import the statement" }).click();
    await page.getByTestId("recon-exception").filter({ hasText: "pay_E2eNoScript01" }).waitFor();
    await context.close();
  });
});
