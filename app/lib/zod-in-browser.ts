import { config } from "zod";

// Imported first by app/root.tsx, so it runs before any schema is built. The CSP allows no eval:
// in the browser Zod would try `new Function` once, as its first object schema is built, to see
// whether it may compile its parsers, a CSP violation the browser reports (and Lighthouse counts).
// The server has no CSP over itself and keeps the compiled parsers.
if (typeof document !== "undefined") config({ jitless: true });
