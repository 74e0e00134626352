// The server's shared translators (app/i18n/shared-translators.server.ts), each made once per
// process, say what use-intl's useTranslations (behind the app's useTranslations) says under the
// root's provider (a locale, the messages, India's time zone; use-intl's defaults otherwise): every
// message of the signed-in pages' namespaces, in both languages, as the catalogue writes it (use-intl
// formats it: plurals, selects, numbers, tags) and as the server compiles it, through t, rich,
// markup, raw and has, a missing key and a missing namespace, with use-intl's errors; on a first page
// and again (the translators then from the process's cache).
import { createElement as h, isValidElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { IntlProvider } from "use-intl/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CATALOGUES } from "../../app/i18n/messages/index.ts";
import { compiledMessages } from "../../app/i18n/messages.server.ts";
import { type Namespace, TIME_ZONE } from "../../app/i18n/messages.ts";
import { setServerTranslations, useTranslations } from "../../app/i18n/use-translations.ts";
import { shareTranslators } from "../../app/i18n/shared-translators.server.ts";

const NAMESPACES = [
  "common",
  "validation",
  "account",
  "dashboard",
  "profile",
  "loans",
  "applyFlow",
  "loanPay",
  "loanAutopay",
  "profileSections",
] as const;

type Say = ((key: string, values?: Record<string, unknown>) => string) & {
  rich(key: string, values?: Record<string, unknown>): ReactNode;
  markup(key: string, values?: Record<string, unknown>): string;
  raw(key: string): unknown;
  has(key: string): boolean;
};

/** Every message's key and source text under `tree`. */
function keysOf(tree: Record<string, unknown>, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[prefix + key, value] as [string, string]] : keysOf(value as Record<string, unknown>, `${prefix}${key}.`),
  );
}

/** Values for a message: each argument 2 (a plural's count, a select's "other", a number), each tag a function. */
function valuesFor(source: string, tags: "elements" | "text") {
  const values: Record<string, unknown> = {};
  for (const [, name] of source.matchAll(/\{\s*(\w+)/g)) values[name as string] = 2;
  for (const [, tag] of source.matchAll(/<(\w+)>/g))
    values[tag as string] = tags === "elements" ? (chunks: ReactNode) => h("b", null, chunks) : (chunks: string) => `[${chunks}]`;
  return values;
}

const text = (node: unknown) =>
  isValidElement(node) || Array.isArray(node) ? renderToStaticMarkup(h("i", null, node as ReactNode)) : String(node);

function Words({ namespace, out }: { namespace: string; out: string[] }) {
  const t = useTranslations(namespace as never) as unknown as Say;
  const source = (CATALOGUES.en as Record<string, Record<string, unknown>>)[namespace] ?? {};
  for (const [key, message] of keysOf(source)) {
    out.push(`${namespace}.${key} t: ${text(t(key, valuesFor(message, "text")))}`);
    out.push(`${namespace}.${key} plain: ${text(t(key))}`);
    out.push(`${namespace}.${key} rich: ${text(t.rich(key, valuesFor(message, "elements")))}`);
    out.push(`${namespace}.${key} markup: ${text(t.markup(key, valuesFor(message, "text")))}`);
    out.push(`${namespace}.${key} raw: ${JSON.stringify(t.raw(key))}`);
    out.push(`${namespace}.${key} has: ${t.has(key)}`);
  }
  out.push(`${namespace} missing: ${text(t("no.such.key"))} ${t.has("no.such.key")}`);
  return null;
}

function said(language: "en" | "hi", messages: "catalogue" | "compiled") {
  const out: string[] = [];
  const errors = vi.mocked(console.error);
  errors.mockClear();
  renderToStaticMarkup(
    h(IntlProvider, {
      locale: language,
      messages:
        messages === "compiled"
          ? compiledMessages(language, [...NAMESPACES] as Namespace[])
          : Object.fromEntries(NAMESPACES.map((namespace) => [namespace, CATALOGUES[language][namespace]])),
      timeZone: TIME_ZONE,
      children: [...NAMESPACES, "noSuchNamespace"].map((namespace) => h(Words, { key: namespace, namespace, out })),
    }),
  );
  // use-intl's errors (a missing key, a missing namespace), reported as use-intl reports them.
  out.push(...errors.mock.calls.map((call) => `error: ${String(call[0])}`));
  return out;
}

afterEach(() => {
  setServerTranslations(null);
  vi.mocked(console.error).mockImplementation(() => {});
  vi.mocked(console.error).mockClear();
});

describe("the server's shared translators", () => {
  it("say what use-intl's translators say, message by message, in English and in Hindi, first and again", () => {
    vi.mocked(console.error).mockImplementation(() => {});
    for (const language of ["en", "hi"] as const)
      for (const messages of ["catalogue", "compiled"] as const) {
        setServerTranslations(null);
        const theirs = said(language, messages);
        shareTranslators();
        const first = said(language, messages);
        const at = first.findIndex((line, i) => line !== theirs[i]);
        expect([at, first[at]], `${language} ${messages}`).toEqual([-1, theirs[at]]);
        expect(first).toEqual(theirs);
        expect(said(language, messages)).toEqual(theirs);
        expect(theirs.length).toBeGreaterThan(3000);
      }
  });
});
