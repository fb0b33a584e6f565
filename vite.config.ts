import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";
import { defineConfig, type Alias } from "vite";

/**
 * The browser runs Preact (preact/compat) in place of React DOM: React's client runtime alone
 * was ~75 kB gzipped, more than the page budgets left for it. The server still renders with
 * React, and dev mode keeps React (its Fast Refresh needs it). BROWSER_REACT=1 builds the
 * browser with React again (docs/decisions/024-preact-in-the-browser.md).
 */
const preactInBrowser = process.env.BROWSER_REACT !== "1";

/** Exact module names only: `react-dom/server` and the like must not match. */
const PREACT_ALIASES: Alias[] = [
  // preact/compat with a useSyncExternalStore that hydrates like React's.
  { find: /^react$/, replacement: path.resolve(import.meta.dirname, "app/lib/preact/react.ts") },
  // preact/compat plus React DOM's `preload`, which it lacks.
  { find: /^react-dom$/, replacement: path.resolve(import.meta.dirname, "app/lib/preact/react-dom.ts") },
  // Preact's hydrateRoot, made to hydrate a whole document that React DOM rendered.
  { find: /^react-dom\/client$/, replacement: path.resolve(import.meta.dirname, "app/lib/preact/react-dom-client.ts") },
  { find: /^react\/jsx-runtime$/, replacement: "preact/compat/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/compat/jsx-dev-runtime" },
];

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: { alias: command === "build" && !isSsrBuild && preactInBrowser ? PREACT_ALIASES : [] },
  // The server build's entry is our Express app, which wraps the React Router handler, so that
  // the database, search index and gazetteer live in one bundle with the routes that use them.
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/app.ts" }, target: "node20" }
    : {
        // The UI runtime (Preact, or React and React DOM) and React Router load on every page:
        // one chunk instead of five compresses better and costs one request (bench:page;
        // docs/operations.md, page budgets).
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "framework",
                  test: /node_modules[\\/](preact|react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
                  priority: 10,
                },
              ],
            },
          },
        },
      },
  ssr: {
    // Native or WASM packages must stay outside the bundle.
    external: ["@electric-sql/pglite", "pg", "pino", "sharp"],
  },
  // The map's libraries load lazily; pre-bundling them spares dev mode a reload on first use.
  optimizeDeps: { include: ["leaflet", "supercluster"] },
  plugins: [tailwindcss(), reactRouter()],
}));
