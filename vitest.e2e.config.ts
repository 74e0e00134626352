import { defineConfig } from "vitest/config";

// Browser tests: Playwright drives Debian's Chromium against the built server.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    setupFiles: ["tests/setup.ts"],
    globalSetup: ["tests/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    maxWorkers: 1,
    fileParallelism: false,
  },
});
