import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useIntlSharedCache } from "../../vite.use-intl-cache.ts";

const dist = path.resolve(import.meta.dirname, "../../node_modules/use-intl/dist/esm");

type Transform = (code: string, id: string) => { code: string } | null;
const transform = useIntlSharedCache().transform as unknown as Transform;

describe("use-intl's provider keeps one formatter cache per process", () => {
  for (const build of ["production", "development"]) {
    it(`rewrites the provider's cache in the ${build} build, once`, () => {
      const file = path.join(dist, build, "react.js");
      const code = readFileSync(file, "utf8");
      const out = transform(code, file)?.code ?? "";
      expect(out.match(/globalThis\.__useIntlSharedCache\?\?=/g)).toHaveLength(1);
      expect(out.length - code.length).toBeGreaterThan(0);
    });
  }

  it("leaves other modules alone", () => {
    expect(transform("const cache = x?.cache || createCache();", "/app/lib/any.ts")).toBeNull();
  });

  it("fails the build when an upgrade moved the expression", () => {
    expect(() => transform("export {}", path.join(dist, "production", "react.js"))).toThrow(/cache expression/);
  });
});
