import type { Plugin } from "vite";

// use-intl's provider keeps Intl's formatters (DateTimeFormat, NumberFormat, PluralRules…) in a cache
// it makes when it mounts. The browser mounts it once; the server mounts it on every request, so
// every page made anew the formatters its words use (about 45 µs a DateTimeFormat). This plugin makes
// the provider's cache, when no outer provider gives one, a single one per process: a formatter
// depends only on its locale and options (the cache's key), so sharing it across requests changes
// no output. It rewrites one expression in use-intl's react module (pinned in package.json); the
// build fails if that expression is not found, so an upgrade that changes it is noticed.
const REACT_MODULE = /[\\/]use-intl[\\/]dist[\\/]esm[\\/](production|development)[\\/]react\.js$/;
const CACHE_EXPRESSION = /(\w+)\?\.cache\s*\|\|\s*(\w+)\(\)/;

export function useIntlSharedCache(): Plugin {
  return {
    name: "use-intl-shared-cache",
    enforce: "pre",
    transform(code, id) {
      if (!REACT_MODULE.test(id.split("?")[0] ?? id)) return null;
      if (!CACHE_EXPRESSION.test(code)) throw new Error(`use-intl-shared-cache: the provider's cache expression is not in ${id}`);
      return { code: code.replace(CACHE_EXPRESSION, "$1?.cache||(globalThis.__useIntlSharedCache??=$2())"), map: null };
    },
  };
}
