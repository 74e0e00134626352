import { readFileSync } from "node:fs";
import type { Browser, BrowserContext } from "playwright-core";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../app/domain/loan-math.ts";
import { longDate } from "../../app/domain/india-date.ts";
import { graceDate } from "../../app/domain/loans/servicing.ts";
import { formatRupees } from "../../app/domain/money.ts";
import { eq } from "drizzle-orm";
import { loanAccounts } from "../../app/server/db/schema.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { catchUpServicing } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, instalmentOf, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Issue 35's loan figures in Chromium: after an early payment the borrower's loan page (a 360 px
// phone) says one thing everywhere (what is next due and what the advance already pays, the
// instalment it will pay, the advance held beside the principal outstanding and the payoff), and
// the statement names the payment by how it was made; operations on a desktop waive a penal charge
// from its own line of the staff loan page, with a reason.
let clock = new Date("2026-03-02T05:30:00Z");
let app: TestServer;
let browser: Browser;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }, { now: () => clock }), launchBrowser()]);
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function withCookie(cookie: string, options: Parameters<Browser["newContext"]>[0]): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const at = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: app.url }]);
  return context;
}
async function borrowerCookie(userId: string) {
  const { setCookie } = await createUserSession(app.services, {
    userId,
    deviceId: `e2e-figures-${userId}-${clock.getTime()}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  return setCookie.split(";")[0] ?? "";
}

describe("a loan's figures in the browser", () => {
  it("after an early payment the loan page agrees with itself, and the statement names the payment", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await activeLoan(app, "9710088001", credit, ops);
    const loanPath = `/User/Loans/Emi/${b.loanNumber}`;
    const first = await instalmentOf(app, b.id, 1);
    const emi = first.principalPaise + first.interestPaise;
    const [account] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, b.id));
    const principal = account?.principalPaise ?? 0;
    clock = new Date("2026-03-10T05:30:00Z");
    const context = await withCookie(await borrowerCookie(b.userId), { ...PHONE, acceptDownloads: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    page.setDefaultTimeout(10_000);
    await page.goto(`${app.url}${loanPath}`);
    await waitForHydration(page);

    // Pay the next instalment now, weeks before it is due.
    const payNow = page.getByRole("region", { name: "Pay now" });
    await payNow.getByRole("radio", { name: /^Amount due/ }).check();
    await payNow.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(/\/local-checkout\/lco_[\w-]+$/);
    await waitForHydration(page);
    await page.getByRole("button", { name: `Pay ${formatRupees(emi)}` }).click();
    await page.waitForURL(/\/success\/pm_[a-z2-7]{24}$/);
    await page.getByRole("link", { name: "Back to your loan" }).click();
    await page.waitForURL(new RegExp(`${loanPath}$`));
    await waitForHydration(page);

    // Next due: nothing to pay, the instalment is paid by the advance; the schedule says the same.
    await expect
      .poll(() => page.getByTestId("next-due").textContent())
      .toBe(`Nothing: the ${formatRupees(emi)} due on ${longDate(first.dueDate)} is paid by your advance payment`);
    await expect
      .poll(() => page.getByTestId("instalment-1-status").textContent())
      .toBe("UpcomingPaid by your advance payment on its due date");
    const summary = page.getByRole("region", { name: "Summary" });
    const figure = (label: string) => summary.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]").textContent();
    expect(await figure("Principal outstanding")).toBe(formatRupees(principal));
    expect(await figure("Advance payment held")).toBe(formatRupees(emi));
    // The payoff's principal not yet due is the principal outstanding less the advance, and says so.
    const payoff = page.getByRole("region", { name: "Close the loan early" });
    const notYetDue = await payoff
      .locator("dt", { hasText: "Principal not yet due" })
      .locator("xpath=following-sibling::dd[1]")
      .textContent();
    expect(notYetDue).toBe(formatRupees(principal - emi));
    await payoff.getByText(`Your advance payment of ${formatRupees(emi)} is already taken off these figures`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page), "the loan page is wider than the screen").toBeLessThanOrEqual(0);
    await screenshot(page, "figures-1-advance");

    // The statement: the payment by UPI with its reference, the balance after it.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("region", { name: "Documents" }).getByRole("button", { name: "Download (PDF)" }).click(),
    ]);
    const text = ((await extractText(new Uint8Array(readFileSync(await download.path())), { mergePages: true })).text as string).replace(
      /\s+/g,
      " ",
    );
    expect(text).toMatch(/Payment by UPI, reference \d{12}/);
    expect(text).toContain(`Closing balance ₹ ${formatRupees(principal - emi).replace("₹", "")}`);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("operations waive a penal charge from its line on the staff loan page, with a reason the borrower then reads", async () => {
    clock = new Date("2026-03-02T05:30:00Z");
    const b = await activeLoan(app, "9710088002", credit, ops);
    const first = await instalmentOf(app, b.id, 1);
    const grace = graceDate(first.dueDate, app.services.config.holidays);
    clock = new Date(`${addDays(grace, 2)}T05:30:00Z`);
    await catchUpServicing(app.services);

    const context = await withCookie(ops.cookie, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    page.setDefaultTimeout(10_000);
    await page.goto(`${app.url}/admin/loans/${b.loanNumber}`);
    await waitForHydration(page);
    const line = page.getByTestId("penal-1");
    await expect.poll(() => line.getByTestId("penal-status").textContent()).toBe("Unpaid");
    // A reason is required, said next to the field.
    await line.getByRole("button", { name: `Waive this charge of ${formatRupees(500_00)}` }).click();
    await line.getByText("Give the reason.").waitFor();
    await line
      .getByLabel(`Why the ${formatRupees(500_00)} charge of instalment 1 is waived`)
      .fill("Hospitalised on the due date, discharge summary seen");
    await line.getByRole("button", { name: `Waive this charge of ${formatRupees(500_00)}` }).click();
    await expect
      .poll(() => page.getByTestId("penal-1").getByTestId("penal-status").textContent())
      .toBe("Waived: Hospitalised on the due date, discharge summary seen");
    expect(await page.getByTestId("penal-1").getByRole("button", { name: /Waive/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "figures-2-waived");
    expect(errors).toEqual([]);
    await context.close();

    // The borrower's loan page shows the charge waived, and nothing penal is due.
    const borrower = await withCookie(await borrowerCookie(b.userId), PHONE);
    const mine = await borrower.newPage();
    await mine.goto(`${app.url}/User/Loans/Emi/${b.loanNumber}`);
    await mine
      .getByRole("region", { name: "Penal charges" })
      .getByText(/waived/i)
      .first()
      .waitFor();
    expect(await mine.getByText("Penal charges due").count()).toBe(0);
    await borrower.close();
  }, 120_000);
});
