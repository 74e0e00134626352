import type { Browser, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeLoan, signedInStaff } from "../helpers/applications.ts";
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
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// /admin/ckyc in Chromium (docs/product.md: CKYC): axe clean on a desktop and a 360 px phone with
// an upload failed and one made, nothing wider than the screen, and "Try again now" working
// without JavaScript.
let app: TestServer;
let browser: Browser;
let compliance: { cookie: string };
let failed: { loanNumber: string; userId: string };
let uploaded: { loanNumber: string; userId: string };

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }), launchBrowser()]);
  compliance = await signedInStaff(app, "compliance", "Kiran Desai");
  const credit = await signedInStaff(app, "credit", "Asha Rao");
  const ops = await signedInStaff(app, "operations", "Omar Shaikh");
  failed = await activeLoan(app, "9400000501", credit, ops, { name: "Rohan Verma", pan: "ABCPW9999K" });
  uploaded = await activeLoan(app, "9400000502", credit, ops, { name: "Meera Iyer" });
  await waitForJobs(app, ["ckyc-search", "ckyc-upload"]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function open(path: string, options: BrowserContextOptions) {
  const context = await signedInContext(browser, app.url, compliance.cookie, options);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(app.url + path);
  if (options.javaScriptEnabled !== false) await waitForHydration(page);
  return { page, errors, context };
}

describe("the CKYC page in the browser", () => {
  for (const [label, options] of [
    ["desktop", { viewport: { width: 1280, height: 900 } }],
    ["phone", PHONE],
  ] as const) {
    it(`passes axe on a ${label}, with the failed upload and the number shown, nothing wider than the screen`, async () => {
      for (const path of ["/admin/ckyc", `/admin/borrowers/${uploaded.userId}`, `/admin/loans/${failed.loanNumber}`]) {
        const { page, errors, context } = await open(path, options);
        expect(await axeViolations(page), path).toEqual([]);
        expect(await widerThanScreen(page), `${path} is wider than the screen`).toBeLessThanOrEqual(0);
        expect(errors, path).toEqual([]);
        await screenshot(page, `ckyc-${label}-${path.split("/")[2]}`);
        if (path === "/admin/ckyc") {
          await expect(page.getByRole("heading", { level: 1, name: "CKYC" }).isVisible()).resolves.toBe(true);
          await expect(page.getByRole("button", { name: "Try again now" }).count()).resolves.toBe(1);
          await expect(page.getByText(uploaded.loanNumber).count()).resolves.toBe(1);
        }
        await context.close();
      }
    }, 60_000);
  }

  it("tries a failed upload again without JavaScript", async () => {
    const { page, context } = await open("/admin/ckyc", { ...PHONE, javaScriptEnabled: false });
    const attempts = () =>
      page
        .getByRole("row", { name: /Rohan Verma/ })
        .getByRole("cell")
        .nth(5)
        .innerText();
    await expect(attempts()).resolves.toBe("1");
    await page.getByRole("button", { name: "Try again now" }).click();
    await page.waitForURL(`${app.url}/admin/ckyc`);
    await waitForJobs(app, "ckyc-upload");
    await page.reload();
    await expect(attempts()).resolves.toBe("2");
    await context.close();
  }, 60_000);
});
