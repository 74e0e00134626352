import { afterEach, describe, expect, it, vi } from "vitest";
import { config, z } from "zod";

describe("Zod in the browser (no eval under the CSP)", () => {
  afterEach(() => {
    vi.resetModules();
    delete (globalThis as { document?: unknown }).document;
    config({ jitless: undefined });
  });

  it("the browser module sets jitless where Zod reads it, without importing Zod", async () => {
    expect(config().jitless).toBeFalsy();
    (globalThis as { document?: unknown }).document = {};
    await import("../../app/lib/zod-in-browser.ts");
    expect(config().jitless).toBe(true);
    // A schema built now parses without compiling a parser.
    expect(z.object({ a: z.string() }).safeParse({ a: "x" }).success).toBe(true);
  });

  it("the server keeps compiled parsers", async () => {
    await import("../../app/lib/zod-in-browser.ts");
    expect(config().jitless).toBeFalsy();
  });
});
