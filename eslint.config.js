import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { noImportCycle, noImportFrom } from "./scripts/eslint/layers.js";

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "data/", ".react-router/", ".tmp/", "coverage/", "server/geo/data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // The package's index re-exports every icon: a module importing it is, to the bundler,
      // importing all of them, and the chunk grouping (vite.chunks.ts) would put the consoles'
      // icons in every public page. One icon per import instead.
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "lucide-react",
              message: 'Import each icon by itself: import Search from "lucide-react/icons/search".',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    // The layers point one way (docs/architecture.md, "Layers"): domain/ <- server/ <- app/ and
    // scripts/. An import circle hides a layer that points back up, so none is allowed anywhere.
    files: ["{app,server,domain,scripts,tests}/**/*.{ts,tsx,js,mjs}"],
    plugins: { layers: { rules: { "no-import-cycle": noImportCycle, "no-import-from": noImportFrom } } },
    rules: { "layers/no-import-cycle": "error" },
  },
  {
    // Browser code must never reach into the server (database drivers, secrets): only routes'
    // loaders and actions, which React Router strips from the client bundle, may import server/.
    files: ["app/components/**", "app/lib/**", "app/analytics/**"],
    rules: { "no-restricted-imports": ["error", { patterns: ["**/server/**"] }] },
  },
  {
    // Services never learn a word from the routes or the UI: what both halves say is in domain/.
    files: ["server/**/*.{ts,tsx,js,mjs}"],
    rules: {
      "layers/no-import-from": ["error", { forbidden: ["app"], message: "What both halves need lives in domain/." }],
    },
  },
  {
    // The vocabulary at the bottom imports nothing of ours above it.
    files: ["domain/**/*.{ts,tsx,js,mjs}"],
    rules: {
      "layers/no-import-from": ["error", { forbidden: ["app", "server"], message: "domain/ is the bottom layer." }],
    },
  },
);
