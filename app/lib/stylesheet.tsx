// The site's stylesheet: inline in the page on a first visit (a visitor without a session: one
// round trip fewer before the first paint on a phone), a cached file otherwise. The server gives
// the text through <InlineStylesheetProvider> (entry.server.tsx); the browser keeps what the page
// came with, so hydration and any later render of the root produce the same element.
import { createContext, useContext } from "react";
import stylesheetUrl from "../app.css?url";

const STYLE_ID = "app-css";
const InlineStylesheetContext = createContext<string | null>(null);

/** The stylesheet's text to inline in this page, or null for a link to the file. */
export const InlineStylesheetProvider = InlineStylesheetContext.Provider;

/** In the browser, the inline stylesheet the page came with (null: it came with a link). */
const inlinedText = typeof document === "undefined" ? null : (document.getElementById(STYLE_ID)?.textContent ?? null);

export { stylesheetUrl };

export function Stylesheet() {
  const text = useContext(InlineStylesheetContext) ?? inlinedText;
  if (text !== null) return <style id={STYLE_ID} dangerouslySetInnerHTML={{ __html: text }} />;
  return <link rel="stylesheet" href={stylesheetUrl} />;
}
