import { hasAuthSession } from "../lib/auth-client";
import { locationIdsBySlug, pageLocationId } from "./page-data";
import { Tracker, browserTransport } from "./tracker";
import { CLICK_TYPES, type ClickType } from "../../domain/analytics-types";

/**
 * What the analytics tracker does in the browser, loaded after the page is interactive
 * (analytics-tracker.tsx): a page_view per navigation, a list_view the first time each result card
 * of a page is half in view, and a click on any element marked `data-analytics-click="phone|
 * website|directions|contact_button"` (the location comes from the nearest
 * `data-analytics-location-id`, else the facility page's own). Nothing here runs on the server.
 */

/** The route matches a page shows, as React Router gives them (`useMatches`). */
export type PageMatches = readonly { id: string; loaderData?: unknown }[];

let tracker: Tracker | undefined;
/**
 * The referrer of the current page: the browser's for the first page of a visit, then the
 * previous page's URL, since client-side navigations leave document.referrer unchanged.
 */
let referrer: string | undefined;
let lastUrl: string | undefined;
/** The facility of the page on screen, for clicks outside any marked card. */
let pageLocation: string | null = null;

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

const isClickType = (value: string | undefined): value is ClickType =>
  value !== undefined && (CLICK_TYPES as readonly string[]).includes(value);

/** One tracker per tab, with the window listeners that end or resume a page and count clicks. */
function started(): Tracker {
  if (tracker) return tracker;
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
    userId: () => null,
    warn: (message, detail) => console.warn(message, ...(detail === undefined ? [] : [detail])),
  });
  instance.start(() => document.visibilityState === "visible");
  window.addEventListener("pagehide", () => instance.beacon());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") instance.beacon();
  });
  window.addEventListener("online", () => instance.online());
  // Clicks on marked links, by delegation, so pages only need a data attribute.
  document.addEventListener(
    "click",
    (event) => {
      const target = (event.target as Element | null)?.closest?.("[data-analytics-click]");
      if (!(target instanceof HTMLElement)) return;
      const type = target.dataset.analyticsClick;
      if (!isClickType(type)) return;
      const holder = target.closest<HTMLElement>("[data-analytics-location-id]");
      instance.track({
        eventType: "click",
        elementType: type,
        locationId: holder?.dataset.analyticsLocationId ?? pageLocation,
      });
      // The visitor is probably leaving (a call, another site): hand the click over now.
      if (type !== "contact_button") instance.beacon();
    },
    { capture: true },
  );
  tracker = instance;
  return instance;
}

/**
 * A page is on screen: records its page view and watches its result cards for list views.
 * Returns what stops the watching when the visitor moves on.
 */
export function showPage(matches: PageMatches): () => void {
  const t = started();
  pageLocation = pageLocationId(matches);
  const shownLocation = pageLocation;
  if (lastUrl !== undefined) referrer = lastUrl;
  lastUrl = window.location.href;
  t.track({ eventType: "page_view", locationId: shownLocation });
  if (typeof IntersectionObserver !== "function") return () => {};

  const slugs = locationIdsBySlug(matches.map((m) => m.loaderData));
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
        if (!id || seen.has(id) || id === shownLocation) continue;
        seen.add(id);
        t.track({ eventType: "list_view", locationId: id });
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
}
