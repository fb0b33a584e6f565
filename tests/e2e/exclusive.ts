import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";

const WAIT_MS = 15 * 60_000;

/**
 * Keeps the files that change the same thing on the shared site from running at the same time:
 * browser test files run in parallel (vitest.e2e.config.ts), and two files editing the fixture
 * listing at once would refuse each other's saves as conflicts. The file holds the lock `name`
 * from before its first test to after its last; another file asking for it waits its turn.
 * A directory is the lock (mkdir either creates it or fails, atomically, across processes).
 */
export function exclusiveForThisFile(name: string): void {
  const lock = path.join(inject("lockDir"), name);
  let held = false;
  beforeAll(async () => {
    const until = Date.now() + WAIT_MS;
    // Polled: the holder is another process, whose afterAll removes the directory.
    for (;;) {
      try {
        fs.mkdirSync(lock);
        held = true;
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      if (Date.now() > until)
        throw new Error(`Another test file held the lock "${name}" for ${WAIT_MS / 60_000} minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, WAIT_MS + 5_000);
  afterAll(() => {
    if (held) fs.rmSync(lock, { recursive: true, force: true });
  });
}
