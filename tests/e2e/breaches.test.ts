import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { istDateTimeInput } from "../../app/domain/india-date.ts";
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
import { signedInBorrower } from "../helpers/session.ts";

// The personal-data breach register in Chromium (DPDP Rules, 2025, rule 7): compliance records a
// breach of two listed borrowers on a desktop (the form's errors next to its fields first), reads
// both drafts, marks the Board's report made; axe clean, and the pages fit a phone.
let app: TestServer;
let browser: Browser;
let compliance: { cookie: string; userId: string };
let reference = "";

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  compliance = await signedInStaff(app, "compliance", "Chitra Menon");
  await signedInBorrower(app, "9712400001");
  await signedInBorrower(app, "9712400002");
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("the breach register in the browser", { shuffle: false }, () => {
  it("compliance records a breach on a desktop, reads both drafts and marks the Board's report made", async () => {
    const context = await signedInContext(browser, app.url, compliance.cookie, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/admin/privacy/breaches`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Personal data breaches");
    await page.getByText("No breach is recorded.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Record a breach" }).click();
    await page.getByRole("heading", { level: 1, name: "Record a personal data breach" }).waitFor();
    await waitForHydration(page);

    // Checked in the browser first: each error next to its field.
    await page.getByRole("button", { name: "Record the breach" }).click();
    await page.getByText("Give when you became aware of the breach.").waitFor();
    await page.getByText("Tick each kind of personal data involved.").waitFor();
    await page.getByText("Choose who the breach affected.").waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("When we became aware of it").fill(istDateTimeInput(new Date(Date.now() - 3 * 3600_000)));
    await page
      .getByLabel("What happened")
      .fill("An e-mail with a spreadsheet of borrowers' names and mobile numbers was sent to a wrong outside address.");
    await page.getByLabel("Mobile number", { exact: true }).check();
    await page.getByLabel("Name, date of birth, gender, marital status and e-mail").check();
    await page.getByLabel("Its likely consequences for the borrowers").fill("Calls or messages from people pretending to be us.");
    await page
      .getByLabel("What we have done and are doing to limit the harm")
      .fill("The recipient confirmed in writing that it was deleted.");
    await page
      .getByLabel("What a borrower can do to protect themselves")
      .fill("Never share a one-time code, PIN or password with a caller.");
    await page.getByLabel("Only the borrowers whose mobile numbers I list").check();
    await page.getByLabel("Mobile numbers of the affected borrowers").fill("9712400001\n9712400002, 9712400003");
    await page.getByRole("button", { name: "Record the breach" }).click();
    // The server knows no borrower with the third number: said next to the list, nothing lost.
    await page.getByText("No borrower has this number: 9712400003. Nothing was recorded.").waitFor();
    expect(await page.getByLabel("What happened").inputValue()).toContain("wrong outside address");
    await page.getByLabel("Mobile numbers of the affected borrowers").fill("9712400001\n9712400002");
    await page.getByRole("button", { name: "Record the breach" }).click();
    await page.getByText(/^Recorded as BR-/).waitFor();
    reference = /BR-[0-9A-Z]{8}/.exec(page.url())?.[0] ?? "";
    expect(reference).not.toBe("");

    const board = page.getByLabel("Report to the Data Protection Board of India");
    expect(await board.inputValue()).toContain("Data Principals affected: 2 borrowers, each named in our register.");
    expect(await page.getByLabel("Notice to each affected borrower (English)").inputValue()).toContain(
      "What you can do to protect yourself: Never share a one-time code, PIN or password with a caller.",
    );
    expect(await page.getByLabel("Notice to each affected borrower (Hindi)").inputValue()).toContain("अपनी सुरक्षा के लिए आप क्या कर सकते हैं");
    await page.getByText(/: (6[89]|70) hours left\./).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("The Board's reference for the report").fill("DPB/2026/BR/0007");
    await page.getByRole("button", { name: "Mark the Board's report made" }).click();
    await page.getByText("Marked: the report was made to the Data Protection Board.").waitFor();
    await page.getByTestId("board-reported").getByText("the Board's reference DPB/2026/BR/0007 (reported in time)").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "breach-desktop");

    await page.getByRole("link", { name: "All breaches" }).click();
    await page.getByRole("link", { name: reference }).waitFor();
    await page.getByTestId("breach-row").getByText("Not sent").waitFor();
    await screenshot(page, "breaches-desktop");
    // The refusal of the unknown number is the action's 400 answer, which the browser logs.
    expect(errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
    await context.close();
  });

  it("fits a phone", async () => {
    const context = await signedInContext(browser, app.url, compliance.cookie, PHONE);
    const page = await context.newPage();
    for (const [path, name] of [
      ["/admin/privacy/breaches", "breaches-phone"],
      [`/admin/privacy/breaches/${reference}`, "breach-phone"],
      ["/admin/privacy/breaches/new", "breach-new-phone"],
    ] as const) {
      await page.goto(`${app.url}${path}`);
      await waitForHydration(page);
      expect(await axeViolations(page), path).toEqual([]);
      expect(await widerThanScreen(page), path).toBeLessThanOrEqual(0);
      await screenshot(page, name);
    }
    await context.close();
  });
});
