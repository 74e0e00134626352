import http from "node:http";
import type { TestServer } from "./server.ts";

/** The origin this site's own pages send: PUBLIC_URL's when it is set (behind a proxy), else the server's address. */
export const originOf = (app: TestServer) => new URL(app.config.publicUrl ?? app.url).origin;

/** POSTs a urlencoded form as this site's own page would (same Origin), optionally signed in. */
export function postForm(
  app: TestServer,
  pathname: string,
  fields: Record<string, string> | URLSearchParams,
  init: { cookie?: string; headers?: Record<string, string> } = {},
) {
  return app.get(pathname, {
    method: "POST",
    body: fields instanceof URLSearchParams ? fields : new URLSearchParams(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: originOf(app),
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...init.headers,
    },
  });
}

/** POSTs a multipart form with one file (`kind` and `file`), as an upload page would. */
export function postUpload(
  app: TestServer,
  pathname: string,
  { kind, bytes, name }: { kind: string; bytes: Uint8Array; name: string },
  cookie: string,
) {
  const form = new FormData();
  form.set("kind", kind);
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  return app.get(pathname, { method: "POST", body: form, headers: { Cookie: cookie, Origin: originOf(app) } });
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request written by hand on a socket: headers as given (a declared length
 * may differ from what is sent), then `chunks` written one by one; `abortAfter`
 * destroys the connection after that many chunks instead of finishing.
 * Resolves with the answer, or null when the connection ended without one.
 */
export function rawRequest(
  app: TestServer,
  {
    method = "POST",
    path,
    headers,
    chunks = [],
    abortAfter,
  }: { method?: string; path: string; headers: Record<string, string>; chunks?: (string | Uint8Array)[]; abortAfter?: number },
): Promise<RawAnswer | null> {
  const url = new URL(app.url);
  return new Promise((resolve) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: { Origin: url.origin, ...headers } });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", () => resolve(null));
    req.on("close", () => setTimeout(() => resolve(null), 50));
    let written = 0;
    const writeNext = () => {
      if (abortAfter !== undefined && written >= abortAfter) {
        req.destroy();
        return;
      }
      const chunk = chunks[written++];
      if (chunk === undefined) {
        req.end();
        return;
      }
      req.write(chunk, () => setTimeout(writeNext, 5));
    };
    req.flushHeaders();
    writeNext();
  });
}

/** The title of the flash toast an answer sets (the signed `__flash` cookie's payload), or "". */
export function toastOf(res: Response): string {
  const value = /__flash=([^.;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  if (!value) return "";
  const payload = JSON.parse(Buffer.from(decodeURIComponent(value), "base64").toString("utf8")) as { __flash_toast__?: { title?: string } };
  return payload.__flash_toast__?.title ?? "";
}

/** A page as someone signed in with `cookie` gets it: its status and its HTML, React's text separators taken out. */
export async function pageAs(app: TestServer, pathname: string, cookie: string) {
  const res = await app.get(pathname, { headers: { Cookie: cookie } });
  return { status: res.status, html: (await res.text()).replaceAll("<!-- -->", "") };
}
