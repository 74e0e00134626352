import { data } from "react-router";
import { translator } from "../i18n/messages.server.ts";
import { pageOf } from "./guards.server.ts";
import { languageOfRequest } from "./i18n.server.ts";

/** The loader answer of a page that is not there: status 404, the path asked for and the page's title in its language. */
export const notFoundData = (request: Request) =>
  data({ path: pageOf(request).path, title: translator(languageOfRequest(request), "common")("notFound.title") }, { status: 404 });

/**
 * 404 with "Page Not Found: {fullPath}" (the path with its query), for references and outcome pages,
 * in the request's language; `path` tells the error view the message is this one.
 */
export function notFoundFullPath(request: Request): never {
  const page = pageOf(request);
  const path = `${page.path}${page.search}`;
  throw data({ message: translator(languageOfRequest(request), "outcome")("pageNotFound", { path }), path }, { status: 404 });
}
