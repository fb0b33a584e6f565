import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The server build's entry is our Express app, which wraps the React Router handler, so that
  // the database, search index and gazetteer live in one bundle with the routes that use them.
  build: isSsrBuild
    ? { rollupOptions: { input: "./server/app.ts" }, target: "node20" }
    : {
        // React, React DOM and React Router load on every page:
        // one chunk instead of five compresses better and costs one request (bench:page;
        // docs/operations.md, page budgets).
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
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
