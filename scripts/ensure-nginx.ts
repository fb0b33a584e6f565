/** Run by `npm test` and `npm run bench:site` before they start a caching proxy: see scripts/lib/debian-package.ts. */
import { NGINX, NGINX_PATH, ensureOrExit } from "./lib/debian-package";

await ensureOrExit(NGINX, NGINX_PATH);
