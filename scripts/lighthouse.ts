// What the Lighthouse test (tests/e2e/lighthouse.test.ts) and the bench's "lighthouse" section share:
// the public pages, Chromium's flags, the settings of a quick run, and how a shortfall is named.
import type { Config, Result } from "lighthouse";
import { PUBLIC_PAGES } from "./public-pages.ts";

export const LIGHTHOUSE_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/**
 * A phone (Lighthouse's default form factor) without the waits and screenshots only the performance
 * score needs: accessibility, best practices and SEO read the loaded page.
 */
export const LIGHTHOUSE_QUICK: Config = {
  extends: "lighthouse:default",
  settings: {
    skipAudits: ["full-page-screenshot", "screenshot-thumbnails", "final-screenshot", "bf-cache"],
    disableFullPageScreenshot: true,
    pauseAfterFcpMs: 50,
    pauseAfterLoadMs: 50,
    networkQuietThresholdMs: 50,
    cpuQuietThresholdMs: 50,
  },
};

/** Each category under 100, with the audits that cost it points. */
export function shortfalls(lhr: Result): string[] {
  const out: string[] = [];
  for (const category of Object.values(lhr.categories)) {
    if (category.score === 1) continue;
    const failing = category.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => audit?.id);
    out.push(`${category.id} ${Math.round((category.score ?? 0) * 100)} (${failing.join(", ")})`);
  }
  return out;
}

export interface PageScores {
  path: string;
  /** Each category's score, 0–100. */
  scores: Record<string, number>;
  shortfalls: string[];
}

/**
 * Runs Lighthouse on `pages` of the site at `base`, in `language` (the `lang` cookie), one page after
 * another in one Chromium. `performance` adds the performance category (with Lighthouse's own waits
 * and throttling, as a phone or a desktop) for the bench; without it, the quick run.
 */
export async function lighthousePages(options: {
  base: string;
  language: "en" | "hi";
  pages?: readonly string[];
  performance?: "mobile" | "desktop";
  chromePath?: string;
}): Promise<PageScores[]> {
  const [{ default: lighthouse }, chromeLauncher, { default: desktop }] = await Promise.all([
    import("lighthouse"),
    import("chrome-launcher"),
    import("lighthouse/core/config/desktop-config.js"),
  ]);
  const chrome = await chromeLauncher.launch({ chromePath: options.chromePath ?? "/usr/bin/chromium", chromeFlags: LIGHTHOUSE_FLAGS });
  try {
    const out: PageScores[] = [];
    for (const path of options.pages ?? PUBLIC_PAGES) {
      const config: Config = options.performance
        ? options.performance === "desktop"
          ? desktop
          : { extends: "lighthouse:default" }
        : LIGHTHOUSE_QUICK;
      const once = () =>
        lighthouse(
          `${options.base}${path}`,
          {
            port: chrome.port,
            logLevel: "error",
            onlyCategories: options.performance ? ["performance"] : ["accessibility", "best-practices", "seo"],
            extraHeaders: { Cookie: `lang=${options.language}` },
          },
          config,
        );
      // Lighthouse itself sometimes fails to record a page load on a busy machine (NO_NAVSTART): its
      // own error, not the page's, so such a run is made once more. A page's low score is not retried.
      let result = await once();
      if (result?.lhr.runtimeError) result = await once();
      if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const scores = Object.fromEntries(Object.values(lhr.categories).map((c) => [c.id, Math.round((c.score ?? 0) * 100)]));
      out.push({ path, scores, shortfalls: shortfalls(lhr) });
    }
    return out;
  } finally {
    chrome.kill();
  }
}

// `node scripts/lighthouse.ts <base> <en|hi>`: the quick run's scores as JSON (the Lighthouse test runs
// one such process per language, side by side).
if (import.meta.main) {
  const [base, language] = process.argv.slice(2);
  if (!base || (language !== "en" && language !== "hi")) {
    console.error("usage: node scripts/lighthouse.ts <base URL> <en|hi>");
    process.exit(2);
  }
  process.stdout.write(JSON.stringify(await lighthousePages({ base, language, chromePath: process.env.CHROMIUM_PATH })));
}
