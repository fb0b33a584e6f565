import { defineConfig } from "vitest/config";

/** Browser tests: real Chromium (Debian's) driven by playwright-core against the built server. */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One server and one Chromium for the run (global-setup.ts); files one after another unless
    // E2E_WORKERS says more. Two at a time failed four files in a full run that pass alone; the
    // likely cause: every context comes from 127.0.0.1, and the per-address limits (30 new
    // anonymous sessions in 10 minutes, without which the analytics tracker sends nothing) run
    // out sooner. Files that change the same shared data take a lock (exclusive.ts) for when
    // they do run together.
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_WORKERS ?? 1),
    // A concurrent group (the axe scans) keeps three pages loading at once: more starve a busy
    // 2-core machine until pages miss their network-idle wait.
    maxConcurrency: 3,
  },
});
