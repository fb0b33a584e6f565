import type { TrafficSource } from "./analytics-types";

/** Host suffixes of each named source; a host matches itself or any sub-domain. */
const HOSTS: readonly (readonly [TrafficSource, readonly string[]])[] = [
  ["facebook", ["facebook.com", "fb.com", "fb.me", "messenger.com"]],
  ["twitter", ["twitter.com", "x.com", "t.co"]],
  ["instagram", ["instagram.com"]],
  ["linkedin", ["linkedin.com", "lnkd.in"]],
  ["youtube", ["youtube.com", "youtu.be"]],
  ["bing", ["bing.com"]],
  ["yahoo", ["yahoo.com", "yahoo.co.jp", "search.yahoo.com"]],
];

const matches = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

/**
 * The traffic source class of a visit (docs/product.md section 9) from its referrer and the site's own
 * origin: no referrer is direct, the site itself is internal, search engines and social networks
 * by host (Google's many country domains included), anything else other.
 */
export function classifyTrafficSource(referrer: string | null | undefined, siteOrigin: string): TrafficSource {
  const value = referrer?.trim();
  if (!value) return "direct";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "other";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return url.protocol === "android-app:" && url.hostname.includes("google") ? "google" : "other";
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  let site = "";
  try {
    site = new URL(siteOrigin).hostname.toLowerCase();
  } catch {
    // no usable site origin: nothing is internal
  }
  if (site && (host === site || host === `www.${site}` || `www.${host}` === site)) return "internal";
  // google.com, google.co.uk, google.de, news.google.com, www.google.com.au ...
  if (/(^|\.)google(\.com?)?\.[a-z]{2,3}$/.test(host) || host === "google.com") return "google";
  for (const [source, suffixes] of HOSTS) {
    if (suffixes.some((suffix) => matches(host, suffix))) return source;
  }
  return "other";
}
