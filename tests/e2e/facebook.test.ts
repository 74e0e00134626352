import { eq } from "drizzle-orm";
import { OAuth2Server } from "oauth2-mock-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../app/server/db/schema.ts";
import { launchBrowser, waitForHydration } from "../helpers/browser.ts";
import { latestCode } from "../helpers/outbox.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let facebook: OAuth2Server;
let app: TestServer;
let browser: Browser;

beforeAll(async () => {
  facebook = new OAuth2Server();
  await facebook.issuer.keys.generate("RS256");
  await facebook.start(0, "127.0.0.1");
  const issuer = facebook.issuer.url as string;
  facebook.service.on("beforeUserinfo", (response) => {
    response.body = { id: "fb-10001", name: "Asha Facebook" };
  });
  [app, browser] = await Promise.all([
    startTestServer({
      FACEBOOK_CLIENT_ID: "test-client",
      FACEBOOK_CLIENT_SECRET: "test-secret",
      FACEBOOK_AUTHORIZATION_URL: `${issuer}/authorize`,
      FACEBOOK_TOKEN_URL: `${issuer}/token`,
      FACEBOOK_USERINFO_URL: `${issuer}/userinfo`,
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await facebook?.stop();
});

describe("Facebook sign-in (against oauth2-mock-server standing in for Facebook)", () => {
  it("signs in, then requires a verified mobile number before going further than the dashboard", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(app.url + "/quickStart/Otp");
    await page.getByRole("link", { name: "Continue with Facebook" }).click();
    await page.waitForURL(/\/quickStart\/Otp/);
    await page.getByRole("heading", { name: "Verify your mobile number" }).waitFor();
    const [account] = await app.services.db.select().from(users).where(eq(users.facebookId, "fb-10001"));
    expect(account).toMatchObject({ name: "Asha Facebook", mobile: null, role: "borrower" });

    // The dashboard asks for the mobile number; other /User pages send the account back there.
    await page.goto(app.url + "/User/Dashboard");
    await page.getByRole("heading", { name: "Verify your mobile number" }).waitFor();
    await page.goto(app.url + "/User");
    expect(new URL(page.url()).pathname).toBe("/User/Dashboard");

    await page.goto(app.url + "/quickStart/Otp");
    await waitForHydration(page);
    await page.getByLabel("Mobile number").fill("9811100001");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByLabel("One-time code").waitFor();
    await waitForHydration(page);
    await page.getByLabel("One-time code").fill(latestCode(app.dataDir, "9811100001"));
    await page.getByRole("button", { name: "Verify and continue" }).click();
    await page.waitForURL(/\/User\/Dashboard$/);
    await expect(page.getByTestId("signed-in-mobile").textContent()).resolves.toBe("+91 98111 00001");
    const [after] = await app.services.db.select().from(users).where(eq(users.facebookId, "fb-10001"));
    expect(after?.mobile).toBe("9811100001");
    expect(after?.mobileVerifiedAt).toBeTruthy();
    await context.close();
  });

  it("refuses a callback whose state does not match", async () => {
    const res = await app.get("/auth/facebook/callback?code=abc&state=forged");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/quickStart/Otp");
  });
});
