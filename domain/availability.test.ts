import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  availabilitySummary,
  freshUntil,
  isAvailableNow,
  needsReminder,
  summaryChangesAt,
  summaryOfStatuses,
  withStatusTimes,
} from "./availability";
import type { SizeOffer } from "./listings";

const now = new Date("2026-11-28T12:00:00Z");
const daysAgo = (n: number) => new Date(now.getTime() - n * 24 * 60 * 60_000).toISOString();
const offer = (over: Partial<SizeOffer>): SizeOffer => ({
  width: 12,
  length: 40,
  monthlyPrice: 150,
  availability: null,
  ...over,
});

describe("the availability line", () => {
  it("says nothing when no size has a status", () => {
    expect(availabilitySummary([offer({})], now)).toBeNull();
  });

  it("says spaces are available with the freshest date, or full with a waitlist", () => {
    expect(
      availabilitySummary(
        [
          offer({ availability: "full", statusAt: daysAgo(1) }),
          offer({ width: 10, availability: "few_left", statusAt: daysAgo(3) }),
        ],
        now,
      ),
    ).toEqual({ text: "Spaces available · updated yesterday", tone: "open" });
    expect(availabilitySummary([offer({ availability: "waitlist", statusAt: daysAgo(0) })], now)?.text).toBe(
      "Full · waitlist open · updated today",
    );
  });

  it("stops claiming anything after 30 days and asks the owner after 14", () => {
    const old = [offer({ availability: "available", statusAt: daysAgo(31) })];
    expect(availabilitySummary(old, now)).toEqual({ text: "Availability not confirmed recently", tone: "stale" });
    expect(isAvailableNow(old[0]!, now)).toBe(false);
    expect(isAvailableNow(offer({ availability: "available", statusAt: daysAgo(30) }), now)).toBe(true);
    // Fresh through the 30th whole day; the index's cut-off (freshUntil) is the same instant.
    expect(isAvailableNow(offer({ availability: "few_left", statusAt: daysAgo(30.999) }), now)).toBe(true);
    expect(freshUntil(daysAgo(31))).toBe(now.getTime());
    expect(freshUntil("yesterday")).toBeNull();
    expect(needsReminder([offer({ availability: "full", statusAt: daysAgo(13) })], now)).toBe(false);
    expect(needsReminder([offer({ availability: "full", statusAt: daysAgo(14) })], now)).toBe(true);
    expect(needsReminder([offer({ availability: "full" })], now)).toBe(true);
  });
});

describe("status times after an edit", () => {
  const current = [
    offer({ availability: "available", openSpaces: 3, statusAt: daysAgo(10) }),
    offer({ width: 10, length: 20, availability: "full", statusAt: daysAgo(5) }),
  ];

  it("dates a changed status now and keeps the others' dates and counts", () => {
    const next = withStatusTimes(
      current,
      [
        { width: 12, length: 40, monthlyPrice: 160, availability: "available" },
        { width: 10, length: 20, monthlyPrice: null, availability: "waitlist" },
      ],
      now,
      false,
    );
    expect(next[0]).toEqual({
      width: 12,
      length: 40,
      monthlyPrice: 160,
      availability: "available",
      openSpaces: 3,
      statusAt: daysAgo(10),
    });
    expect(next[1]!.statusAt).toBe(now.toISOString());
  });

  it("confirms every status when the owner says they are still correct, and clears a removed status", () => {
    const next = withStatusTimes(current, [current[0]!, { ...current[1]!, availability: null }], now, true);
    expect(next[0]!.statusAt).toBe(now.toISOString());
    expect(next[1]).toEqual({ width: 10, length: 20, monthlyPrice: 150, availability: null });
  });
});

describe("when a card's availability line next changes", () => {
  const DAY = 24 * 60 * 60_000;
  const kinds = fc.constantFrom("available" as const, "few_left" as const, "waitlist" as const, "full" as const);
  // Statuses around `now`: a few set in the future, most within or past the 30 fresh days.
  const statuses = fc.array(
    fc.record({ kind: kinds, offset: fc.oneof(fc.integer({ min: -40 * DAY, max: 2 * DAY }), fc.constant(Number.NaN)) }),
    { minLength: 1, maxLength: 4 },
  );

  it("the line stays the same until summaryChangesAt, and some status turns a day there", () => {
    const now = Date.parse("2026-03-10T12:00:00Z");
    fc.assert(
      fc.property(statuses, fc.double({ min: 0, max: 1, noNaN: true }), (list, share) => {
        const times = list.map((s) => now + s.offset);
        const kindList = list.map((s) => s.kind);
        const at = summaryChangesAt(times, now);
        const line = summaryOfStatuses(kindList, times, now);
        expect(at).toBeGreaterThan(now);
        if (at === Infinity) {
          // Nothing fresh: stale for good.
          expect(summaryOfStatuses(kindList, times, now + 400 * DAY)).toEqual(line);
          return;
        }
        // A day at most, or a day after a status set in the future (up to two days ahead here).
        expect(at - now).toBeLessThanOrEqual(3 * DAY);
        for (const t of [Math.min(at - 1, now + Math.floor((at - now) * share)), at - 1]) {
          expect(summaryOfStatuses(kindList, times, t)).toEqual(line);
        }
        // At that moment one fresh status is a whole number of days old (or newly stale).
        expect(times.some((time) => !Number.isNaN(time) && (at - time) % DAY === 0)).toBe(true);
      }),
    );
  });

  it("a status set yesterday at noon changes the line at noon today", () => {
    const now = Date.parse("2026-03-10T09:00:00Z");
    const times = [Date.parse("2026-03-09T12:00:00Z")];
    expect(summaryOfStatuses(["available"], times, now)?.text).toBe("Spaces available · updated today");
    expect(new Date(summaryChangesAt(times, now)).toISOString()).toBe("2026-03-10T12:00:00.000Z");
    expect(summaryOfStatuses(["available"], times, Date.parse("2026-03-10T12:00:00Z"))?.text).toBe(
      "Spaces available · updated yesterday",
    );
  });
});
