import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emiQuote, processingFee } from "../../app/domain/loan-math.ts";
import { formatRupees } from "../../app/domain/money.ts";
import { sha256Bytes } from "../../app/server/crypto.server.ts";
import { loanApplications, loanSignatures } from "../../app/server/db/schema.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { axeViolations, launchBrowser, PHONE, waitForHydration, watchErrors } from "../helpers/browser.ts";
import { latestCode } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signInWithCode } from "../helpers/sign-in.ts";

let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ OTP_PER_IP_PER_HOUR: "200", OTP_RESEND_SECONDS: "0" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A new borrower signed in through the browser, whose profile the fixture then completes. */
async function newBorrower(context: BrowserContext, mobile: string, overrides = {}) {
  const page = await context.newPage();
  await signInWithCode(page, { baseUrl: app.url, dataDir: app.dataDir }, mobile);
  await page.waitForURL(/\/User\/Dashboard$/);
  const token = (await context.cookies()).find((c) => c.name === "token");
  await completeProfile(app, `token=${token?.value}`, defaultProfile(overrides), mobile);
  return page;
}

async function expectClean(page: Page, errors: string[]) {
  expect(await axeViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
}

// A copy: pdf.js takes over (detaches) the buffer it is given.
const pdfText = async (bytes: Uint8Array) => (await extractText(bytes.slice(), { mergePages: true })).text as string;

describe("applying for an EMI loan in the browser", () => {
  it("goes from the dashboard to a signed agreement on a phone", async () => {
    const context = await browser.newContext({ ...PHONE, acceptDownloads: true });
    const page = await newBorrower(context, "9850000001");
    const errors = watchErrors(page);
    await page.goto(`${app.url}/User/Dashboard`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Apply for an EMI loan" }).click();
    await page.waitForURL(/\/User\/newLoan\/Emi\/[a-z2-7]{26}\/Step0$/);
    const ref = /\/Emi\/([a-z2-7]{26})\//.exec(page.url())?.[1] as string;
    await page.getByText("Step 1 of 5").waitFor();
    // Before the offer: the PAN and the credit history, with the borrower's consent.
    await waitForHydration(page);
    await expectClean(page, errors);
    await page.getByLabel(/may check my PAN and my credit history/).check();
    await page.getByRole("button", { name: "Check my credit history" }).click();
    await page.getByLabel("Tenure (monthly instalments)").waitFor();
    await waitForHydration(page);
    await expectClean(page, errors);

    await page.getByLabel("Tenure (monthly instalments)").selectOption("24");
    await page.getByLabel("Amount (₹)").fill("150000");
    // The preview uses the same loan math as the KFS and the calculator.
    const fee = processingFee(15_000_000, { feeBps: 200, minFeePaise: 49_900, gstBps: 1800 });
    const quote = emiQuote({ principalPaise: 15_000_000, annualRateBps: 1400, months: 24, upfrontPaise: fee.totalUpfrontPaise });
    await page.getByTestId("quote-preview").getByText(formatRupees(quote.emiPaise)).waitFor();
    await page.getByRole("button", { name: "Save and continue" }).click();
    await page.waitForURL(/\/Step1$/);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Save and see the Key Fact Statement" }).click();
    await page.getByText("Choose what the loan is for.").waitFor();
    await page.getByText("Confirm the account the money goes to.").waitFor();
    await expectClean(page, errors);
    await page.getByLabel("What is the loan for?").selectOption("education");
    await page.getByLabel("Pay the loan into this account").check();
    await page.getByRole("button", { name: "Save and see the Key Fact Statement" }).click();

    await page.waitForURL(/\/Step5$/);
    await waitForHydration(page);
    await page.getByRole("heading", { name: "Your Key Fact Statement and agreement" }).waitFor();
    // A phone shows the first page as an image (no embedded PDF, which phones show as an empty box), opening the PDF.
    const preview = page.getByTestId("pdf-preview");
    await expect(preview.getByRole("link").getAttribute("href")).resolves.toBe(`/User/newLoan/Emi/${ref}/Step5/pdfDisplay`);
    await expect(preview.getByRole("img").getAttribute("src")).resolves.toBe(`/User/newLoan/Emi/${ref}/Step5/preview.png`);
    expect(await page.locator("iframe").count()).toBe(0);
    await expectClean(page, errors);
    const shown = await page.request.get(`${app.url}/User/newLoan/Emi/${ref}/Step5/pdfDisplay`);
    expect(shown.status()).toBe(200);
    expect(shown.headers()["content-type"]).toBe("application/pdf");
    expect(shown.headers()["content-disposition"]).toMatch(/^inline; /);
    const shownBytes = new Uint8Array(await shown.body());
    const text = await pdfText(shownBytes);
    expect(text).toContain(`Instalment amount ${formatRupees(quote.emiPaise)}`);
    expect(text).toContain(`Annual Percentage Rate (APR) ${quote.aprPercent.toFixed(2)}%`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the PDF" }).click()]);
    expect(download.suggestedFilename()).toBe(`kfs-and-agreement-${ref.toUpperCase()}.pdf`);

    await page.getByRole("link", { name: "I have read it: continue to sign" }).click();
    await page.waitForURL(/\/Step6$/);
    await waitForHydration(page);
    await expectClean(page, errors);
    await page.getByRole("button", { name: /Send a code to XXXXXX0001/ }).click();
    await page.getByTestId("send-result").waitFor();
    await page.getByLabel(/I have read the Key Fact Statement/).check();
    await page.getByLabel("One-time code", { exact: true }).fill(latestCode(app.dataDir, "9850000001"));
    await page.getByRole("button", { name: "Sign the agreement" }).click();

    await page.waitForURL(new RegExp(`/success/${ref}$`));
    await page.getByRole("heading", { name: "You have signed your loan agreement" }).waitFor();
    await waitForHydration(page);
    await expectClean(page, errors);
    const [sig] = await app.services.db.select().from(loanSignatures);
    expect(sig?.shownSha256).toBe(sha256Bytes(shownBytes));

    await page.getByRole("link", { name: "Your signed agreement" }).click();
    await page.waitForURL(new RegExp(`/Eagreement/${sig?.agreementRef}$`));
    await page.getByRole("heading", { name: "Signed loan agreement" }).waitFor();
    await expectClean(page, errors);
    const signed = await page.request.get(`${app.url}/Eagreement/${sig?.agreementRef}/pdf`);
    expect(signed.headers()["content-type"]).toBe("application/pdf");
    expect(await pdfText(new Uint8Array(await signed.body()))).toContain("Electronic signature");

    await page.goto(`${app.url}/User/newLoan/Emi/${ref}/Step7`);
    await page.getByTestId("application-status").getByText("Signed, waiting for review").waitFor();
    await waitForHydration(page);
    await expectClean(page, errors);
    await context.close();
  });

  it("cancels a draft after the confirm dialog", async () => {
    const context = await browser.newContext();
    const page = await newBorrower(context, "9850000003");
    await page.goto(`${app.url}/User/newLoan/Emi`);
    await page.getByRole("button", { name: "Start my EMI loan application" }).click();
    await page.waitForURL(/\/Step0$/);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Cancel this application" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: "Keep it" }).click();
    await page.getByRole("button", { name: "Cancel this application" }).click();
    await dialog.getByRole("button", { name: "Cancel application" }).click();
    await page.waitForURL(/\/Step7$/);
    await page.getByRole("heading", { name: "Your application is cancelled" }).waitFor();
    const [row] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.status, "cancelled"));
    expect(row).toBeDefined();
    // The progress bar tells the truth: nothing was done but the cancelling (the last step, where it stands).
    const steps = page.getByTestId("loan-steps").getByRole("listitem");
    expect(await steps.evaluateAll((items) => items.map((li) => li.getAttribute("data-done")))).toEqual([
      "false",
      "false",
      "false",
      "false",
      "true",
    ]);
    // Its outcome page says so, whatever state the address names.
    await page.goto(`${app.url}/failure/${row?.reference}`);
    await page.getByRole("heading", { name: "Your application is cancelled" }).waitFor();
    expect(await page.getByText("Nothing was changed").count()).toBe(0);
    await context.close();
  });
});

describe("applying for a salary advance without JavaScript", () => {
  it("works with plain forms, from Step0 to the signed agreement", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // Sign in with JavaScript, then go on without it (the fixture fills the profile).
    const jsContext = await browser.newContext();
    await newBorrower(jsContext, "9850000002", { netMonthlyIncome: "50000", salaryDay: "5" });
    await context.addCookies(await jsContext.cookies());
    await jsContext.close();

    page.setDefaultTimeout(8000);
    await page.goto(`${app.url}/User/newLoan/salaryAdvance`);
    // Without JavaScript: the start is a plain form's POST, the credit check's consent too.
    await page.getByRole("button", { name: "Start my salary advance application" }).click();
    await page.waitForURL(/\/User\/newLoan\/salaryAdvance\/[a-z2-7]{26}\/Step0$/);
    await page.getByRole("button", { name: "Check my credit history" }).click();
    await page.getByText("We need your consent to check your credit history before we can make you an offer.").waitFor();
    await page.getByLabel(/may check my PAN and my credit history/).check();
    await page.getByRole("button", { name: "Check my credit history" }).click();
    await page.getByLabel("Amount (₹)").fill("30000");
    await page.getByRole("button", { name: "Save and continue" }).click();
    await page.getByText("Choose an amount from ₹2,000 to ₹25,000.").waitFor();
    await page.getByLabel("Amount (₹)").fill("25000");
    await page.getByRole("button", { name: "Save and continue" }).click();
    await page.waitForURL(/\/Step1$/);
    await page.getByLabel("What is the loan for?").selectOption("medical");
    await page.getByLabel("Pay the loan into this account").check();
    await page.getByRole("button", { name: "Save and see the Key Fact Statement" }).click();
    await page.waitForURL(/\/Step5$/);
    await page.getByText("Repayment date").first().waitFor();
    await page.getByRole("link", { name: "I have read it: continue to sign" }).click();
    await page.waitForURL(/\/Step6$/);
    await page.getByRole("button", { name: /Send a code/ }).click();
    await page.getByText(/We sent a 6-digit code/).waitFor();
    await page.getByLabel(/I have read the Key Fact Statement/).check();
    await page.getByLabel("One-time code", { exact: true }).fill(latestCode(app.dataDir, "9850000002"));
    await page.getByRole("button", { name: "Sign the agreement" }).click();
    await page.waitForURL(/\/success\/[a-z2-7]{26}$/);
    await page.getByRole("heading", { name: "You have signed your loan agreement" }).waitFor();
    // (axe-core needs JavaScript in the page: the same pages are checked with it in the test above.)
    await page.getByText("Signed, waiting for review").waitFor();
    await context.close();
  });
});
