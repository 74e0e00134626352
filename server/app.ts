// Bundled by Vite as the server build's entry (see vite.config.ts): it joins
// React Router's server build to the services that server.ts created.
import { createRequestHandler } from "@react-router/express";
import type { RequestHandler, Response } from "express";
import { RouterContextProvider } from "react-router";
import * as build from "virtual:react-router/server-build";
import { type AppServices, type RequestInfo, requestContext, servicesContext } from "../app/context.ts";

export function createReactRouterHandler(services: AppServices, mode: string): RequestHandler {
  return createRequestHandler({
    build,
    mode,
    getLoadContext(_req, res: Response) {
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      context.set(requestContext, res.locals.request as RequestInfo);
      return context;
    },
  });
}
