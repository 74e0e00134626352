import pino from "pino";

// What the log must never hold: whole mobile numbers, bearer links (signed
// agreements, signed PDF links, enrolment links, OAuth codes), a payment
// gateway's signature on the borrower's return from it, and the values
// of a failed query (names, addresses, PANs) that the database or the ORM
// put in their error messages.

const MOBILE = /(?<!\d)(?:\+?91)?([6-9]\d{5})(\d{4})(?!\d)/g;

/** A mobile number in a log field: its last 4 digits only. */
const maskMobileIn = (value: unknown) => (typeof value === "string" ? value.replace(MOBILE, "XXXXXX$2") : "[redacted]");

/** Path segments that are bearer secrets, and query parameters that are. */
const BEARER_PATHS: [RegExp, string][] = [
  [/^(\/eagreement\/)[^/?#]+/i, "$1[ref]"],
  [/^(\/admin\/enrol\/)[^/?#]+/i, "$1[token]"],
];
const SECRET_PARAMS = new Set(["signature", "sig", "expires", "token", "code", "state"]);
/** Whether a query parameter is a secret: one of the above, or any gateway's signature (razorpay_signature). */
const isSecretParam = (name: string) => SECRET_PARAMS.has(name) || /[_.-]signature$/.test(name);

/** A request's URL as it may be logged: bearer segments and secret parameters replaced. */
export function scrubUrl(url: string): string {
  const queryAt = url.indexOf("?");
  let pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  for (const [pattern, replacement] of BEARER_PATHS) pathname = pathname.replace(pattern, replacement);
  if (queryAt === -1) return pathname;
  const params = url
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const name = pair.split("=")[0] ?? "";
      return isSecretParam(decodeURIComponentSafe(name).toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${pathname}?${params.join("&")}`;
}

function decodeURIComponentSafe(value: string) {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Fields of database errors that carry the values of a row. */
const VALUE_FIELDS = ["params", "parameters", "detail", "where", "internalQuery", "hint"];

/**
 * An error as it may be logged: its type, message and stack, and its causes,
 * without the values a failed query carried. Drizzle writes them after
 * "params:" in the message, PostgreSQL in `detail` (and quotes a bad value in
 * some messages).
 */
export function safeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === "string" ? error : String(error);
  const message = error.message.replace(/\nparams: [\s\S]*$/, "\nparams: [redacted]").replace(/(: )"[^"]*"/g, '$1"[redacted]"');
  const out: Record<string, unknown> = {
    type: error.constructor?.name ?? "Error",
    message,
    stack: error.stack?.replace(error.message, message),
  };
  const fields = error as unknown as Record<string, unknown>;
  for (const key of ["code", "status", "routine", "table", "column", "constraint", "severity"]) {
    if (typeof fields[key] === "string" || typeof fields[key] === "number") out[key] = fields[key];
  }
  for (const key of VALUE_FIELDS) if (key in fields) out[key] = "[redacted]";
  if (error.cause !== undefined && depth < 5) out.cause = safeError(error.cause, depth + 1);
  return out;
}

export function createLogger(level: string, destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: safeError, error: safeError },
    redact: {
      paths: ["to", "mobile", "sms.to", "*.mobile", "*.to"],
      censor: maskMobileIn,
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
