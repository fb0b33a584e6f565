/** Run by `npm test` and `npm run bench:site` before they start a caching proxy: see scripts/lib/ensure-nginx.ts. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureNginx } from "./lib/ensure-nginx";

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));

const result = await ensureNginx({
  exists: (file) => fs.existsSync(file),
  isRoot: () => process.getuid?.() === 0,
  hasAptGet: () => onPath("apt-get"),
  run: (command, args, env) =>
    new Promise((resolve) => {
      const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
      child.on("error", () => resolve(127));
      child.on("exit", (code) => resolve(code ?? 1));
    }),
  log: (line) => console.log(line),
});
if (!result.ok) {
  console.error(result.message);
  process.exit(1);
}
