import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import "./app.css";
import { AnalyticsTracker } from "./analytics/analytics-tracker";
import { SiteFooter } from "./components/layout/site-footer";
import { LostPage } from "./components/layout/lost-page";
import { MessagePage } from "./components/layout/message-page";
import { ScriptsAfterFirstPaint } from "./components/layout/scripts-after-paint";
import { SiteHeader } from "./components/layout/site-header";
import { AuthProvider } from "./lib/auth";
import { useNonce } from "./lib/nonce";
import { pageTitle } from "../domain/site";
import { describeError, errorTitle } from "./lib/error-display";
import { siteOrigin } from "../server/http/origin";
import { sharedPageContext } from "../server/http/request-context";
import { personalOf } from "../server/auth/personal";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

/**
 * The page's person (auth state, saved facilities), except on a page a shared cache keeps: that one
 * is the same for everybody, and the browser asks GET /api/session for the person after load
 * (app/lib/auth.tsx, docs/operations.md "A shared cache in front").
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = siteOrigin(request);
  if (context.get(sharedPageContext)) return data({ origin, personal: null });
  const { personal, headers } = await personalOf(request);
  return data({ origin, personal }, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  const nonce = useNonce();
  // Undefined while an error page renders without the root loader's data.
  const page = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#4668F2" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 text-brand-700 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Skip to content
        </a>
        <AuthProvider page={page}>
          <SiteHeader transparent={pathname === "/"} />
          <main id="main" className="flex-1">
            {children}
          </main>
          <SiteFooter />
          <AnalyticsTracker />
          <HydrationMark />
        </AuthProvider>
        <ScrollRestoration nonce={nonce} />
        <ScriptsAfterFirstPaint nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * Marks `<html data-hydrated>` once React has hydrated the page: effects run after the hydrating
 * commit, and the root's last. Browser tests wait for it before they click (a click before the
 * handlers are attached would be lost).
 */
function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}

export default function App() {
  return <Outlet />;
}

export function meta({ error }: Route.MetaArgs) {
  if (!error) return [{ title: pageTitle() }];
  return [{ title: pageTitle(errorTitle(error)) }, { name: "robots", content: "noindex" }];
}

/** Statuses of an address that leads nowhere: their page offers the place search to carry on. */
const LOST_STATUSES = new Set([400, 404, 410]);

/**
 * One error page for every status, with a way home (Epic Stack's GeneralErrorBoundary); a wrong
 * or dead address gets the search box too (docs/product.md section 8).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { status, title, text } = describeError(error);
  if (!isRouteErrorResponse(error) && import.meta.env.DEV) console.error(error);
  if (LOST_STATUSES.has(status)) return <LostPage title={title} text={text} />;
  return <MessagePage role="alert" eyebrow={`Error ${status}`} title={title} text={text} />;
}
