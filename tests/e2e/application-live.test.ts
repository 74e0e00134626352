import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { presenceConnections } from "../../app/server/db/schema.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allTicked, autopayBeforeDisbursal, signedApplication, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { postForm, postUpload } from "../helpers/http.ts";
import { jpeg } from "../fixtures/kyc.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Issue 35, items 5 and 6: the borrower's application page on a 360 px phone follows the review
// live over the realtime channel (no reload): the timeline says who acts next and by when; a
// request from the officer shows there with what to upload and where to answer; the approval and
// the money sent arrive as they happen.
let app: TestServer;
let browser: Browser;
let credit: { cookie: string };
let ops: { cookie: string };
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }), launchBrowser()]);
  credit = await signedInStaff(app, "credit", "Asha Rao");
  ops = await signedInStaff(app, "operations", "Omar Shaikh");
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("an application followed live", () => {
  it("shows the officer's request, the approval and the money sent on the open page as they happen", async () => {
    const b = await signedApplication(app, "9710077001");
    const context = await browser.newContext(PHONE);
    const at = b.cookie.indexOf("=");
    await context.addCookies([{ name: b.cookie.slice(0, at), value: b.cookie.slice(at + 1), url: app.url }]);
    const page = await context.newPage();
    const errors = watchErrors(page);
    page.setDefaultTimeout(15_000);
    await page.goto(`${app.url}/User/newLoan/Emi/${b.ref}/Step7`);
    await waitForHydration(page);
    const next = page.getByTestId("next-step");
    await expect.poll(() => next.textContent()).toMatch(/^Next a credit officer decides, by the end of \d+ \w{3} \d{4}\./);
    // The page's realtime channel is open (the borrower is present) before staff act.
    await expect
      .poll(async () => (await app.services.db.select().from(presenceConnections).where(eq(presenceConnections.userId, b.userId))).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);

    const review = `/admin/applications/${b.ref}`;
    expect((await postForm(app, review, { intent: "take" }, { cookie: credit.cookie })).status).toBe(302);
    expect(
      (
        await postForm(
          app,
          review,
          { intent: "ask", message: "Please send your latest salary slip again.", documentKind: "salary_slip_1" },
          { cookie: credit.cookie },
        )
      ).status,
    ).toBe(302);
    // No reload: the request arrives on the open page, with where to upload and where to answer.
    const asked = page.getByTestId("asked-for-more");
    await asked.getByText("Please send your latest salary slip again.").waitFor();
    await asked.getByRole("link", { name: "your profile" }).waitFor();
    await asked.getByRole("link", { name: "Answer on your dashboard" }).waitFor();
    await expect
      .poll(() => next.textContent())
      .toBe("Next it is your turn: answer the credit officer's request. The review goes on as soon as you have.");
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page), "the application page is wider than the screen").toBeLessThanOrEqual(0);
    await screenshot(page, "live-1-asked");

    // Answered with a new upload of the slip, then approved: the page follows.
    const uploaded = await postUpload(
      app,
      "/User/Profile/components/Documents",
      { kind: "salary_slip_1", bytes: jpeg, name: "slip.jpg" },
      b.cookie,
    );
    expect(uploaded.status).toBe(302);
    const dashboard = await (await app.get("/User/Dashboard", { headers: { Cookie: b.cookie } })).text();
    const requestId = /name="request" value="([0-9a-f-]{36})"/.exec(dashboard)?.[1] ?? "";
    expect((await postForm(app, "/User/Dashboard", { request: requestId, answer: "" }, { cookie: b.cookie })).status).toBe(302);
    await expect.poll(() => page.getByTestId("asked-for-more").count()).toBe(0);
    expect((await postForm(app, review, allTicked(), { cookie: credit.cookie })).status).toBe(302);
    expect((await postForm(app, review, { intent: "approve" }, { cookie: credit.cookie })).status).toBe(302);
    // An EMI loan is paid out once autopay is active: the page asks for it, then follows the bank's answer.
    await expect.poll(() => next.textContent()).toMatch(/^Next it is your turn: set up autopay below/);
    await autopayBeforeDisbursal(app, b);
    await expect.poll(() => next.textContent()).toMatch(/^(Next we send the money to your bank account|The money is on its way)/);
    await page
      .getByRole("heading", { level: 1 })
      .filter({ hasText: /approved/i })
      .waitFor();

    // Operations pay it out: the page says the money was sent.
    expect((await postForm(app, review, { intent: "disburse", confirm: "yes" }, { cookie: ops.cookie })).status).toBe(302);
    await page
      .getByTestId("timeline")
      .getByText(/^Money sent to your bank account on/)
      .waitFor({ timeout: 20_000 });
    await expect.poll(() => next.count()).toBe(0);
    await screenshot(page, "live-2-paid");
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
