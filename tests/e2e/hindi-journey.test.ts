// A new visitor reads the site in Hindi on a phone, from the home page to a signed loan agreement:
// each page in Hindi (<html lang="hi-IN">), clean under axe and no wider than the screen (Devanagari is
// wider and taller than Latin). The buttons and labels are found by their Hindi words, read from the
// catalogue, so the test follows the words the borrower reads.
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPlain, type MessageValues } from "../../app/i18n/plain-format.ts";
import type { Namespace } from "../../app/i18n/messages.ts";
import { loanApplications, loanSignatures, users } from "../../app/server/db/schema.ts";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { latestCode } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import type { Browser } from "playwright-core";

let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ OTP_PER_IP_PER_HOUR: "200", OTP_RESEND_SECONDS: "0" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A message in Hindi, as the page shows it. */
const hi = (namespace: Namespace, key: string, values?: MessageValues) => formatPlain("hi", namespace, key, values);

/** The page is in Hindi, fits the phone's width and has no accessibility violation or script error. */
async function inHindi(page: Page, errors: string[], name: string) {
  await waitForHydration(page);
  expect(await page.getAttribute("html", "lang"), name).toBe("hi-IN");
  expect(await widerThanScreen(page), `${name} scrolls sideways`).toBe(0);
  expect(await axeViolations(page), name).toEqual([]);
  expect(errors, name).toEqual([]);
}

describe("the whole journey in Hindi on a phone", () => {
  it("goes from the home page to a signed loan agreement, every page in Hindi", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const p = defaultProfile();
    const mobile = "9860000421";

    // The home page in English; its switch turns the site to Hindi.
    await page.goto(app.url);
    await waitForHydration(page);
    await page.getByTestId("language-switch").click();
    await page
      .getByRole("link", { name: hi("home", "top.apply") })
      .first()
      .waitFor();
    await inHindi(page, errors, "home");
    await page
      .getByRole("link", { name: hi("home", "top.apply") })
      .first()
      .click();

    await page.waitForURL(/\/quickStart$/);
    await inHindi(page, errors, "quick start");
    await page.getByRole("link", { name: hi("signIn", "front.start") }).click();
    await page.waitForURL(/\/quickStart\/Otp/);
    await inHindi(page, errors, "mobile code");
    await page.getByLabel(hi("signIn", "otp.mobileLabel")).fill(mobile);
    await page.getByRole("button", { name: hi("signIn", "otp.send") }).click();
    await page.getByLabel(hi("signIn", "otp.codeLabel")).waitFor();
    await waitForHydration(page);
    await page.getByLabel(hi("signIn", "otp.codeLabel")).fill(latestCode(app.dataDir, mobile));
    await page.getByRole("button", { name: hi("signIn", "otp.verify") }).click();

    const onStep = async (n: number) => {
      await page.waitForURL(new RegExp(`/quickStart/Step${n}(\\?.*)?$`));
      await page
        .getByText(hi("applyQuick", "frame.progress", { number: n + 1, count: 7 }))
        .first()
        .waitFor();
      await inHindi(page, errors, `quick start step ${n}`);
    };
    const next = () => page.getByRole("button", { name: hi("applyQuick", "frame.next") }).click();

    await onStep(0);
    await page.getByRole("radio", { name: new RegExp(hi("applyQuick", "kind", { kind: "emi" })) }).check();
    await page.getByLabel(hi("applyQuick", "loan.amount")).fill("150000");
    await next();

    await onStep(1);
    await page.getByLabel(hi("applyQuick", "you.fullName")).fill(p.name);
    await page.getByLabel(hi("applyQuick", "you.dateOfBirth")).fill(p.dateOfBirth);
    await page.getByLabel(hi("applyQuick", "you.pan"), { exact: true }).fill(p.pan);
    await next();

    await onStep(2);
    await page.getByLabel(hi("validation", "pinCode.label")).fill("560001");
    await next();

    await onStep(3);
    await page.getByLabel(hi("applyQuick", "income.iAm")).selectOption("salaried");
    await page.getByLabel(hi("applyQuick", "income.net")).fill("60000");
    await page.getByLabel(hi("applyQuick", "income.salaryDay")).fill("28");
    await next();

    await onStep(4);
    await page.getByLabel(hi("applyQuick", "emis.label")).fill("0");
    await page.locator("input[name=consentBureau]").check();
    await next();

    await onStep(5);
    await page.getByTestId("offer-emi").waitFor();
    await page.getByLabel(hi("applyQuick", "offer.tenure")).selectOption("24");
    await page.getByRole("button", { name: hi("applyQuick", "offer.show") }).click();
    await page.waitForURL(/tenure=24/);
    await waitForHydration(page);
    await page
      .getByRole("button", { name: hi("applyQuick", "offer.take") })
      .first()
      .click();

    await onStep(6);
    await page.locator("input[name=consentKyc]").check();
    await page.getByRole("button", { name: hi("applyQuick", "consent.next") }).click();

    // The application, begun from the quick start's answers.
    await page.waitForURL(/\/User\/newLoan\/Emi\/[a-z2-7]{26}\/Step0$/);
    await inHindi(page, errors, "application step 0");
    const ref = /\/Emi\/([a-z2-7]{26})\//.exec(page.url())?.[1] as string;
    // The rest of the KYC profile (address proof, bank, references, selfie) as the profile's forms take it.
    const token = (await context.cookies()).find((c) => c.name === "token");
    await completeProfile(app, `token=${token?.value}`, p, mobile);
    await page.reload();
    await waitForHydration(page);
    const check = page.getByRole("button", { name: hi("applyFlow", "creditCheck.button") });
    if (await check.isVisible()) {
      await page.locator("input[name=consentBureau]").check();
      await check.click();
    }
    await page.getByLabel(hi("applySteps", "terms.tenure")).waitFor();
    await inHindi(page, errors, "application terms");
    expect(await page.getByLabel(hi("applySteps", "terms.amount")).inputValue()).toBe("150000");
    await page.getByRole("button", { name: hi("applySteps", "terms.save") }).click();

    await page.waitForURL(/\/Step1$/);
    await inHindi(page, errors, "application details");
    await page.getByLabel(hi("applySteps", "details.purpose")).selectOption("education");
    await page.getByLabel(hi("applySteps", "details.consent")).check();
    await page.getByRole("button", { name: hi("applySteps", "details.save") }).click();

    await page.waitForURL(/\/Step5$/);
    await page.getByRole("heading", { name: hi("applySteps", "kfs.title") }).waitFor();
    await inHindi(page, errors, "Key Fact Statement");
    await screenshot(page, "hindi-kfs-phone");
    // The KFS issued for this page is in Hindi, as a PDF too.
    const [application] = await app.services.db.select().from(loanApplications).where(eq(loanApplications.reference, ref));
    expect(application?.status).toBe("draft");
    const pdf = await page.request.get(`${app.url}/User/newLoan/Emi/${ref}/Step5/pdfDisplay`);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    await page.getByRole("link", { name: hi("applySteps", "kfs.continue") }).click();

    await page.waitForURL(/\/Step6$/);
    await inHindi(page, errors, "signing");
    await page.getByRole("button", { name: new RegExp(hi("applySteps", "sign.send", { mobile: "XXXXXX0421" })) }).click();
    await page.getByTestId("send-result").waitFor();
    await page.locator("input[name=accept]").check();
    await page.getByLabel(hi("applySteps", "sign.code"), { exact: true }).fill(latestCode(app.dataDir, mobile));
    await page.getByRole("button", { name: hi("applySteps", "sign.button") }).click();

    await page.waitForURL(new RegExp(`/success/${ref}$`));
    await page.getByRole("heading", { name: hi("outcome", "application.status.signed") }).waitFor();
    await inHindi(page, errors, "signed");
    await screenshot(page, "hindi-signed-phone");

    // The signature records the language the borrower read and signed in; the account keeps it for messages.
    const [user] = await app.services.db.select().from(users).where(eq(users.mobile, mobile));
    expect(user?.language).toBe("hi");
    const [signature] = await app.services.db
      .select()
      .from(loanSignatures)
      .where(eq(loanSignatures.applicationId, application?.id ?? ""));
    expect(signature?.language).toBe("hi");
    await context.close();
  });
});
