import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "../../app/web/module-preloads.server.ts";

const page = (head: string, body: string) => Buffer.from(`<!DOCTYPE html><html lang="en"><head>${head}</head><body>${body}</body></html>`);

describe("withoutModulePreloads", () => {
  it("leaves out the head's modulepreload links and nothing else, byte for byte", () => {
    const html = page(
      '<meta charset="utf-8"/><title>₹50,000 in a day</title><link rel="modulepreload" href="/assets/a-1.js"/>' +
        '<link rel="modulepreload" href="/assets/b-2.js" nonce="abc"/><link rel="icon" href="/assets/icon.svg"/>',
      '<p>Text that mentions &lt;link rel=&quot;modulepreload&quot;&gt;</p><script type="module" async="">import("/assets/entry.js");</script>',
    );
    expect(withoutModulePreloads(html).toString()).toBe(
      page(
        '<meta charset="utf-8"/><title>₹50,000 in a day</title><link rel="icon" href="/assets/icon.svg"/>',
        '<p>Text that mentions &lt;link rel=&quot;modulepreload&quot;&gt;</p><script type="module" async="">import("/assets/entry.js");</script>',
      ).toString(),
    );
  });

  it("returns the same buffer when there is nothing to leave out or no head", () => {
    const plain = page("<title>t</title>", "<p>x</p>");
    expect(withoutModulePreloads(plain)).toBe(plain);
    const fragment = Buffer.from('<link rel="modulepreload" href="/a.js"/><p>no head</p>');
    expect(withoutModulePreloads(fragment)).toBe(fragment);
  });
});
