import { BarChart3, Building2, FileCheck2, FileClock, LayoutDashboard, Megaphone, Settings } from "lucide-react";
import { Outlet } from "react-router";
import { ownerConsoleMiddleware, consoleLayoutData } from "../../../server/auth/console";
import { ConsoleError } from "../../components/console/console-error";
import { ConsoleShell, type ConsoleNavItem } from "../../components/console/console-shell";
import type { ConsoleHandle } from "../../components/console/handle";
import { Toaster } from "../../components/ui/toast";
import type { Route } from "./+types/layout";

/**
 * Every /owner/* screen renders inside this layout, and its middleware runs the owner guard once,
 * before any child loader or action (docs/decisions/009-route-middleware-guards.md).
 */
export const middleware: Route.MiddlewareFunction[] = [ownerConsoleMiddleware];

/** A loader makes every client navigation into the area ask the server, so the guard runs each time. */
export function loader({ request, context }: Route.LoaderArgs) {
  return consoleLayoutData(request, context);
}

export const handle: ConsoleHandle = { breadcrumb: "Owner console" };

const TITLE = "Owner console";
const NAV: ConsoleNavItem[] = [
  { label: "Dashboard", to: "/owner", Icon: LayoutDashboard },
  { label: "Claim a listing", to: "/owner/claim", Icon: FileCheck2 },
  { label: "My claims", to: "/owner/claims", Icon: FileClock },
  { label: "Listings", to: "/owner/locations", Icon: Building2 },
  { label: "Analytics", to: "/owner/locations/analytics", Icon: BarChart3 },
  { label: "Promote", to: "/owner/promote", Icon: Megaphone, also: ["/owner/checkout"] },
  { label: "Settings", to: "/owner/settings", Icon: Settings },
];

export default function OwnerLayout({ loaderData }: Route.ComponentProps) {
  return (
    <ConsoleShell title={TITLE} items={NAV} account={loaderData.account}>
      <Outlet />
      <Toaster flash={loaderData.flash} />
    </ConsoleShell>
  );
}

export function ErrorBoundary() {
  return (
    <ConsoleShell title={TITLE} items={NAV}>
      <ConsoleError home={{ to: "/owner", label: "Back to the dashboard" }} />
    </ConsoleShell>
  );
}
