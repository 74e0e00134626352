// A message a shared schema (Zod) or a server answer gives, as a key of the catalogue rather than
// words: "i18n:validation.mobile" or "i18n:quickStart.errors.amountBelow {"min":"₹5,000"}". The
// same schema runs in the browser and on the server; whichever side shows the message says it in
// the page's language (app/lib/use-message-text.ts). Words that are not such a key are shown as
// they are.
import type { Messages } from "./messages.ts";

type Paths<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Paths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every message of the catalogue, by its dotted path ("validation.mobile"). */
export type MessageKey = Paths<Messages>;
/** Values a message's placeholders take: words and numbers made ready to show (amounts formatted). */
export type MessageValues = Record<string, string | number>;

const MARK = "i18n:";
const KEY = /^i18n:([A-Za-z0-9_.]+)(?: (\{.*\}))?$/s;

/** The message `key` (with `values`), as a schema or an answer carries it: `msg("validation.mobile.yours")`. */
export function msg(key: MessageKey, values?: MessageValues): string {
  return values ? `${MARK}${key} ${JSON.stringify(values)}` : `${MARK}${key}`;
}

/** The key and values `text` carries, or null when it is words already. */
export function parseMessage(text: string): { key: string; values?: MessageValues } | null {
  const match = KEY.exec(text);
  if (!match) return null;
  const key = match[1] ?? "";
  if (!match[2]) return { key };
  try {
    const parsed: unknown = JSON.parse(match[2]);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return { key };
    const values: MessageValues = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === "string" || typeof value === "number") values[name] = value;
    }
    return { key, values };
  } catch {
    return { key };
  }
}
