// Messages compiled for formatting (icu-minify): once per language and namespace in a process, then
// sent in a page's loader data, so the browser formats them without an ICU parser (vite.config.ts
// points use-intl's formatter at its format-only build, on the server too, so both sides format
// alike).
import compile from "icu-minify/compile";
import { createTranslator } from "use-intl/core";
import type { Language } from "./languages.ts";
import { CATALOGUES } from "./messages/index.ts";
import { type Messages, type Namespace, TIME_ZONE } from "./messages.ts";
import { isMessagesRef, messagesElementId, type SerializedMessages, setMessagesRefSource } from "./read-messages.ts";

type Tree = { readonly [key: string]: string | Tree };

function compileTree(tree: Tree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) out[key] = typeof value === "string" ? compile(value) : compileTree(value);
  return out;
}

const compiled = new Map<string, unknown>();

function compiledNamespace(language: Language, namespace: Namespace): unknown {
  const key = `${language}:${namespace}`;
  let messages = compiled.get(key);
  if (messages === undefined) {
    messages = compileTree(CATALOGUES[language][namespace] as Tree);
    compiled.set(key, messages);
  }
  return messages;
}

/**
 * The namespaces a page shows, in its language, ready for use-intl's provider. Typed as the
 * catalogue (the values are compiled messages: only use-intl reads them).
 */
export function compiledMessages<N extends Namespace>(language: Language, namespaces: readonly N[]): Pick<Messages, N> {
  const out: Record<string, unknown> = {};
  for (const namespace of namespaces) out[namespace] = compiledNamespace(language, namespace);
  return out as Pick<Messages, N>;
}

const serialized = new Map<string, string>();

/**
 * The namespaces a page shows, in its language, each as one JSON string made once per process:
 * a page's loader data carries these strings, not the messages' trees, so its encoding on every
 * request (React Router's turbo-stream) handles one string per namespace instead of a thousand
 * values. The browser (and the server's render) reads them with `readMessages` (app/i18n/read-messages.ts).
 */
export function serializedMessages(language: Language, namespaces: readonly Namespace[]): SerializedMessages {
  const out: Record<string, string> = {};
  for (const namespace of namespaces) {
    const key = `${language}:${namespace}`;
    let text = serialized.get(key);
    if (text === undefined) {
      text = JSON.stringify(compiledNamespace(language, namespace));
      serialized.set(key, text);
    }
    out[namespace] = text;
  }
  return out as SerializedMessages;
}

/**
 * The namespaces a page shows, in its language, as references for a document's loader data: the
 * document carries each namespace's JSON once, outside the data (`messagesElements`), so React
 * Router's encoder does not encode and escape some 10-30 kB of messages on every page. A client
 * navigation's data still carries the JSON (`serializedMessages`).
 */
export function messagesRefs(language: Language, namespaces: readonly Namespace[]): SerializedMessages {
  const out: Record<string, string> = {};
  for (const namespace of namespaces) out[namespace] = `${language}:${namespace}`;
  return out as SerializedMessages;
}

function namespaceOfRef(ref: string): [Language, Namespace] | null {
  const [language, namespace] = ref.split(":") as [Language, Namespace];
  return CATALOGUES[language]?.[namespace] === undefined ? null : [language, namespace];
}

// The server's render reads a reference from this process's compiled messages.
setMessagesRefSource((ref) => {
  const found = namespaceOfRef(ref);
  if (!found) throw new Error(`No messages for ${ref}`);
  return compiledNamespace(...found);
});

const SCRIPT_START = Buffer.from("<script");

// A referenced namespace's element after "<script" (the request's nonce goes between), made once per
// process: its JSON, "<" escaped so no text closes the element.
const madeElements = new Map<string, Buffer>();

function messagesElement(ref: string): Buffer | null {
  let element = madeElements.get(ref);
  if (element === undefined) {
    const found = namespaceOfRef(ref);
    if (!found) return null;
    const json = serializedMessages(found[0], [found[1]])[found[1]] as string;
    element = Buffer.from(` type="application/json" id="${messagesElementId(ref)}">${json.replace(/</g, "\\u003c")}</script>`);
    madeElements.set(ref, element);
  }
  return element;
}

/**
 * The elements a document carries for the references in its loader data (each route's `messages`),
 * for the browser's hydration (app/i18n/read-messages.ts); empty when the data has none. Each carries
 * the request's CSP nonce, as every script element of a page does (the browser runs none of them).
 */
export function messagesElements(loaderData: Readonly<Record<string, unknown>>, nonce = ""): Buffer {
  const refs = new Set<string>();
  for (const data of Object.values(loaderData)) {
    const messages = (data as { messages?: unknown } | null | undefined)?.messages;
    if (!messages || typeof messages !== "object") continue;
    for (const value of Object.values(messages)) if (typeof value === "string" && isMessagesRef(value)) refs.add(value);
  }
  const nonceAttribute = nonce ? Buffer.from(` nonce="${nonce.replace(/[^A-Za-z0-9+/=_-]/g, "")}"`) : null;
  const parts: Buffer[] = [];
  for (const ref of refs) {
    const element = messagesElement(ref);
    if (!element) continue;
    parts.push(SCRIPT_START);
    if (nonceAttribute) parts.push(nonceAttribute);
    parts.push(element);
  }
  return Buffer.concat(parts);
}

const BODY_END = Buffer.from("</body>");

/**
 * The document with its messages' elements at the end of its <body>: after everything React rendered
 * there, so hydration, which leaves a body's extra trailing elements alone, never meets them; and
 * before the page's module scripts run (they run once the document is parsed).
 */
export function withMessagesElements(html: Buffer<ArrayBuffer>, elements: Buffer): Buffer<ArrayBuffer> {
  if (elements.byteLength === 0) return html;
  const end = html.lastIndexOf(BODY_END);
  if (end < 0) return html;
  return Buffer.concat([html.subarray(0, end), elements, html.subarray(end)]);
}

const makeTranslator = <N extends Namespace>(language: Language, namespace: N) =>
  createTranslator({
    locale: language,
    messages: compiledMessages(language, [namespace]) as Messages,
    namespace,
    timeZone: TIME_ZONE,
  });

const translators = new Map<string, unknown>();

/**
 * A translator for one namespace outside React (page titles, messages built on the server), made
 * once per process and language: it keeps nothing of a call (loaders ask for one on every request).
 */
export function translator<N extends Namespace>(language: Language, namespace: N): ReturnType<typeof makeTranslator<N>> {
  const key = `${language}:${namespace}`;
  let made = translators.get(key);
  if (made === undefined) {
    made = makeTranslator(language, namespace);
    translators.set(key, made);
  }
  return made as ReturnType<typeof makeTranslator<N>>;
}
