import { readFile } from "node:fs/promises";
import { and, eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consents, dataRequests } from "../../app/server/db/schema.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
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

// Data rights on a phone (docs/product.md "Data rights"): the notice before the mobile number is
// asked, in English and Hindi; a borrower withdraws a consent from their profile, reads its effect,
// and downloads their data as a PDF and as JSON.
let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("data rights on a phone", () => {
  it("shows the notice on personal data, in English and Hindi, before the mobile number is asked", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${app.url}/quickStart/Otp`);
    await waitForHydration(page);
    const english = page.getByTestId("collection-notice-en");
    const hindi = page.getByTestId("collection-notice-hi");
    await english.getByText("How we use your personal data").click();
    await english.getByText("PAN", { exact: true }).waitFor();
    await hindi.getByText("हम आपके व्यक्तिगत डेटा का उपयोग कैसे करते हैं").click();
    await hindi.getByText("आधार नंबर").waitFor();
    expect(await hindi.getAttribute("lang")).toBe("hi");
    // The notice comes before the form that asks for the number.
    const [notice, mobile] = await Promise.all([english.boundingBox(), page.getByLabel("Mobile number").boundingBox()]);
    expect((notice?.y ?? 0) < (mobile?.y ?? 0)).toBe(true);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "data-rights-notice-phone");
    await context.close();
  });

  it("lets a borrower withdraw a consent and download their data", async () => {
    const mobile = "9640099001";
    const b = await signedInBorrower(app, mobile);
    await completeProfile(app, b.cookie, defaultProfile({ name: "Sunita Patil" }), mobile);
    const context = await signedInContext(browser, app.url, b.cookie, { ...PHONE, acceptDownloads: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/User/Profile`);
    await page.getByRole("link", { name: "Your data and privacy" }).click();
    await page.getByRole("heading", { name: "Your data and privacy", level: 1 }).waitFor();
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "data-rights-privacy-phone");

    const messages = page.getByTestId("consent-communications");
    await messages.getByText("If you withdraw it:").waitFor();
    await messages.getByRole("button", { name: "Stop reminders and updates by SMS, e-mail and push" }).click();
    await page.getByText("Reminders and updates now stay in the app only.").first().waitFor();
    await messages.getByText(/^Withdrawn on /).waitFor();
    await messages.getByRole("button", { name: "Send me reminders and updates" }).waitFor();
    const [latest] = await app.services.db
      .select()
      .from(consents)
      .where(and(eq(consents.userId, b.userId), eq(consents.purpose, "communications")))
      .orderBy(consents.id)
      .then((rows) => rows.slice(-1));
    expect(latest?.granted).toBe(false);

    const [pdf] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download as PDF (to read)" }).click()]);
    const pdfBytes = await readFile(await pdf.path());
    expect(pdfBytes.subarray(0, 5).toString()).toBe("%PDF-");
    const [json] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download as JSON (for another service)" }).click(),
    ]);
    const exported = JSON.parse(await readFile(await json.path(), "utf8")) as {
      borrower?: { name?: string };
      sections?: { table: string }[];
    };
    expect(JSON.stringify(exported)).toContain("Sunita Patil");
    expect(exported.sections?.some((s) => s.table === "consents")).toBe(true);
    const downloads = await app.services.db
      .select()
      .from(dataRequests)
      .where(and(eq(dataRequests.userId, b.userId), eq(dataRequests.kind, "access")));
    expect(downloads).toHaveLength(2);
    expect(errors).toEqual([]);
    await context.close();
  });
});
