import { describe, expect, it } from "vitest";
import { formatAmount } from "./emails";
import { parsePromotionPlans, planFor } from "./plans";
import { addInterval, invoiceNumber } from "./common";

describe("addInterval", () => {
  it("adds a calendar month or year, keeping the day where it exists", () => {
    expect(addInterval(new Date("2026-03-15T08:30:00Z"), "month")).toEqual(new Date("2026-04-15T08:30:00Z"));
    expect(addInterval(new Date("2026-12-20T00:00:00Z"), "month")).toEqual(new Date("2027-01-20T00:00:00Z"));
    expect(addInterval(new Date("2026-01-31T12:00:00Z"), "month")).toEqual(new Date("2026-02-28T12:00:00Z"));
    expect(addInterval(new Date("2028-02-29T00:00:00Z"), "year")).toEqual(new Date("2029-02-28T00:00:00Z"));
  });
});

describe("invoice numbers and amounts", () => {
  it("pads the sequence to six digits and prints whole cents", () => {
    expect(invoiceNumber(2026, 123)).toBe("RVS-2026-000123");
    expect(invoiceNumber(2026, 1234567)).toBe("RVS-2026-1234567");
    expect(formatAmount(4900, "usd")).toBe("$49.00");
    expect(formatAmount(123456705, "usd")).toBe("$1,234,567.05");
  });
});

describe("parsePromotionPlans", () => {
  it("defaults the currency and Stripe ids, and finds a plan by tier", () => {
    const plans = parsePromotionPlans(
      JSON.stringify({
        plans: [{ tier: "Basic", name: "Basic", prices: { month: 500, year: 5000 }, features: ["A"] }],
      }),
    );
    expect(plans.currency).toBe("usd");
    expect(planFor(plans, "Basic")?.stripePriceIds).toEqual({ month: "", year: "" });
    expect(planFor(plans, "Pro")).toBeUndefined();
  });

  it("names the field that is wrong", () => {
    expect(() => parsePromotionPlans(JSON.stringify({ plans: [{ tier: "Free" }] }))).toThrow(
      /plans\.0\.tier: must be one of/,
    );
    expect(() =>
      parsePromotionPlans(
        JSON.stringify({ plans: [{ tier: "Pro", name: "Pro", prices: { month: 500, year: 5000 }, features: [] }] }),
      ),
    ).toThrow(/plans\.0\.features: must list at least one feature/);
    expect(() => parsePromotionPlans(JSON.stringify({ currency: "eur", plans: [] }))).toThrow(/currency: must be usd/);
  });
});
