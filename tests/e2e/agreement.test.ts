import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeProfile, defaultProfile } from "../fixtures/kyc.ts";
import { signedApplication, startedApplication } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// The KFS and agreement where a phone cannot embed a PDF: Step5 and /Eagreement/{id} show the
// document's first page as an image drawn on the server (with Open and Download), the hashes wrap,
// nothing is wider than a 360 px screen; a desktop keeps the embedded PDF. The image answers only
// to whoever may see the PDF.
let app: TestServer;
let browser: Browser;
let signed: Awaited<ReturnType<typeof signedApplication>>;
let agreementRef = "";
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  signed = await signedApplication(app, "9650000001");
  agreementRef = signed.agreementRef;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function withCookie(cookie: string | null, options = PHONE): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  if (cookie) {
    const at = cookie.indexOf("=");
    await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: app.url }]);
  }
  return context;
}

/** The preview image is shown, loaded whole (a PNG drawn at 720 px), and links to the PDF. */
async function expectPreview(page: Page, pdfHref: RegExp) {
  const figure = page.getByTestId("pdf-preview");
  await expect(figure.isVisible()).resolves.toBe(true);
  const img = figure.getByRole("img", { name: /^First page of the/ });
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(720);
  await expect(figure.getByRole("link").getAttribute("href")).resolves.toMatch(pdfHref);
  await expect(page.locator("iframe").isVisible()).resolves.toBe(false);
}

describe("the signed agreement on a phone", () => {
  it("shows the first page as an image with Open and Download, wraps the hashes, and fits the screen", async () => {
    const context = await withCookie(null);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/Eagreement/${agreementRef}`);
    await waitForHydration(page);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await expectPreview(page, new RegExp(`^/Eagreement/${agreementRef}/pdf$`));
    await expect(page.getByRole("link", { name: "Open the PDF" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: "Download the signed PDF" }).isVisible()).resolves.toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "eagreement-360");
    expect(errors).toEqual([]);
    await context.close();

    const desk = await withCookie(null, { viewport: { width: 1280, height: 900 } });
    const wide = await desk.newPage();
    await wide.goto(`${app.url}/Eagreement/${agreementRef}`);
    await wide.locator("iframe").waitFor();
    await expect(wide.getByTestId("pdf-preview").isVisible()).resolves.toBe(false);
    await desk.close();
  });

  it("draws the image only for a real agreement reference", async () => {
    const png = await app.get(`/Eagreement/${agreementRef}/preview.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(png.headers.get("cache-control")).toBe("private, no-store");
    expect([...new Uint8Array(await png.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect((await app.get(`/Eagreement/${"a".repeat(26)}/preview.png`)).status).toBe(404);
    // The application reference is not the agreement's: no image for it.
    expect((await app.get(`/Eagreement/${signed.ref}/preview.png`)).status).toBe(404);
  });
});

describe("the KFS at Step5 on a phone", () => {
  it("shows its first page as an image to the borrower, and to nobody else", async () => {
    const mobile = "9650000002";
    const b = await signedInBorrower(app, mobile);
    await completeProfile(app, b.cookie, defaultProfile({ pan: "ABCPG8001K" }), mobile);
    const step0 = `/User/newLoan/Emi/${await startedApplication(app, b.cookie, "Emi")}/Step0`;
    const step = (s: string) => step0.replace(/Step0$/, s);
    expect((await postForm(app, step("Step0"), { amount: "1,00,000", tenure: "12" }, b)).status).toBe(302);
    expect((await postForm(app, step("Step1"), { purpose: "medical", disbursalConsent: "yes" }, b)).status).toBe(302);

    const context = await withCookie(b.cookie);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(app.url + step("Step5"));
    await waitForHydration(page);
    await expectPreview(page, /\/Step5\/pdfDisplay$/);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "step5-360");
    expect(errors).toEqual([]);
    await context.close();

    // Another borrower, and nobody at all: the not-found page, no image.
    const other = await signedInBorrower(app, "9650000003");
    expect((await app.get(step("Step5/preview.png"), { headers: { Cookie: other.cookie } })).status).toBe(404);
    expect((await app.get(step("Step5/preview.png"))).status).toBe(404);
  });
});
