import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFile, rejectionCsv } from "../../app/domain/bureau/format.ts";
import { indiaTime } from "../../app/domain/india-date.ts";
import { activeLoan, signedInStaff, staffSessionAgain } from "../helpers/applications.ts";
import type { TestClock } from "../helpers/autopay.ts";
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
import { startTestServer, type TestServer } from "../helpers/server.ts";

// Credit bureau reporting in Chromium, as finance (docs/product.md "Credit bureau reporting"): the
// fortnight's files made from the page, one downloaded and read, a bureau's rejection imported on
// its page, and the record sent again in the correction file; axe clean on each page, and the page
// fits a phone.
const clock: TestClock = { now: new Date("2026-06-01T05:30:00Z") };
let app: TestServer;
let browser: Browser;
let finance: { cookie: string; userId: string };
let loanNumber = "";

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startTestServer({ LOCAL_PAYOUT_SETTLE_SECONDS: "0", OTP_PER_IP_PER_HOUR: "1000000" }, { now: () => clock.now }),
    launchBrowser(),
  ]);
  const credit = await signedInStaff(app, "credit", "Asha Rao");
  const ops = await signedInStaff(app, "operations", "Omar Shaikh");
  // A loan paid out on 1 June whose first instalment, due in July, is not paid: past due on 15 July.
  loanNumber = (await activeLoan(app, "9781100001", credit, ops)).loanNumber;
  clock.now = indiaTime("2026-07-16", "10:00");
  finance = await signedInStaff(app, "finance", "Farah Iqbal");
  await staffSessionAgain(app, finance);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("credit bureau reporting in the browser", () => {
  it("finance makes the fortnight's files, downloads one, imports a rejection and sees the record sent again in the correction file", async () => {
    const context = await signedInContext(browser, app.url, finance.cookie, {
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${app.url}/admin/bureau`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Credit bureau reporting");
    const row = page.getByTestId("date-2026-07-15");
    expect(await row.getByText("Not made").count()).toBe(4);
    expect(await axeViolations(page)).toEqual([]);

    await row.getByRole("button", { name: "Make the files as at 15 Jul 2026" }).click();
    await page.getByText("Made 4 files as at 15 Jul 2026: 1 account each.").waitFor();
    expect(await row.getByText("Not made").count()).toBe(0);
    expect(await page.getByTestId("bureau-run").count()).toBe(4);
    await screenshot(page, "bureau-desktop");

    // The CIBIL file: downloaded and read back, the loan in it as 14 days past due.
    await row.getByRole("link", { name: "1 account" }).first().click();
    await page.getByRole("heading", { level: 1, name: /TransUnion CIBIL: file as at 15 Jul 2026/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /^Download / }).click()]);
    expect(download.suggestedFilename()).toBe("NB00000001_15072026_16072026_REG.txt");
    const file = parseFile(readFileSync(await download.path(), "utf8"));
    const tl = file.records.find((r) => r.accountNumber === loanNumber)?.segments.find((s) => s.tag === "TL")?.fields;
    expect(tl).toMatchObject({ "03": loanNumber, "11": "15072026", "15": "14" });

    // The bureau rejects the record: its error report imported here, due again within 7 days.
    const csv = rejectionCsv([
      { accountNumber: loanNumber, segment: "PA", field: "07", code: "E215", message: "PIN code does not match the state" },
    ]);
    await page
      .getByLabel("The bureau's rejection file")
      .setInputFiles({ name: "cibil-errors.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Import the rejections" }).click();
    await page.getByText("Imported 1 rejected record: send them again by 23 Jul 2026.").waitFor();
    await page.getByTestId("rejection").getByText("Not yet").waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Sent again from the reporting page: the correction file holds the record, and the rejection names it.
    await page.getByRole("link", { name: "Credit bureau reporting" }).click();
    await page.getByTestId("pending-rejection").getByText("PIN code does not match the state").waitFor();
    await page.getByRole("button", { name: "Send the corrections now" }).click();
    await page.getByText("Made 1 correction file with 1 record sent again.").waitFor();
    await page.getByText("No rejected record is waiting to be sent again.").waitFor();
    const correction = page.getByTestId("bureau-run").filter({ hasText: "Correction" });
    expect(await correction.count()).toBe(1);
    await correction.getByRole("link", { name: "Details" }).click();
    await page.getByRole("heading", { level: 1, name: /TransUnion CIBIL: correction file as at 15 Jul 2026/ }).waitFor();
    await page.getByTestId("bureau-record").getByText(loanNumber).waitFor();
    const [again] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /^Download / }).click()]);
    expect(again.suggestedFilename()).toBe("NB00000001_15072026_16072026_COR.txt");
    expect(parseFile(readFileSync(await again.path(), "utf8")).records.map((r) => r.accountNumber)).toEqual([loanNumber]);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a phone", async () => {
    const context = await signedInContext(browser, app.url, finance.cookie, PHONE);
    const page = await context.newPage();
    await page.goto(`${app.url}/admin/bureau`);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "bureau-phone");
    await context.close();
  });
});
