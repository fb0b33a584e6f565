import BadgeDollarSign from "lucide-react/icons/badge-dollar-sign";
import BarChart3 from "lucide-react/icons/chart-column";
import ClipboardList from "lucide-react/icons/clipboard-list";
import FileCheck2 from "lucide-react/icons/file-check-corner";
import LayoutDashboard from "lucide-react/icons/layout-dashboard";
import MapPin from "lucide-react/icons/map-pin";
import Newspaper from "lucide-react/icons/newspaper";
import Users from "lucide-react/icons/users";
import { Outlet } from "react-router";
import { adminConsoleMiddleware, consoleLayoutData } from "../../../server/auth/console";
import { ConsoleError } from "../../components/console/console-error";
import { ConsoleShell, type ConsoleNavItem } from "../../components/console/console-shell";
import type { ConsoleHandle } from "../../components/console/handle";
import { Toaster } from "../../components/ui/toast";
import type { Route } from "./+types/layout";

/**
 * Every /admin/* screen renders inside this layout, and its middleware runs the admin guard once,
 * before any child loader or action (docs/decisions/009-route-middleware-guards.md).
 */
export const middleware: Route.MiddlewareFunction[] = [adminConsoleMiddleware];

/** A loader makes every client navigation into the area ask the server, so the guard runs each time. */
export function loader({ request, context }: Route.LoaderArgs) {
  return consoleLayoutData(request, context);
}

export const handle: ConsoleHandle = { breadcrumb: "Admin console" };

const TITLE = "Admin console";
const NAV: ConsoleNavItem[] = [
  { label: "Overview", to: "/admin", Icon: LayoutDashboard },
  { label: "Claims", to: "/admin/claims", Icon: FileCheck2 },
  { label: "Locations", to: "/admin/locations", Icon: MapPin },
  { label: "Work queue", to: "/admin/manage", Icon: ClipboardList },
  { label: "Promotions", to: "/admin/promotions", Icon: BadgeDollarSign },
  { label: "Users", to: "/admin/users", Icon: Users },
  { label: "Blog", to: "/admin/blog", Icon: Newspaper },
  { label: "Analytics", to: "/admin/analytics", Icon: BarChart3 },
];

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
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
      <ConsoleError home={{ to: "/admin", label: "Back to the overview" }} />
    </ConsoleShell>
  );
}
