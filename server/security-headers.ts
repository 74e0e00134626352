// The security headers of every answer, in one place: Express applies them per request (the CSP
// allows that request's nonce), and the anonymous page cache asks for them once per cached page
// (the CSP allows the hashes of that page's inline scripts instead).
import type { IncomingMessage, ServerResponse } from "node:http";
import type express from "express";
import helmet from "helmet";
import type { Config } from "./config.ts";

const PERMISSIONS_POLICY = "camera=(self), microphone=(), geolocation=(), payment=()";

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
        // A rendered page: only scripts carrying this response's nonce run; 'strict-dynamic' lets
        // them load the hashed module chunks they import. A cached page: its inline scripts by hash,
        // and this site's module files.
        scriptSrc: [
          (_req, res) => {
            const locals = (res as express.Response).locals;
            return locals.scriptSrc ?? `'nonce-${locals.request.nonce}' 'strict-dynamic'`;
          },
        ],
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
  const middleware: express.RequestHandler = (req, res, next) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    helmetMiddleware(req, res, next);
  };
  return {
    middleware,
    forHashedPage(scriptHashes) {
      const headers: Record<string, string> = {};
      const res = {
        locals: { scriptSrc: ["'self'", ...scriptHashes.map((h) => `'sha256-${h}'`)].join(" ") },
        setHeader(name: string, value: unknown) {
          headers[name] = String(value);
        },
        removeHeader(name: string) {
          delete headers[name];
        },
      };
      // Helmet sets its headers synchronously; its functions read only `res.locals`.
      middleware(
        { headers: {} } as unknown as IncomingMessage & express.Request,
        res as unknown as ServerResponse & express.Response,
        () => {},
      );
      return headers;
    },
  };
}
