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

/** A test of whether a Cookie header holds any of `names` (built once: these run on every request). */
function cookiePresence(names: readonly CookieName[]) {
  // Spaces around a name as the cookie parsers allow them (they trim it).
  const present = new RegExp(`(?:^|;)\\s*(?:${names.join("|")})\\s*=`);
  return (header: string | undefined | null): boolean => present.test(header ?? "");
}

/** Whether a Cookie header holds one of the application's cookies. */
export const hasAppCookie = cookiePresence(Object.values(COOKIE_NAMES));
/** Whether a Cookie header holds a session cookie (signed or not: a first visit has none). */
export const hasSessionCookie = cookiePresence([COOKIE_NAMES.session]);
