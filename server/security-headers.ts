// The security headers of every answer, in one place: Express applies them per request (the CSP
// allows that request's nonce), and the anonymous page cache asks for them once per cached page
// (the CSP allows the hashes of that page's inline scripts instead).
import type { IncomingMessage, ServerResponse } from "node:http";
import type express from "express";
import helmet from "helmet";
import type { Config } from "./config.ts";

const PERMISSIONS_POLICY = "camera=(self), microphone=(), geolocation=(), payment=()";
/** Where each answer's own script-src goes in the CSP, which is otherwise the same for all. */
const SCRIPT_SRC = "'script-src-of-this-answer'";

export interface SecurityHeaders {
  middleware: express.RequestHandler;
  /**
   * The same headers for a page whose inline scripts are allowed by hash: `script-src 'self'`
   * and the hashes (no nonce, so the page's bytes can be served to anyone, again and again).
   */
  forHashedPage(scriptHashes: readonly string[]): Record<string, string>;
}

export function securityHeaders(config: Config, dev: boolean): SecurityHeaders {
  const helmetMiddleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [SCRIPT_SRC],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'"],
        connectSrc: dev ? ["'self'", "ws:", "wss:"] : ["'self'"],
        mediaSrc: ["'self'", "blob:"],
        frameSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        ...(config.isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
  // Helmet builds the headers once (it walked its options on every request, 2.5% of a signed-in
  // page's CPU); each answer gets them with its script-src in the CSP: a rendered page allows
  // scripts carrying its nonce ('strict-dynamic' lets them load the hashed module chunks they
  // import), a cached page its inline scripts by hash and this site's module files.
  const headers: Record<string, string> = { "Permissions-Policy": PERMISSIONS_POLICY };
  const collect = {
    setHeader(name: string, value: unknown) {
      headers[name] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  // Helmet sets its headers synchronously and, with no directive functions, reads nothing of the request.
  helmetMiddleware({ headers: {} } as unknown as IncomingMessage, collect as unknown as ServerResponse, () => {});
  const [cspBefore, cspAfter, ...more] = (headers["Content-Security-Policy"] ?? "").split(SCRIPT_SRC);
  if (cspBefore === undefined || cspAfter === undefined || more.length) throw new Error("the CSP has no place for script-src");
  const entries = Object.entries(headers).filter(([name]) => name !== "Content-Security-Policy");
  const withScriptSrc = (scriptSrc: string) => cspBefore + scriptSrc + cspAfter;
  const middleware: express.RequestHandler = (_req, res, next) => {
    for (const [name, value] of entries) res.setHeader(name, value);
    const { nonce } = (res.locals as { request: { nonce: string } }).request;
    res.setHeader("Content-Security-Policy", withScriptSrc(`'nonce-${nonce}' 'strict-dynamic'`));
    next();
  };
  return {
    middleware,
    forHashedPage(scriptHashes) {
      const csp = withScriptSrc(["'self'", ...scriptHashes.map((h) => `'sha256-${h}'`)].join(" "));
      return { ...Object.fromEntries(entries), "Content-Security-Policy": csp };
    },
  };
}
