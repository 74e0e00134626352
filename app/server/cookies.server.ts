import { createHmac } from "node:crypto";
import { type Cookie, type CookieOptions, createCookie } from "react-router";
import type { Config } from "../../server/config.ts";
import type { CookieName } from "./cookie-names.ts";
import { safeEqual } from "./crypto.server.ts";

/**
 * A signed, HttpOnly, SameSite=Lax cookie (Secure in production), built once
 * per configuration: `const pending = signedCookie("otp_pending", { path: "/quickStart", maxAge: 600 })`
 * then `pending(config).parse(...)`.
 *
 * React Router's cookie writes it; reading it (on every signed-in request) checks the signature
 * with node:crypto at once, in the same format, instead of two WebCrypto calls through the thread
 * pool (importKey, then verify).
 */
export function signedCookie(name: CookieName, options: Pick<CookieOptions, "path" | "maxAge">) {
  const made = new Map<string, Cookie>();
  return (config: Config): Cookie => {
    const key = `${config.sessionSecret}:${config.isProduction}`;
    let cookie = made.get(key);
    if (!cookie) {
      const secrets = [config.sessionSecret];
      const written = createCookie(name, {
        httpOnly: true,
        sameSite: "lax",
        secure: config.isProduction,
        secrets,
        path: "/",
        ...options,
      });
      cookie = {
        get name() {
          return written.name;
        },
        get isSigned() {
          return written.isSigned;
        },
        get expires() {
          return written.expires;
        },
        parse: async (cookieHeader) => readSignedCookie(cookieHeader, name, secrets),
        serialize: (value, serializeOptions) => written.serialize(value, serializeOptions),
      };
      made.set(key, cookie);
    }
    return cookie;
  };
}

/** Spaces and tabs around a name or a value go, as React Router's cookie parser (cookie-es) does; nothing else. */
const trimSpaces = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, "");

/** The raw value of cookie `name` in a Cookie header (the first one, as browsers list the most specific first). */
function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || trimSpaces(part.slice(0, eq)) !== name) continue;
    const value = trimSpaces(part.slice(eq + 1));
    if (!value.includes("%")) return value;
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

/**
 * What React Router's `createCookie(name, { secrets }).parse(header)` gives, read synchronously: null
 * without the cookie or with a signature none of `secrets` made, "" for an empty one, else the
 * value it serialized (base64 of its JSON, then "." and the HMAC-SHA-256 in base64 without padding).
 */
export function readSignedCookie(header: string | null | undefined, name: string, secrets: readonly string[]): unknown {
  if (!header) return null;
  const raw = cookieValue(header, name);
  if (raw === null) return null;
  if (raw === "") return "";
  const dot = raw.lastIndexOf(".");
  const value = raw.slice(0, dot);
  const signature = raw.slice(dot + 1);
  for (const secret of secrets) {
    const expected = createHmac("sha256", secret).update(value).digest("base64").replace(/=+$/, "");
    if (!safeEqual(expected, signature)) continue;
    try {
      return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
    } catch {
      return {};
    }
  }
  return null;
}
