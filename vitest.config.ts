import { defineConfig } from "vitest/config";
import { USE_INTL_FORMAT_ONLY } from "./vite.aliases.ts";

// Unit and integration tests. Integration tests start the built server
// (`npm run build` first; `npm test` does it) on PGlite, or on PostgreSQL
// when TEST_DATABASE_URL is set.
export default defineConfig({
  resolve: { alias: USE_INTL_FORMAT_ONLY },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    setupFiles: ["tests/setup.ts"],
    globalSetup: ["tests/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // Each test stands on its own: the order of tests within a file is shuffled on every run (the
    // seed is printed; `--sequence.seed=N` repeats a run).
    sequence: { shuffle: { files: false, tests: true } },
  },
});
