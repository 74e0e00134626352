import { type Cookie, type CookieOptions, createCookie } from "react-router";
import type { Config } from "../../server/config.ts";

/**
 * A signed, HttpOnly, SameSite=Lax cookie (Secure in production), built once
 * per configuration: `const pending = signedCookie("otp_pending", { path: "/quickStart", maxAge: 600 })`
 * then `pending(config).parse(...)`.
 */
export function signedCookie(name: string, options: Pick<CookieOptions, "path" | "maxAge">) {
  const made = new Map<string, Cookie>();
  return (config: Config): Cookie => {
    const key = `${config.sessionSecret}:${config.isProduction}`;
    let cookie = made.get(key);
    if (!cookie) {
      cookie = createCookie(name, {
        httpOnly: true,
        sameSite: "lax",
        secure: config.isProduction,
        secrets: [config.sessionSecret],
        path: "/",
        ...options,
      });
      made.set(key, cookie);
    }
    return cookie;
  };
}
