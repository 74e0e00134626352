// Bundled by Vite as the server build's entry (see vite.config.ts): it joins
// React Router's server build to the services that server.ts created.
import type { RequestHandler } from "express";
import { createRequestHandler, RouterContextProvider } from "react-router";
import * as build from "virtual:react-router/server-build";
import { type AppServices, type RequestInfo, requestContext, servicesContext } from "../app/context.ts";
import { sendWebResponse, toWebRequest } from "./web-request.ts";

export function createReactRouterHandler(services: AppServices, mode: string): RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      const context = new RouterContextProvider();
      context.set(servicesContext, services);
      context.set(requestContext, res.locals.request as RequestInfo);
      await sendWebResponse(req, res, await handle(toWebRequest(req, res, services.config.publicUrl), context));
    } catch (error) {
      next(error);
    }
  };
}
