import { createHash } from "node:crypto";
import { isIP } from "node:net";
import type { ClickType } from "../../domain/analytics-types";

/**
 * How much one visitor can add to the counters owners are shown (docs/operations.md, "Limits on
 * input", Analytics). Owners pay on these numbers, and a session is free: without caps one
 * address could add tens of thousands of events a minute to any listing. Events over a cap are
 * accepted and dropped, so a client does not retry them.
 */
export const INGEST_CAPS = {
  /** Page views of one listing per sign-in session per hour: reloads and back-and-forth, no more. */
  pageViewsPerHour: 10,
  /**
   * Result-card views of one listing per sign-in session per hour. The tracker sends one per card
   * per results page, and a visitor refining a search (size, amenities, radius, next page and
   * back) sees the same nearby listing on many pages: 20 such searches an hour is a keen visitor.
   */
  listViewsPerHour: 20,
  /** Clicks of each type (website, phone, contact button, directions) per listing, session and hour. */
  clicksPerTypePerHour: 5,
  /**
   * Events one address (an IPv6 /64) may add per UTC day across all its sessions. A thorough
   * visitor's day is a few hundred events (30 searches of 20 cards, 50 listing pages, clicks); 2,000
   * leaves room for a few such visitors behind one NAT while bounding what one address can inflate.
   */
  eventsPerIpPerDay: 2_000,
  /** Characters kept of a url's path and of a referrer's origin and path. */
  storedUrlChars: 512,
} as const;

/** The cap counter an event of a listing counts against: its type, and for a click its target. */
export function capKind(eventType: "page_view" | "list_view" | "click", elementType: ClickType | null): string {
  return eventType === "click" ? `click:${elementType}` : eventType;
}

export function capOf(kind: string): number {
  if (kind === "page_view") return INGEST_CAPS.pageViewsPerHour;
  if (kind === "list_view") return INGEST_CAPS.listViewsPerHour;
  return INGEST_CAPS.clicksPerTypePerHour;
}

/** The start of the UTC hour of `at`, the window of the per-session caps. */
export function hourOf(at: Date): string {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000).toISOString();
}

/** The expanded eight groups of an IPv6 address, or null. */
function ipv6Groups(ip: string): number[] | null {
  const [head = "", tail, extra] = ip.split("::");
  if (extra !== undefined) return null;
  const part = (s: string) => (s === "" ? [] : s.split(":"));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const last = right.length > 0 ? right : left;
  const dotted = last.at(-1);
  if (dotted?.includes(".")) {
    const bytes = dotted.split(".").map(Number);
    last.splice(-1, 1, ((bytes[0]! << 8) | bytes[1]!).toString(16), ((bytes[2]! << 8) | bytes[3]!).toString(16));
  }
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right].map((g) =>
    Number.parseInt(g, 16),
  );
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The key of an address's daily budget: IPv4 as is (also when mapped into IPv6), IPv6 by its /64,
 * since one subscriber is routinely given a whole /64. Hashed, so the table holds no addresses.
 */
export function ipBudgetKey(ip: string): string {
  let key = ip.trim().toLowerCase();
  if (isIP(key) === 6) {
    const groups = ipv6Groups(key);
    if (groups) {
      const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
      key = mapped
        ? [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".")
        : `${groups
            .slice(0, 4)
            .map((g) => g.toString(16))
            .join(":")}::/64`;
    }
  }
  return createHash("sha256").update(key).digest("hex").slice(0, 32);
}

const cut = (value: string) => value.slice(0, INGEST_CAPS.storedUrlChars);

/** The path of a page's url, without query string or fragment (which may hold personal data). */
export function storedPath(url: string, siteOrigin: string): string {
  try {
    return cut(new URL(url, siteOrigin).pathname);
  } catch {
    return "";
  }
}

/** A referrer as origin and path only; null when it is not a URL. */
export function storedReferrer(referrer: string | null): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    return cut(`${url.protocol}//${url.host}${url.pathname}`);
  } catch {
    return null;
  }
}
