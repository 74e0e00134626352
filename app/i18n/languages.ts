// The languages a visitor or borrower can read the site in (docs/product.md "Languages"), and how a
// request's language is chosen: the `lang` cookie set by the switch in the header, else the
// browser's Accept-Language, else English. Staff pages stay English.
// Used by the page cache (server/page-cache.ts) before React Router runs, and by the root's
// middleware: both must choose alike, or a cached page would come in the other language.

export const LANGUAGES = ["en", "hi"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** The cookie the switch sets (a year); not one of the application's cookies (it changes the page cache's key, not whether it serves). */
export const LANGUAGE_COOKIE = "lang";
export const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** `<html lang>` and Content-Language: the language as written in India. */
export const HTML_LANG: Record<Language, string> = { en: "en-IN", hi: "hi-IN" };

/** Each language's name in itself, as the switch shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", hi: "हिन्दी" };
/** The same, short, for a phone's header. */
export const LANGUAGE_SHORT: Record<Language, string> = { en: "EN", hi: "हिं" };

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "hi";
}

const COOKIE_PATTERN = new RegExp(`(?:^|;)\\s*${LANGUAGE_COOKIE}\\s*=\\s*"?([A-Za-z-]{1,8})"?\\s*(?:;|$)`);

/** The language the `lang` cookie names, or null when there is none (or it names no language of ours). */
export function languageFromCookie(cookieHeader: string | null | undefined): Language | null {
  const match = COOKIE_PATTERN.exec(cookieHeader ?? "");
  const value = match?.[1]?.toLowerCase();
  return isLanguage(value) ? value : null;
}

/**
 * The language an Accept-Language header prefers among ours: the highest q-value wins, ties go to
 * the earlier; "hi", "hi-IN" mean Hindi, any "en" English; a language of neither is passed over.
 * No header, or none of ours: null.
 */
export function languageFromAcceptLanguage(header: string | null | undefined): Language | null {
  if (!header) return null;
  let best: Language | null = null;
  let bestQ = 0;
  for (const part of header.slice(0, 512).split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const primary = tag.trim().toLowerCase().split("-")[0];
    if (!isLanguage(primary)) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split("=").map((s) => s.trim());
      if (name === "q") q = Number(value);
    }
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (q > bestQ) {
      best = primary;
      bestQ = q;
    }
  }
  return best;
}

/** The language a request is answered in: the cookie's, else Accept-Language's, else English. */
export function chooseLanguage(cookieHeader: string | null | undefined, acceptLanguage: string | null | undefined): Language {
  return languageFromCookie(cookieHeader) ?? languageFromAcceptLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}

/** What the switch to each language says, in that language (its accessible name). */
export const SWITCH_TO: Record<Language, string> = { en: "Read this site in English", hi: "यह साइट हिन्दी में पढ़ें" };
