// A page's messages as its loader data carries them: one JSON string per namespace
// (app/i18n/messages.server.ts serializedMessages), read back here for use-intl's provider, in the
// browser and in the server's render alike.

/** Namespace → its compiled messages as JSON. */
export type SerializedMessages = Readonly<Record<string, string>> & { readonly __serializedMessages?: never };

// A namespace's text → its messages, parsed once: the server's render gets the very strings it
// cached, and a browser sees the same few namespaces on every navigation.
const parsed = new Map<string, unknown>();
const MAX_PARSED = 200;

function parse(text: string): unknown {
  let value = parsed.get(text);
  if (value === undefined) {
    value = JSON.parse(text) as unknown;
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(text, value);
  }
  return value;
}

/**
 * Joins the messages of several parts (the root's, each matched route's) into one tree for the
 * provider; a part's namespace is a JSON string (loader data) or already a tree (the words the server
 * gives an error page rendered without loader data).
 */
export function readMessages(parts: readonly (Readonly<Record<string, unknown>> | undefined)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    if (!part) continue;
    for (const [namespace, value] of Object.entries(part)) out[namespace] = typeof value === "string" ? parse(value) : value;
  }
  return out;
}
