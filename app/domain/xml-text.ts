/**
 * Text for an XML element or attribute: the five special characters escaped, and any character XML
 * 1.0 cannot hold (control characters, unpaired surrogates) dropped. Shared by every XML file the
 * application writes (the books' Tally export, the FIU-IND report).
 */
export function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}
