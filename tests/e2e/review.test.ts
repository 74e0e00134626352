import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loanApplications } from "../../app/server/db/schema.ts";
import { approvedApplication, autopayBeforeDisbursal, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, waitForHydration, watchErrors } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  // The local payout stand-in settles a payout one second after it was requested.
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "1" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A browser context signed in with the session cookie `cookie` ("token=…"). */
async function contextWith(cookie: string, options = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const at = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: app.url }]);
  return context;
}
const statusOf = async (ref: string) =>
  (await app.services.db.select({ status: loanApplications.status }).from(loanApplications).where(eq(loanApplications.reference, ref)))[0]
    ?.status;

async function open(page: Page, path: string) {
  await page.goto(app.url + path);
  await waitForHydration(page);
}

describe("credit review in the browser", () => {
  it("a credit officer takes a signed application, opens a document, ticks the checklist and approves; operations disburses; the borrower sees the loan", async () => {
    const borrower = await signedApplication(app, "9300000001", { pan: "ABCPK8123Q" });
    const officer = await signedInStaff(app, "credit", "Asha Rao");
    const context = await contextWith(officer.cookie);
    const page = await context.newPage();
    const errors = watchErrors(page);

    await open(page, "/admin");
    expect(await page.getByTestId("staff-identity").textContent()).toBe("Asha RaoCredit officer");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: /New applications, not taken/ }).click();
    await page.waitForURL(/\/admin\/applications\?view=signed$/);
    // Search by mobile from the filter form (a GET form: the filters land in the URL).
    await page.getByLabel("Search").fill(borrower.mobile);
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await page.waitForURL(new RegExp(`q=${borrower.mobile}`));
    expect(await page.getByTestId("queue-row").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: new RegExp(borrower.ref.toUpperCase().slice(0, 8)) }).click();
    await page.waitForURL(new RegExp(`/admin/applications/${borrower.ref}$`));
    await waitForHydration(page);

    await page.getByRole("button", { name: "Take for review" }).click();
    await page.getByText("The application is yours to review.").waitFor();
    expect(await page.getByTestId("review-status").textContent()).toBe("Under review");
    // The checks arrive from a job a moment later; the page looks again by itself.
    await page.getByTestId("bureau").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("bureau").textContent()).toContain("787");

    const fetched = page.waitForResponse((r) => r.url().includes("/admin/documents/"));
    await page.getByRole("link", { name: "View PAN card" }).click();
    await page.getByTestId("document-viewer").getByRole("img", { name: "PAN card" }).waitFor();
    // The stored file comes back to the viewer (the test's file is a stub JPEG, so it is not drawn).
    expect((await fetched).status()).toBe(200);
    expect(await axeViolations(page)).toEqual([]);

    expect(await page.getByRole("button", { name: "Approve" }).isDisabled()).toBe(true);
    for (const label of [
      "Identity matches",
      "Selfie matches",
      "Bank account verified",
      "Income supported",
      "Credit bureau report acceptable",
    ]) {
      await page.getByLabel(new RegExp(label)).check();
    }
    await page.getByRole("button", { name: "Save checklist" }).click();
    await page.getByText("Checklist saved.").waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Approved. The borrower has an SMS.").waitFor();
    expect(await page.getByTestId("decision").textContent()).toContain("Approved by Asha Rao");
    expect(await statusOf(borrower.ref)).toBe("approved");
    expect(errors).toEqual([]);
    await context.close();

    const phone = await contextWith(borrower.cookie, PHONE);
    const borrowerPage = await phone.newPage();
    await open(borrowerPage, "/User/Dashboard");
    await borrowerPage.getByText("Status: Approved").waitFor();

    // The borrower sets up autopay, which an EMI loan needs before it is paid out.
    await autopayBeforeDisbursal(app, borrower);

    // Someone else, in operations, disburses it (four eyes): the page looks again by itself until the bank answers.
    const operations = await signedInStaff(app, "operations", "Meera Iyer");
    const opsContext = await contextWith(operations.cookie);
    const opsPage = await opsContext.newPage();
    const opsErrors = watchErrors(opsPage);
    await open(opsPage, `/admin/applications/${borrower.ref}`);
    expect(await opsPage.getByTestId("four-eyes").count()).toBe(0);
    const disburse = opsPage.getByTestId("disburse");
    expect(await disburse.textContent()).toMatch(/^Disburse ₹/);
    expect(await axeViolations(opsPage)).toEqual([]);
    // One click pays nothing: a dialog names the amount and the account first.
    await disburse.click();
    const dialog = opsPage.getByRole("alertdialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Pay ₹[\d,]+ to X+\d{4}, /);
    expect(await axeViolations(opsPage)).toEqual([]);
    await dialog.getByRole("button", { name: /^Yes, pay ₹/ }).click();
    await opsPage.getByText("Payout requested").waitFor();
    await opsPage.getByTestId("payout-status").filter({ hasText: "Processed" }).waitFor({ timeout: 20_000 });
    const utr = ((await opsPage.getByTestId("payout-utr").textContent()) ?? "").trim();
    expect(utr).toMatch(/^\d{12}$/);
    expect(await opsPage.getByTestId("review-status").textContent()).toBe("Active");
    expect(await opsPage.getByTestId("disburse").count()).toBe(0);
    expect(await axeViolations(opsPage)).toEqual([]);
    expect(await statusOf(borrower.ref)).toBe("active");
    expect(opsErrors).toEqual([]);
    await opsContext.close();

    // The borrower reads the loan number and the bank's transfer reference.
    await open(borrowerPage, "/User/Dashboard");
    const disbursal = borrowerPage.getByTestId("disbursal");
    await disbursal.waitFor();
    const note = (await disbursal.textContent()) ?? "";
    const [loan] = await app.services.db
      .select({ loanNumber: loanApplications.loanNumber })
      .from(loanApplications)
      .where(eq(loanApplications.reference, borrower.ref));
    expect(note).toMatch(/SL\d{8}/);
    expect(note).toContain(loan?.loanNumber ?? "no loan number");
    expect(note).toContain(utr);
    expect(await axeViolations(borrowerPage)).toEqual([]);
    await phone.close();
  });

  it("the officer who approved may not disburse the loan (four eyes)", async () => {
    const approver = await signedInStaff(app, "admin", "Kavya Menon");
    const borrower = await approvedApplication(app, "9300000003", approver);
    const context = await contextWith(approver.cookie);
    const page = await context.newPage();
    await open(page, `/admin/applications/${borrower.ref}`);
    await page.getByTestId("four-eyes").waitFor();
    expect(await page.getByTestId("disburse").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it("the officer asks for more on a phone-sized screen; the borrower answers on the dashboard; the officer rejects with a reason the borrower reads", async () => {
    const borrower = await signedApplication(app, "9300000002", { pan: "ABCPL7500Q" });
    const officer = await signedInStaff(app, "credit", "Ravi Kumar");
    const context = await contextWith(officer.cookie, PHONE);
    const page = await context.newPage();
    await open(page, `/admin/applications/${borrower.ref}`);
    await page.getByRole("button", { name: "Take for review" }).click();
    await page.getByText("The application is yours to review.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.getByLabel("What you need, in plain words").fill("Is the salary paid by Acme Textiles?");
    await page.getByRole("button", { name: "Send to the borrower" }).click();
    await page.getByText("Sent. The borrower has an SMS").waitFor();

    const phone = await contextWith(borrower.cookie, PHONE);
    const borrowerPage = await phone.newPage();
    await open(borrowerPage, "/User/Dashboard");
    await borrowerPage.getByRole("heading", { name: "Waiting for you" }).waitFor();
    expect(await axeViolations(borrowerPage)).toEqual([]);
    await borrowerPage.getByRole("button", { name: "Send answer" }).click();
    await borrowerPage.getByText("Write your answer to the question.").waitFor();
    await borrowerPage.getByLabel("Your answer").fill("Yes, Acme Textiles Ltd, Kolkata.");
    await borrowerPage.getByRole("button", { name: "Send answer" }).click();
    await borrowerPage.getByText("Your answer is with the credit officer.").waitFor();

    await open(page, `/admin/applications/${borrower.ref}`);
    await page.getByText("Yes, Acme Textiles Ltd, Kolkata.").waitFor();
    await page.getByRole("button", { name: "Reject" }).click();
    await page.getByText("Choose the reason the borrower will be told.").waitFor();
    await page.getByLabel("Reason the borrower will be told").selectOption("credit_history");
    await page.getByLabel("Note for the file").fill("Score 450 with an account overdue.");
    await page.getByRole("button", { name: "Reject" }).click();
    await page.getByText("Rejected. The borrower has an SMS with the reason.").waitFor();
    expect(await statusOf(borrower.ref)).toBe("rejected");
    await context.close();

    await open(borrowerPage, "/User/Dashboard");
    await borrowerPage.getByText("your credit history does not meet our lending policy at present").first().waitFor();
    expect(await borrowerPage.content()).not.toContain("account overdue");
    await phone.close();
  });
});
