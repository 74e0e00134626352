import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mandates } from "../../app/server/db/schema.ts";
import { activeLoan, emiWithoutAutopayFirst, signedInStaff } from "../helpers/applications.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors, widerThanScreen } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Autopay in Chromium on a 360 px phone (docs/product.md "Autopay"): the borrower sets it up from
// the loan page, approves it at the local stand-in, sees it active on the loan page, and cancels
// it after a dialog that says what that means.
let app: TestServer;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0" }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("autopay on a phone", () => {
  it("is set up through the stand-in, shown on the loan page, and cancelled", async () => {
    // Autopay here is set up on the loan's page, after the money arrived.
    await emiWithoutAutopayFirst(app);
    const credit = await signedInStaff(app, "credit", "Asha Rao");
    const ops = await signedInStaff(app, "operations", "Omar Shaikh");
    const b = await activeLoan(app, "9740011001", credit, ops);
    const loanPath = `/User/Loans/Emi/${b.loanNumber}`;
    const context = await browser.newContext(PHONE);
    const at = b.cookie.indexOf("=");
    await context.addCookies([{ name: b.cookie.slice(0, at), value: b.cookie.slice(at + 1), url: app.url }]);
    const page = await context.newPage();
    const errors = watchErrors(page);
    page.setDefaultTimeout(10_000);
    await page.goto(`${app.url}${loanPath}`);
    await waitForHydration(page);

    const autopay = page.getByRole("region", { name: "Autopay" });
    await autopay.getByText("each instalment is debited from the account the loan was paid into").waitFor();
    await autopay.getByRole("button", { name: "Set up autopay" }).click();
    await page.waitForURL(/\/local-mandate\/lmd_[\w-]+$/);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page), "wider than the screen").toBeLessThanOrEqual(0);
    await screenshot(page, "autopay-stand-in");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.waitForURL(new RegExp(`${loanPath}#autopay-title$`));
    await waitForHydration(page);
    await page.getByText("Autopay is set up").first().waitFor();
    expect(await page.getByTestId("autopay-status").textContent()).toBe("Active");
    // Before its notice, the page says when the next debit comes and for how much.
    expect(await page.getByTestId("autopay-next").textContent()).toMatch(/^Next debit: ₹[\d,.]+ on .+ for the instalment due on .+\.$/);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page), "wider than the screen").toBeLessThanOrEqual(0);
    await screenshot(page, "autopay-active");

    // Cancel: the dialog says what it means; "Keep autopay" changes nothing, "Cancel autopay" ends it.
    await autopay.getByRole("button", { name: "Cancel autopay" }).click();
    const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
    await dialog.getByText("nothing more is debited from your account").waitFor();
    await dialog.getByRole("button", { name: "Keep autopay" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByTestId("autopay-status").textContent()).toBe("Active");
    const [kept] = await app.services.db.select().from(mandates).where(eq(mandates.applicationId, b.id));
    expect(kept?.status).toBe("active");
    await autopay.getByRole("button", { name: "Cancel autopay" }).click();
    await dialog.getByRole("button", { name: "Cancel autopay" }).click();
    await page.getByText("Autopay is cancelled").first().waitFor();
    await screenshot(page, "autopay-cancelled");
    await autopay.getByRole("button", { name: "Set up autopay" }).waitFor();
    const [m] = await app.services.db.select().from(mandates).where(eq(mandates.applicationId, b.id));
    expect(m?.status).toBe("cancelled");
    expect(errors).toEqual([]);
    await context.close();
  });
});
