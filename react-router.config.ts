import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  routeDiscovery: { mode: "initial" },
  future: {
    // Route middleware runs the console guards once per area, before any child loader or action
    // (docs/decisions/009-route-middleware-guards.md); it makes the load context a provider.
    v8_middleware: true,
  },
} satisfies Config;
