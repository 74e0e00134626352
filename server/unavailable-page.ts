// The site's own "we'll be back" page: the answer (503, Retry-After) to a request that needed the
// database while it is out of reach. Built from configuration alone (no database, no React, no
// script), so it can always be sent; accessible (one h1, a main landmark, readable contrast, works
// at 360 px) and styled inline (the CSP allows inline styles; no file to fetch).
import type { Response } from "express";
import type { Config } from "./config.ts";

/** How long a client is asked to wait before it tries again. */
export const RETRY_AFTER_SECONDS = 30;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's whole HTML (the words a visitor reads are here, whole). */
export function unavailableHtml(config: Pick<Config, "public">): string {
  const brand = escapeHtml(config.public.brandName);
  const officer = config.public.lender.grievanceOfficer;
  return `<!doctype html>
<html lang="en-IN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>We'll be back shortly | ${brand}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.6;color:#0f172a;background:#f8fafc}
header{background:#1d5fd1;color:#fff;padding:1rem}
header p{margin:0;font-weight:700;font-size:1.125rem;max-width:40rem;margin-inline:auto}
main{max-width:40rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.75rem;line-height:1.25;margin:0 0 1rem}
.card{background:#fff;border:1px solid #cbd5e1;border-radius:.75rem;padding:1.25rem}
a{color:#1d4ed8}
a:focus-visible{outline:3px solid #1d5fd1;outline-offset:2px}
</style>
</head>
<body>
<header><p>${brand}</p></header>
<main id="main">
<h1>We'll be back shortly</h1>
<div class="card">
<p>Our service is not available right now. We are working on it, and it is usually back within a few minutes.</p>
<p>If you were sending a form, it may not have been saved. Please check, and send it again when the service is back.</p>
<p>Your loans, payments and documents are safe. <a href="">Try again</a> in a minute.</p>
<p>Need us urgently? Call ${escapeHtml(officer.phone)} or write to <a href="mailto:${escapeHtml(officer.email)}">${escapeHtml(officer.email)}</a>.</p>
</div>
</main>
</body>
</html>
`;
}

/** The headers the page goes with: 503's Retry-After, never stored by a cache. */
export const unavailableHeaders = (): Record<string, string> => ({
  "Content-Type": "text/html; charset=utf-8",
  "Retry-After": String(RETRY_AFTER_SECONDS),
  "Cache-Control": "no-store",
});

/** Answers an Express response with the page (503), whatever the request was for. */
export function sendUnavailable(res: Response, config: Pick<Config, "public">) {
  res.status(503).set(unavailableHeaders()).send(unavailableHtml(config));
}
