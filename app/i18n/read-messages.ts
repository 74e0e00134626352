// A page's messages as its loader data carries them, read back here for use-intl's provider, in the
// browser and in the server's render alike. A namespace's value is either its compiled messages as
// one JSON string (app/i18n/messages.server.ts serializedMessages: a client navigation's data) or,
// in a document's loader data, a reference ("hi:dashboard", `messagesRefs`): the document carries
// that namespace's JSON once, in a <script type="application/json"> of its own that the server
// writes once per process (`messagesElements`), outside the data React Router encodes.

/** Namespace → its compiled messages as JSON, or a reference to the document's copy of them. */
export type SerializedMessages = Readonly<Record<string, string>> & { readonly __serializedMessages?: never };

/** A reference names a language and a namespace ("en:common"); a namespace's JSON is an object, "{…". */
export const isMessagesRef = (value: string) => !value.startsWith("{");

/** The id of the element a document carries a referenced namespace in. */
export const messagesElementId = (ref: string) => `messages:${ref}`;

/** A reference → its compiled messages: in the browser, the document's element; the server sets its own. */
let resolveRef = (ref: string): unknown => {
  const text = typeof document === "undefined" ? undefined : document.getElementById(messagesElementId(ref))?.textContent;
  if (!text) throw new Error(`The page carries no messages for ${ref}`);
  return JSON.parse(text) as unknown;
};

/** The server's render reads a reference from the process's cache, not from a document. */
export function setMessagesRefSource(source: (ref: string) => unknown) {
  resolveRef = source;
}

// A namespace's text (or reference) → its messages, read once: the server's render gets the very
// strings it cached, and a browser sees the same few namespaces on every navigation.
const parsed = new Map<string, unknown>();
const MAX_PARSED = 200;

function parse(text: string): unknown {
  let value = parsed.get(text);
  if (value === undefined) {
    value = isMessagesRef(text) ? resolveRef(text) : (JSON.parse(text) as unknown);
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(text, value);
  }
  return value;
}

/**
 * Joins the messages of several parts (the root's, each matched route's) into one tree for the
 * provider; a part's namespace is a JSON string or a reference (loader data) or already a tree (the
 * words the server gives an error page rendered without loader data).
 */
export function readMessages(parts: readonly (Readonly<Record<string, unknown>> | undefined)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    if (!part) continue;
    for (const [namespace, value] of Object.entries(part)) out[namespace] = typeof value === "string" ? parse(value) : value;
  }
  return out;
}
