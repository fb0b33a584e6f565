/** The chart series and source names the owner and admin analytics screens share. */

export const VIEW_SERIES = [
  { key: "pageViews", label: "Page views", color: "#4668f2" },
  { key: "listViews", label: "List views", color: "#94a3b8" },
] as const;

export const CLICK_SERIES = [
  { key: "websiteClicks", label: "Website", color: "#2540b0" },
  { key: "phoneClicks", label: "Phone", color: "#4668f2" },
  { key: "directionsClicks", label: "Directions", color: "#9fb0f8" },
] as const;

/** A traffic source as people know it (server/analytics classifies referrers into these keys). */
export const SOURCE_LABELS: Record<string, string> = {
  google: "Google",
  facebook: "Facebook",
  twitter: "X (Twitter)",
  instagram: "Instagram",
  linkedin: "LinkedIn",
  youtube: "YouTube",
  bing: "Bing",
  yahoo: "Yahoo",
  internal: "This site (search results, other pages)",
  direct: "Direct (typed, bookmarked or no referrer)",
  other: "Other websites",
};
