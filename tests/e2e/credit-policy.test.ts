import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { activeLoan, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signInWithCode } from "../helpers/sign-in.ts";

let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([
    startTestServer({ OTP_PER_IP_PER_HOUR: "200", OTP_RESEND_SECONDS: "0", LOCAL_PAYOUT_SETTLE_SECONDS: "0" }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function expectClean(page: Page, errors: string[]) {
  expect(await axeViolations(page)).toEqual([]);
  expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
}

/** From the dashboard, Apply (a POST), then the credit check's consent on Step0. */
async function applyWithCreditCheck(page: Page, errors: string[]) {
  await page.goto(`${app.url}/User/Dashboard`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Apply for an EMI loan" }).click();
  await page.waitForURL(/\/User\/newLoan\/Emi\/[a-z2-7]{26}\/Step0$/);
  // The address changes a moment before the new page is drawn: wait for Step0 itself.
  await page.getByText("Step 1 of 5").waitFor();
  await waitForHydration(page);
  const consent = page.getByLabel(/may check my PAN and my credit history/);
  if (await consent.count()) {
    await page.getByText("One check before your offer").waitFor();
    await expectClean(page, errors);
    // Without the box ticked, the form says so next to it and asks nothing of the bureau.
    await page.getByRole("button", { name: "Check my credit history" }).click();
    await page.getByText("We need your consent to check your credit history before we can make you an offer.").waitFor();
    await consent.check();
    await page.getByRole("button", { name: "Check my credit history" }).click();
    await page.getByText("Thank you: the check is done.").waitFor();
  }
}

describe("the credit policy on a phone", () => {
  it("refuses an offer in plain words when the credit history is outside the policy", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInWithCode(page, { baseUrl: app.url, dataDir: app.dataDir }, "9870000001");
    await page.waitForURL(/\/User\/Dashboard$/);
    const token = (await context.cookies()).find((c) => c.name === "token");
    // The local bureau scores ABCPx2000x 420: below the policy's 600.
    await completeProfile(app, `token=${token?.value}`, defaultProfile({ pan: "ABCPW2000K" }), "9870000001");
    await applyWithCreditCheck(page, errors);
    await page.getByRole("heading", { name: "We cannot offer you an EMI loan right now" }).waitFor();
    await page.getByText("Your credit history does not meet our lending policy at present.").waitFor();
    expect(await page.getByLabel("Amount (₹)").count()).toBe(0);
    expect(await page.locator("main").textContent()).not.toContain("420");
    await screenshot(page, "credit-policy-refused-phone");
    await expectClean(page, errors);
    await context.close();
  });

  it("shrinks a second loan's offer by the first loan's EMI, and says so next to the amount", async () => {
    const credit = await signedInStaff(app, "credit", "Asha Rao");
    const ops = await signedInStaff(app, "operations", "Omar Shaikh");
    // A borrower with an active ₹1,00,000 loan over 12 months.
    await activeLoan(app, "9870000002", credit, ops);
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInWithCode(page, { baseUrl: app.url, dataDir: app.dataDir }, "9870000002");
    await page.waitForURL(/\/User\/Dashboard$/);
    await applyWithCreditCheck(page, errors);
    await page.getByLabel("Tenure (monthly instalments)").waitFor();
    const option = (await page.getByLabel("Tenure (monthly instalments)").locator('option[value="12"]').textContent()) ?? "";
    const most = Number(/up to ₹([\d,]+)/.exec(option)?.[1]?.replaceAll(",", "") ?? 0);
    // Half of ₹60,000 for all EMIs: without the first loan the offer at 12 months would be about ₹3,34,000.
    expect(most).toBeGreaterThan(10_000);
    expect(most).toBeLessThan(2_60_000);
    expect(await page.getByTestId("obligations-note").textContent()).toMatch(/^We count the ₹[\d,.]+ a month of EMIs you already pay/);
    await page.getByLabel("Tenure (monthly instalments)").selectOption("12");
    await page.getByLabel("Amount (₹)").fill("300000");
    await page.getByRole("button", { name: "Save and continue" }).click();
    await page.getByText(`Choose an amount from ₹10,000 to ₹${most.toLocaleString("en-IN")} over 12 months.`).waitFor();
    await screenshot(page, "credit-policy-shrunk-phone");
    await expectClean(page, errors);
    await context.close();
  });
});
