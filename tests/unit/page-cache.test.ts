import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { chooseEncoding, createPageCache, inlineScriptHashes, PAGE_CACHE_MAX_AGE_MS } from "../../server/page-cache.ts";

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

describe("the anonymous page cache, when a page cannot be rendered again", () => {
  it("answers with the page as last rendered (however old) instead of handing it on; without one, hands it on", async () => {
    let databaseUp = true;
    const cache = createPageCache({
      render: async (path) =>
        databaseUp
          ? new Response(`<html><body>${path} as rendered</body></html>`, { headers: { "Content-Type": "text/html" } })
          : new Response("error", { status: 500, headers: { "Content-Type": "text/html" } }),
      securityHeaders: () => ({}),
      log: pino({ level: "silent" }),
      clientIp: () => "127.0.0.1",
    });
    const server = createServer((req, res) =>
      cache.handle(req, res, () => {
        res.writeHead(503, { "Content-Type": "text/plain" });
        res.end("handed on");
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const realNow = Date.now.bind(Date);
    let shift = 0;
    const spy = vi.spyOn(Date, "now").mockImplementation(() => realNow() + shift);
    try {
      expect(await (await fetch(`${base}/About`)).text()).toBe("<html><body>/About as rendered</body></html>");
      databaseUp = false;
      shift = PAGE_CACHE_MAX_AGE_MS * 10; // long past its age: it would be rendered again
      for (let i = 0; i < 2; i++) {
        const stale = await fetch(`${base}/About`);
        expect(stale.status).toBe(200);
        expect(await stale.text()).toBe("<html><body>/About as rendered</body></html>");
      }
      const never = await fetch(`${base}/Rate-terms`);
      expect(never.status).toBe(503);
      expect(await never.text()).toBe("handed on");
    } finally {
      spy.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
