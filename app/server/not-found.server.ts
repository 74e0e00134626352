import { data } from "react-router";
import { pageOf } from "./auth/session.server.ts";

/** The loader answer of a page that is not there: status 404 and the path asked for. */
export const notFoundData = (request: Request) => data({ path: pageOf(request).path }, { status: 404 });
