/** Run by `npm test` before the browser tests: see scripts/lib/ensure-chromium.ts. */
import { ensureChromium } from "./lib/ensure-chromium";
import { systemDeps } from "./lib/system-deps";

const result = await ensureChromium(systemDeps);
if (!result.ok) {
  console.error(result.message);
  process.exit(1);
}
