import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * A phone reads Hindi in its own Devanagari font; this machine has none, and Chromium would draw
 * boxes of another width. The font the PDFs use (Noto Sans Devanagari, from npm) is put where
 * fontconfig finds a user's fonts, so pages in Hindi are measured as a phone draws them.
 */
function installDevanagariFont() {
  const require = createRequire(import.meta.url);
  const dir = path.join(homedir(), ".local/share/fonts/sugam-tests");
  mkdirSync(dir, { recursive: true });
  for (const file of ["400Regular/NotoSansDevanagari_400Regular.ttf", "700Bold/NotoSansDevanagari_700Bold.ttf"]) {
    const target = path.join(dir, path.basename(file));
    if (!existsSync(target)) copyFileSync(require.resolve(`@expo-google-fonts/noto-sans-devanagari/${file}`), target);
  }
}

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  installDevanagariFont();
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
      "--disable-quic",
      ...extraArgs,
    ],
  });
}

/** A browser context signed in with `cookie` ("name=value") on the server at `url`. */
export async function signedInContext(browser: Browser, url: string, cookie: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const at = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url }]);
  return context;
}

/** A phone-sized context (360 × 740), the narrowest screen we support. */
export const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };

/** Collects console errors, page errors and CSP violations of a page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/** Waits until React Router has hydrated the page. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

export async function axeViolations(page: Page) {
  // Toasts fade in and out (sonner); axe would measure their contrast mid-fade. With reduced
  // motion they have no transition: a toast is either fully shown or gone.
  await page.emulateMedia({ reducedMotion: "reduce" });
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/** With SCREENSHOT_DIR=/some/dir, keeps a full-page screenshot of `page` as `<name>.png` there. */
export async function screenshot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** How far the page is wider than the screen (a table in its own scroll region may scroll inside it). */
export const widerThanScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
