/** Run by `npm test` before the browser tests: see scripts/lib/debian-package.ts. */
import { CHROMIUM_PATH } from "./lib/chromium";
import { CHROMIUM, ensureOrExit } from "./lib/debian-package";

await ensureOrExit(CHROMIUM, CHROMIUM_PATH);
