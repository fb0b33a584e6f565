import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));

/**
 * The machine as the install steps for Debian packages see it (scripts/ensure-chromium.ts,
 * scripts/ensure-nginx.ts): files, root, apt-get, and commands run with the console attached.
 */
export const systemDeps = {
  exists: (file: string) => fs.existsSync(file),
  isRoot: () => process.getuid?.() === 0,
  hasAptGet: () => onPath("apt-get"),
  run: (command: string, args: string[], env?: Record<string, string>) =>
    new Promise<number>((resolve) => {
      const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
      child.on("error", () => resolve(127));
      child.on("exit", (code) => resolve(code ?? 1));
    }),
  log: (line: string) => console.log(line),
};
