import { defineConfig } from "vitest/config";

// Browser tests: Playwright drives Debian's Chromium against the built server, on the embedded PGlite
// (what a fresh clone runs) even when TEST_DATABASE_URL points the integration tests at PostgreSQL;
// E2E_DATABASE_URL runs them on a PostgreSQL instead.
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    setupFiles: ["tests/setup.ts"],
    env: { TEST_DATABASE_URL: process.env.E2E_DATABASE_URL ?? "" },
    globalSetup: ["tests/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    maxWorkers: 1,
    fileParallelism: false,
  },
});
