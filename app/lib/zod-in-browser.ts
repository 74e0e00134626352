// Imported by app/root.tsx; it runs before any schema is built as long as nothing root.tsx imports
// builds one at module level (root's chunk runs after its imports; route modules come after root's
// chunk). Each object schema reads the setting as it is built. The CSP allows no eval:
// in the browser Zod would try `new Function` once, as its first object schema is built, to see
// whether it may compile its parsers, a CSP violation the browser reports (and Lighthouse counts).
// The server has no CSP over itself and keeps the compiled parsers.
//
// Zod keeps its configuration in `globalThis.__zod_globalConfig` (what `config()` sets; a test
// holds it to that). Setting it there, rather than importing `config`, keeps Zod's core (4 kB)
// off the pages that have no schema; it is read when the first object schema is built.
if (typeof document !== "undefined") {
  const global = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  (global.__zod_globalConfig ??= {}).jitless = true;
}
export {};
