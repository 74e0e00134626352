// Razorpay's HTTP API as the recurring-payments provider (razorpay.server.ts, razorpay-debits.server.ts)
// calls it: Basic auth with the key id and secret, JSON both ways, 10 seconds at most. An answer
// that is not a JSON object is no usable answer (thrown as an Error); a request Razorpay refuses
// (HTTP 400 with its error object, code BAD_REQUEST_ERROR, as its API documentation describes
// errors) is thrown as a RazorpayRefusal, which a caller may read as Razorpay's answer. Also the
// look-up both sides need: a mandate's registration link and authorisation (razorpay.server.ts
// names the fields).

export interface RazorpayMandatesOptions {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** https://api.razorpay.com/v1, or a local fake in tests. */
  apiUrl: string;
}

export type RazorpayEntity = Record<string, unknown>;
export type RazorpayCall = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) => Promise<RazorpayEntity>;

/** Razorpay's answer that it will not do what was asked (an id that does not exist, a token not usable). */
export class RazorpayRefusal extends Error {
  /** Razorpay's words for it (error.description). */
  readonly description: string;
  constructor(message: string, description: string) {
    super(message);
    this.description = description;
  }
}

const TIMEOUT_MS = 10_000;

export function razorpayClient(options: RazorpayMandatesOptions, fetchImpl: typeof fetch = fetch): RazorpayCall {
  const auth = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString("base64")}`;
  return async (method, path, body) => {
    let response: Response;
    try {
      response = await fetchImpl(`${options.apiUrl}${path}`, {
        method,
        headers: { Authorization: auth, Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`Razorpay ${method} ${path} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): no usable answer.
    }
    if (response.ok && json && typeof json === "object" && !Array.isArray(json)) return json as RazorpayEntity;
    const error = (json as { error?: { code?: unknown; description?: unknown } } | null)?.error;
    const description = typeof error?.description === "string" ? error.description : null;
    const message = `Razorpay ${method} ${path} answered ${response.status}${description ? `: ${description}` : response.ok ? " without JSON" : ""}`;
    if (response.status === 400 && error?.code === "BAD_REQUEST_ERROR" && description) throw new RazorpayRefusal(message, description);
    throw new Error(message);
  };
}

export const isInt = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);
export const fromUnix = (seconds: unknown) => (isInt(seconds) && seconds > 0 ? new Date(seconds * 1000) : null);
export const nonEmpty = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
/** An entity's nested object, or an empty one. */
export const objectOf = (value: unknown): RazorpayEntity =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as RazorpayEntity) : {};
/** A note by its key (Razorpay sends notes as an object, or an empty array when there are none). */
export const noteOf = (entity: RazorpayEntity | undefined, key: string) => nonEmpty(objectOf(entity?.notes)[key]);
/** A collection's items (`{entity: "collection", count, items}`), newest first by `created_at`. */
export const itemsOf = (collection: RazorpayEntity): RazorpayEntity[] =>
  (Array.isArray(collection.items) ? (collection.items as unknown[]) : [])
    .map(objectOf)
    .sort((a, b) => (isInt(b.created_at) ? b.created_at : 0) - (isInt(a.created_at) ? a.created_at : 0));

/** A mandate as Razorpay holds it: the registration link, the authorisation payment naming its token, the token. */
export interface Authorisation {
  link: RazorpayEntity;
  payment: RazorpayEntity | null;
  customerId: string | null;
  tokenId: string | null;
}

/** The registration link of our reference and the authorisation payment that names its token (none before the borrower authorises). */
export async function authorisationOf(call: RazorpayCall, reference: string): Promise<Authorisation> {
  const links = itemsOf(await call("GET", `/invoices?receipt=${encodeURIComponent(reference)}`)).filter(
    (l) => l.receipt === reference && nonEmpty(l.id),
  );
  const link = links.find((l) => l.status === "paid") ?? links[0];
  if (!link) throw new Error(`Razorpay has no registration link with receipt ${reference}`);
  const orderId = nonEmpty(link.order_id);
  const tried = orderId
    ? itemsOf(await call("GET", `/orders/${encodeURIComponent(orderId)}/payments`)).filter(
        (p) => nonEmpty(p.token_id) && nonEmpty(p.customer_id),
      )
    : [];
  const payment = tried.find((p) => p.id === link.payment_id) ?? tried[0] ?? null;
  return { link, payment, customerId: nonEmpty(payment?.customer_id), tokenId: nonEmpty(payment?.token_id) };
}
