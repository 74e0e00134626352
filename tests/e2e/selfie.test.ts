import { eq, and } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { borrowerDocuments, users } from "../../app/server/db/schema.ts";
import { axeViolations, launchBrowser, PHONE, waitForHydration, watchErrors } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signInWithCode } from "../helpers/sign-in.ts";

let app: TestServer;
let withCamera: Browser;
let noCamera: Browser;
beforeAll(async () => {
  [app, withCamera, noCamera] = await Promise.all([
    startTestServer({ OTP_PER_IP_PER_HOUR: "200" }),
    launchBrowser(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await withCamera?.close();
  await noCamera?.close();
  await app?.stop();
});

describe("selfie", () => {
  it("takes a selfie with the camera: preview, capture, upload as a JPEG of at most 2 MB", async () => {
    const context = await withCamera.newContext(PHONE);
    await context.grantPermissions(["camera"], { origin: app.url });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInWithCode(page, { baseUrl: app.url, dataDir: app.dataDir }, "9840000001");
    await page.waitForURL(/\/User\/Dashboard$/);
    await page.goto(app.url + "/User/Profile/components/Selfie");
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Start camera" }).click();
    await page.getByRole("button", { name: "Capture" }).click();
    await page.getByRole("img", { name: "Your captured selfie" }).waitFor();
    await page.getByRole("button", { name: "Retake" }).click();
    await page.getByRole("button", { name: "Capture" }).click();
    await page.getByRole("button", { name: "Use this photo" }).click();
    await page.getByText("Your selfie is saved.").first().waitFor();
    const [user] = await app.services.db.select().from(users).where(eq(users.mobile, "9840000001"));
    const [selfie] = await app.services.db
      .select()
      .from(borrowerDocuments)
      .where(and(eq(borrowerDocuments.userId, user?.id ?? ""), eq(borrowerDocuments.kind, "selfie")));
    expect(selfie?.contentType).toBe("image/jpeg");
    expect(selfie?.sizeBytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    await page.getByRole("img", { name: "Your saved selfie" }).waitFor();
    // Saved: the camera starts afresh; nothing offers to use or retake a photo already saved.
    await page.getByRole("button", { name: "Start camera" }).waitFor();
    expect(await page.getByRole("button", { name: "Use this photo" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Retake" }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says so when there is no camera, and the upload fallback refuses a non-JPEG", async () => {
    const context = await noCamera.newContext();
    const page = await context.newPage();
    await signInWithCode(page, { baseUrl: app.url, dataDir: app.dataDir }, "9840000002");
    await page.waitForURL(/\/User\/Dashboard$/);
    await page.goto(app.url + "/User/Profile/components/Selfie");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Start camera" }).click();
    await page.getByText(/Upload a photo instead/).waitFor();
    await page.getByLabel("Selfie photo (JPEG)").setInputFiles({
      name: "me.png",
      mimeType: "image/png",
      buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44]),
    });
    await page.getByRole("button", { name: "Upload photo" }).click();
    await page.getByRole("alert").filter({ hasText: "This file is not a JPG file. Choose a JPG file." }).waitFor();
    await context.close();
  });

  it("says a file is too large before sending it, on the selfie and the documents pages", async () => {
    const context = await noCamera.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signInWithCode(page, { baseUrl: app.url, dataDir: app.dataDir }, "9840000003");
    await page.waitForURL(/\/User\/Dashboard$/);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(r.url());
    });
    const big = (mb: number) => ({ name: "big.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(mb * 1024 * 1024 + 10, 0xff) });

    await page.goto(app.url + "/User/Profile/components/Selfie");
    await waitForHydration(page);
    await page.getByLabel("Selfie photo (JPEG)").setInputFiles(big(2));
    await page.getByRole("button", { name: "Upload photo" }).click();
    await page.getByRole("alert").filter({ hasText: "This file is larger than 2 MB." }).waitFor();

    await page.goto(app.url + "/User/Profile/components/Documents");
    await waitForHydration(page);
    const pan = page.getByTestId("doc-pan_card");
    // Chosen, it would be sent at once: too large, it is refused before sending.
    await pan.getByLabel("Upload PAN card").setInputFiles(big(5));
    await pan.getByText("This file is larger than 5 MB.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(posts).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
