// Links to a KFS PDF that work without a session for 10 minutes (a phone's PDF viewer has none).
import type { Config } from "../../../server/config.ts";
import { hmac, safeEqual } from "../crypto.server.ts";

export const PDF_LINK_SECONDS = 10 * 60;

const linkSignature = (config: Config, path: string, expires: number) =>
  hmac(config.sessionSecret, `pdf-link:${path.toLowerCase()}:${expires}`);

/** A link to `path` that works without a session until it expires. */
export function signedPdfLink(config: Config, path: string, now: Date) {
  const expires = Math.floor(now.getTime() / 1000) + PDF_LINK_SECONDS;
  return `${path}?expires=${expires}&signature=${linkSignature(config, path, expires)}`;
}

export function validPdfLink(config: Config, url: URL, now: Date): boolean {
  const expires = Number(url.searchParams.get("expires"));
  const signature = url.searchParams.get("signature") ?? "";
  if (!Number.isInteger(expires) || expires * 1000 < now.getTime()) return false;
  return safeEqual(signature, linkSignature(config, url.pathname, expires));
}
