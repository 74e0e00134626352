// The shape a translation must have: every key of the English source, each a string. A Hindi
// namespace is written `{ … } satisfies Translation<typeof en>`, so that a key missing from it, or
// one English does not have, fails `npm run typecheck`; tests/unit/i18n.test.ts checks that each
// message takes the same arguments in both languages.
export type Translation<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
