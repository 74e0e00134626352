import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { stylesheetUrl } from "../lib/stylesheet.tsx";
import { hasSessionCookie } from "../server/cookie-names.ts";

let text: string | null | undefined;

/**
 * The built stylesheet's text (build/client/assets/app-<hash>.css beside this server build), read
 * once; null under the development server, whose stylesheet is Vite's and stays a link.
 */
export function stylesheetText(): string | null {
  if (text === undefined) {
    try {
      const css = stylesheetUrl.startsWith("/assets/")
        ? readFileSync(fileURLToPath(new URL(`../client${stylesheetUrl}`, import.meta.url)), "utf8")
        : null;
      // Text that would end the <style> element early is never inlined (a link is always safe).
      text = css !== null && !/<\/style/i.test(css) ? css : null;
    } catch {
      text = null;
    }
  }
  return text;
}

/** A first visit (no session cookie) gets the stylesheet inline; a returning one has the file cached. */
export function inlineStylesheetFor(request: Request): string | null {
  return hasSessionCookie(request.headers.get("cookie")) ? null : stylesheetText();
}
