// Every cookie the application sets and reads, by name. One list, so that the page cache
// (server/page-cache.ts) can tell a request whose cookies could change a page (one of these) from
// one whose cookies cannot: a load balancer's or an analytics script's, which nothing here reads.
// signedCookie() accepts only these names and the flash storage takes its name from here; a cookie
// made any other way must be added by hand.
export const COOKIE_NAMES = {
  /** The signed-in session (app/server/auth/session.server.ts). */
  session: "token",
  /** A toast shown once after a redirect (app/web/flash.server.ts). */
  flash: "__flash",
  /** A borrower's sign-in waiting for its code (/quickStart only). */
  otpPending: "otp_pending",
  /** A staff sign-in waiting for its second factor (/admin only). */
  staffPending: "staff_pending",
  /** Facebook sign-in's state (/auth/facebook only). */
  facebookState: "fb_oauth",
} as const;

export type CookieName = (typeof COOKIE_NAMES)[keyof typeof COOKIE_NAMES];

const escaped = Object.values(COOKIE_NAMES).map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
// Spaces around the name as the cookie parsers allow them (they trim it).
const APP_COOKIE = new RegExp(`(?:^|;)\\s*(?:${escaped.join("|")})\\s*=`);

/** Whether a Cookie header holds one of the application's cookies. */
export const hasAppCookie = (header: string | undefined | null): boolean => APP_COOKIE.test(header ?? "");
