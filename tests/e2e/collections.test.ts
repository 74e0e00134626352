import { desc, eq } from "drizzle-orm";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indiaTime, longDate } from "../../app/domain/india-date.ts";
import { addDays, type IsoDate } from "../../app/domain/loan-math.ts";
import { formatRupees } from "../../app/domain/money.ts";
import { createUserSession } from "../../app/server/auth/session.server.ts";
import { runDunning } from "../../app/server/collections/dunning.server.ts";
import { collectionCases, collectionNotes, loanAccounts, promisesToPay } from "../../app/server/db/schema.ts";
import { runServicingDay } from "../../app/server/servicing/daily.server.ts";
import { activeLoan, emiWithoutAutopayFirst, instalmentOf, signedInStaff } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The collections desk in Chromium (docs/product.md "Collections"): operations on a desktop find an
// overdue loan in the queue, log a call, save a promise to pay and see it kept when the money
// arrives (the case closes, back to 0 days past due); the borrower on a 360 px phone promises to
// pay from their loan's page, a date too far ahead refused next to the field before anything is sent.
// SCREENSHOT_DIR=/some/dir keeps screenshots of the queue, the staff loan page and the borrower's page.
const clock: TestClock = { now: new Date("2026-03-02T05:30:00Z") };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
let app: TestServer;
let browser: Browser;
let ops: { cookie: string; userId: string };
type Loan = Awaited<ReturnType<typeof activeLoan>> & { dueDate: IsoDate; emi: number };
let staffLoan: Loan;
let borrowerLoan: Loan;
/** Three days past both loans' first instalment: the day the journeys happen. */
let today: IsoDate;

async function loan(mobile: string, credit: { cookie: string }, name: string): Promise<Loan> {
  const made = await activeLoan(app, mobile, credit, ops, { name });
  const first = await instalmentOf(app, made.id, 1);
  return { ...made, dueDate: first.dueDate, emi: first.principalPaise + first.interestPaise };
}

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now }),
    launchBrowser(),
  ]);
  const credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
  // Two loans paid out on 2 March 2026 without autopay (nothing debits them), their first
  // instalments missed; the daily run (servicing, then dunning) at 00:30 each day from the first
  // day past due opens their cases.
  await emiWithoutAutopayFirst(app);
  staffLoan = await loan("9760000101", credit, "Ravi Kumar");
  borrowerLoan = await loan("9760000102", credit, "Meena Iyer");
  expect(borrowerLoan.dueDate).toBe(staffLoan.dueDate);
  for (let k = 1; k <= 3; k++) {
    const day = addDays(staffLoan.dueDate, k);
    clock.now = indiaTime(day, "00:30");
    await runServicingDay(app.services, day);
    await runDunning(app.services, { day });
    // The reminders go out (at 08:00) before anyone acts on the case that day.
    await waitForJobs(app, ["notify"]);
  }
  today = addDays(staffLoan.dueDate, 3);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A browser context signed in as `userId` (a new session, made at the clock's time), and a page in it. */
async function signedInPage(userId: string, options: BrowserContextOptions) {
  const { setCookie } = await createUserSession(app.services, {
    userId,
    deviceId: `e2e-collections-${userId}-${clock.now.getTime()}`,
    ip: "127.0.0.1",
    userAgent: "test",
  });
  const pair = setCookie.split(";")[0] ?? "";
  const at = pair.indexOf("=");
  const context = await browser.newContext(options);
  await context.addCookies([{ name: pair.slice(0, at), value: pair.slice(at + 1), url: app.url }]);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page, errors: watchErrors(page) };
}

/** Axe clean and nothing wider than the screen; a screenshot. */
async function looksRight(page: Page, name: string) {
  expect(await axeViolations(page), name).toEqual([]);
  expect(await widerThanScreen(page), `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  await screenshot(page, name);
}

/** A minute later: what staff do is recorded in the order they did it. */
const tick = () => {
  clock.now = new Date(clock.now.getTime() + 60_000);
};

const caseOf = async (applicationId: string) =>
  (await app.services.db.select().from(collectionCases).where(eq(collectionCases.applicationId, applicationId)))[0];
const promisesOf = (applicationId: string) =>
  app.services.db.select().from(promisesToPay).where(eq(promisesToPay.applicationId, applicationId)).orderBy(desc(promisesToPay.createdAt));

describe("the collections desk in the browser", () => {
  it("operations find an overdue loan in the queue, log a call, save a promise, and see it kept when the money arrives", async () => {
    const l = staffLoan;
    clock.now = indiaTime(today, "10:00");
    const [acct] = await app.services.db.select().from(loanAccounts).where(eq(loanAccounts.applicationId, l.id));
    expect(acct?.dpd).toBe(3);
    // Owed: the first instalment and its penal charge (levied the day after its grace date).
    expect(acct?.overduePaise).toBe(l.emi);
    expect(acct?.penalDuePaise).toBeGreaterThan(0);
    const owed = (acct?.overduePaise ?? 0) + (acct?.penalDuePaise ?? 0);
    const { context, page, errors } = await signedInPage(ops.userId, DESKTOP);

    // The queue opens on SMA-0 (the first bucket with a loan): the loan, 3 days past due, nobody on it yet.
    await page.goto(`${app.url}/admin/collections`);
    await waitForHydration(page);
    await page.getByRole("heading", { name: "Collections", level: 1 }).waitFor();
    const buckets = page.getByRole("navigation", { name: "Buckets" });
    expect(await buckets.getByRole("link", { name: /^SMA-0/ }).getAttribute("aria-current")).toBe("page");
    expect(await buckets.getByRole("link", { name: /^SMA-0/ }).textContent()).toBe("SMA-0 (1–30 days): 2");
    const queue = page.getByRole("region", { name: "Open cases in SMA-0" });
    const row = queue.getByRole("row").filter({ has: page.getByRole("link", { name: l.loanNumber }) });
    expect(await row.getByRole("cell").allTextContents()).toEqual([
      `${l.loanNumber}EMI loan`,
      "Ravi Kumar+91 9760000101",
      "3",
      formatRupees(owed),
      "2 days",
      "Nobody yet",
      "None",
      "None yet",
      "0",
    ]);
    await looksRight(page, "col-1-queue");

    // The loan's page, at its collections case: open 2 days (since day 1), the reminders of days 1 and 3 sent.
    await row.getByRole("link", { name: l.loanNumber }).click();
    await page.waitForURL(new RegExp(`/admin/loans/${l.loanNumber}#case-title$`));
    await waitForHydration(page);
    const section = page.getByRole("region", { name: "Collections case" });
    expect(await section.getByTestId("case-status").textContent()).toBe(`Open since ${longDate(addDays(l.dueDate, 1))}, 2 days`);
    expect(await section.getByTestId("case-assignee").textContent()).toBe("Nobody yet");
    expect(await section.getByTestId("case-reminders").textContent()).toBe("By the dunning rules");
    expect(await section.getByTestId("case-sends").getByRole("listitem").allTextContents()).toEqual([
      `Day 3, ${longDate(today)}: SMS, for ${formatRupees(owed)} overdue with penal charges.`,
      `Day 1, ${longDate(addDays(l.dueDate, 1))}: SMS, push, for ${formatRupees(owed)} overdue with penal charges.`,
    ]);
    await section.getByText("None yet.").first().waitFor();
    await looksRight(page, "col-2-loan-case-open");

    // The call, logged with its channel and outcome in the Contacts section.
    tick();
    const contacts = page.getByRole("region", { name: "Contacts" });
    await contacts.getByText("No contact recorded.").waitFor();
    await contacts.getByLabel("How", { exact: true }).selectOption({ label: "Call to the borrower" });
    await contacts.getByLabel("What came of the contact").selectOption({ label: "Promised to pay" });
    await contacts.getByLabel("What was said").fill("Salary comes on Friday; will pay the instalment by then.");
    await contacts.getByRole("button", { name: "Save the contact" }).click();
    await page.getByText("Contact saved.").first().waitFor();
    await waitForHydration(page);
    await contacts.getByText("Salary comes on Friday; will pay the instalment by then.").waitFor();
    // Saved, the form starts again empty (not inviting the same contact twice).
    expect(await contacts.getByLabel("How", { exact: true }).inputValue()).toBe("");
    expect(await contacts.getByLabel("What was said").inputValue()).toBe("");
    expect(await contacts.getByRole("listitem").first().locator("p").first().textContent()).toMatch(
      /, Omar Shaikh, Call to the borrower: Promised to pay$/,
    );
    const [note] = await app.services.db.select().from(collectionNotes).where(eq(collectionNotes.applicationId, l.id));
    expect(note).toMatchObject({ channel: "call_out", outcome: "promised", staffUserId: ops.userId });
    expect(note?.caseId).toBe((await caseOf(l.id))?.id);

    // The promise: the instalment, by five days from now; shown open.
    tick();
    const by = addDays(today, 5);
    const promiseForm = section.locator("form", { has: page.getByRole("button", { name: "Save the promise" }) });
    await promiseForm.getByLabel("Amount (₹)").fill(String(l.emi / 100));
    await promiseForm.getByLabel("By (up to 7 days ahead)").fill(by);
    await promiseForm.getByRole("button", { name: "Save the promise" }).click();
    await page
      .getByText(`Promise to pay ${formatRupees(l.emi)} by ${longDate(by)} saved.`)
      .first()
      .waitFor();
    await waitForHydration(page);
    const promiseRows = section.getByRole("region", { name: "Promises to pay, newest first" }).getByRole("row");
    await expect
      .poll(() => promiseRows.nth(1).getByRole("cell").allTextContents())
      .toEqual([formatRupees(l.emi), longDate(by), longDate(today), "Omar Shaikh", "Open"]);
    expect((await promisesOf(l.id)).map((p) => ({ status: p.status, amountPaise: p.amountPaise, dueOn: p.dueOn }))).toEqual([
      { status: "open", amountPaise: l.emi, dueOn: by },
    ]);
    expect(await promiseForm.getByLabel("Amount (₹)").inputValue()).toBe("");
    await looksRight(page, "col-3-loan-promise-open");

    // The queue, by the latest promise: open, the call logged as the last contact.
    await page.goto(`${app.url}/admin/collections`);
    await waitForHydration(page);
    await page.getByLabel("Latest promise").selectOption({ label: "Open" });
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/promise=open/);
    const promised = queue.getByRole("row").filter({ has: page.getByRole("link", { name: l.loanNumber }) });
    await expect.poll(() => promised.getByRole("cell").nth(6).textContent()).toBe(`Openby ${longDate(by)}`);
    expect(await promised.getByRole("cell").nth(7).textContent()).toMatch(/^Promised to pay\d/);
    // The other loan has no promise: not in this list.
    expect(await queue.getByRole("link", { name: borrowerLoan.loanNumber }).count()).toBe(0);
    await looksRight(page, "col-4-queue-promise-open");

    // The money arrives by bank transfer, recorded on the loan's page, dated today: the promise is
    // kept, and with everything overdue paid the case closes, back to 0 days past due.
    await page.goto(`${app.url}/admin/loans/${l.loanNumber}`);
    await waitForHydration(page);
    tick();
    const record = page.getByRole("region", { name: "Record a payment received outside the gateway" });
    await record.getByLabel("Amount (₹)").fill((owed / 100).toFixed(2));
    await record.getByLabel("Date received").fill(today);
    await record.getByLabel("How it was received").selectOption({ label: "NEFT" });
    await record.getByLabel("Bank or receipt reference (UTR, cheque number)").fill("UTRCOLE2E0001");
    await record.getByRole("button", { name: "Record the payment" }).click();
    await page
      .getByText(`${formatRupees(owed)} recorded as received on ${longDate(today)}.`)
      .first()
      .waitFor();
    await expect.poll(() => section.getByTestId("case-status").textContent()).toBe(`Closed on ${longDate(today)}: back to 0 days past due`);
    await waitForHydration(page);
    expect(await section.getByTestId("promise-status").allTextContents()).toEqual(["Kept"]);
    await page.getByRole("region", { name: "Payments" }).getByText("NEFT, ref UTRCOLE2E0001, by Omar Shaikh").waitFor();
    expect(await record.getByLabel("Bank or receipt reference (UTR, cheque number)").inputValue()).toBe("");
    // A closed case has nothing left to work: no promise, assign or pause forms.
    expect(await section.getByRole("button", { name: "Save the promise" }).count()).toBe(0);
    expect((await promisesOf(l.id)).map((p) => ({ status: p.status, resolvedOn: p.resolvedOn }))).toEqual([
      { status: "kept", resolvedOn: today },
    ]);
    expect(await caseOf(l.id)).toMatchObject({ closedOn: today, closedReason: "cured" });
    await looksRight(page, "col-5-loan-promise-kept");

    // The queue no longer lists it (its case is closed): SMA-0 holds the other loan only, and no
    // open case has a kept promise.
    await page.goto(`${app.url}/admin/collections?bucket=SMA-0&promise=any`);
    await waitForHydration(page);
    await buckets.getByRole("link", { name: "SMA-0 (1–30 days): 1" }).waitFor();
    await queue.getByRole("link", { name: borrowerLoan.loanNumber }).waitFor();
    expect(await page.getByRole("link", { name: l.loanNumber }).count()).toBe(0);
    await page.getByLabel("Latest promise").selectOption({ label: "Kept" });
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/promise=kept/);
    await page.getByText("No open case matches.").waitFor();
    expect(await page.getByRole("link", { name: l.loanNumber }).count()).toBe(0);
    await looksRight(page, "col-6-queue-kept-empty");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the borrower on a phone promises to pay: a date too far ahead refused next to the field, a good one saved", async () => {
    const l = borrowerLoan;
    clock.now = indiaTime(today, "11:00");
    const { context, page, errors } = await signedInPage(l.userId, PHONE);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(r.url());
    });
    const loanPath = `/User/Loans/Emi/${l.loanNumber}`;
    await page.goto(`${app.url}${loanPath}`);
    await waitForHydration(page);
    const promise = page.getByRole("region", { name: "Promise to pay" });
    await promise.getByText("Cannot pay all that is overdue now?").waitFor();
    // No promise yet: no sentence about one.
    expect(await promise.getByTestId("promise-text").count()).toBe(0);
    await looksRight(page, "col-7-borrower-promise-form");

    // Ten days ahead: refused in the browser by the shared schema, the message next to "By".
    const amount = promise.getByLabel("I will pay (₹)");
    const dueOn = promise.getByLabel("By", { exact: true });
    await amount.fill("2,000");
    await dueOn.fill(addDays(today, 10));
    await promise.getByRole("button", { name: "Promise to pay" }).click();
    const error = page.locator(`#${await dueOn.getAttribute("aria-describedby")}`);
    await expect
      .poll(() => error.textContent())
      .toBe(`Choose a date from today to 7 days ahead (${longDate(today)} to ${longDate(addDays(today, 7))}).`);
    expect(await dueOn.getAttribute("aria-invalid")).toBe("true");
    expect(await amount.getAttribute("aria-invalid")).toBeNull();
    expect(posts, "nothing was sent").toEqual([]);
    expect(await promisesOf(l.id)).toEqual([]);
    await looksRight(page, "col-8-borrower-promise-refused");

    // Four days ahead: saved, a toast, and the page says the promise.
    const by = addDays(today, 4);
    await dueOn.fill(by);
    await promise.getByRole("button", { name: "Promise to pay" }).click();
    await page.getByText("Thank you. We will not send you reminders about this loan until the date you chose.").first().waitFor();
    await page.waitForURL(new RegExp(`${loanPath}#promise-title$`));
    await waitForHydration(page);
    await expect
      .poll(() => promise.getByTestId("promise-text").textContent())
      .toBe(`You promised to pay ${formatRupees(2_000_00)} by ${longDate(by)}. We will not send you reminders about this loan until then.`);
    // While it is open the borrower keeps to it: no second promise, a ticket to change it.
    expect(await amount.count()).toBe(0);
    await promise.getByText("To change your promise, raise a ticket about this loan below").waitFor();
    expect(posts).toHaveLength(1);
    const [saved] = await promisesOf(l.id);
    expect(saved).toMatchObject({ amountPaise: 2_000_00, madeOn: today, dueOn: by, status: "open", staffUserId: null });
    expect((await caseOf(l.id))?.closedOn).toBeNull();
    await looksRight(page, "col-9-borrower-promised");
    expect(errors).toEqual([]);
    await context.close();
  });
});
