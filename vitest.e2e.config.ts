import { defineConfig } from "vitest/config";

/** Browser tests: real Chromium (Debian's) driven by playwright-core against the built server. */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server and one Chromium for the run (global-setup.ts); two files at a time, since most
    // of a browser test is waiting for a page. Files that change the same shared data take a
    // lock (exclusive.ts); the rest make their own data under names of their own.
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
    // A concurrent group (the axe scans) keeps three pages loading at once: more starve a busy
    // 2-core machine until pages miss their network-idle wait.
    maxConcurrency: 3,
  },
});
