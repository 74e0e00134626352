import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addDays } from "../../app/domain/loan-math.ts";
import { todayIST } from "../../app/domain/india-date.ts";
import { funnelEvents, payouts } from "../../app/server/db/schema.ts";
import { approvedApplication, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, waitForHydration, watchErrors } from "../helpers/browser.ts";
import { postForm } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The reports page in Chromium: charts and tables with axe on a desktop and a 360 px phone, the
// period form without JavaScript, and nothing wider than the phone's screen.
let app: TestServer;
let browser: Browser;
let staff: { cookie: string };
const SCREENSHOTS = process.env.REPORTS_SCREENSHOTS;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "1" }), launchBrowser()]);
  const credit = await signedInStaff(app, "credit", "Asha Rao");
  const ops = await signedInStaff(app, "operations", "Omar Shaikh");
  staff = await signedInStaff(app, "support", "Sunita Das");
  await signedApplication(app, "9400000301");
  const paid = await approvedApplication(app, "9400000302", credit);
  await postForm(app, `/admin/applications/${paid.ref}`, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie });
  // Quick-start visits over the last week: fewer borrowers at each step.
  const today = todayIST(new Date());
  const rows: (typeof funnelEvents.$inferInsert)[] = [];
  for (let day = 0; day < 7; day++) {
    const at = new Date(`${addDays(today, -day)}T11:00:00+05:30`);
    for (let step = 0; step < 7; step++) {
      const viewed = Math.max(0, 12 - day - step * 2);
      for (let i = 0; i < viewed; i++) {
        rows.push({ event: "step_viewed", step, createdAt: at });
        if (i < viewed - 2) rows.push({ event: "step_completed", step, createdAt: at });
      }
    }
  }
  await app.services.db.insert(funnelEvents).values(rows);
  await vi.waitFor(
    async () => {
      const [p] = await app.services.db.select().from(payouts).where(eq(payouts.applicationId, paid.id));
      if (p?.status !== "processed") throw new Error("the payout is not processed yet");
    },
    { timeout: 20_000, interval: 250 },
  );
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function contextWith(cookie: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const at = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: app.url }]);
  return context;
}

describe("reports in the browser", () => {
  for (const [name, options] of [
    ["desktop", { viewport: { width: 1280, height: 900 } }],
    ["phone", PHONE],
  ] as const) {
    it(`shows every chart with its table and passes axe (${name})`, async () => {
      const context = await contextWith(staff.cookie, options);
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${app.url}/admin/reports`);
      await waitForHydration(page);
      for (const chart of ["funnel-chart", "funnel-days-chart", "pipeline-chart", "decisions-chart", "disbursed-chart"]) {
        const figure = page.getByTestId(chart);
        await expect(figure.getByRole("img").getAttribute("aria-label")).resolves.toMatch(/\d/);
        await figure.getByText("The numbers as a table").click();
        await expect(figure.getByRole("table").isVisible()).resolves.toBe(true);
      }
      expect(await axeViolations(page)).toEqual([]);
      // Nothing wider than the screen: wide tables scroll inside their own region.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/reports-${name}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("changes the period with the form, and says what was wrong with a bad one (also without JavaScript)", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await contextWith(staff.cookie, { ...PHONE, javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${app.url}/admin/reports?from=2026-03-10&to=2026-03-01`);
      if (javaScriptEnabled) await waitForHydration(page);
      await expect(page.getByLabel("To", { exact: true }).getAttribute("aria-invalid")).resolves.toBe("true");
      await expect(page.getByTestId("to-problem").textContent()).resolves.toContain("The end date is before the start date");
      if (javaScriptEnabled) expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel("From", { exact: true }).fill("2026-01-01");
      await page.getByLabel("To", { exact: true }).fill("2026-01-31");
      await page.getByRole("button", { name: "Show" }).click();
      await page.waitForURL(/from=2026-01-01&to=2026-01-31$/);
      await page.getByTestId("report-period").getByText("Showing 1 Jan 2026 to 31 Jan 2026 (31 days").waitFor();
      await expect(page.getByTestId("to-problem").textContent()).resolves.toBe("");
      await expect(page.getByTestId("report-disbursed").textContent()).resolves.toContain("No money was disbursed in this period.");
      await context.close();
    }
  });
});
