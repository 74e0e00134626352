import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readStrXml } from "../../app/domain/aml/str-file-read.ts";
import { activeLoan, signedInStaff } from "../helpers/applications.ts";
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

// Suspicious-transaction reports in Chromium (docs/product.md "Suspicious-transaction reports"): one
// compliance officer finds a borrower and drafts a report on a desktop, the grounds checked next to
// the field first; a second one approves and exports it, and the downloaded file reads back; axe
// clean on every page, and the list fits a phone.
let app: TestServer;
let browser: Browser;
let drafter: { cookie: string; userId: string };
let reviewer: { cookie: string; userId: string };
let loan: Awaited<ReturnType<typeof activeLoan>>;
let reference = "";
const GROUNDS = "Three cash repayments of ₹49,000 each in one week, just under the reporting limit; नकद भुगतान & <receipts> checked.";

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }), launchBrowser()]);
  const credit = await signedInStaff(app, "credit", "Asha Rao");
  const ops = await signedInStaff(app, "operations", "Omar Shaikh");
  loan = await activeLoan(app, "9786900001", credit, ops, { name: "Meera Iyer", dateOfBirth: "1990-02-02" });
  drafter = await signedInStaff(app, "compliance", "Chitra Menon");
  reviewer = await signedInStaff(app, "compliance", "Devika Nair");
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("suspicious-transaction reports in the browser", { shuffle: false }, () => {
  it("compliance finds the borrower and drafts a report on a desktop", async () => {
    const context = await signedInContext(browser, app.url, drafter.cookie, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/admin/aml`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "Suspicious-transaction reports to FIU-IND" }).click();
    await page.getByRole("heading", { level: 1, name: "Suspicious-transaction reports" }).waitFor();
    await page.getByRole("link", { name: "Draft a report" }).click();
    await page.getByLabel("Mobile number, PAN's last 4 or name").fill("9786900001");
    await page.getByRole("button", { name: "Find" }).click();
    await page.getByRole("link", { name: "Report about Meera Iyer" }).click();
    await page.getByRole("heading", { level: 2, name: "Meera Iyer" }).waitFor();
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);

    // Checked in the browser first: the grounds, next to the field.
    await page.getByLabel("Grounds of suspicion").fill("Odd cash.");
    await page.getByRole("button", { name: "Save the draft" }).click();
    await page.getByText("Give the grounds of suspicion in at least 50 characters").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Grounds of suspicion").fill(GROUNDS);
    await page.getByRole("button", { name: "Save the draft" }).click();
    await page.getByRole("heading", { level: 1, name: /Suspicious-transaction report STR-/ }).waitFor();
    reference = /STR-[0-9A-Z]{8}/.exec(page.url())?.[0] ?? "";
    await page.getByText(`Drafted ${reference}`).waitFor();
    await page.getByText("You drafted this report: a colleague who did not write it reviews it.").waitFor();
    expect(await page.getByTestId("str-grounds").textContent()).toBe(GROUNDS);
    await page.getByRole("cell", { name: loan.loanNumber }).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "aml-str-draft-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a second compliance officer approves and exports it, and the file downloaded reads back", async () => {
    const context = await signedInContext(browser, app.url, reviewer.cookie, {
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/admin/aml/reports/${reference}`);
    await waitForHydration(page);
    await page.getByLabel("Your review").selectOption("approve");
    await page.getByLabel("Note").fill("Receipts and branch cash register checked.");
    await page.getByRole("button", { name: "Record the review" }).click();
    await page.getByText("Approved: it can be exported for FIU-IND.").waitFor();
    await page.getByRole("button", { name: "Export the file for FIU-IND" }).click();
    await page.getByText("Exported: download the file and upload it on FINnet.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: `Download the file (${reference}.xml)` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${reference}.xml`);
    const file = readStrXml(readFileSync((await download.path()) as string, "utf8"));
    expect(file.report.grounds).toBe(GROUNDS);
    expect(file.report.accounts.map((a) => a.number)).toEqual([loan.loanNumber]);
    expect(file.report.accounts[0]?.transactions[0]).toMatchObject({ debitCredit: "D", date: loan.disbursalDate });
    await page.getByLabel("FIU-IND acknowledgement number").fill("FIU/STR/2026/000321");
    await page.getByRole("button", { name: "Record the acknowledgement" }).click();
    await page.getByText("FIU-IND's acknowledgement recorded.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "aml-str-exported-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lists it, and the list, the report and the draft page fit a phone", async () => {
    const context = await signedInContext(browser, app.url, drafter.cookie, PHONE);
    const page = await context.newPage();
    await page.goto(`${app.url}/admin/aml/reports`);
    await waitForHydration(page);
    await page.getByTestId("str-exported").getByText(reference).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "aml-str-list-phone");
    await page.goto(`${app.url}/admin/aml/reports/${reference}`);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "aml-str-report-phone");
    await page.goto(`${app.url}/admin/aml/reports/new?borrower=${loan.userId}`);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "aml-str-new-phone");
    await context.close();
  });
});
