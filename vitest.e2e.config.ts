import { defineConfig } from "vitest/config";

/** Browser tests: real Chromium (Debian's) driven by playwright-core against the built server. */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server, one browser per file; files run one after another to keep 2 cores calm.
    fileParallelism: false,
  },
});
