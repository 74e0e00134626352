// use-intl's useTranslations, with its commonest calls made cheap: `t(key)` of a message that is
// plain text, and `t(key, values)` of one whose arguments are only put in as text ("Hello, {name}"),
// are looked up once per process and namespace and written here, not resolved through the key's path
// and formatted by use-intl on every call (use-intl writes them the same way: the texts joined, each
// argument as `String(value)`). Every other call (numbers, dates, plurals, rich text, a missing key)
// goes to use-intl. A page's render calls `t` a hundred times or more.
import { useMemo } from "react";
import { useMessages, useTranslations as useIntlTranslations } from "use-intl/react";

export type Translator = ((key: string, ...rest: unknown[]) => unknown) & Record<"rich" | "markup" | "raw" | "has", unknown>;

// What a message is, compiled (icu-minify): its text, a list of texts and plain arguments ("Hello,
// {name}" is ["Hello, ", ["name"]]), or anything else (numbers, dates, plurals, tags: use-intl's).
type Simple = string | readonly (string | readonly [string])[] | null;

// A namespace's messages (objects the process keeps: compiled once, or parsed once in the browser)
// → key → the message when simple, or null.
const simpleMessages = new WeakMap<object, Map<string, Simple>>();

const isPlainArgument = (part: unknown): part is readonly [string] =>
  Array.isArray(part) && part.length === 1 && typeof part[0] === "string";

function simpleMessage(tree: object, key: string): Simple {
  let known = simpleMessages.get(tree);
  if (!known) {
    known = new Map();
    simpleMessages.set(tree, known);
  }
  let message = known.get(key);
  if (message === undefined) {
    const node = at(tree, key);
    message =
      typeof node === "string" || (Array.isArray(node) && node.every((part) => typeof part === "string" || isPlainArgument(part)))
        ? (node as Simple)
        : null;
    known.set(key, message);
  }
  return message;
}

/** Values use-intl would write as text (`String(value)`): no rich-text functions, no elements. */
function textValues(values: unknown): values is Record<string, string | number> {
  if (values === null || typeof values !== "object") return false;
  for (const value of Object.values(values)) if (typeof value !== "string" && typeof value !== "number") return false;
  return true;
}

/** What `path` ("overdue.heading") names in `tree`, or undefined. */
function at(tree: unknown, path: string): unknown {
  let node = tree;
  for (const part of path.split("."))
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

export function subtree(messages: unknown, namespace: string | undefined): object | null {
  const node = namespace ? at(messages, namespace) : messages;
  return node !== null && typeof node === "object" ? node : null;
}

export function withSimpleMessages(t: Translator, tree: object | null): Translator {
  if (!tree) return t;
  const fast = (key: string, ...rest: unknown[]) => {
    const message = rest.length <= 1 ? simpleMessage(tree, key) : null;
    if (typeof message === "string") return rest.length === 0 ? message : t(key, ...rest);
    if (message === null || !textValues(rest[0])) return t(key, ...rest);
    const values = rest[0];
    let text = "";
    for (const part of message) text += typeof part === "string" ? part : String(values[part[0]]);
    return text;
  };
  return Object.assign(fast, { rich: t.rich, markup: t.markup, raw: t.raw, has: t.has });
}

function useEachTranslations(namespace?: string): Translator {
  const t = useIntlTranslations(namespace as never) as unknown as Translator;
  const tree = subtree(useMessages(), namespace);
  return useMemo(() => withSimpleMessages(t, tree), [t, tree]);
}

// The server's entry gives a hook of its own, once, before any render (app/i18n/shared-translators.server.ts:
// a namespace's translator made once per process); the browser, and any other render, use the above.
let useServerTranslations: ((namespace?: string) => Translator) | null = null;

/** Sets (or, with null, clears) the hook every render of this process uses instead of use-intl's. */
export function setServerTranslations(hook: ((namespace?: string) => Translator) | null) {
  useServerTranslations = hook;
}

/** use-intl's `useTranslations`, typed as it is. */
export const useTranslations = ((namespace?: string) =>
  (useServerTranslations ?? useEachTranslations)(namespace)) as typeof useIntlTranslations;
