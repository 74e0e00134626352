import { data } from "react-router";
import { pageOf } from "./guards.server.ts";

/** The loader answer of a page that is not there: status 404 and the path asked for. */
export const notFoundData = (request: Request) => data({ path: pageOf(request).path }, { status: 404 });

/** 404 with "Page Not Found: {fullPath}" (the path with its query), for references and outcome pages. */
export function notFoundFullPath(request: Request): never {
  const page = pageOf(request);
  throw data({ message: `Page Not Found: ${page.path}${page.search}` }, { status: 404 });
}
