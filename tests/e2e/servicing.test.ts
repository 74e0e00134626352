import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, daysBetween } from "../../app/domain/loan-math.ts";
import { longDate } from "../../app/domain/india-date.ts";
import { graceDate } from "../../app/domain/loans/servicing.ts";
import { formatRupees } from "../../app/domain/money.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { catchUpServicing } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, instalmentOf, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The borrower's servicing journey in Chromium on a 360 px phone: a loan with a missed instalment
// (its penal charge shown), Pay now through the local checkout stand-in (the overdue cleared), the
// payoff for a chosen date (the page and the API agree), foreclosure, and the no-dues certificate.
// SCREENSHOT_DIR=/some/dir keeps screenshots of the loan page, the checkout and the closed loan.
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

// A copy: pdf.js takes over (detaches) the buffer it is given.
const pdfText = async (bytes: Uint8Array) => (await extractText(bytes.slice(), { mergePages: true })).text as string;

/** The local checkout stand-in: its order is what was chosen; Pay, and the borrower lands on the payment's outcome. */
async function payAtCheckout(page: Page, amount: string, shot?: string) {
  await page.waitForURL(/\/local-checkout\/lco_[\w-]+$/);
  await waitForHydration(page);
  await page.getByRole("heading", { name: `Pay ${amount}` }).waitFor();
  expect(await widerThanScreen(page), "the checkout is wider than the screen").toBeLessThanOrEqual(0);
  if (shot) {
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, shot);
  }
  await page.getByRole("button", { name: `Pay ${amount}` }).click();
  await page.waitForURL(/\/success\/pm_[a-z2-7]{24}$/);
  await page.getByRole("heading", { name: "Payment received" }).waitFor();
  await waitForHydration(page);
  await page.getByText(`${amount} for loan`).waitFor();
}

describe("servicing a loan in the browser", () => {
  it("a missed instalment: penal charge shown, paid through the stand-in, payoff on a date, foreclosed, no-dues certificate", async () => {
    const b = await activeLoan(app, "9710099001", credit, ops);
    const loanPath = `/User/Loans/Emi/${b.loanNumber}`;
    const first = await instalmentOf(app, b.id, 1);

    // Three days past the first instalment's grace date; the daily run levies its penal charge.
    const grace = graceDate(first.dueDate, app.services.config.holidays);
    const today = addDays(grace, 3);
    clock = new Date(`${today}T05:30:00Z`);
    await catchUpServicing(app.services);
    const dpd = daysBetween(first.dueDate, today);
    const emi = first.principalPaise + first.interestPaise;

    // A new session (the old one's life ended while the clock moved on), in the phone's browser; for
    // the server's own address (app.url names the host localhost, not 127.0.0.1).
    const { setCookie } = await createUserSession(app.services, {
      userId: b.userId,
      deviceId: `e2e-servicing-${clock.getTime()}`,
      ip: "127.0.0.1",
      userAgent: "test",
    });
    const pair = setCookie.split(";")[0] ?? "";
    const at = pair.indexOf("=");
    const context = await browser.newContext({ ...PHONE, acceptDownloads: true });
    await context.addCookies([{ name: pair.slice(0, at), value: pair.slice(at + 1), url: app.url }]);
    const page = await context.newPage();
    const errors = watchErrors(page);
    page.setDefaultTimeout(10_000);

    // The dashboard leads with what is overdue (the instalment and its penal charge) and paying it.
    await page.goto(`${app.url}/User/Dashboard`);
    await waitForHydration(page);
    const overdueCard = page.getByRole("region", { name: `${formatRupees(emi + 500_00)} is overdue` });
    await overdueCard.getByRole("link", { name: `Pay ${formatRupees(emi + 500_00)} overdue` }).click();
    await page.waitForURL(new RegExp(`${loanPath}#pay-title$`));
    await waitForHydration(page);

    // The loan page: the overdue banner with the days past due, the penal charge, axe clean, no sideways scroll.
    const banner = page.getByRole("status").filter({ hasText: "is overdue" });
    await expect
      .poll(() => banner.textContent())
      .toBe(
        `${formatRupees(emi)} is overdue, ${dpd} days past the due date. Penal charges of ${formatRupees(500_00)} are also due. Pay it now to stop further charges.`,
      );
    const penals = page.getByRole("region", { name: "Penal charges" }).getByRole("listitem");
    await expect
      .poll(() => penals.allTextContents())
      .toEqual([`Penal charge for instalment 1, ${longDate(addDays(grace, 1))}${formatRupees(500_00)} · unpaid`]);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page), "the loan page is wider than the screen").toBeLessThanOrEqual(0);
    await screenshot(page, "1-loan-overdue");

    // Pay the overdue instalment and its penal charge.
    const overdue = formatRupees(emi + 500_00);
    const payNow = page.getByRole("region", { name: "Pay now" });
    const overdueChoice = payNow.getByRole("radio", { name: /^Overdue amount and penal charges/ });
    await expect
      .poll(() => payNow.locator("label", { hasText: "Overdue amount and penal charges" }).textContent())
      .toBe(`Overdue amount and penal charges${overdue}`);
    await overdueChoice.check();
    // The clock moves on between payments, as it does: the ledger replays entries in the order recorded.
    clock = new Date(clock.getTime() + 60_000);
    await payNow.getByRole("button", { name: "Continue to payment" }).click();
    await payAtCheckout(page, overdue, "2-checkout");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Back to your loan" }).click();
    await page.waitForURL(new RegExp(`${loanPath}$`));
    await waitForHydration(page);
    await page.getByRole("heading", { name: "Pay now" }).waitFor();
    await expect.poll(() => page.getByText("is overdue").count()).toBe(0);
    const firstRow = page.getByRole("region", { name: "Repayment schedule" }).getByRole("row").nth(1);
    await expect
      .poll(() => firstRow.getByRole("cell").allTextContents())
      .toEqual(["1", longDate(first.dueDate), formatRupees(emi), "Paid"]);
    await expect
      .poll(() => penals.allTextContents())
      .toEqual([`Penal charge for instalment 1, ${longDate(addDays(grace, 1))}${formatRupees(500_00)} · paid`]);

    // The payoff for a date five days ahead: the page's total is the API's.
    const on = addDays(today, 5);
    const payoff = page.getByRole("region", { name: "Close the loan early" });
    await payoff.getByLabel("Payoff on").fill(on);
    await payoff.getByRole("button", { name: "Show the amount" }).click();
    await page.waitForURL(new RegExp(`${loanPath}\\?on=${on}$`));
    await payoff.getByRole("heading", { name: `To close on ${longDate(on)}` }).waitFor();
    const shownTotal = await payoff
      .locator("dt", { hasText: "Total to close the loan" })
      .locator("xpath=following-sibling::dd[1]")
      .textContent();
    const api = await page.evaluate(async (url) => {
      const res = await fetch(url, { credentials: "same-origin" });
      return {
        status: res.status,
        body: (await res.json()) as { on: string; totalPaise: number; overduePaise: number; penalPaise: number },
      };
    }, `/api/loans/${b.loanNumber}/payoff?on=${on}`);
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({ on, overduePaise: 0, penalPaise: 0 });
    expect(shownTotal).toBe(formatRupees(api.body.totalPaise));

    // Foreclose today: the payoff amount through the stand-in; the loan closes with its certificate.
    const payoffChoice = payNow.getByRole("radio", { name: /^Close the loan today \(payoff amount\)/ });
    const payoffText = (await payNow.locator("label", { hasText: "Close the loan today (payoff amount)" }).textContent()) ?? "";
    const payoffAmount = payoffText.replace("Close the loan today (payoff amount)", "");
    expect(payoffAmount).toMatch(/^₹[\d,]+(\.\d\d)?$/);
    await payoffChoice.check();
    clock = new Date(clock.getTime() + 60_000);
    await payNow.getByRole("button", { name: "Continue to payment" }).click();
    await payAtCheckout(page, payoffAmount);
    await page.getByRole("link", { name: "Back to your loan" }).click();
    await page.waitForURL(new RegExp(`${loanPath}$`));
    await waitForHydration(page);
    await page.getByText(`Fully repaid and closed on ${longDate(today)}.`).waitFor();
    expect(await page.getByRole("button", { name: "Continue to payment" }).count()).toBe(0);
    // Both payments received, newest first; nothing is kept for instalments of a closed loan.
    await expect
      .poll(() => page.getByRole("region", { name: "Payments" }).getByRole("listitem").allTextContents())
      .toEqual([`${payoffAmount} ${longDate(today)}Received`, `${overdue} ${longDate(today)}Received`]);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page), "the closed loan page is wider than the screen").toBeLessThanOrEqual(0);
    await screenshot(page, "3-loan-closed");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "No-dues certificate (PDF)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`no-dues-${b.loanNumber}.pdf`);
    const bytes = new Uint8Array(readFileSync(await download.path()));
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const text = await pdfText(bytes);
    expect(text).toContain(b.loanNumber);
    expect(text).toContain("No-dues certificate");
    expect(text).toContain(`has repaid loan ${b.loanNumber} in full`);

    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
