// Anonymous public pages, answered from memory before Express or React Router run.
//
// The same for every visitor without one of our cookies: the home page, the calculator, rates, about, the
// policies and the quick start's front page. Each is rendered once (through React Router, as
// any request would be, but with no nonce) and kept with its gzip and brotli bodies, an ETag and
// a CSP allowing its inline scripts by hash. A request carrying one of the application's cookies
// (a session, a flash message) or a query string is rendered for it, as before; other cookies (a
// load balancer's, an analytics script's) change no page, so they do not keep a visitor from it.
// The cache is emptied when what these pages show changes (products, risk bands, published feedback, holidays: a realtime event on
// every process), when the India date turns, and at least every PAGE_CACHE_MAX_AGE_MS. A page that
// cannot be rendered again then (the database is away) is answered as it was last rendered.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import type { Logger } from "pino";
import { istDayNumber } from "../app/domain/india-date.ts";
import { chooseLanguage, type Language } from "../app/i18n/languages.ts";
import { hasAppCookie } from "../app/server/cookie-names.ts";
import { requestIdFrom } from "./http.ts";

/** The pages kept, by exact path (another spelling of one goes through the framework), one copy per language. */
export const CACHED_PAGES: readonly string[] = [
  "/",
  "/EmiCalculator",
  "/Rate-terms",
  "/About",
  "/grievance-policy",
  "/privacy-policy",
  "/terms-and-conditions",
  "/quickStart",
];

/** Belt and braces: a page is rendered again after this long even if no change was heard. */
export const PAGE_CACHE_MAX_AGE_MS = 60_000;
/** A page that could not be kept (an error, a cookie set) is not tried again for this long. */
const RETRY_AFTER_MS = 5_000;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Headers of a rendered page that are the request's own, or decided here. */
const NOT_KEPT = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "etag",
  "cache-control",
  "vary",
  "date",
  "connection",
  "keep-alive",
]);

type Encoding = "br" | "gzip" | "identity";

interface Entry {
  bodies: Record<Encoding, Buffer>;
  /** Header name/value pairs for each encoding, ready for writeHead (X-Request-Id added per request). */
  headers: Record<Encoding, string[]>;
  notModified: Record<Encoding, string[]>;
  /** The ETag's opaque part: a request naming it in any encoding has the page. */
  tag: string;
  madeAt: number;
  day: number;
}

export interface PageCacheOptions {
  /** Renders a path as React Router would for a visitor without cookies reading `language`, with no nonce. */
  render(path: string, language: Language): Promise<Response>;
  /** The security headers for a page whose inline scripts have these sha256 hashes (base64). */
  securityHeaders(scriptHashes: readonly string[]): Record<string, string>;
  log: Logger;
  /** The client's address as the rest of the server sees it (proxies trusted as configured). */
  clientIp(req: IncomingMessage): string;
  now?: () => Date;
}

export interface PageCache {
  /** Answers `req` from the cache, or calls `next` (the framework answers). */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  /** Forgets every page (what they show changed). */
  clear(): void;
  /** The pages held now (tests, the bench). */
  size(): number;
}

/** The sha256 (base64) of each inline script in `html`, as a CSP `'sha256-…'` source names it. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? "")) continue;
    hashes.add(
      createHash("sha256")
        .update(match[2] ?? "", "utf8")
        .digest("base64"),
    );
  }
  return [...hashes];
}

/** The encoding to answer with: brotli, then gzip, when the client accepts it (a `;q=0` refuses). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const accepted = (name: string) => {
    const match = new RegExp(`(?:^|,)\\s*${name}\\s*(?:;\\s*q\\s*=\\s*([0-9.]+))?\\s*(?:,|$)`, "i").exec(acceptEncoding);
    return match !== null && (match[1] === undefined || Number(match[1]) > 0);
  };
  if (accepted("br")) return "br";
  if (accepted("gzip")) return "gzip";
  return "identity";
}

function isAnonymousPageRequest(req: IncomingMessage): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  // The application's cookies change pages (a session shows "Your account", a flash message shows
  // once); nothing reads any other.
  if (hasAppCookie(req.headers.cookie)) return false;
  return true;
}

export function createPageCache({ render, securityHeaders, log, clientIp, now = () => new Date() }: PageCacheOptions): PageCache {
  const paths = new Set(CACHED_PAGES);
  const entries = new Map<string, Entry>();
  const filling = new Map<string, Promise<Entry | null>>();
  const refused = new Map<string, number>();
  let generation = 0;

  const indiaDay = () => istDayNumber(now());

  async function fill(path: string, language: Language, key: string): Promise<Entry | null> {
    const started = generation;
    const response = await render(path, language);
    const body = Buffer.from(await response.arrayBuffer());
    const type = response.headers.get("content-type") ?? "";
    if (response.status !== 200 || response.headers.has("set-cookie") || !type.startsWith("text/html")) {
      log.warn({ path, language, status: response.status }, "public page not cached: it was not a plain page");
      refused.set(key, Date.now());
      return null;
    }
    const [gz, br] = await Promise.all([
      gzipAsync(body, { level: 9 }),
      brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    ]);
    const tag = createHash("sha256").update(body).digest("base64url").slice(0, 27);
    const common: Record<string, string> = {};
    for (const [name, value] of response.headers) if (!NOT_KEPT.has(name)) common[name] = value;
    Object.assign(common, securityHeaders(inlineScriptHashes(body.toString("utf8"))));
    // The browser keeps the page but asks each time (If-None-Match); only the browser keeps it.
    common["Cache-Control"] = "private, no-cache";
    // One copy per language: the `lang` cookie, else Accept-Language, chooses it (as the app does).
    common["Vary"] = "Accept-Encoding, Accept-Language, Cookie";
    const bodies: Record<Encoding, Buffer> = { identity: body, gzip: gz, br };
    const headers = {} as Record<Encoding, string[]>;
    const notModified = {} as Record<Encoding, string[]>;
    for (const encoding of ["identity", "gzip", "br"] as const) {
      const etag = encoding === "identity" ? `"${tag}"` : `"${tag}-${encoding}"`;
      const pairs = Object.entries({ ...common, ETag: etag }).flat();
      headers[encoding] = [
        ...pairs,
        "Content-Length",
        String(bodies[encoding].length),
        ...(encoding === "identity" ? [] : ["Content-Encoding", encoding]),
      ];
      notModified[encoding] = pairs;
    }
    const entry: Entry = { bodies, headers, notModified, tag, madeAt: Date.now(), day: indiaDay() };
    // What the page shows changed while it was rendered: answer with it, keep it not.
    if (generation === started) entries.set(key, entry);
    return entry;
  }

  function send(entry: Entry, req: IncomingMessage, res: ServerResponse, started: bigint) {
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    const ifNoneMatch = req.headers["if-none-match"];
    let status = 200;
    let bytes = 0;
    if (ifNoneMatch && ifNoneMatch.includes(entry.tag)) {
      status = 304;
      res.writeHead(304, [...entry.notModified[encoding], "X-Request-Id", requestId]);
      res.end();
    } else {
      res.writeHead(200, [...entry.headers[encoding], "X-Request-Id", requestId]);
      if (req.method === "HEAD") res.end();
      else {
        bytes = entry.bodies[encoding].length;
        res.end(entry.bodies[encoding]);
      }
    }
    log.info(
      {
        reqId: requestId,
        method: req.method,
        url: req.url,
        status,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        bytes: bytes || undefined,
        ip: clientIp(req),
        cache: "hit",
      },
      "request",
    );
  }

  return {
    handle(req, res, next) {
      const path = req.url ?? "";
      if (!paths.has(path) || !isAnonymousPageRequest(req)) return next();
      const started = process.hrtime.bigint();
      const language = chooseLanguage(req.headers.cookie, req.headers["accept-language"]);
      const key = `${language} ${path}`;
      const entry = entries.get(key);
      if (entry && Date.now() - entry.madeAt < PAGE_CACHE_MAX_AGE_MS && entry.day === indiaDay()) {
        send(entry, req, res, started);
        return;
      }
      // A page that cannot be rendered again now (the database is away) is answered as it was last
      // rendered, however old, rather than not at all; without one the framework answers.
      const fallback = () => {
        if (res.destroyed) return;
        if (entry) send(entry, req, res, started);
        else next();
      };
      const refusedAt = refused.get(key);
      if (refusedAt !== undefined && Date.now() - refusedAt < RETRY_AFTER_MS) return fallback();
      let pending = filling.get(key);
      if (!pending) {
        pending = fill(path, language, key).finally(() => filling.delete(key));
        filling.set(key, pending);
      }
      pending.then(
        (filled) => {
          if (res.destroyed) return;
          if (filled) send(filled, req, res, started);
          else fallback();
        },
        (error: unknown) => {
          log.warn({ err: error, path, language }, "public page could not be rendered for the cache");
          refused.set(key, Date.now());
          fallback();
        },
      );
    },
    clear() {
      generation++;
      entries.clear();
      refused.clear();
    },
    size: () => entries.size,
  };
}
