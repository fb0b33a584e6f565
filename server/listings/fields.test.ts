import { describe, expect, it } from "vitest";
import { changedFields, type ListingFields } from "./fields";

const CURRENT: ListingFields = {
  name: "Lakeside RV Storage",
  address: "1 Lake Rd",
  latitude: 30.1,
  longitude: -97.2,
  description: null,
  phone: "(662) 555-0151",
  website: null,
  openingHours: [],
  gateHours: [],
  amenities: ["has_perimeter_fencing", "dump_station"] as ListingFields["amenities"],
  parkingOptions: null,
  paymentOptions: null,
  accessibilityOptions: null,
  sizes: [
    { width: 12, length: 40, monthlyPrice: null, availability: null },
    { width: 10, length: 20, monthlyPrice: null, availability: null },
  ],
  coveredClearanceFeet: null,
  city: "Austin",
  state: "TX",
  businessStatus: null,
};

describe("changedFields", () => {
  it("does not count a form saved untouched as a change of phone, amenities or sizes", () => {
    expect(
      changedFields(CURRENT, {
        phone: "+16625550151",
        amenities: ["dump_station", "has_perimeter_fencing"] as ListingFields["amenities"],
        sizes: [...CURRENT.sizes].reverse(),
        name: "Lakeside RV Storage",
      }),
    ).toEqual([]);
  });

  it("still sees a new number, a flag more and a price", () => {
    expect(
      changedFields(CURRENT, {
        phone: "+16625550152",
        amenities: ["dump_station"] as ListingFields["amenities"],
        sizes: [{ width: 10, length: 20, monthlyPrice: 90, availability: null }, CURRENT.sizes[0]!],
      }),
    ).toEqual(["phone", "amenities", "sizes"]);
  });
});
