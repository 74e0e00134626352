import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedApplication } from "../helpers/applications.ts";
import { launchBrowser, PHONE, screenshot, signedInContext, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The signed-in header with its language switch on a 360 px phone, in English and in Hindi: nothing
// wider than the screen, the switch there beside the bell and Sign out, and it changes the language.
let app: TestServer;
let browser: Browser;
let cookie = "";
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  cookie = (await signedApplication(app, "9633300001")).cookie;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("the signed-in header's language switch", () => {
  it("fits a 360 px phone in both languages and switches between them", async () => {
    const context = await signedInContext(browser, app.url, cookie, PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    for (const path of ["/User/Dashboard", "/User/Notifications", "/User/Help", "/User/Help/new"]) {
      await page.goto(`${app.url}${path}`);
      await waitForHydration(page);
      expect(await page.getAttribute("html", "lang"), path).toBe("en-IN");
      expect(await widerThanScreen(page), `${path} in English`).toBeLessThanOrEqual(0);
      const banner = page.getByRole("banner");
      await expect(banner.getByTestId("language-switch").isVisible()).resolves.toBe(true);
      await screenshot(page, `account-en${path.replaceAll("/", "-")}`);

      await banner.getByTestId("language-switch").click();
      await page.waitForFunction(() => document.documentElement.lang === "hi-IN");
      await waitForHydration(page);
      expect(new URL(page.url()).pathname, path).toBe(path);
      expect(await widerThanScreen(page), `${path} in Hindi`).toBeLessThanOrEqual(0);
      await expect(banner.getByRole("button", { name: "साइन आउट" }).isVisible()).resolves.toBe(true);
      await expect(banner.getByRole("navigation", { name: "खाता" }).getByRole("link", { name: "मदद" }).isVisible()).resolves.toBe(true);
      await screenshot(page, `account-hi${path.replaceAll("/", "-")}`);

      // And back to English.
      await banner.getByTestId("language-switch").click();
      await page.waitForFunction(() => document.documentElement.lang === "en-IN");
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
