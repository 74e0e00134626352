// Express request ⇄ Fetch API Request/Response for React Router's handler.
// Ours rather than @react-router/express's so that the request's URL uses
// PUBLIC_URL's origin behind a proxy, and so that cache headers are decided
// in one place.
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { isPrivatePath } from "./request-guards.ts";

function headersOf(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  return headers;
}

/**
 * The Fetch API request for an Express one. Its origin is PUBLIC_URL's when
 * set (a proxy in front may speak https while this process sees http),
 * otherwise the request's own; its signal aborts when the client goes away.
 */
export function toWebRequest(req: ExpressRequest, res: ExpressResponse, publicUrl: string | null): Request {
  const origin = publicUrl ? new URL(publicUrl).origin : `${req.protocol}://${req.host || "localhost"}`;
  // Joined as text: a path such as "//evil.example/x" stays a path of this origin.
  const url = new URL(`${origin}${req.originalUrl.startsWith("/") ? "" : "/"}${req.originalUrl}`);
  const controller = new AbortController();
  let finished = false;
  res.on("finish", () => {
    finished = true;
    // Answered before the body was read (a redirect to sign-in, a 403, a refused file): the rest of
    // the body is read and dropped, or it would stall this keep-alive connection and the next
    // request sent on it would never be answered. Its size is within the route's limit (request-guards.ts).
    if (!req.complete) {
      req.removeAllListeners("data");
      req.resume();
    }
  });
  res.on("close", () => {
    if (!finished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers: headersOf(req), signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/** The largest body written in one piece (a page); anything else is streamed. */
const WHOLE_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * Writes a Fetch API response to Express. A private page (one person's data)
 * and any answer that sets a cookie is marked `private, no-store`.
 */
export async function sendWebResponse(req: ExpressRequest, res: ExpressResponse, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers) {
    if (key === "set-cookie") res.append(key, value);
    else res.setHeader(key, value);
  }
  if (isPrivatePath(req.path) || (response.headers.has("set-cookie") && !response.headers.has("cache-control"))) {
    res.setHeader("Cache-Control", "private, no-store");
  }
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  // A rendered page (entry.server.tsx) comes whole, with its length: one write.
  const length = Number(response.headers.get("content-length") ?? Number.NaN);
  if (length <= WHOLE_BODY_LIMIT && response.headers.get("content-type")?.startsWith("text/html")) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
