import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadList } from "../../app/server/aml/lists.server.ts";
import { approvedApplication, signedInStaff } from "../helpers/applications.ts";
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
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Sanctions screening in Chromium (docs/product.md "Sanctions screening"): a borrower screened at
// signing as a possible match of a listed person; compliance reads why and clears it on a desktop,
// the form's errors next to its fields first; axe clean, and the page fits a phone.
let app: TestServer;
let browser: Browser;
let compliance: { cookie: string; userId: string };

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }), launchBrowser()]);
  const text = readFileSync(path.resolve(import.meta.dirname, "../../reference-data/sanctions/uapa-51a-sample.csv"), "utf8");
  await loadList(app.services, { source: "uapa_51a", fileName: "uapa-51a-sample.csv", text, by: null });
  const credit = await signedInStaff(app, "credit", "Asha Rao");
  // Listed as "Mohammad Yaqoob Bhat", born 1979.
  await approvedApplication(app, "9786600001", credit, { name: "Mohd Yakub Bhat", dateOfBirth: "1979-05-10" });
  await waitForJobs(app, ["aml-screen", "aml-rescreen"]);
  compliance = await signedInStaff(app, "compliance", "Chitra Menon");
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("sanctions screening in the browser", () => {
  it("compliance reads a possible match and clears it with a note on a desktop", async () => {
    const context = await signedInContext(browser, app.url, compliance.cookie, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/admin/aml`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Sanctions screening");
    const item = page.getByTestId("aml-possible");
    await item.getByText("Mohammad Yaqoob Bhat").first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "aml-desktop-match");

    // Checked in the browser first: the decision and the note, each next to its field.
    await item.getByRole("button", { name: "Record the decision" }).click();
    await item.getByText("Choose: a different person, or the listed person").waitFor();
    await item.getByText("Say how you decided").first().waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await item.getByLabel("Decision").selectOption("cleared");
    await item.getByLabel("How you decided").fill("Different father's name and PAN history; the Aadhaar photo does not match the listing.");
    await item.getByRole("button", { name: "Record the decision" }).click();
    await page.getByText("Cleared: a different person. The loan may be paid out.").waitFor();
    await page.getByText("No possible match is waiting.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "aml-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a phone", async () => {
    const context = await signedInContext(browser, app.url, compliance.cookie, PHONE);
    const page = await context.newPage();
    await page.goto(`${app.url}/admin/aml`);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "aml-phone");
    await context.close();
  });
});
