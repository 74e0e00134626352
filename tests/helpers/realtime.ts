import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { users } from "../../app/server/db/schema.ts";
import type { TestServer } from "./server.ts";

/** The id of the borrower signed in with `mobile`. */
export async function userIdOf(app: TestServer, mobile: string): Promise<string> {
  const [user] = await app.services.db.select({ id: users.id }).from(users).where(eq(users.mobile, mobile));
  if (!user) throw new Error(`no user with mobile ${mobile}`);
  return user.id;
}

let probes = 0;

/**
 * Waits until each of `pages` (signed-in pages of `userId`) has heard a harmless event sent to the
 * borrower now: a bell count no test gives (900 and up), shown by the bell's `data-unread`. Sent
 * again every 250 ms until every page shows it, since a page whose realtime stream is not
 * registered yet misses it.
 *
 * Once it returns, each page's stream is registered on the server, and every event sent to the
 * borrower before this call has reached each page that still listens (the hub delivers a user's
 * events in the order they were published).
 */
export async function pagesHearRealtime(app: TestServer, userId: string, pages: readonly Page[], timeout = 10_000) {
  const unread = 900 + (probes++ % 99);
  const end = Date.now() + timeout;
  const heard = (page: Page) => page.locator(`[data-unread="${unread}"]`).count();
  for (;;) {
    await app.services.realtime.publish({ type: "notifications", userId, unread });
    const waiting = Date.now() + 250;
    while (Date.now() < waiting) {
      if ((await Promise.all(pages.map(heard))).every(Boolean)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    if (Date.now() > end) throw new Error(`the page(s) did not hear a realtime event to ${userId} within ${timeout} ms`);
  }
}
