import BarChart3 from "lucide-react/icons/chart-column";
import Building2 from "lucide-react/icons/building-complex";
import FileCheck2 from "lucide-react/icons/file-check-corner";
import FileClock from "lucide-react/icons/file-clock";
import Inbox from "lucide-react/icons/inbox";
import LayoutDashboard from "lucide-react/icons/layout-dashboard";
import Megaphone from "lucide-react/icons/megaphone";
import Settings from "lucide-react/icons/settings";
import Star from "lucide-react/icons/star";
import { Form, Outlet, useLocation } from "react-router";
import { ownerConsoleMiddleware, ownerLayoutData } from "../../../server/auth/console";
import { ConsoleError } from "../../components/console/console-error";
import { ConsoleShell, type ConsoleNavItem } from "../../components/console/console-shell";
import type { ConsoleHandle } from "../../components/console/handle";
import { SubmitButton } from "../../components/ui/submit-button";
import { Toaster } from "../../components/ui/toast";
import type { Route } from "./+types/layout";

/**
 * Every /owner/* screen renders inside this layout, and its middleware runs the owner guard once,
 * before any child loader or action (docs/decisions/009-route-middleware-guards.md).
 */
export const middleware: Route.MiddlewareFunction[] = [ownerConsoleMiddleware];

/** A loader makes every client navigation into the area ask the server, so the guard runs each time. */
export function loader({ request, context }: Route.LoaderArgs) {
  return ownerLayoutData(request, context);
}

export const handle: ConsoleHandle = { breadcrumb: "Owner console" };

const TITLE = "Owner console";
const NAV: ConsoleNavItem[] = [
  { label: "Dashboard", to: "/owner", Icon: LayoutDashboard },
  { label: "Claim a listing", to: "/owner/claim", Icon: FileCheck2 },
  { label: "My claims", to: "/owner/claims", Icon: FileClock },
  { label: "Listings", to: "/owner/locations", Icon: Building2 },
  { label: "Leads", to: "/owner/leads", Icon: Inbox },
  { label: "Reviews", to: "/owner/reviews", Icon: Star },
  { label: "Analytics", to: "/owner/locations/analytics", Icon: BarChart3 },
  { label: "Promote", to: "/owner/promote", Icon: Megaphone, also: ["/owner/checkout", "/owner/invoices"] },
  { label: "Settings", to: "/owner/settings", Icon: Settings },
];

export default function OwnerLayout({ loaderData }: Route.ComponentProps) {
  return (
    <ConsoleShell title={TITLE} items={NAV} account={loaderData.account}>
      {loaderData.unconfirmedEmail && <ConfirmEmailBanner email={loaderData.unconfirmedEmail} />}
      <Outlet />
      <Toaster flash={loaderData.flash} />
    </ConsoleShell>
  );
}

/** docs/product.md section 10: shown on every owner page until the account's address is confirmed. */
function ConfirmEmailBanner({ email }: { email: string }) {
  const { pathname, search } = useLocation();
  return (
    <section
      aria-labelledby="confirm-email-title"
      className="mb-4 flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between"
    >
      <p id="confirm-email-title">
        <strong className="font-semibold">Confirm your email address:</strong> we sent a link to{" "}
        <span className="break-all font-medium">{email}</span>. You need it to claim a listing.
      </p>
      <Form method="post" action="/owner/verify-email/resend" className="shrink-0">
        <input type="hidden" name="returnTo" value={pathname + search} />
        <SubmitButton action="/owner/verify-email/resend" variant="secondary" size="sm">
          Send the link again
        </SubmitButton>
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <ConsoleShell title={TITLE} items={NAV}>
      <ConsoleError home={{ to: "/owner", label: "Back to the dashboard" }} />
    </ConsoleShell>
  );
}
