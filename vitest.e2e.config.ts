import { defineConfig } from "vitest/config";

/** Browser tests: real Chromium (Debian's) driven by playwright-core against the built server. */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server and one Chromium for the run (global-setup.ts); two files at a time (E2E_WORKERS
    // says otherwise). An earlier try at two failed four files: they clicked before hydration, and
    // every test now waits for it after each document load (browser.ts). Files that change the
    // same shared data take a lock (exclusive.ts).
    fileParallelism: true,
    // The files share a worker's modules (playwright-core, the server code the fixtures use)
    // instead of importing them again each: 125 s of imports in a run of 37 files. Each file's
    // state lives in its own module or in what its hooks start and stop.
    isolate: false,
    maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
    // A concurrent group (the axe scans) keeps three pages loading at once: more starve a busy
    // 2-core machine.
    maxConcurrency: 3,
  },
});
