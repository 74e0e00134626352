import { and, eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerDocuments } from "../../app/server/db/schema.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { postForm } from "../helpers/http.ts";
import { startedApplication } from "../helpers/applications.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// The KYC profile as a borrower meets it in Chromium: saved secrets leave their boxes, the two
// consents look alike, the permanent address hides when it is the current one, documents upload as
// soon as they are chosen or dropped (errors in plain words), every KYC page says how the data is
// protected and who the lender is, and the application shows what is left as one checklist.
let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array(64).fill(3), 0xff, 0xd9]);
let serial = 0;
async function borrowerPage(options = PHONE): Promise<{ page: Page; context: BrowserContext; cookie: string; userId: string }> {
  const b = await signedInBorrower(app, `96400${String(++serial).padStart(5, "0")}`);
  const context = await browser.newContext(options);
  const at = b.cookie.indexOf("=");
  await context.addCookies([{ name: b.cookie.slice(0, at), value: b.cookie.slice(at + 1), url: app.url }]);
  return { page: await context.newPage(), context, ...b };
}

describe("the KYC profile in the browser", () => {
  it("empties the Aadhaar and PAN boxes after a save, and shows the two consents alike", async () => {
    const { page, context } = await borrowerPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/User/Profile/components/Profile`);
    await waitForHydration(page);
    const [kyc, messages] = await page.getByRole("checkbox").all();
    const [a, b] = await Promise.all([kyc?.boundingBox(), messages?.boundingBox()]);
    expect(a?.width).toBe(20);
    expect([b?.width, b?.height]).toEqual([a?.width, a?.height]);

    await page.getByLabel("Full name (as on PAN)").fill("Neha Gupta");
    await page.getByLabel("Date of birth").fill("1992-06-15");
    await page.getByLabel("Gender").selectOption("female");
    await page.getByLabel("E-mail", { exact: true }).fill("neha@example.com");
    await page.getByLabel("PAN", { exact: true }).fill("ABCPG5001K");
    await page.getByLabel("Aadhaar number").fill("234123412346");
    await page.getByLabel("Marital status").selectOption("married");
    await kyc?.check();
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Your profile details are saved.").first().waitFor();
    await page.getByText("Saved: XXXX XXXX 2346. Leave empty to keep it.").waitFor();
    expect(await page.getByLabel("Aadhaar number").inputValue()).toBe("");
    expect(await page.getByLabel("PAN", { exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Full name (as on PAN)").inputValue()).toBe("Neha Gupta");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("hides the permanent address while it is the same as the current one, with or without JavaScript", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const { page, context } = await borrowerPage({ ...PHONE, javaScriptEnabled });
      await page.goto(`${app.url}/User/Profile/components/Address`);
      if (javaScriptEnabled) await waitForHydration(page);
      const permanent = page.getByLabel("Permanent address: house number and street");
      const same = page.getByLabel("My permanent address is the same as my current address");
      // "Same" is the default: nothing more to fill.
      await expect(same.isChecked()).resolves.toBe(true);
      await expect(permanent.isVisible()).resolves.toBe(false);
      await same.uncheck();
      await expect(permanent.isVisible()).resolves.toBe(true);
      await same.check();
      await expect(permanent.isVisible()).resolves.toBe(false);
      await context.close();
    }
  });

  it("uploads a document as soon as it is chosen or dropped, says what is wrong in plain words, and says how data is kept", async () => {
    const { page, context, userId } = await borrowerPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/User/Profile/components/Documents`);
    await waitForHydration(page);
    await page.getByRole("complementary", { name: "How we protect your data" }).waitFor();
    await expect(page.getByTestId("lender-note").textContent()).resolves.toMatch(/registered with the RBI .*grievance officer/);
    // No Upload button to find: choosing the file sends it.
    expect(await page.getByRole("button", { name: "Upload", exact: true }).count()).toBe(0);
    const pan = page.getByTestId("doc-pan_card");
    await pan.getByLabel("Upload PAN card").setInputFiles({ name: "pan.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await page.getByText("PAN card uploaded.").first().waitFor();
    await pan.getByText(/Uploaded .*pan\.jpg/).waitFor();

    // A text file named .pdf: refused, in words.
    const front = page.getByTestId("doc-aadhaar_front");
    await front
      .getByLabel("Upload Aadhaar, front (masked)")
      .setInputFiles({ name: "a.pdf", mimeType: "application/pdf", buffer: Buffer.from("hello") });
    await front.getByText("This file is not a JPG, PNG or PDF file. Choose a JPG, PNG or PDF file.").waitFor();

    // Dropped on the box (a desktop's drag and drop).
    const drop = await page.evaluateHandle(
      (bytes) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], "back.jpg", { type: "image/jpeg" }));
        return dt;
      },
      [...jpeg],
    );
    await page.getByTestId("drop-aadhaar_back").dispatchEvent("drop", { dataTransfer: drop });
    await page.getByText("Aadhaar, back (masked) uploaded.").first().waitFor();
    const kinds = await app.services.db
      .select({ kind: borrowerDocuments.kind })
      .from(borrowerDocuments)
      .where(and(eq(borrowerDocuments.userId, userId)));
    expect(kinds.map((k) => k.kind).sort()).toEqual(["aadhaar_back", "pan_card"]);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "documents-360");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("uploads without JavaScript through the same form", async () => {
    const { page, context, userId } = await borrowerPage({ ...PHONE, javaScriptEnabled: false });
    await page.goto(`${app.url}/User/Profile/components/Documents`);
    const pan = page.getByTestId("doc-pan_card");
    await pan.getByLabel("Upload PAN card").setInputFiles({ name: "pan.jpg", mimeType: "image/jpeg", buffer: jpeg });
    await pan.getByRole("button", { name: "Upload", exact: true }).click();
    await page
      .getByTestId("doc-pan_card")
      .getByText(/Uploaded .*pan\.jpg/)
      .waitFor();
    expect(await app.services.db.select().from(borrowerDocuments).where(eq(borrowerDocuments.userId, userId))).toHaveLength(1);
    await context.close();
  });

  it("shows what an application still needs as one checklist with its progress, each item a link to where it is done", async () => {
    const { page, context, cookie } = await borrowerPage();
    const form = async (path: string, fields: Record<string, string>) =>
      expect((await postForm(app, path, fields, { cookie })).status).toBe(302);
    await form("/User/Profile/components/Profile", {
      fullName: "Neha Gupta",
      dateOfBirth: "1992-06-15",
      gender: "female",
      email: "neha@example.com",
      pan: "ABCPG8002K",
      aadhaar: "234123412346",
      maritalStatus: "married",
      consentKyc: "on",
    });
    await form("/User/Profile/components/Employment", {
      employmentType: "salaried",
      employerName: "Acme Ltd",
      designation: "Analyst",
      netMonthlyIncome: "60000",
      existingEmis: "0",
      salaryDay: "28",
      monthsWithEmployer: "40",
    });
    const step0 = `/User/newLoan/salaryAdvance/${await startedApplication(app, cookie, "salaryAdvance")}/Step0`;
    await form(step0, { amount: "10000" });
    await page.goto(app.url + step0.replace(/Step0$/, "Step1"));
    await waitForHydration(page);
    const list = page.getByTestId("kyc-checklist");
    await expect(page.getByTestId("kyc-checklist-count").textContent()).resolves.toBe("2 of 9 done");
    await expect(list.getByRole("progressbar").getAttribute("aria-valuetext")).resolves.toBe("2 of 9");
    await expect(list.getByRole("listitem").first().textContent()).resolves.toBe("Personal details (done)");
    await expect(list.getByRole("link", { name: "Salary slip, latest month" }).getAttribute("href")).resolves.toBe(
      "/User/Profile/components/Documents#doc-salary_slip_1",
    );
    expect(await page.getByText(/^A salary advance needs each of these/).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "step1-checklist-360");
    // The profile page's "still needed" for a salary advance is the same list.
    await page.goto(`${app.url}/User/Profile`);
    await expect(page.getByTestId("sa-ready").textContent()).resolves.toBe(
      "Still needed: Address, Bank account, Selfie, PAN card, Aadhaar, front (masked), Aadhaar, back (masked), Salary slip, latest month.",
    );
    // The dashboard's card tells the truth at 2 of 7.
    await page.goto(`${app.url}/User/Dashboard`);
    await expect(page.getByTestId("kyc-card").textContent()).resolves.toContain("2 of 7 sections complete");
    await context.close();
  });

  it("says the profile is complete on the dashboard at 7 of 7, with nothing 'missing'", async () => {
    const { page, context, cookie } = await borrowerPage();
    const mobile = `96400${String(serial).padStart(5, "0")}`;
    await completeProfile(app, cookie, defaultProfile({ pan: "ABCPG5003K" }), mobile);
    await page.goto(`${app.url}/User/Dashboard`);
    const card = page.getByTestId("kyc-card");
    await expect(card.textContent()).resolves.toContain("7 of 7 sections complete");
    await expect(card.getByRole("link", { name: "View your profile" }).isVisible()).resolves.toBe(true);
    expect(await page.getByText("See what is missing").count()).toBe(0);
    await context.close();
  });
});
