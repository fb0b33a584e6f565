import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EMPTY_TALLY,
  REVIEW_STATUSES,
  applyReviewChange,
  combinedRating,
  tallyOf,
  type CountedReview,
  type ReviewTally,
} from "./reviews";

describe("combinedRating", () => {
  it("weighs each review once, from both sources", () => {
    expect(combinedRating({ rating: 4.5, count: 180 }, { count: 20, starSum: 60 })).toEqual({
      rating: (4.5 * 180 + 60) / 200,
      count: 200,
      importedCount: 180,
      firstPartyCount: 20,
    });
  });

  it("has no rating with no reviews, and ignores an imported count without a rating", () => {
    expect(combinedRating({ rating: null, count: 0 }, EMPTY_TALLY).rating).toBeNull();
    expect(combinedRating({ rating: null, count: 12 }, { count: 1, starSum: 2 })).toEqual({
      rating: 2,
      count: 1,
      importedCount: 0,
      firstPartyCount: 1,
    });
  });
});

describe("a listing's running tally", () => {
  it("counts a review only while it is published", () => {
    for (const status of REVIEW_STATUSES) {
      expect(tallyOf({ status, stars: 4 })).toEqual(status === "published" ? { count: 1, starSum: 4 } : EMPTY_TALLY);
    }
    expect(() => tallyOf({ status: "published", stars: 6 })).toThrow(RangeError);
  });

  it("equals the weighted mean from scratch after any sequence of writes, edits, deletes and moderation", () => {
    const review = fc.record({ status: fc.constantFrom(...REVIEW_STATUSES), stars: fc.integer({ min: 1, max: 5 }) });
    // An operation on one of a few reviews: set it (write, edit, or a moderation decision) or delete it.
    const operation = fc.record({ slot: fc.nat({ max: 5 }), next: fc.option(review, { nil: null }) });
    const imported = fc.record({
      rating: fc.option(fc.double({ min: 1, max: 5, noNaN: true }), { nil: null }),
      count: fc.nat({ max: 5_000 }),
    });
    fc.assert(
      fc.property(imported, fc.array(operation, { maxLength: 60 }), (source, operations) => {
        const reviews = new Map<number, CountedReview>();
        let tally: ReviewTally = EMPTY_TALLY;
        for (const { slot, next } of operations) {
          tally = applyReviewChange(tally, reviews.get(slot) ?? null, next);
          if (next) reviews.set(slot, next);
          else reviews.delete(slot);
        }
        const published = [...reviews.values()].filter((r) => r.status === "published");
        const importedCount = source.rating === null ? 0 : source.count;
        const count = importedCount + published.length;
        const expected =
          count === 0
            ? null
            : ((source.rating ?? 0) * importedCount + published.reduce((sum, r) => sum + r.stars, 0)) / count;
        const combined = combinedRating(source, tally);
        expect(combined.count).toBe(count);
        expect(combined.firstPartyCount).toBe(published.length);
        if (expected === null) expect(combined.rating).toBeNull();
        else expect(combined.rating).toBeCloseTo(expected, 9);
      }),
    );
  });

  it("refuses to take out a review the tally never held", () => {
    expect(() => applyReviewChange(EMPTY_TALLY, { status: "published", stars: 5 }, null)).toThrow(RangeError);
  });
});

describe("the checks that hold a review", () => {
  it("find links, contact details and listed words, also in long input", async () => {
    const { hasLink, hasContactDetails, hasProfanity, holdReasons } = await import("./reviews");
    expect(hasLink("See www.cheap.example for more")).toBe(true);
    expect(hasLink("Go to https://x.example/a.")).toBe(true);
    expect(hasLink("Better deals at rival-storage.com.")).toBe(true);
    expect(hasLink("Gate opens at 6 a.m. and closes at 9 p.m.")).toBe(false);
    expect(hasContactDetails("Call (512) 555-0123 today")).toBe(true);
    expect(hasContactDetails("Mail bob@storage.example.com")).toBe(true);
    expect(hasContactDetails("We stored 2 RVs for 12 months at $150")).toBe(false);
    expect(hasProfanity("What a shitty gate")).toBe(true);
    expect(hasProfanity("Scunthorpe is fine")).toBe(false);
    // Long input of the shapes that make a backtracking pattern slow (tests/redos.test.ts checks
    // the patterns themselves): each check is one pass.
    const long = `${"1 ".repeat(50_000)}x${".".repeat(50_000)}:`;
    expect(hasLink(long)).toBe(false);
    expect(hasContactDetails(long)).toBe(true);
    const context = {
      reviewsFromAddressToday: 1,
      authorIsNewAccount: false,
      newAccountReviewsOfListingToday: 0,
      authorOwnsOrClaimed: false,
      sameStarsOfListingToday: 1,
    };
    expect(holdReasons({ stars: 4, title: "Good", text: "Clean and safe lot." }, context)).toEqual([]);
    expect(
      holdReasons(
        { stars: 5, title: "Best", text: "Call 512-555-0123" },
        { ...context, reviewsFromAddressToday: 3, authorOwnsOrClaimed: true, sameStarsOfListingToday: 5 },
      ),
    ).toEqual(["contact", "address_burst", "owner", "rating_burst"]);
  });
});
