/**
 * Fails the browser build when server code reaches it: Vite replaces a Node built-in imported
 * from browser code with an empty stand-in and only warns, so a route that imported a server
 * module for a one-line helper shipped the database driver and broke in the browser
 * (`...browser_external.default.resolve is not a function`). The error names the chain.
 */
import type { Plugin } from "vite";

const BROWSER_EXTERNAL = "__vite-browser-external";

export function browserOnly(): Plugin {
  return {
    name: "browser-only",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle(_options, bundle) {
      const problems: string[] = [];
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        for (const id of output.moduleIds) {
          if (!id.includes(BROWSER_EXTERNAL)) continue;
          // Walk up to the browser code that imports it, so the message names what to fix.
          const chain: string[] = [];
          let at: string | undefined = id;
          for (let depth = 0; at && depth < 30; depth++) {
            chain.push(at.replace(/^.*node_modules\//, "").replace(process.cwd() + "/", ""));
            if (at.includes("/app/")) break;
            const info = this.getModuleInfo(at);
            at = info?.importers[0] ?? info?.dynamicImporters[0];
          }
          problems.push(`${output.fileName}: ${chain.reverse().join(" -> ")}`);
        }
      }
      if (problems.length > 0) {
        this.error(
          `Node built-ins reached the browser build (a route or component imports server code):\n${problems.join("\n")}`,
        );
      }
    },
  };
}
