import { useEffect, useRef, type ComponentType, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { Breadcrumbs } from "./breadcrumbs";

export interface ConsoleNavItem {
  label: string;
  to: string;
  Icon: ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  /** Other paths that belong to this item (checkout belongs to Promote). */
  also?: string[];
}

const within = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/** The one current item: the longest path that contains this page, so /owner/locations/analytics is Analytics only. */
export function currentItem(items: readonly ConsoleNavItem[], pathname: string): ConsoleNavItem | undefined {
  let best: { item: ConsoleNavItem; length: number } | undefined;
  for (const item of items) {
    for (const base of [item.to, ...(item.also ?? [])]) {
      if (within(pathname, base) && base.length > (best?.length ?? -1)) best = { item, length: base.length };
    }
  }
  return best?.item;
}

/**
 * A console area's frame: side navigation on desktop, a horizontally scrolling tab strip under
 * the site header on a phone (below 768 px), breadcrumbs, then the page, which renders its own
 * h1 (PageHeader). The site header and footer stay around it (app/root.tsx).
 */
export function ConsoleShell({
  title,
  items,
  account,
  children,
}: {
  title: string;
  items: readonly ConsoleNavItem[];
  account?: string | null;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  const current = currentItem(items, pathname);
  const currentRef = useRef<HTMLAnchorElement>(null);
  // On a phone the strip scrolls sideways: bring the current tab into view.
  useEffect(() => {
    currentRef.current?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [current?.to]);

  return (
    <div className="mx-auto w-full max-w-7xl md:flex md:gap-8 md:px-4 md:py-8">
      {/* A plain box, not an <aside>: its landmark is the <nav> inside, and a second, unnamed
          complementary landmark would clash with an article's directory cards (axe landmark-unique). */}
      <div className="print:hidden sticky top-16 z-10 border-b border-slate-200 bg-white md:static md:w-56 md:shrink-0 md:border-0 md:bg-transparent">
        <div className="hidden px-3 pb-3 md:block">
          <p className="text-sm font-semibold text-brand-700">{title}</p>
          {account && <p className="mt-0.5 truncate text-sm text-slate-600">{account}</p>}
        </div>
        <nav aria-label={title}>
          <ul className="flex gap-1 overflow-x-auto px-2 py-2 [scrollbar-width:none] md:flex-col md:overflow-visible md:p-0">
            {items.map((item) => {
              const active = item === current;
              return (
                <li key={item.to} className="shrink-0">
                  <Link
                    ref={active ? currentRef : undefined}
                    to={item.to}
                    aria-current={active ? "page" : undefined}
                    className={
                      "flex items-center gap-2 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium " +
                      (active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900")
                    }
                  >
                    <item.Icon aria-hidden className="size-4 shrink-0" />
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </div>
      <div className="min-w-0 flex-1 px-4 py-6 md:px-0 md:py-0">
        <div className="print:hidden">
          <Breadcrumbs />
        </div>
        <div className="mt-3">{children}</div>
      </div>
    </div>
  );
}
