// Messages formatted to plain text outside React and outside Vite: the SMS, e-mails, push and
// in-app notices a borrower is sent. These are written by the server build, by vitest and by code
// run under plain Node (scripts/*.ts: the daily run, the seed, the benches), so they cannot use
// `translator()` (./messages.server.ts), whose use-intl formatter reads the compiled messages only
// where Vite points `use-intl/format-message` at its format-only build. icu-minify's own compiler
// and formatter need no alias. Server code only (it imports every catalogue).
import compile from "icu-minify/compile";
import format, { type CompiledMessage } from "icu-minify/format";
import type { Language } from "./languages.ts";
import { CATALOGUES } from "./messages/index.ts";
import { type Messages, type Namespace, TIME_ZONE } from "./messages.ts";

/** A namespace's keys, dotted ("loan_closed.title"). */
export type MessageKey<T> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${MessageKey<T[K]>}`;
}[keyof T & string];

/** What a message's placeholders are filled with: words and numbers (amounts and dates come formatted). */
export type MessageValues = Readonly<Record<string, string | number>>;

const formatters = {
  getDateTimeFormat: (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
  getNumberFormat: (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
  getPluralRules: (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
};

const compiled = new Map<string, CompiledMessage>();

function source(language: Language, namespace: Namespace, key: string): string {
  let node: unknown = CATALOGUES[language][namespace];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== "string") throw new Error(`no message ${namespace}.${key} in ${language}`);
  return node;
}

/** One message of the catalogue in `language`, as plain text (compiled once a process). */
export function formatPlain(language: Language, namespace: Namespace, key: string, values: MessageValues = {}): string {
  const id = `${language}:${namespace}:${key}`;
  let message = compiled.get(id);
  if (message === undefined) {
    message = compile(source(language, namespace, key));
    compiled.set(id, message);
  }
  const out = format<string>(message, language, values, { formatters, timeZone: TIME_ZONE });
  return Array.isArray(out) ? out.join("") : out;
}

/** A plain-text translator for one namespace in one language, its keys typed. */
export function plainTranslator<N extends Namespace>(language: Language, namespace: N) {
  return (key: MessageKey<Messages[N]>, values?: MessageValues) => formatPlain(language, namespace, key, values);
}

export type PlainTranslator<N extends Namespace> = ReturnType<typeof plainTranslator<N>>;
