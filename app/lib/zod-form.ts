// Conform's Zod adapter, loaded by a public page's form when it is first used
// (components/use-lazy-schema-form.ts): with Zod, about 26 kB compressed that a visitor who never
// fills the form in does not download.
export { parseWithZod } from "@conform-to/zod/v4";
