import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedApplication, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// Help and tickets in Chromium: a borrower on a 360 px phone searches the questions, raises a
// complaint, and follows it; support on a desktop answers (with an internal note), the borrower
// replies, support resolves it, the borrower reopens it; 31 days on, the borrower is shown how to
// go to the RBI Ombudsman. axe on every page. SCREENSHOT_DIR=/some/dir keeps screenshots.
let clock = new Date("2026-09-01T05:30:00Z");
let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({}, { now: () => clock }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function contextWith(cookie: string, options = PHONE): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const at = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: app.url }]);
  return context;
}

/** axe finds nothing, nothing is wider than the screen, a screenshot is kept. */
async function check(page: Page, name: string) {
  expect(await axeViolations(page), name).toEqual([]);
  expect(await widerThanScreen(page), `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  await screenshot(page, name);
}

describe("help and tickets in the browser", () => {
  it("raise, answer, reply, resolve, reopen, and escalation after 30 days", async () => {
    const b = await signedInBorrower(app, "9620000001");
    const staff = await signedInStaff(app, "support", "Sara Khan");
    const phone = await contextWith(b.cookie);
    const desk = await contextWith(staff.cookie, { viewport: { width: 1280, height: 900 } });
    const page = await phone.newPage();
    const errors = watchErrors(page);

    // The questions, searchable.
    await page.goto(`${app.url}/User/Help`);
    await waitForHydration(page);
    await check(page, "help-360");
    await page.getByLabel("Search the questions").fill("penal");
    await page.getByRole("button", { name: "Search" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /match.*penal/ })
      .waitFor();
    await expect(page.getByText("What is a penal charge?").isVisible()).resolves.toBe(true);
    expect(await page.getByText("How do I pay an instalment?").count()).toBe(0);

    // A complaint, with its errors next to the fields first.
    await page.getByRole("main").getByRole("link", { name: "Raise a ticket" }).click();
    await page.waitForURL(/\/User\/Help\/new$/);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Raise the ticket" }).click();
    await page.getByText("Give it a short title.", { exact: true }).waitFor();
    await check(page, "help-new-360");
    await page.getByText("A complaint", { exact: true }).click();
    await page.getByLabel("What is it about?").selectOption("repayment");
    await page.getByLabel("Title").fill("Payment not shown");
    await page.getByLabel("Your message").fill("I paid ₹5,000 by UPI on 1 September but the loan page does not show it.");
    await page.getByRole("button", { name: "Raise the ticket" }).click();
    await page.waitForURL(/\/User\/Help\/GRV-\d{10}$/);
    const reference = /GRV-\d{10}/.exec(page.url())?.[0] ?? "";
    await page.getByText(`Ticket ${reference} raised`).waitFor();
    await expect(page.getByTestId("ticket-status").textContent()).resolves.toBe("Open");
    await check(page, "help-ticket-360");

    // Support, on a desktop: the queue, an internal note, and a reply that waits for the borrower.
    const desk1 = await desk.newPage();
    const deskErrors = watchErrors(desk1);
    await desk1.goto(`${app.url}/admin/tickets`);
    await waitForHydration(desk1);
    await check(desk1, "admin-tickets-1280");
    await desk1.getByRole("link", { name: reference }).click();
    await desk1.waitForURL(new RegExp(`/admin/tickets/${reference}$`));
    await waitForHydration(desk1);
    await check(desk1, "admin-ticket-1280");
    await desk1.getByLabel("Internal note (the borrower never sees it)").fill("Gateway shows nothing for 1 Sep yet.");
    await desk1.getByRole("button", { name: "Save the note" }).click();
    await desk1.getByTestId("internal-note").waitFor();
    await desk1.getByLabel("Reply to the borrower").fill("Please send the UPI reference (UTR) from your bank's app.");
    await desk1.getByLabel("Waiting for the borrower").check();
    await desk1.getByRole("button", { name: "Send the reply" }).click();
    await desk1.getByTestId("message-staff").waitFor();
    // Staff read one word for the status everywhere, the borrower theirs.
    await expect(desk1.getByTestId("ticket-status").textContent()).resolves.toBe("Waiting for the borrower");

    // The borrower sees the answer (not the note) and replies.
    await page.reload();
    await waitForHydration(page);
    await page.getByText("Please send the UPI reference (UTR)").waitFor();
    expect(await page.getByText("Gateway shows nothing").count()).toBe(0);
    await expect(page.getByTestId("ticket-status").textContent()).resolves.toBe("Waiting for you");
    await page.getByLabel("Your reply").fill("UTR 412345678901");
    await page.getByRole("button", { name: "Send reply" }).click();
    await page.getByText("Your reply is sent.").waitFor();
    await expect(page.getByTestId("ticket-status").textContent()).resolves.toBe("In progress");

    // Support resolves it.
    await desk1.reload();
    await waitForHydration(desk1);
    await desk1.getByText("UTR 412345678901").waitFor();
    await desk1.getByLabel("Reply to the borrower").fill("Found it: the payment is now applied to your loan.");
    await desk1.getByLabel("Resolved").check();
    await desk1.getByRole("button", { name: "Send the reply" }).click();
    await expect.poll(() => desk1.getByTestId("ticket-status").textContent()).toBe("Resolved");

    // The borrower reopens it.
    await page.reload();
    await waitForHydration(page);
    await page.getByRole("heading", { name: "Is it solved?" }).waitFor();
    await check(page, "help-ticket-resolved-360");
    await page.getByLabel(/Not solved\? Tell us why/).fill("The penal charge is still on the loan page.");
    await page.getByRole("button", { name: "Reopen the ticket" }).click();
    await page.getByText(`Ticket ${reference} is open again.`).waitFor();
    await expect(page.getByTestId("ticket-status").textContent()).resolves.toBe("In progress");

    // 31 days after it was raised, still not resolved: the way to the RBI Ombudsman, ready to copy.
    clock = new Date("2026-10-02T05:30:00Z");
    await page.reload();
    await waitForHydration(page);
    const box = page.getByTestId("escalation");
    await box.waitFor();
    await expect(box.textContent()).resolves.toContain("We did not resolve this complaint within 30 days.");
    expect(await page.getByLabel("Details to copy into the complaint").inputValue()).toContain(`Complaint reference: ${reference}`);
    await check(page, "help-ticket-escalation-360");
    await page.goto(`${app.url}/User/Help`);
    await page.getByText("You may escalate").waitFor();

    expect(errors).toEqual([]);
    expect(deskErrors).toEqual([]);
    await phone.close();
    await desk.close();
  });

  it("raises a ticket about a loan from its page, the loan chosen already", async () => {
    clock = new Date("2026-09-06T05:30:00Z");
    const b = await signedApplication(app, "9620000003");
    const context = await contextWith(b.cookie);
    const page = await context.newPage();
    await page.goto(`${app.url}/User/Help/new?loan=${b.ref}`);
    await waitForHydration(page);
    await expect(page.getByLabel("Which loan? (optional)").inputValue()).resolves.toBe(b.ref);
    await expect(page.getByLabel("Which loan? (optional)").locator("option:checked").textContent()).resolves.toBe(
      `EMI loan application ${b.ref.slice(0, 8).toUpperCase()}`,
    );
    // Another borrower's reference in the address chooses nothing.
    await page.goto(`${app.url}/User/Help/new?loan=${"a".repeat(26)}`);
    await expect(page.getByLabel("Which loan? (optional)").inputValue()).resolves.toBe("");
    await context.close();
  });

  it("raises a ticket without JavaScript", async () => {
    clock = new Date("2026-09-05T05:30:00Z");
    const b = await signedInBorrower(app, "9620000002");
    const context = await contextWith(b.cookie, { ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/User/Help/new`);
    await page.getByText("A question or request", { exact: true }).click();
    await page.getByLabel("What is it about?").selectOption("data");
    await page.getByLabel("Title").fill("Change my e-mail");
    await page.getByLabel("Your message").fill("short");
    await page.getByRole("button", { name: "Raise the ticket" }).click();
    await page.getByText("Write at least 10 characters so we can help.").waitFor();
    expect(await page.getByLabel("Title").inputValue()).toBe("Change my e-mail");
    await page.getByLabel("Your message").fill("Please change my e-mail to a new address.");
    await page.getByRole("button", { name: "Raise the ticket" }).click();
    await page.waitForURL(/\/User\/Help\/GRV-\d{10}$/);
    await page.getByRole("heading", { name: "Change my e-mail" }).waitFor();
    await context.close();
  });
});
