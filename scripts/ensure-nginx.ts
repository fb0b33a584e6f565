/** Run by `npm test` and `npm run bench:site` before they start a caching proxy: see scripts/lib/ensure-nginx.ts. */
import { ensureNginx } from "./lib/ensure-nginx";
import { systemDeps } from "./lib/system-deps";

const result = await ensureNginx(systemDeps);
if (!result.ok) {
  console.error(result.message);
  process.exit(1);
}
