// The page's language and the words every page needs (common, validation), for a page rendered
// without the root's loader data: an error thrown by a route's middleware (a refused agreement link,
// a page of another borrower's) renders the error page before any loader runs. The server gives them
// here (app/entry.server.tsx); the page carries them as JSON, not run, so the browser hydrates the
// same words.
import { createContext, useContext } from "react";
import type { Language } from "../i18n/languages.ts";

export interface PageLanguage {
  language: Language;
  messages: Record<string, unknown>;
}

const PageLanguageContext = createContext<PageLanguage | null>(null);
export const PageLanguageProvider = PageLanguageContext.Provider;

const SCRIPT_ID = "page-language";

/** What the page carries (read once: the element stays as the server wrote it). */
const carried = (() => {
  let read: PageLanguage | null | undefined;
  return () => {
    if (read === undefined) {
      const text = document.getElementById(SCRIPT_ID)?.textContent;
      read = text ? (JSON.parse(text) as PageLanguage) : null;
    }
    return read;
  };
})();

/** The page's language and common words when the root's loader data is missing (`missing`), else null. */
export function usePageLanguageFallback(missing: boolean): PageLanguage | null {
  const given = useContext(PageLanguageContext);
  if (!missing) return null;
  if (given) return given;
  return typeof document === "undefined" ? null : carried();
}

/** The words the server gave, carried in the page for the browser's hydration. */
export function PageLanguageData({ value }: { value: PageLanguage }) {
  // JSON in a script element the browser does not run; "<" escaped so no text closes it.
  return (
    <script type="application/json" id={SCRIPT_ID} dangerouslySetInnerHTML={{ __html: JSON.stringify(value).replace(/</g, "\\u003c") }} />
  );
}
