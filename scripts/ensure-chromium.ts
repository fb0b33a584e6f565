/** Run by `npm test` before the browser tests: see scripts/lib/ensure-chromium.ts. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureChromium } from "./lib/ensure-chromium";

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));

const result = await ensureChromium({
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
