import { useEffect, useMemo } from "react";
import { useLocation, useMatches } from "react-router";
import { hasAuthSession as defaultHasAuthSession } from "../lib/auth-client";
import { locationIdsBySlug, pageLocationId } from "./page-data";
import type * as TrackerModule from "./tracker";
import type { Tracker } from "./tracker";
import { CLICK_TYPES, type ClickType } from "./types";

/**
 * Starts the analytics tracker in the browser (render it once, in the root layout). It records a
 * page_view per navigation, a list_view the first time each result card of a page is half in
 * view, and a click on any element marked `data-analytics-click="phone|website|directions|
 * contact_button"` (the location comes from the nearest `data-analytics-location-id`, else the
 * facility page's own). Renders nothing; nothing runs on the server.
 */

/** Set once the tracker module has loaded (it is fetched after the page is interactive). */
let tracker: Tracker | undefined;
let loading: Promise<Tracker> | undefined;
/**
 * The referrer of the current page: the browser's for the first page of a visit, then the
 * previous page's URL, since client-side navigations leave document.referrer unchanged.
 */
let referrer: string | undefined;
let lastUrl: string | undefined;

function privacyRequested(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean; msDoNotTrack?: string };
  const win = window as Window & { doNotTrack?: string };
  return (
    nav.globalPrivacyControl === true || nav.doNotTrack === "1" || win.doNotTrack === "1" || nav.msDoNotTrack === "1"
  );
}

function storage(): Storage | { getItem(): null; setItem(): void; removeItem(): void } {
  try {
    return window.localStorage;
  } catch {
    return { getItem: () => null, setItem: () => {}, removeItem: () => {} };
  }
}

function newId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The tracker itself is loaded on demand, off the critical path: a page's first paint and
 * hydration do not wait for (or download) it. Events of the first moments wait for it instead.
 */
function loadTracker(hasAuthSession: () => boolean, userId: () => string | null): Promise<Tracker> {
  loading ??= import("./tracker").then(({ Tracker, browserTransport }) => {
    tracker = startTracker(Tracker, browserTransport, hasAuthSession, userId);
    return tracker;
  });
  return loading;
}

function startTracker(
  Tracker: typeof TrackerModule.Tracker,
  browserTransport: typeof TrackerModule.browserTransport,
  hasAuthSession: () => boolean,
  userId: () => string | null,
): Tracker {
  const instance = new Tracker({
    now: () => Date.now(),
    storage: storage(),
    transport: browserTransport(),
    hasAuthSession,
    isOnline: () => navigator.onLine !== false,
    doNotTrack: privacyRequested(),
    newId,
    page: () => ({
      url: window.location.href,
      referrer: referrer ?? document.referrer,
      origin: window.location.origin,
      userAgent: navigator.userAgent,
      viewport: { width: window.innerWidth, height: window.innerHeight },
    }),
    userId,
    warn: (message, detail) => console.warn(message, ...(detail === undefined ? [] : [detail])),
  });
  instance.start(() => document.visibilityState === "visible");
  return instance;
}

const isClickType = (value: string | undefined): value is ClickType =>
  value !== undefined && (CLICK_TYPES as readonly string[]).includes(value);

export function AnalyticsTracker({
  hasAuthSession = defaultHasAuthSession,
  userId = null,
}: {
  hasAuthSession?: () => boolean;
  userId?: string | null;
}) {
  const location = useLocation();
  const matches = useMatches();
  const slugs = useMemo(() => locationIdsBySlug(matches.map((m) => m.loaderData)), [matches]);
  const pageLocation = useMemo(() => pageLocationId(matches), [matches]);

  // One tracker per tab, with the window listeners that end or resume a page.
  useEffect(() => {
    void loadTracker(hasAuthSession, () => userId);
    const onHide = () => tracker?.beacon();
    const onVisibility = () => {
      if (document.visibilityState === "hidden") tracker?.beacon();
    };
    const onOnline = () => tracker?.online();
    window.addEventListener("pagehide", onHide);
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("online", onOnline);
    return () => {
      window.removeEventListener("pagehide", onHide);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("online", onOnline);
    };
  }, [hasAuthSession, userId]);

  // Clicks on marked links, by delegation, so pages only need a data attribute.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const target = (event.target as Element | null)?.closest?.("[data-analytics-click]");
      if (!(target instanceof HTMLElement) || !loading) return;
      const type = target.dataset.analyticsClick;
      if (!isClickType(type)) return;
      const holder = target.closest<HTMLElement>("[data-analytics-location-id]");
      const locationId = holder?.dataset.analyticsLocationId ?? pageLocation;
      void loading.then((t) => {
        t.track({ eventType: "click", elementType: type, locationId });
        // The visitor is probably leaving (a call, another site): hand the click over now.
        if (type !== "contact_button") t.beacon();
      });
    };
    document.addEventListener("click", onClick, { capture: true });
    return () => document.removeEventListener("click", onClick, { capture: true });
  }, [pageLocation]);

  // A page view per page, and list views of the cards it shows (each card once per page).
  const pageKey = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (!loading) return;
    if (lastUrl !== undefined) referrer = lastUrl;
    lastUrl = window.location.href;
    const ready = loading;
    void ready.then((t) => t.track({ eventType: "page_view", locationId: pageLocation }));
    if (typeof IntersectionObserver !== "function") return;
    const seen = new Set<string>();
    const observed = new WeakSet<Element>();
    const idOf = (card: Element): string | null => {
      const marked = (card as HTMLElement).dataset?.analyticsLocationId;
      if (marked) return marked;
      const href = card.querySelector<HTMLAnchorElement>('a[href^="/location/"]')?.getAttribute("href");
      const slug = href?.slice("/location/".length).split(/[?#]/)[0];
      return (slug && slugs.get(slug)) ?? null;
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting) continue;
          observer.unobserve(entry.target);
          const id = idOf(entry.target);
          if (!id || seen.has(id) || id === pageLocation) continue;
          seen.add(id);
          void ready.then((t) => t.track({ eventType: "list_view", locationId: id }));
        }
      },
      { threshold: 0.5 },
    );
    const scan = () => {
      const cards = document.querySelectorAll('[data-analytics-location-id], article:has(a[href^="/location/"])');
      for (const card of cards) {
        if (observed.has(card) || card.hasAttribute("data-analytics-click")) continue;
        observed.add(card);
        observer.observe(card);
      }
    };
    scan();
    // Result lists re-render without a navigation (paging, filters): watch for new cards.
    let pending: ReturnType<typeof setTimeout> | undefined;
    const mutations = new MutationObserver(() => {
      clearTimeout(pending);
      pending = setTimeout(scan, 200);
    });
    mutations.observe(document.body, { childList: true, subtree: true });
    return () => {
      clearTimeout(pending);
      mutations.disconnect();
      observer.disconnect();
    };
    // pageLocation and slugs derive from the same navigation as pageKey.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageKey]);

  return null;
}
