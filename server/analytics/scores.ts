/**
 * The listing scores of docs/product.md section 9, as pure functions of a location's counters. Every
 * result is rounded to 2 decimals so dashboards and tests see the same numbers.
 */

export interface ScoreCounters {
  pageViews: number;
  websiteClicks: number;
  contactClicks: number;
  directionsClicks: number;
  uniqueVisitors: number;
  lastViewed: Date | null;
}

export interface DailyViews {
  /** YYYY-MM-DD */
  date: string;
  pageViews: number;
}

const DAY_MS = 86_400_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

export const totalClicks = (m: Pick<ScoreCounters, "websiteClicks" | "contactClicks" | "directionsClicks">) =>
  m.websiteClicks + m.contactClicks + m.directionsClicks;

/** Clicks per page view, in percent, capped at 100 (a page viewed once and clicked twice is 100). */
export function conversionRate(m: ScoreCounters): number {
  if (m.pageViews <= 0) return 0;
  return round2(Math.min(100, (totalClicks(m) / m.pageViews) * 100));
}

/** 10, 8, 6, 4 for a last view at most 1, 7, 30, 90 days ago; else (or never viewed) 2. */
export function recencyScore(lastViewed: Date | null, now: Date): number {
  if (!lastViewed) return 2;
  const days = (now.getTime() - lastViewed.getTime()) / DAY_MS;
  if (days <= 1) return 10;
  if (days <= 7) return 8;
  if (days <= 30) return 6;
  if (days <= 90) return 4;
  return 2;
}

/**
 * Engagement: 40% conversion rate (percent), 30% recency (2..10), 30% views capped at 10
 * (one point per 10 page views, so 100 views and more score the full 10).
 */
export function engagementScore(m: ScoreCounters, now: Date): number {
  const views = Math.min(m.pageViews / 10, 10);
  return round2(conversionRate(m) * 0.4 + recencyScore(m.lastViewed, now) * 0.3 + views * 0.3);
}

/**
 * Performance, 0..100: the sum of four parts capped at 25 each: page views / 10, conversion
 * rate x 2.5, unique visitors / 5, clicks / 5.
 */
export function performanceScore(m: ScoreCounters): number {
  const parts = [m.pageViews / 10, conversionRate(m) * 2.5, m.uniqueVisitors / 5, totalClicks(m) / 5];
  return round2(parts.reduce((sum, part) => sum + Math.min(25, Math.max(0, part)), 0));
}

function halves(days: readonly DailyViews[]): [first: number[], second: number[]] {
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date)).map((d) => d.pageViews);
  const mid = Math.floor(sorted.length / 2);
  // An odd middle day belongs to neither half, so both halves span the same number of days.
  return [sorted.slice(0, mid), sorted.slice(sorted.length - mid)];
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Growth in percent: page views of the second half of the period against the first half. From
 * nothing to something is +100; nothing to nothing is 0.
 */
export function growthRate(days: readonly DailyViews[]): number {
  const [first, second] = halves(days);
  const before = sum(first);
  const after = sum(second);
  if (before === 0) return after > 0 ? 100 : 0;
  return round2(((after - before) / before) * 100);
}

export type ActivityTrend = "up" | "down" | "stable";

/**
 * Whether daily views rise or fall: the later half's daily average against the earlier half's,
 * moving by more than the threshold, 10% of the earlier average (or 1 when that is 0).
 */
export function activityTrend(days: readonly DailyViews[]): ActivityTrend {
  const [first, second] = halves(days);
  if (first.length === 0) return "stable";
  const earlier = sum(first) / first.length;
  const later = sum(second) / second.length;
  const threshold = earlier > 0 ? earlier * 0.1 : 1;
  if (later - earlier > threshold) return "up";
  if (earlier - later > threshold) return "down";
  return "stable";
}
