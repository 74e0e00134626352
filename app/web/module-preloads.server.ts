// A page's <link rel="modulepreload"> tags, left out of the document it is sent as.
//
// React Router's <Scripts> lists every module of the page as a modulepreload, and React hoists them
// into <head>: the browser asks for two dozen scripts at high priority before it has painted
// anything, and on a phone's slow network they share the line with the page itself. Without them the
// page's own module script (at the end of <body>) still imports every module, a level of imports at
// a time: the page is drawn first (it works without JavaScript) and is interactive no later. In
// Lighthouse's mobile run of the home page: first contentful paint 2.3-2.6 s → 0.9 s, interactive
// 2.4 s → 1.9-2.0 s. Hydration, finding no such links, adds them once the modules have arrived.

const HEAD_END = Buffer.from("</head>");
// React escapes ">" inside attribute values, so a tag ends at its first ">".
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

/** The document without its modulepreload links (looked for in <head> only, where React puts them). */
export function withoutModulePreloads(html: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const end = html.indexOf(HEAD_END);
  if (end < 0) return html;
  const head = html.toString("utf8", 0, end);
  const kept = head.replace(MODULE_PRELOAD, "");
  return kept.length === head.length ? html : Buffer.concat([Buffer.from(kept), html.subarray(end)]);
}
