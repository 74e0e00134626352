// use-intl formats the messages the server compiled (app/i18n/messages.server.ts) with its
// format-only build, on both sides: no ICU parser in the browser, and the same formatter for the
// server's render and the browser's hydration. Used by vite.config.ts and vitest.config.ts.
export const USE_INTL_FORMAT_ONLY = [{ find: /^use-intl\/format-message$/, replacement: "use-intl/format-message/format-only" }];
