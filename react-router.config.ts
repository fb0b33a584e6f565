import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // A page carries the manifest of its own routes only and fetches the rest as links appear (React
  // Router's default): 5 kB less script on every page, and with React the patch costs no more
  // blocking time than noise (docs/decisions/026-react-in-the-browser.md).
  routeDiscovery: { mode: "lazy" },
  future: {
    // Route middleware runs the console guards once per area, before any child loader or action
    // (docs/decisions/009-route-middleware-guards.md); it makes the load context a provider.
    v8_middleware: true,
  },
} satisfies Config;
