import { describe, expect, it } from "vitest";
import {
  activityTrend,
  conversionRate,
  engagementScore,
  growthRate,
  performanceScore,
  recencyScore,
  type ScoreCounters,
} from "./scores";

const now = new Date("2025-06-30T12:00:00Z");
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
const counters = (over: Partial<ScoreCounters> = {}): ScoreCounters => ({
  pageViews: 0,
  websiteClicks: 0,
  contactClicks: 0,
  directionsClicks: 0,
  uniqueVisitors: 0,
  lastViewed: null,
  ...over,
});
const days = (...views: number[]) =>
  views.map((pageViews, i) => ({ date: `2025-06-${String(i + 1).padStart(2, "0")}`, pageViews }));

describe("recency", () => {
  it("scores 10, 8, 6, 4 at most 1, 7, 30, 90 days back, else 2", () => {
    expect(recencyScore(daysAgo(0), now)).toBe(10);
    expect(recencyScore(daysAgo(1), now)).toBe(10);
    expect(recencyScore(daysAgo(1.01), now)).toBe(8);
    expect(recencyScore(daysAgo(7), now)).toBe(8);
    expect(recencyScore(daysAgo(8), now)).toBe(6);
    expect(recencyScore(daysAgo(30), now)).toBe(6);
    expect(recencyScore(daysAgo(31), now)).toBe(4);
    expect(recencyScore(daysAgo(90), now)).toBe(4);
    expect(recencyScore(daysAgo(91), now)).toBe(2);
    expect(recencyScore(null, now)).toBe(2);
  });
});

describe("engagement", () => {
  it("weights conversion 40%, recency 30%, views (capped at 10) 30%", () => {
    // 50 views, 5 clicks: conversion 10% -> 4; viewed 3 days ago: 8 -> 2.4; views 50/10 = 5 -> 1.5
    const m = counters({
      pageViews: 50,
      websiteClicks: 2,
      contactClicks: 2,
      directionsClicks: 1,
      lastViewed: daysAgo(3),
    });
    expect(conversionRate(m)).toBe(10);
    expect(engagementScore(m, now)).toBe(7.9);
  });

  it("caps the views part at 10 and gives an unseen listing only the recency floor", () => {
    // 1000 views, 0 clicks, yesterday: 0 + 3 + 3
    expect(engagementScore(counters({ pageViews: 1000, lastViewed: daysAgo(0.5) }), now)).toBe(6);
    expect(engagementScore(counters(), now)).toBe(0.6);
  });
});

describe("performance", () => {
  it("sums views/10, conversion x 2.5, visitors/5 and clicks/5, each capped at 25", () => {
    // 120 views -> 12; 6 clicks of 120 = 5% -> 12.5; 40 visitors -> 8; 6 clicks -> 1.2
    const m = counters({ pageViews: 120, websiteClicks: 3, contactClicks: 3, uniqueVisitors: 40 });
    expect(performanceScore(m)).toBe(33.7);
    // everything far above the caps: 100
    const big = counters({ pageViews: 1000, websiteClicks: 300, uniqueVisitors: 900 });
    expect(performanceScore(big)).toBe(100);
    expect(performanceScore(counters())).toBe(0);
  });

  it("caps conversion at 100% when clicks outnumber views", () => {
    expect(conversionRate(counters({ pageViews: 2, websiteClicks: 5 }))).toBe(100);
  });
});

describe("growth and trend", () => {
  it("compares the second half of the days with the first", () => {
    expect(growthRate(days(10, 10, 15, 15))).toBe(50);
    expect(growthRate(days(20, 20, 5, 5))).toBe(-75);
    // the middle of an odd number of days counts in neither half
    expect(growthRate(days(4, 1000, 6))).toBe(50);
    expect(growthRate(days(0, 0, 3, 0))).toBe(100);
    expect(growthRate(days(0, 0))).toBe(0);
    expect(growthRate([])).toBe(0);
  });

  it("sorts days by date before splitting", () => {
    const shuffled = [
      { date: "2025-06-04", pageViews: 15 },
      { date: "2025-06-01", pageViews: 10 },
      { date: "2025-06-03", pageViews: 15 },
      { date: "2025-06-02", pageViews: 10 },
    ];
    expect(growthRate(shuffled)).toBe(50);
  });

  it("calls a trend up or down beyond 10% of the earlier average, or 1 when that is 0", () => {
    expect(activityTrend(days(10, 10, 11, 11))).toBe("stable"); // +1, threshold 1
    expect(activityTrend(days(10, 10, 12, 11))).toBe("up"); // +1.5 > 1
    expect(activityTrend(days(10, 10, 8, 9))).toBe("down"); // -1.5
    expect(activityTrend(days(0, 0, 1, 1))).toBe("stable"); // +1, threshold 1
    expect(activityTrend(days(0, 0, 2, 1))).toBe("up"); // +1.5
    expect(activityTrend(days(100, 100, 95, 91))).toBe("stable"); // -7 within 10
    expect(activityTrend(days(100, 100, 89, 89))).toBe("down"); // -11
    expect(activityTrend(days(5))).toBe("stable");
  });
});
