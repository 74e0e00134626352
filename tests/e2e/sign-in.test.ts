import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchBrowser, PHONE, waitForHydration, watchErrors } from "../helpers/browser.ts";
import { latestCode, readOutbox } from "../helpers/outbox.ts";
import { pagesHearRealtime, userIdOf } from "../helpers/realtime.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signInWithCode } from "../helpers/sign-in.ts";

let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ OTP_PER_IP_PER_HOUR: "200", OTP_PER_NUMBER_PER_HOUR: "50" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

let counter = 0;
const newMobile = () => `98${String(Date.now() % 1e6).padStart(6, "0")}${String(counter++ % 100).padStart(2, "0")}`;

const signIn = (page: Page, mobile: string, startPath?: string) =>
  signInWithCode(page, { baseUrl: app.url, dataDir: app.dataDir }, mobile, startPath);

describe("borrower sign-in with a one-time code", () => {
  it("sends signed-out visitors of /User pages to sign-in and brings them back to the page asked for", async () => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const mobile = newMobile();
    await page.goto(`${app.url}/User/Dashboard?from=test`);
    expect(new URL(page.url()).pathname).toBe("/quickStart/Otp");
    expect(await axeViolations(page)).toEqual([]);
    await signIn(page, mobile, new URL(page.url()).pathname + new URL(page.url()).search);
    await page.waitForURL(/\/User\/Dashboard\?from=test$/);
    await expect(page.getByTestId("signed-in-mobile").textContent()).resolves.toBe(`+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`);
    const sms = readOutbox(app.dataDir).filter((m) => m.to === mobile);
    expect(sms).toHaveLength(1);
    expect(sms[0]?.text).toMatch(/^\d{6} is your Sugam Loans sign-in code/);
    const token = (await context.cookies()).find((c) => c.name === "token");
    expect(token).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect((token?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(179 * 24 * 3600);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);

    // Sign-out ends it on the server and clears the cookie.
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await page.waitForURL(app.url + "/");
    expect((await context.cookies()).find((c) => c.name === "token")).toBeUndefined();
    await page.goto(`${app.url}/User/Dashboard`);
    expect(new URL(page.url()).pathname).toBe("/quickStart/Otp");
    await context.close();
  });

  it("kills a code after 5 wrong tries, saying so", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const mobile = newMobile();
    await page.goto(app.url + "/quickStart/Otp");
    await page.getByLabel("Mobile number").fill(mobile);
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByLabel("One-time code").waitFor();
    const right = latestCode(app.dataDir, mobile);
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 4; i >= 1; i--) {
      await page.getByLabel("One-time code").fill(wrong);
      await page.getByRole("button", { name: "Verify and continue" }).click();
      await page.getByText(`You have ${i} ${i === 1 ? "try" : "tries"} left.`).waitFor();
    }
    await page.getByLabel("One-time code").fill(wrong);
    await page.getByRole("button", { name: "Verify and continue" }).click();
    await page.getByText("no longer works after 5 wrong tries").waitFor();
    // Even the right code is refused now.
    await page.getByLabel("One-time code").fill(right);
    await page.getByRole("button", { name: "Verify and continue" }).click();
    await page.getByText("too many wrong tries").waitFor();
    expect(new URL(page.url()).pathname).toBe("/quickStart/Otp");
    await context.close();
  });

  it("offers a resend only after 30 seconds", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const mobile = newMobile();
    await page.goto(app.url + "/quickStart/Otp");
    await waitForHydration(page);
    await page.getByLabel("Mobile number").fill(mobile);
    await page.getByRole("button", { name: "Send code" }).click();
    const resend = page.getByRole("button", { name: /Resend code/ });
    await resend.waitFor();
    await waitForHydration(page);
    expect(await resend.isDisabled()).toBe(true);
    expect(await resend.textContent()).toMatch(/Resend code in (29|30) s/);
    await context.close();
  });
});

describe("one live device per borrower", () => {
  async function dashboard(context: BrowserContext) {
    const page = await context.newPage();
    await page.goto(app.url + "/User/Dashboard");
    await waitForHydration(page);
    return page;
  }

  it("signing in on a second device displaces the first: notice kept until read, data cleared, home says why", async () => {
    const mobile = newMobile();
    const deviceA = await browser.newContext(PHONE);
    // Device A's timers are the test's to run (time still flows on its own meanwhile).
    await deviceA.clock.install();
    const pageA = await deviceA.newPage();
    await signIn(pageA, mobile);
    await pageA.waitForURL(/\/User\/Dashboard$/);
    await waitForHydration(pageA);
    // A second tab on the same device is the same device.
    const tabA2 = await dashboard(deviceA);
    await pageA.waitForFunction(() => localStorage.getItem("device_id") !== null);
    // Both tabs' event streams are registered.
    await pagesHearRealtime(app, await userIdOf(app, mobile), [pageA, tabA2]);
    // Every page load of tab A from now on (an automatic one would be a second).
    const loads: string[] = [];
    pageA.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === pageA.mainFrame()) loads.push(request.url());
    });

    const deviceB = await browser.newContext();
    const pageB = await deviceB.newPage();
    const started = Date.now();
    await signIn(pageB, mobile);
    await pageB.waitForURL(/\/User\/Dashboard$/);

    await pageA.getByText("Someone else logged in!").waitFor({ timeout: 5000 });
    const noticeMs = Date.now() - started;
    await tabA2.getByText("Someone else logged in!").waitFor({ timeout: 5000 });
    // The message stays until it is read: no page change on its own. The page has done all it does
    // on the event (storage and session cleared, OK enabled), and every timer it set in the next
    // ten minutes has fired.
    await pageA.getByRole("alertdialog").getByRole("button", { name: "OK", disabled: false }).waitFor({ timeout: 5000 });
    await pageA.clock.runFor("10:00");
    expect(new URL(pageA.url()).pathname).toBe("/User/Dashboard");
    expect(await axeViolations(pageA)).toEqual([]);
    expect(loads).toEqual([]);
    await pageA.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
    await pageA.waitForURL(app.url + "/?signedOut=elsewhere", { timeout: 5000 });
    // One page load since the message came, the one OK asked for: a change started on its own
    // before the click, however late its request, would be here too.
    expect(loads).toEqual([app.url + "/?signedOut=elsewhere"]);
    await expect(pageA.getByTestId("signed-out-elsewhere").textContent()).resolves.toContain(
      "Someone else logged in!Your account was signed in on another device",
    );
    await expect(pageA.getByRole("link", { name: "Sign in", exact: true }).count()).resolves.toBe(1);
    expect(await pageA.evaluate(() => localStorage.length)).toBe(0);
    expect((await deviceA.cookies()).find((c) => c.name === "token")).toBeUndefined();
    expect(noticeMs).toBeLessThan(5000);

    // Device B is still signed in.
    await pageB.reload();
    expect(new URL(pageB.url()).pathname).toBe("/User/Dashboard");
    await deviceA.close();
    await deviceB.close();
  });

  it("signing in again on the same device does not displace its other tabs", async () => {
    const mobile = newMobile();
    const device = await browser.newContext();
    const first = await device.newPage();
    await signIn(first, mobile);
    await first.waitForURL(/\/User\/Dashboard$/);
    await waitForHydration(first);
    const userId = await userIdOf(app, mobile);
    // The first tab's event stream is registered: it would hear a displacement.
    await pagesHearRealtime(app, userId, [first]);
    const second = await device.newPage();
    // Sign in again on the same browser (same device_id in local storage).
    await device.clearCookies();
    await signIn(second, mobile);
    await second.waitForURL(/\/User\/Dashboard$/);
    // The sign-in sent its event (if any) before it answered; an event sent after it reaches the first
    // tab after it. A displacement would have closed the tab's stream, and this would time out.
    await pagesHearRealtime(app, userId, [first]);
    expect(await first.getByText("Someone else logged in!").count()).toBe(0);
    await device.close();
  });
});

describe("KYC profile section", () => {
  it("is reachable from the dashboard, accessible, and shows errors next to fields without JavaScript", async () => {
    const mobile = newMobile();
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await signIn(page, mobile);
    await page.waitForURL(/\/User\/Dashboard$/);
    await page.getByRole("link", { name: "See what is missing" }).click();
    await page.getByRole("heading", { name: "Your KYC profile" }).waitFor();
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    await expect(page.getByTestId("kyc-progress").textContent()).resolves.toBe("0 of 7 sections complete.");
    await page.getByRole("link", { name: "Personal details" }).click();
    await page.getByRole("heading", { name: "Your profile" }).waitFor();
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    for (const [path, heading] of [
      ["/User/Profile/components/Address", "Your address"],
      ["/User/Profile/components/Employment", "Your work and income"],
      ["/User/Profile/components/Bank", "Your bank account"],
      ["/User/Profile/components/Reference", "Your references"],
      ["/User/Profile/components/Documents", "Your documents"],
      ["/User/Profile/components/Selfie", "Your selfie"],
    ] as const) {
      await page.goto(app.url + path);
      await page.getByRole("heading", { name: heading }).waitFor();
      await waitForHydration(page);
      expect(await axeViolations(page)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
    // PIN code and IFSC are looked up while typing.
    await page.goto(app.url + "/User/Profile/components/Address");
    await waitForHydration(page);
    await page.getByLabel("PIN code", { exact: true }).fill("110001");
    await page.getByText(/Delhi/).first().waitFor();
    await page.goto(app.url + "/User/Profile/components/Bank");
    await waitForHydration(page);
    await page.getByLabel("IFSC").fill("SBIN0000001");
    await page.getByText("Bank: State Bank of India").waitFor();
    await context.close();

    const noJs = await browser.newContext({
      ...PHONE,
      javaScriptEnabled: false,
      storageState: await (async () => {
        const c = await browser.newContext();
        const p = await c.newPage();
        await signIn(p, newMobile());
        await p.waitForURL(/\/User\/Dashboard$/);
        const state = await c.storageState();
        await c.close();
        return state;
      })(),
    });
    const plain = await noJs.newPage();
    await plain.goto(app.url + "/User/Profile/components/Profile");
    await plain.getByLabel("Full name (as on PAN)").fill("Ravi Kumar");
    await plain.getByLabel("PAN", { exact: true }).fill("ABCDE1234F");
    await plain.getByRole("button", { name: "Save profile" }).click();
    await plain.getByText("4th letter must be P").waitFor();
    expect(await plain.getByLabel("Full name (as on PAN)").inputValue()).toBe("Ravi Kumar");
    await noJs.close();
  });
});
