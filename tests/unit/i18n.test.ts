import compile from "icu-minify/compile";
import { describe, expect, it } from "vitest";
import { msg, parseMessage } from "../../app/i18n/form-message.ts";
import { chooseLanguage, languageFromAcceptLanguage, languageFromCookie } from "../../app/i18n/languages.ts";
import { CATALOGUES } from "../../app/i18n/messages/index.ts";
import { longDate } from "../../app/domain/india-date.ts";
import { englishWords } from "../helpers/english.ts";

type Tree = { readonly [key: string]: string | Tree };

/** Every message of a namespace by its dotted key. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/** The arguments and tags a compiled message takes ("arg:amount", "tag:link"), from icu-minify's compiled form. */
function parts(message: unknown): Set<string> {
  const found = new Set<string>();
  const nodes = (list: unknown) => {
    if (Array.isArray(list)) for (const n of list) node(n);
    else node(list);
  };
  const node = (n: unknown) => {
    if (!Array.isArray(n)) return; // words, or the plural's "#"
    const [name, second, ...rest] = n as [string, unknown, ...unknown[]];
    if (n.length === 1) found.add(`arg:${name}`);
    else if (typeof second === "number" && second >= 1) {
      // An argument with a type (select, plural, number, date…): its options' messages too.
      found.add(`arg:${name}`);
      for (const option of rest) if (option && typeof option === "object") for (const value of Object.values(option)) nodes(value);
    } else {
      found.add(`tag:${name}`);
      for (const child of n.slice(1)) node(child);
    }
  };
  if (Array.isArray(message)) for (const n of message) node(n);
  return found;
}

const namespaces = Object.keys(CATALOGUES.en) as (keyof typeof CATALOGUES.en)[];

describe("the message catalogue", () => {
  it("has every namespace and key in both languages, no more", () => {
    expect(Object.keys(CATALOGUES.hi).sort()).toEqual([...namespaces].sort());
    for (const namespace of namespaces) {
      const en = flatten(CATALOGUES.en[namespace] as Tree);
      const hi = flatten(CATALOGUES.hi[namespace] as Tree);
      expect([...hi.keys()].sort(), namespace).toEqual([...en.keys()].sort());
    }
  });

  it("compiles every message, and each Hindi message takes exactly its English one's arguments and tags", () => {
    let checked = 0;
    for (const namespace of namespaces) {
      const en = flatten(CATALOGUES.en[namespace] as Tree);
      const hi = flatten(CATALOGUES.hi[namespace] as Tree);
      for (const [key, english] of en) {
        const hindi = hi.get(key) ?? "";
        const where = `${namespace}.${key}`;
        const enParts = [...parts(compile(english))].sort();
        const hiParts = [...parts(compile(hindi))].sort();
        expect(hiParts, where).toEqual(enParts);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("writes each Hindi message in Hindi: Devanagari, with no English word outside the kept terms", () => {
    const leftovers: string[] = [];
    for (const namespace of namespaces) {
      for (const [key, hindi] of flatten(CATALOGUES.hi[namespace] as Tree)) {
        // What the reader sees: without placeholders, tags' names and plural selectors.
        const shown = hindi
          .replace(/<\/?[A-Za-z]+>/g, " ")
          .replace(/\{\s*[A-Za-z0-9_]+\s*,\s*(?:plural|select|selectordinal)\s*,/g, "{")
          // A plural's or select's option keys ("one {", "cheque {").
          .replace(/(?:\b[A-Za-z_][\w]*|=\d+)\s*\{/g, "{")
          .replace(/\{[A-Za-z0-9_]+(?:\s*,[^{}]*)?\}/g, " ");
        const english = englishWords(shown);
        if (english.length > 0) leftovers.push(`${namespace}.${key}: ${english.join(" ")}`);
      }
    }
    expect(leftovers).toEqual([]);
  });
});

describe("the request's language", () => {
  it("takes the lang cookie first, then Accept-Language by q-value, else English", () => {
    expect(chooseLanguage("lang=hi", "en-IN")).toBe("hi");
    expect(chooseLanguage("a=1; lang=en; b=2", "hi")).toBe("en");
    expect(chooseLanguage(null, "hi-IN,hi;q=0.9,en;q=0.8")).toBe("hi");
    expect(chooseLanguage(null, "en-GB,en;q=0.9,hi;q=0.8")).toBe("en");
    expect(chooseLanguage(null, "ta-IN,hi;q=0.5,en;q=0.4")).toBe("hi");
    expect(chooseLanguage(null, "fr, de;q=0.9")).toBe("en");
    expect(chooseLanguage(null, null)).toBe("en");
    expect(chooseLanguage("", "")).toBe("en");
  });

  it("passes over a cookie or header naming no language of ours, or written to mislead", () => {
    expect(languageFromCookie("lang=fr")).toBeNull();
    expect(languageFromCookie("xlang=hi")).toBeNull();
    expect(languageFromCookie("lang=hi-IN-extra-long-value")).toBeNull();
    expect(languageFromCookie('lang="hi"')).toBe("hi");
    expect(languageFromCookie(" lang = HI ")).toBe("hi");
    expect(languageFromAcceptLanguage("hi;q=0, en;q=0.1")).toBe("en");
    expect(languageFromAcceptLanguage("hi;q=2")).toBeNull();
    expect(languageFromAcceptLanguage("hi;q=abc, en")).toBe("en");
    expect(languageFromAcceptLanguage("*")).toBeNull();
    expect(languageFromAcceptLanguage(`${"x,".repeat(5000)}hi`)).toBeNull();
  });
});

describe("messages given as keys", () => {
  it("carries a key and its values through, and leaves words as they are", () => {
    expect(parseMessage(msg("validation.mobile.yours"))).toEqual({ key: "validation.mobile.yours" });
    const withValues = msg("validation.mobile.yours", { min: "₹5,000", months: 3 });
    expect(parseMessage(withValues)).toEqual({ key: "validation.mobile.yours", values: { min: "₹5,000", months: 3 } });
    expect(parseMessage("Enter your name.")).toBeNull();
    expect(parseMessage("i18n:")).toBeNull();
    expect(parseMessage("i18n:a.b {not json")).toBeNull();
    expect(parseMessage("i18n:a.b {not json}")).toEqual({ key: "a.b" });
    expect(parseMessage('i18n:a.b {"x":{"y":1},"z":"w"}')).toEqual({ key: "a.b", values: { z: "w" } });
    expect(parseMessage("i18n:a.b; drop table")).toBeNull();
  });
});

describe("dates in the language", () => {
  it("writes Hindi month names whole and English ones short, digits Latin in both", () => {
    expect(longDate("2026-11-26", "hi")).toBe("26 नवंबर 2026");
    expect(longDate("2026-02-01", "hi")).toBe("1 फ़रवरी 2026");
    expect(longDate("2026-09-30")).toBe("30 Sep 2026");
  });
});
