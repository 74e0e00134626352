import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loanApplications, quickStarts, users } from "../../app/server/db/schema.ts";
import { defaultProfile } from "../fixtures/kyc.ts";
import { formatRupees } from "../../app/domain/money.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { postForm } from "../helpers/http.ts";
import { latestCode } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ OTP_PER_IP_PER_HOUR: "200", OTP_RESEND_SECONDS: "0" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function expectClean(page: Page, errors: string[]) {
  expect(await axeViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
}

/** The mobile code on /quickStart/Otp (works with or without JavaScript). */
async function enterMobileCode(page: Page, mobile: string, js = true) {
  if (js) await waitForHydration(page);
  await page.getByLabel("Mobile number").fill(mobile);
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByLabel("One-time code").waitFor();
  if (js) await waitForHydration(page);
  await page.getByLabel("One-time code").fill(latestCode(app.dataDir, mobile));
  await page.getByRole("button", { name: "Verify and continue" }).click();
}

const next = (page: Page) => page.getByRole("button", { name: "Save and continue" }).click();

async function onStep(page: Page, step: number, js = true) {
  await page.waitForURL(new RegExp(`/quickStart/Step${step}(\\?.*)?$`));
  await page.getByText(`Step ${step + 1} of 7`).waitFor();
  if (js) await waitForHydration(page);
}

const userByMobile = async (mobile: string) => (await app.services.db.select().from(users).where(eq(users.mobile, mobile)))[0];

describe("the offer", () => {
  it("compares both products at the amount asked, at a glance, with the APR in a neutral colour", async () => {
    const b = await signedInBorrower(app, "9860000091");
    const steps: Record<string, string>[] = [
      { product: "emi", amount: "100000" },
      { fullName: "Neha Gupta", dateOfBirth: "1992-06-15", pan: "ABCPG7001K" },
      { pincode: "560001" },
      { employmentType: "salaried", netMonthlyIncome: "60000", salaryDay: "28" },
      { existingEmis: "0", consentBureau: "on" },
    ];
    for (const [i, fields] of steps.entries()) {
      const res = await postForm(app, `/quickStart/Step${i}`, { intent: "next", ...fields }, { cookie: b.cookie });
      expect(res.status, `Step${i}`).toBe(302);
    }
    for (const [size, options] of [
      ["1280", { viewport: { width: 1280, height: 900 } }],
      ["360", PHONE],
    ] as const) {
      const context = await browser.newContext(options);
      const at = b.cookie.indexOf("=");
      await context.addCookies([{ name: b.cookie.slice(0, at), value: b.cookie.slice(at + 1), url: app.url }]);
      const page = await context.newPage();
      await page.goto(`${app.url}/quickStart/Step5`);
      await waitForHydration(page);
      const emi = page.getByTestId("offer-emi");
      // The EMI for the ₹1,00,000 asked (14% band, 12 months), not for the largest amount on offer.
      const api = (await (await app.get("/api/emi?amount=100000&rate=14&months=12")).json()) as { emiPaise: number };
      await expect(emi.getByTestId("offer-emi-payment").textContent()).resolves.toBe(`${formatRupees(api.emiPaise)} a month for 12 months`);
      await expect(emi.textContent()).resolves.toContain("For ₹1,00,000");
      // The salary advance at the same amount, within its own offer (half the salary).
      await expect(page.getByTestId("offer-salary_advance").textContent()).resolves.toContain("For ₹30,000 (you asked for ₹1,00,000)");
      // APR: neutral, explained in one line.
      const apr = page.getByTestId("offer-salary_advance-apr");
      const color = (l: typeof apr) => l.evaluate((el) => getComputedStyle(el).color);
      const aprColor = await color(apr);
      expect(aprColor, "the APR is not in the money figures' green").not.toBe(await color(emi.locator(".money")));
      expect(aprColor).toBe(await color(emi.getByRole("heading", { name: "EMI loan" })));
      await expect(apr.getAttribute("aria-describedby")).resolves.toBe("apr-note");
      await page.getByText(/APR, the annual percentage rate, is the yearly cost of the loan/).waitFor();
      // Labels read on one line.
      for (const label of await emi.locator("dt").all()) {
        const box = await label.boundingBox();
        expect(box?.height ?? 0, (await label.textContent()) ?? "").toBeLessThan(30);
      }
      expect(await axeViolations(page)).toEqual([]);
      expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `offer-${size}`);
      await context.close();
    }
  });
});

describe("the quick start in a browser", () => {
  it("takes a new visitor from the home page to a loan application on a phone", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const mobile = "9860000001";
    const p = defaultProfile();

    await page.goto(app.url);
    await page.getByRole("link", { name: "Apply now" }).click();
    await page.waitForURL(/\/quickStart$/);
    await page.getByRole("heading", { name: /Quick start/ }).waitFor();
    await expectClean(page, errors);
    await page.getByRole("link", { name: "Start the quick start" }).click();
    await page.waitForURL(/\/quickStart\/Otp/);
    await page.getByRole("heading", { name: "Quick start: your mobile number" }).waitFor();
    await enterMobileCode(page, mobile);

    await onStep(page, 0);
    await expectClean(page, errors);
    await next(page);
    await page.getByText("Choose the kind of loan.").waitFor();
    await page.getByText("Enter the amount you need.").waitFor();
    await expectClean(page, errors);
    await page.getByRole("radio", { name: /EMI loan/ }).check();
    await page.getByLabel("Amount you need (₹)").fill("150000");
    await next(page);

    await onStep(page, 1);
    await page.getByLabel("Full name (as on PAN)").fill(p.name);
    await page.getByLabel("Date of birth").fill(p.dateOfBirth);
    await page.getByLabel("PAN", { exact: true }).fill(p.pan.toLowerCase());
    await expectClean(page, errors);
    await next(page);

    await onStep(page, 2);
    await page.getByLabel("PIN code").fill("560001");
    // The place comes from the shipped PIN data as it is typed.
    await page.getByText(/Karnataka/).waitFor();
    await expectClean(page, errors);
    await next(page);

    await onStep(page, 3);
    await page.getByLabel("I am").selectOption("salaried");
    await page.getByLabel("Net monthly income (₹, after tax)").fill("60000");
    await page.getByLabel("Salary day (salaried only)").fill("28");
    await expectClean(page, errors);
    await next(page);

    await onStep(page, 4);
    await page.getByLabel("Existing EMIs each month (₹)").fill("0");
    await page.getByLabel(/may check my PAN and my credit history/).check();
    await expectClean(page, errors);
    await next(page);

    await onStep(page, 5);
    await page.getByTestId("offer-emi").waitFor();
    await page.getByTestId("offer-salary_advance").getByText("₹30,000").first().waitFor();
    await expectClean(page, errors);
    // The tenure selector re-works the EMI offer (a GET form, the same with or without JavaScript).
    await page.getByLabel("EMI loan tenure").selectOption("24");
    await page.getByRole("button", { name: "Show offer" }).click();
    await page.waitForURL(/tenure=24/);
    await page.getByText("starting at ₹1,50,000 over 24 months").waitFor();
    await page.getByRole("button", { name: "Take this offer" }).click();

    await onStep(page, 6);
    await page.getByText(/application starts at ₹1,50,000 over 24 months/).waitFor();
    await page.getByRole("button", { name: "Continue to the loan application" }).click();
    await page.getByText("We need your consent to check your KYC details.").waitFor();
    await expectClean(page, errors);
    await page.getByLabel(/I consent to .* checking my identity/).check();
    await page.getByRole("button", { name: "Continue to the loan application" }).click();

    await page.waitForURL(/\/User\/newLoan\/Emi\/[a-z2-7]{26}\/Step0$/);
    await waitForHydration(page);
    expect(await page.getByLabel("Amount (₹)").inputValue()).toBe("150000");
    expect(await page.getByLabel("Tenure (monthly instalments)").inputValue()).toBe("24");
    const user = await userByMobile(mobile);
    const [application] = await app.services.db
      .select()
      .from(loanApplications)
      .where(eq(loanApplications.userId, user?.id ?? ""));
    expect(application).toMatchObject({ product: "emi", amountPaise: 150_000_00, tenureMonths: 24 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("resumes after the browser is closed, and sends a jump ahead back; Back keeps the answers", async () => {
    const mobile = "9860000002";
    const p = defaultProfile();
    const first = await browser.newContext(PHONE);
    const page = await first.newPage();
    await page.goto(`${app.url}/quickStart`);
    await page.getByRole("link", { name: "Start the quick start" }).click();
    await enterMobileCode(page, mobile);
    await onStep(page, 0);
    await page.getByRole("radio", { name: /Salary advance/ }).check();
    await page.getByLabel("Amount you need (₹)").fill("20000");
    await next(page);
    await onStep(page, 1);
    await page.getByLabel("Full name (as on PAN)").fill(p.name);
    await page.getByLabel("Date of birth").fill(p.dateOfBirth);
    await page.getByLabel("PAN", { exact: true }).fill(p.pan);
    await next(page);
    await onStep(page, 2);
    await page.getByLabel("PIN code").fill("110001");
    await next(page);
    await onStep(page, 3);
    await first.close();

    // Another browser (or device): sign in again, carry on at step 4 of 7.
    const second = await browser.newContext(PHONE);
    const again = await second.newPage();
    const errors = watchErrors(again);
    await again.goto(`${app.url}/quickStart/Step5`);
    await again.waitForURL(/\/quickStart\/Otp/);
    await enterMobileCode(again, mobile);
    await onStep(again, 3);
    await again.goto(`${app.url}/quickStart`);
    await again.getByRole("link", { name: "Continue at step 4: Work and income" }).click();
    await onStep(again, 3);
    await again.getByRole("button", { name: "Back" }).click();
    await onStep(again, 2);
    expect(await again.getByLabel("PIN code").inputValue()).toBe("110001");
    await again.getByText(/Delhi/).first().waitFor();
    await again.getByRole("link", { name: /Step 2: About you/ }).click();
    await onStep(again, 1);
    expect(await again.getByLabel("Full name (as on PAN)").inputValue()).toBe(p.name);
    await again.getByText(`Saved: XXXXXX${p.pan.slice(-4)}. Leave empty to keep it.`).waitFor();
    expect(errors).toEqual([]);
    const user = await userByMobile(mobile);
    const [row] = await app.services.db
      .select()
      .from(quickStarts)
      .where(eq(quickStarts.userId, user?.id ?? ""));
    expect(row).toMatchObject({ completedSteps: 3, product: "salary_advance", amountPaise: 20_000_00 });
    await second.close();
  });

  it("works without JavaScript, errors next to the fields", async () => {
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    const mobile = "9860000003";
    const p = defaultProfile();
    await page.goto(`${app.url}/quickStart`);
    await page.getByRole("link", { name: "Start the quick start" }).click();
    await enterMobileCode(page, mobile, false);
    await onStep(page, 0, false);
    await page.getByLabel("Amount you need (₹)").fill("999");
    await next(page);
    await page.getByText("Choose the kind of loan.").waitFor();
    await page.getByRole("radio", { name: /EMI loan/ }).check();
    await page.getByLabel("Amount you need (₹)").fill("99000");
    await next(page);
    await onStep(page, 1, false);
    await page.getByLabel("Full name (as on PAN)").fill(p.name);
    await page.getByLabel("Date of birth").fill("2012-01-01");
    await page.getByLabel("PAN", { exact: true }).fill(p.pan);
    await next(page);
    await page.getByText("You must be at least 21 years old.").waitFor();
    await page.getByLabel("Date of birth").fill(p.dateOfBirth);
    await page.getByLabel("PAN", { exact: true }).fill(p.pan);
    await next(page);
    await onStep(page, 2, false);
    await page.getByLabel("PIN code").fill("560001");
    await next(page);
    await onStep(page, 3, false);
    await page.getByLabel("I am").selectOption("self_employed");
    await page.getByLabel("Net monthly income (₹, after tax)").fill("45000");
    await next(page);
    await onStep(page, 4, false);
    await page.getByLabel("Existing EMIs each month (₹)").fill("2000");
    await page.getByLabel(/may check my PAN and my credit history/).check();
    await next(page);
    await onStep(page, 5, false);
    await page.getByText("A salary advance is only for salaried people, as it is repaid from your salary.").waitFor();
    await page.getByLabel("EMI loan tenure").selectOption("36");
    await page.getByRole("button", { name: "Show offer" }).click();
    await page.waitForURL(/tenure=36/);
    await page.getByRole("button", { name: "Take this offer" }).click();
    await onStep(page, 6, false);
    await page.getByLabel(/I consent to .* checking my identity/).check();
    await page.getByRole("button", { name: "Continue to the loan application" }).click();
    await page.waitForURL(/\/User\/newLoan\/Emi\/[a-z2-7]{26}\/Step0$/);
    expect(await page.getByLabel("Amount (₹)").inputValue()).toBe("99000");
    await context.close();
  });

  it("shows why a product is not offered, accessibly", async () => {
    const { cookie } = await signedInBorrower(app, "9860000004");
    const origin = new URL(app.url).origin;
    const p = defaultProfile();
    const steps: Record<string, string>[] = [
      { product: "salary_advance", amount: "20000" },
      { fullName: p.name, dateOfBirth: p.dateOfBirth, pan: p.pan },
      { pincode: "560001" },
      { employmentType: "self_employed", netMonthlyIncome: "12000" },
      { existingEmis: "0", consentBureau: "on" },
    ];
    for (const [i, fields] of steps.entries()) {
      const res = await app.get(`/quickStart/Step${i}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "next", ...fields }),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: origin },
      });
      expect(res.headers.get("location")).toBe(`/quickStart/Step${i + 1}`);
    }
    const context = await browser.newContext(PHONE);
    const at = cookie.indexOf("=");
    await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: app.url }]);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/quickStart/Step5`);
    await waitForHydration(page);
    await page.getByText("A salary advance is only for salaried people, as it is repaid from your salary.").waitFor();
    await page.getByTestId("offer-emi").getByText("Your net monthly income of ₹12,000 is below the minimum of ₹15,000.").waitFor();
    expect(await page.getByRole("button", { name: "Take this offer" }).count()).toBe(0);
    await expectClean(page, errors);
    await context.close();
  });
});
