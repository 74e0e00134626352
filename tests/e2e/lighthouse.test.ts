// Lighthouse on every public page, in English and in Hindi, as a phone sees it: accessibility, best
// practices and SEO score 100 (PRODUCT.md §20; the performance score is a speed figure, reported by
// `npm run bench`, not tested here). Each language runs in its own process and Chromium, side by side:
// a run mostly waits on the page.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import type { PageScores } from "../../scripts/lighthouse.ts";
import { PUBLIC_PAGES } from "../../scripts/public-pages.ts";

let app: TestServer;
beforeAll(async () => {
  app = await startTestServer();
});
afterAll(async () => {
  await app?.stop();
});

const run = promisify(execFile);
async function scores(language: "en" | "hi"): Promise<PageScores[]> {
  const { stdout } = await run(process.execPath, ["scripts/lighthouse.ts", app.url, language], {
    env: { ...process.env, CHROMIUM_PATH: CHROMIUM },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as PageScores[];
}

describe("Lighthouse on the public pages", () => {
  it("scores 100 for accessibility, best practices and SEO on every public page, in English and in Hindi", async () => {
    const [en, hi] = await Promise.all([scores("en"), scores("hi")]);
    for (const [language, pages] of [
      ["en", en],
      ["hi", hi],
    ] as const) {
      expect(pages.map((p) => p.path)).toEqual([...PUBLIC_PAGES]);
      for (const page of pages) {
        expect(page.scores, `${page.path} in ${language}`).toEqual({ accessibility: 100, "best-practices": 100, seo: 100 });
        expect(page.shortfalls, `${page.path} in ${language}`).toEqual([]);
      }
    }
  }, 300_000);
});
