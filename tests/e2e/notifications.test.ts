import { createECDH, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pushSubscriptions } from "../../app/server/db/schema.ts";
import { notify } from "../../app/server/notifications/notify.server.ts";
import { axeViolations, launchBrowser, PHONE, screenshot, waitForHydration, watchErrors } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { signedInBorrower } from "../helpers/session.ts";

// Notices in Chromium on a 360 px phone: the bell's count changes live when a notice comes out, the
// list opens a notice's page; push: the opt-in explains before asking, each refusal has its name,
// a granted device's subscription reaches the server, and the service worker shows a push message
// delivered through the DevTools protocol (headless Chromium reaches no real push service).
// SCREENSHOT_DIR=/some/dir keeps screenshots of the list and the opt-in.
let app: TestServer;
let browser: Browser;
let pushService: Server;
let pushEndpoint = "";
const pushed: Buffer[] = [];
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  pushService = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      pushed.push(Buffer.concat(chunks));
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((r) => pushService.listen(0, "127.0.0.1", r));
  pushEndpoint = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}/push/phone`;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await new Promise<void>((r) => pushService?.close(() => r()));
});

let serial = 0;
async function borrowerPage(setup?: (context: BrowserContext) => Promise<unknown>) {
  const b = await signedInBorrower(app, `97300${String(++serial).padStart(5, "0")}`);
  const context = await browser.newContext(PHONE);
  const at = b.cookie.indexOf("=");
  await context.addCookies([{ name: b.cookie.slice(0, at), value: b.cookie.slice(at + 1), url: app.url }]);
  await setup?.(context);
  const page = await context.newPage();
  return { b, context, page, errors: watchErrors(page) };
}

const tell = (userId: string, key: string, title: string) =>
  app.services.db.transaction((tx) =>
    notify(
      { ...app.services, db: tx },
      {
        userId,
        event: "staff_notice",
        key,
        data: { title, message: `${title}: a message from our support team.`, urgent: false },
      },
    ),
  );

describe("the notices in the browser", () => {
  it("counts unread notices in the header live, lists them, and opens one", async () => {
    const { b, page, errors, context } = await borrowerPage();
    await tell(b.userId, `first-${b.userId}`, "Welcome aboard");
    await page.goto(`${app.url}/User/Dashboard`);
    await waitForHydration(page);
    const bell = page.getByRole("link", { name: /^Notices/ });
    await expect.poll(() => bell.getAttribute("aria-label"), { timeout: 10_000 }).toBe("Notices, 1 unread");
    // A notice comes out while the page is open: the count changes without a reload.
    await tell(b.userId, `second-${b.userId}`, "Your documents are in");
    await expect.poll(() => bell.getAttribute("aria-label"), { timeout: 10_000 }).toBe("Notices, 2 unread");
    await bell.click();
    await page.waitForURL(/\/User\/Notifications$/);
    await page.getByRole("heading", { name: "Your documents are in" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "notices-phone");
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await expect.poll(() => bell.getAttribute("aria-label"), { timeout: 10_000 }).toBe("Notices");
    await page.getByRole("listitem").filter({ hasText: "Welcome aboard" }).getByRole("button", { name: "Open" }).click();
    await page.waitForURL(/\/User\/Notifications$/);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

describe("push notices on this device", () => {
  /** Click the opt-in and read the error it names. */
  async function refusal(setup: (context: BrowserContext) => Promise<unknown>) {
    const { page, context } = await borrowerPage(setup);
    await page.goto(`${app.url}/User/Notifications`);
    await waitForHydration(page);
    await page.getByText("a payment is due in 3 days").waitFor();
    await page.getByRole("button", { name: "Turn on notices on this device" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    const name = await alert.getAttribute("data-error");
    await context.close();
    return name;
  }

  it("names what stops push: a refusal, no push in the browser, no IndexedDB, a worker that will not register", async () => {
    const deny = async (context: BrowserContext) => {
      const cdp = await context.newCDPSession(await context.newPage());
      await cdp.send("Browser.setPermission", { origin: app.url, permission: { name: "notifications" }, setting: "denied" });
    };
    expect(await refusal(deny)).toBe("permission-blocked");
    expect(await refusal((c) => c.addInitScript(() => Reflect.deleteProperty(window, "PushManager")))).toBe("unsupported-browser");
    expect(await refusal((c) => c.addInitScript(() => Object.defineProperty(window, "indexedDB", { value: null })))).toBe(
      "indexed-db-unsupported",
    );
    const brokenWorker = async (context: BrowserContext) => {
      await context.grantPermissions(["notifications"], { origin: app.url });
      await context.addInitScript(() => {
        navigator.serviceWorker.register = () => Promise.reject(new Error("blocked by policy"));
      });
    };
    expect(await refusal(brokenWorker)).toBe("failed-service-worker-registration");
  }, 90_000);

  it("explains before asking, subscribes a granted device, and its service worker shows a delivered push", async () => {
    // Headless Chromium has no push service to subscribe with: the browser's subscribe() answers
    // with a subscription to a push service on this machine, keys and all.
    const device = createECDH("prime256v1");
    device.generateKeys();
    const keys = { p256dh: device.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
    const { b, page, context, errors } = await borrowerPage(async (c) => {
      await c.grantPermissions(["notifications"], { origin: app.url });
      await c.addInitScript(
        ({ endpoint, keys: deviceKeys }) => {
          const subscription = {
            endpoint,
            expirationTime: null,
            keys: deviceKeys,
            toJSON: () => ({ endpoint, expirationTime: null, keys: deviceKeys }),
            unsubscribe: async () => true,
          };
          let subscribed = false;
          PushManager.prototype.subscribe = async function () {
            subscribed = true;
            return subscription as unknown as PushSubscription;
          };
          PushManager.prototype.getSubscription = async function () {
            return (subscribed ? subscription : null) as unknown as PushSubscription;
          };
        },
        { endpoint: pushEndpoint, keys },
      );
    });
    await page.goto(`${app.url}/User/Notifications`);
    await waitForHydration(page);
    await page.getByText("Reminders and overdue notices are never sent between 19:00 and 08:00").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "push-opt-in-phone");
    await page.getByRole("button", { name: "Turn on notices on this device" }).click();
    await page.getByText("Notices are on for this device.").waitFor();
    const [stored] = await app.services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, b.userId));
    expect(stored).toMatchObject({ endpoint: pushEndpoint, p256dh: keys.p256dh, auth: keys.auth });

    // The server's push reaches the (fake) push service…
    await tell(b.userId, `push-${b.userId}`, "A notice by push");
    await expect.poll(() => pushed.length, { timeout: 10_000 }).toBeGreaterThan(0);

    // …and the service worker, given a push message through the DevTools protocol, shows it.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL === `${app.url}/` && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    const message = { title: "₹2,000 due today", body: "Pay in the app to stay on time.", url: "/User/Loans", tag: "due-1" };
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: app.url,
      registrationId: await registrationId,
      data: JSON.stringify(message),
    });
    const shown = async () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          icon: n.icon,
          data: n.data as unknown,
        }));
      });
    await expect.poll(shown, { timeout: 10_000 }).toContainEqual({
      title: "₹2,000 due today",
      body: "Pay in the app to stay on time.",
      icon: `${app.url}/loadingGif.gif`,
      data: { url: `${app.url}/User/Loans` },
    });
    // A payload that is not a notice (or another site's link): the generic notice, opening the list.
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: app.url, registrationId: await registrationId, data: "not json" });
    await expect.poll(shown, { timeout: 10_000 }).toContainEqual({
      title: "You have a new notice",
      body: "Open the app to read it.",
      icon: `${app.url}/loadingGif.gif`,
      data: { url: `${app.url}/User/Notifications` },
    });

    // Off again: the server forgets the device.
    await page.getByRole("button", { name: "Turn off on this device" }).click();
    await page.getByRole("button", { name: "Turn on notices on this device" }).waitFor();
    await expect
      .poll(async () => (await app.services.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, b.userId))).length)
      .toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it("serves the service worker and its fallback icon at the original's paths", async () => {
    const worker = await app.get("/firebase-messaging-sw.js");
    expect(worker.status).toBe(200);
    expect(worker.headers.get("content-type")).toMatch(/javascript/);
    expect(await worker.text()).toContain("showNotification");
    const gif = await app.get("/loadingGif.gif");
    expect(gif.status).toBe(200);
    expect(gif.headers.get("content-type")).toBe("image/gif");
    expect(
      Buffer.from(await gif.arrayBuffer())
        .subarray(0, 6)
        .toString("latin1"),
    ).toBe("GIF89a");
  });
});
