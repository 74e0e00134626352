// What every request must satisfy before any framework code reads it: a
// state-changing request comes from this site, and its body has a declared
// length within the limit for its kind of route.
import type { Request, RequestHandler, Response } from "express";
import { MAX_STATEMENT_BYTES, STATEMENT_TOO_LARGE } from "../app/domain/books/reconciliation.ts";
import { MAX_REJECTION_BYTES, REJECTION_TOO_LARGE } from "../app/domain/bureau/reporting.ts";
import { LIST_TOO_LARGE, MAX_LIST_BYTES } from "../app/domain/aml/forms.ts";
import { fileTooLargeMessage, MAX_DOCUMENT_BYTES, MAX_SELFIE_BYTES } from "../app/domain/kyc/documents.ts";

/** A form's body: its fields only (files go to the upload routes). */
export const FORM_BODY_LIMIT = 100 * 1024;
/** Room for the multipart framing and the form's other fields around an upload's file. */
const UPLOAD_MARGIN = 64 * 1024;

/**
 * Provider webhooks: sent by another site, so no Origin of ours; each is checked by its signature
 * instead (the route does it). Their bodies are small JSON.
 */
const SIGNED_ROUTES = /^\/api\/webhooks\/[\w-]+\/?$/;

/** Routes whose forms carry a file, with the most their body may be (client navigations add ".data") and what a larger one is told. */
const UPLOAD_ROUTES: ReadonlyArray<readonly [RegExp, number, string?]> = [
  [/^\/user\/profile\/components\/documents(?:\.data)?\/?$/i, MAX_DOCUMENT_BYTES + UPLOAD_MARGIN],
  [/^\/user\/profile\/components\/selfie(?:\.data)?\/?$/i, MAX_SELFIE_BYTES + UPLOAD_MARGIN],
  // A provider's statement (CSV) for reconciliation.
  [/^\/admin\/reconciliation(?:\.data)?\/?$/i, MAX_STATEMENT_BYTES + UPLOAD_MARGIN, STATEMENT_TOO_LARGE],
  // A bureau's rejection file, on the page of the file it answers.
  [/^\/admin\/bureau\/runs\/[0-9a-f-]{36}(?:\.data)?\/?$/i, MAX_REJECTION_BYTES + UPLOAD_MARGIN, REJECTION_TOO_LARGE],
  // A sanctions list (the UN's consolidated list is about 2 MB).
  [/^\/admin\/aml(?:\.data)?\/?$/i, MAX_LIST_BYTES + UPLOAD_MARGIN, LIST_TOO_LARGE],
];

/** The most a request body to `pathname` may be, in bytes, and the largest file in it (null: a form without files). */
export function bodyLimit(pathname: string): { bytes: number; fileBytes: number | null; tooLarge?: string } {
  for (const [pattern, bytes, tooLarge] of UPLOAD_ROUTES)
    if (pattern.test(pathname)) return { bytes, fileBytes: bytes - UPLOAD_MARGIN, ...(tooLarge ? { tooLarge } : {}) };
  return { bytes: FORM_BODY_LIMIT, fileBytes: null };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The event streams' addresses as a client navigation's data request ("<path>.data"). */
const EVENT_STREAM_DATA = /^\/(?:api\/events|admin\/presence\/events)\.data\/?$/i;

/**
 * The origin this site is served from: PUBLIC_URL's when it is set (behind a
 * proxy the request itself may say http), otherwise the request's own.
 */
export function expectedOrigin(req: Request, publicUrl: string | null): string {
  return publicUrl ? new URL(publicUrl).origin : `${req.protocol}://${req.host}`;
}

/**
 * A state-changing request is this site's own when its Origin header (or,
 * lacking one, its Referer) is this site's origin. Browsers send Origin with
 * every POST; "null" (a sandboxed or redirected context) is not this site.
 */
export function isSameOrigin(req: Request, publicUrl: string | null): boolean {
  const expected = expectedOrigin(req, publicUrl);
  const origin = req.get("origin");
  if (origin !== undefined) return origin === expected;
  const referer = req.get("referer");
  if (!referer) return false;
  try {
    return new URL(referer).origin === expected;
  } catch {
    return false;
  }
}

/** Answers a refused request: a short HTML page for a browser's navigation, plain JSON otherwise. */
export function refuse(req: Request, res: Response, status: number, message: string) {
  res.status(status).setHeader("Cache-Control", "no-store");
  if (status === 413 || status === 411) res.setHeader("Connection", "close");
  if (req.accepts(["json", "html"]) === "html" && !req.path.endsWith(".data")) {
    const escaped = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    res
      .type("html")
      .send(
        `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Request refused</title></head>` +
          `<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><main><h1>That could not be accepted</h1><p>${escaped}</p>` +
          `<p><a href="${req.path.startsWith("//") ? "/" : encodeURI(req.path)}">Back to the page</a> · <a href="/">Home page</a></p></main></body></html>`,
      );
  } else {
    res.json({ error: message });
  }
}

/**
 * One rule for every state-changing request (the exception: provider webhooks,
 * which are checked by signature instead), and
 * a body limit per kind of route, checked on the declared length before a
 * byte of the body is read.
 */
export function requestGuards({ publicUrl }: { publicUrl: string | null }): RequestHandler {
  return (req, res, next) => {
    // An event stream has no data form: React Router would wait for its end, which never comes.
    if (EVENT_STREAM_DATA.test(req.path)) return refuse(req, res, 404, "Not found.");
    if (SAFE_METHODS.has(req.method)) return next();
    if (!SIGNED_ROUTES.test(req.path) && !isSameOrigin(req, publicUrl)) {
      return refuse(req, res, 403, "This form was sent from another site, so it was refused. Open the page on this site and try again.");
    }
    const limit = bodyLimit(req.path);
    const declared = req.get("content-length");
    if (declared === undefined) {
      // A body without a declared length (chunked) cannot be refused before it is read.
      if (req.get("transfer-encoding")) return refuse(req, res, 411, "The request must say how long its body is.");
      return next();
    }
    if (!/^\d{1,15}$/.test(declared)) return refuse(req, res, 400, "The request's length is not a number.");
    if (Number(declared) > limit.bytes) {
      // Nothing of the body is read: the connection is closed after this answer.
      return refuse(
        req,
        res,
        413,
        limit.fileBytes === null
          ? `What you sent is larger than this form accepts (${Math.round(limit.bytes / 1024)} kB).`
          : (limit.tooLarge ?? fileTooLargeMessage(limit.fileBytes)),
      );
    }
    next();
  };
}

/** Pages that show one person's data, and the answers that set a cookie: never stored by a cache. */
const PRIVATE_PATH =
  /^\/(?:user|admin|eagreement|api|auth|quickstart\/(?:step\d|components|otp))(?:[/.]|$)|^\/(?:success|failure|pending|cancelled)\/[^/]+(?:\.data)?$/i;

export function isPrivatePath(pathname: string): boolean {
  return PRIVATE_PATH.test(pathname);
}
