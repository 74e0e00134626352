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
import { signedInStaff } from "../helpers/applications.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// Data rights on a phone (docs/product.md "Data rights"): the notice before the mobile number is
// asked, in the page's language; a borrower withdraws a consent from their profile, reads its effect,
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
  it("shows the notice on personal data, in the page's language, before the mobile number is asked", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(`${app.url}/quickStart/Otp`);
    await waitForHydration(page);
    const notice = page.getByTestId("collection-notice");
    await notice.getByText("How we use your personal data").click();
    await notice.getByText("PAN", { exact: true }).waitFor();
    // The notice comes before the form that asks for the number.
    const [box, mobile] = await Promise.all([notice.boundingBox(), page.getByLabel("Mobile number").boundingBox()]);
    expect((box?.y ?? 0) < (mobile?.y ?? 0)).toBe(true);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "data-rights-notice-phone");
    await context.close();

    // In Hindi, the notice is Hindi only.
    const hindi = await browser.newContext({ ...PHONE, locale: "hi-IN", extraHTTPHeaders: { "Accept-Language": "hi-IN,hi;q=0.9" } });
    const hindiPage = await hindi.newPage();
    await hindiPage.goto(`${app.url}/quickStart/Otp`);
    await waitForHydration(hindiPage);
    const hindiNotice = hindiPage.getByTestId("collection-notice");
    await hindiNotice.getByText("हम आपकी निजी जानकारी का इस्तेमाल कैसे करते हैं").click();
    await hindiNotice.getByText("आधार नंबर", { exact: true }).waitFor();
    expect(await hindiNotice.textContent()).not.toContain("How we use your personal data");
    expect(await widerThanScreen(hindiPage)).toBeLessThanOrEqual(0);
    expect(await axeViolations(hindiPage)).toEqual([]);
    await hindi.close();
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

  it("lets compliance answer a correction from the queue on a desktop", async () => {
    const mobile = "9640099002";
    const b = await signedInBorrower(app, mobile);
    await completeProfile(app, b.cookie, defaultProfile({ name: "Farhan Qureshi" }), mobile);
    const asked = await postForm(
      app,
      "/User/Profile/privacy",
      { intent: "correction", area: "address", wrong: "My PIN code shows 110001.", correct: "It is 110011: see my new bill." },
      { cookie: b.cookie },
    );
    expect(asked.status).toBe(302);
    await postForm(app, "/User/Profile/privacy", { intent: "erasure", understood: "yes" }, { cookie: b.cookie });
    const compliance = await signedInStaff(app, "compliance", "Kavya Menon");
    const context = await signedInContext(browser, app.url, compliance.cookie, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/admin/privacy`);
    await page.getByRole("heading", { name: "Data rights", level: 1 }).waitFor();
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "data-rights-queue-desktop");
    const correction = page.locator("article", { hasText: "My PIN code shows 110001." });
    await correction.getByLabel("Answer", { exact: true }).selectOption("done");
    await correction.getByLabel("The answer the borrower reads").fill("We corrected your PIN code to 110011 on your profile.");
    await correction.getByRole("button", { name: "Send the answer" }).click();
    await page
      .getByText(/^Answered DR-[0-9A-Z]{8}: the borrower is told\.$/)
      .first()
      .waitFor();
    await page.getByText("We corrected your PIN code to 110011 on your profile.").waitFor();
    // The erasure waits, with what it would do today.
    const erasure = page.locator("article", { hasText: "Carried out today, the erasure does this:" });
    await erasure.waitFor();
    // Asked today: the plan the borrower read is today's.
    expect(await erasure.getByText("the plan they read differed").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
