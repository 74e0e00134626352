// Bundled by Vite as the server build's entry (see vite.config.ts): it joins
// React Router's server build to the services that server.ts created.
import type { RequestHandler } from "express";
import { createRequestHandler, RouterContextProvider } from "react-router";
import * as build from "virtual:react-router/server-build";
import { type AppServices, documentRequestContext, type RequestInfo, requestContext, servicesContext } from "../app/context.ts";
import { type Language, LANGUAGE_COOKIE } from "../app/i18n/languages.ts";
import { sendUnavailable } from "./unavailable-page.ts";
import { sendWebResponse, toWebRequest } from "./web-request.ts";

function contextFor(services: AppServices, request: RequestInfo, document: boolean) {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  context.set(requestContext, request);
  context.set(documentRequestContext, document);
  return context;
}

export function createReactRouterHandler(services: AppServices, mode: string): RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      const info = res.locals.request as RequestInfo;
      const response = await handle(
        toWebRequest(req, res, services.config.publicUrl),
        contextFor(services, info, !req.path.endsWith(".data")),
      );
      // A page that failed because the database is out of reach: 503 and the "we'll be back" page,
      // not the error page (a client navigation's data request keeps its own answer).
      if (info.databaseUnavailable && response.status >= 500 && !req.path.endsWith(".data")) {
        await response.body?.cancel().catch(() => {});
        sendUnavailable(res, services.config);
        return;
      }
      await sendWebResponse(req, res, response);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Renders a public page as a visitor without cookies would get it, for the anonymous page cache
 * (server/page-cache.ts): no nonce (the cache allows the page's inline scripts by hash), and the
 * whole body rendered before it is kept.
 */
export function createPageRenderer(services: AppServices, mode: string): (path: string, language: Language) => Promise<Response> {
  const handle = createRequestHandler(build, mode);
  const origin = services.config.publicUrl ? new URL(services.config.publicUrl).origin : "http://localhost";
  return (path, language) =>
    handle(
      new Request(`${origin}${path}`, {
        headers: { "user-agent": "page-cache", accept: "text/html", cookie: `${LANGUAGE_COOKIE}=${language}` },
      }),
      contextFor(
        services,
        {
          requestId: `page-cache:${path}`,
          nonce: "",
          ip: "",
          userAgent: "page-cache",
          method: "GET",
        },
        true,
      ),
    );
}
