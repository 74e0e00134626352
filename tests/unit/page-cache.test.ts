import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { chooseEncoding, inlineScriptHashes } from "../../server/page-cache.ts";

describe("the anonymous page cache's helpers", () => {
  it("answers with brotli, then gzip, as the client accepts them; q=0 refuses", () => {
    expect(chooseEncoding(undefined)).toBe("identity");
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("gzip")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(chooseEncoding("br;q=0,gzip;q=0")).toBe("identity");
    expect(chooseEncoding("deflate, identity")).toBe("identity");
    expect(chooseEncoding("brotli")).toBe("identity");
  });

  it("hashes each inline script once, as a browser's CSP check reads its text, and skips scripts with src", () => {
    const a = 'window.__x = {"a":"<\\/script>"};';
    const b = 'import "/assets/entry.js";';
    const html = `<head><script src="/x.js"></script><script>${a}</script></head><body><script type="module" async="">${b}</script><script>${a}</script></body>`;
    const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
    expect(inlineScriptHashes(html)).toEqual([digest(a), digest(b)]);
  });
});
