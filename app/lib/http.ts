/** Statuses after which a GET is tried once more (original spec §7). */
export const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

export interface HttpOptions extends Omit<RequestInit, "body"> {
  /** A plain object or array is sent as JSON with a JSON content type. */
  body?: BodyInit | Record<string, unknown> | unknown[] | null;
  /** Override the fetch used (tests). */
  fetch?: typeof fetch;
}

export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(`Request failed with status ${status}`);
    this.status = status;
    this.body = body;
  }
}

function isPlainBody(body: HttpOptions["body"]): body is Record<string, unknown> | unknown[] {
  if (body === null || body === undefined || typeof body !== "object") return false;
  if (Array.isArray(body)) return true;
  const proto = Object.getPrototypeOf(body);
  return proto === Object.prototype || proto === null;
}

/**
 * The browser's one HTTP helper. A GET is retried once on a transient status
 * (or a network failure); a call that changes data is never retried. Parses
 * JSON answers; throws HttpError for a non-2xx answer.
 */
export async function http<T = unknown>(url: string, options: HttpOptions = {}): Promise<T> {
  const { body, fetch: fetchImpl = globalThis.fetch, ...init } = options;
  const method = (init.method ?? "GET").toUpperCase();
  const headers = new Headers(init.headers);
  if (!headers.has("Accept")) headers.set("Accept", "application/json");
  let payload: BodyInit | null | undefined;
  if (isPlainBody(body)) {
    headers.set("Content-Type", "application/json");
    payload = JSON.stringify(body);
  } else {
    payload = body;
  }
  const request = () => fetchImpl(url, { ...init, method, headers, body: payload });
  const retryable = method === "GET" || method === "HEAD";

  let response: Response;
  try {
    response = await request();
  } catch (error) {
    if (!retryable) throw error;
    response = await request();
  }
  if (retryable && RETRY_STATUSES.has(response.status)) response = await request();

  const type = response.headers.get("Content-Type") ?? "";
  const data: unknown = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new HttpError(response.status, data);
  return data as T;
}
