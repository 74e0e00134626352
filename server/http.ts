import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import compression from "compression";
import express, { type RequestHandler } from "express";
import type { AppServices, RequestInfo } from "../app/context.ts";
import type { Database } from "../app/server/db/client.ts";
import { scrubUrl } from "./logger.ts";
import { isDatabaseUnavailable } from "../app/server/db/unavailable.ts";
import { refuse, requestGuards } from "./request-guards.ts";
import { sendUnavailable } from "./unavailable-page.ts";
import type { SecurityHeaders } from "./security-headers.ts";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** The client's X-Request-Id when it is a plain token, else a new one. */
export const requestIdFrom = (incoming: string | string[] | undefined) =>
  typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();

export interface HttpAppOptions {
  services: AppServices;
  database: Database;
  /** Production: the built client directory served as static files. */
  clientDir?: string;
  /** Dev: Vite's middlewares (HMR, on-demand modules). */
  devMiddleware?: RequestHandler;
  /** The React Router handler (or a function returning it per request, in dev). */
  handler: RequestHandler;
  /** The security headers (CSP with the request's nonce, helmet's others, Permissions-Policy). */
  security: SecurityHeaders;
}

export function createHttpApp({ services, database, clientDir, devMiddleware, handler, security }: HttpAppOptions) {
  const { config, log } = services;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);

  // Request id, CSP nonce, client facts; one JSON log line per request.
  app.use((req, res, next) => {
    const requestId = requestIdFrom(req.get("x-request-id"));
    const info: RequestInfo = {
      requestId,
      nonce: randomBytes(16).toString("base64"),
      ip: req.ip ?? req.socket.remoteAddress ?? "",
      userAgent: req.get("user-agent") ?? "",
      method: req.method,
    };
    res.locals.request = info;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      log.info(
        {
          reqId: requestId,
          method: req.method,
          url: scrubUrl(req.originalUrl),
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          bytes: Number(res.getHeader("content-length") ?? 0) || undefined,
          ip: info.ip,
        },
        "request",
      );
    });
    next();
  });

  app.use(security.middleware);

  app.use(
    compression({
      // Never buffer server-sent events.
      filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
    }),
  );

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    // The files' storage is reported, not required: without it uploads and PDFs fail but every other page
    // serves, and a bucket away for every machine must not take them all out of the load balancer.
    const storage = services.storage.check(1_500).then(
      () => "reachable" as const,
      (error: unknown) => {
        log.warn({ err: error }, "readiness check: the files' storage cannot be reached");
        return "unreachable" as const;
      },
    );
    try {
      // Within 2 s either way: a load balancer's probe must not hang while the database is away.
      await database.ping(1_500);
      res.json({
        status: "ready",
        database: database.kind,
        realtime: database.listening() ? "listening" : "reconnecting",
        storage: await storage,
      });
    } catch (error) {
      log.warn({ err: error }, "readiness check failed");
      res.status(503).json({ status: "unavailable", database: database.kind, storage: await storage });
    }
  });

  if (devMiddleware) app.use(devMiddleware);
  if (clientDir) {
    // Hashed build output never changes under a name: cache it for a year.
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: true }));
    // The build's other files (robots.txt, the service worker, icons), by name: a page's path is
    // never looked for on disk (a stat per request was 4% of a signed-in page's CPU).
    const files = new Set(
      readdirSync(clientDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => "/" + path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
        .filter((file) => !file.startsWith("/assets/")),
    );
    const serveFile = express.static(clientDir, { maxAge: "1h", index: false });
    const isFile = (pathname: string) => {
      try {
        return files.has(decodeURIComponent(pathname));
      } catch {
        return false; // a malformed escape names no file
      }
    };
    app.use((req, res, next) => (isFile(req.path) ? serveFile(req, res, next) : next()));
  }

  app.use(requestGuards({ publicUrl: config.publicUrl }));
  app.use(handler);
  // What escaped the React Router handler: logged without values, answered without details.
  app.use(((error, req, res, _next) => {
    if (res.headersSent || req.socket.destroyed) {
      res.destroy();
      return;
    }
    log.error({ err: error, reqId: res.locals.request?.requestId, url: scrubUrl(req.originalUrl) }, "request failed");
    if (isDatabaseUnavailable(error)) sendUnavailable(res, config);
    else refuse(req, res, 500, "We could not complete your request. Please try again in a moment.");
  }) as express.ErrorRequestHandler);
  return app;
}

/**
 * Stops accepting connections, lets in-flight requests finish (up to
 * `timeoutMs`), then closes idle keep-alive sockets and resolves.
 */
export function closeGracefully(server: Server, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
