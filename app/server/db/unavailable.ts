// Whether an error means the database is out of reach (down, restarting, a proxy or network in
// between gone), as opposed to a bug or a bad query: such a request is answered 503 with the
// site's "we'll be back" page (server/unavailable-page.ts) instead of 500.

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "EAI_AGAIN",
]);

/** PostgreSQL's own: shutting down, starting up, too many connections. */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** node-postgres's words for a connection that ended or never came (it gives them no code). */
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|the database did not answer within/i;

/** True when `error`, or any error it wraps (a cause, an AggregateError's errors), says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  // A call to an outside provider (fetch: the gateway, the SMS service) that could not connect is not the database.
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith("08"))) return true;
  if (LOST_CONNECTION.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(error.cause, depth + 1);
}
