import type { Page } from "playwright-core";
import { waitForHydration } from "./browser.ts";
import { latestCode } from "./outbox.ts";

/**
 * Signs a borrower in through the sign-in form on `baseUrl`, reading the code
 * from the SMS outbox of `dataDir`. Starts at `startPath` (the sign-in page by default).
 */
export async function signInWithCode(
  page: Page,
  { baseUrl, dataDir }: { baseUrl: string; dataDir: string },
  mobile: string,
  startPath = "/quickStart/Otp",
) {
  await page.goto(baseUrl + startPath);
  await waitForHydration(page);
  await page.getByLabel("Mobile number").fill(mobile);
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByLabel("One-time code").waitFor();
  await waitForHydration(page);
  await page.getByLabel("One-time code").fill(latestCode(dataDir, mobile));
  await page.getByRole("button", { name: "Verify and continue" }).click();
}
