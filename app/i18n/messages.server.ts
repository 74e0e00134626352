// Messages compiled for formatting (icu-minify): once per language and namespace in a process, then
// sent in a page's loader data, so the browser formats them without an ICU parser (vite.config.ts
// points use-intl's formatter at its format-only build, on the server too, so both sides format
// alike).
import compile from "icu-minify/compile";
import { createTranslator } from "use-intl/core";
import type { Language } from "./languages.ts";
import { CATALOGUES } from "./messages/index.ts";
import { type Messages, type Namespace, TIME_ZONE } from "./messages.ts";
import type { SerializedMessages } from "./read-messages.ts";

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

/** A translator for one namespace outside React (page titles, messages built on the server). */
export function translator<N extends Namespace>(language: Language, namespace: N) {
  return createTranslator({
    locale: language,
    messages: compiledMessages(language, [namespace]) as Messages,
    namespace,
    timeZone: TIME_ZONE,
  });
}
