// The server's translators, each made once per process: use-intl's useTranslations makes one for
// every component on every request (the namespace's path resolved, a dozen closures: 1.5% of a
// signed-in page's CPU), though what it makes depends only on the provider's settings and the
// namespace's messages, which are objects the process keeps (app/i18n/messages.server.ts). The
// app's one provider (root.tsx) gives a locale, the messages and India's time zone, and leaves
// formats, onError and getMessageFallback to use-intl's defaults; use-intl's createTranslator, given
// the same, makes the same translator. The server's entry (entry.server.tsx) turns this on for its
// renders; a render under another provider (a test's) keeps use-intl's hook.
import { createTranslator } from "use-intl/core";
import { useLocale, useMessages, useTimeZone } from "use-intl/react";
import { setServerTranslations, subtree, type Translator, withSimpleMessages } from "./use-translations.ts";

const made = new WeakMap<object, Map<string, Translator>>();

const translatorOf = (messages: unknown, namespace: string | undefined, locale: string, timeZone: string | undefined) =>
  (createTranslator as unknown as (config: Record<string, unknown>) => Translator)({ locale, messages, namespace, timeZone });

/** useTranslations for the server's renders: the namespace's translator for this language, made once. */
export function useSharedTranslations(namespace?: string): Translator {
  const messages = useMessages();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const tree = subtree(messages, namespace);
  // No such namespace: use-intl's translator reports each key as missing; made for this render only.
  if (!tree) return translatorOf(messages, namespace, locale, timeZone);
  let byKey = made.get(tree);
  if (!byKey) {
    byKey = new Map();
    made.set(tree, byKey);
  }
  const key = `${locale}\u0000${timeZone ?? ""}\u0000${namespace ?? ""}`;
  let t = byKey.get(key);
  if (!t) {
    t = withSimpleMessages(translatorOf(messages, namespace, locale, timeZone), tree);
    byKey.set(key, t);
  }
  return t;
}

/** Every later render of this process uses the shared translators (the server's entry, at its start). */
export function shareTranslators() {
  setServerTranslations(useSharedTranslations);
}
