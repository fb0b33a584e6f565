import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { browserOnly } from "./scripts/vite/browser-only";
import { chunkGroupName } from "./scripts/vite/chunks";
import { precompressAssets } from "./scripts/vite/precompress";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, which wraps the React Router handler, so that
  // the database, search index and gazetteer live in one bundle with the routes that use them.
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/app.ts" }, target: "node20" }
    : {
        sourcemap: !!process.env.SOURCEMAP,
        rolldownOptions: {
          output: {
            // One chunk for what every page loads and one per set of public routes, instead of
            // 30-40 small files per page (scripts/vite/chunks.ts; docs/operations.md, page budgets).
            codeSplitting: {
              groups: [{ name: chunkGroupName(), debugName: "pages", includeDependenciesRecursively: false }],
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
  plugins: [
    tailwindcss(),
    reactRouter(),
    {
      // React Router asks for entry chunks that export exactly their module's names; grouping
      // modules across route chunks needs leave to add exports (scripts/vite/chunks.ts).
      name: "route-chunk-groups",
      configEnvironment: (name) =>
        name === "client" ? { build: { rolldownOptions: { preserveEntrySignatures: "allow-extension" } } } : undefined,
    },
    browserOnly(),
    precompressAssets(),
  ],
}));
