import { describe, expect, it } from "vitest";
import { changeLines, describeValue, MAX_SHOWN_VALUE } from "./describe";

describe("changeLines", () => {
  it("shows the map position as both numbers, before and after, even when one moved", () => {
    expect(
      changeLines(
        ["name", "latitude"],
        { name: "Old RV", address: "1 Main St", latitude: 30.1, longitude: -97.2 },
        { name: "New RV", latitude: 30.5 },
      ),
    ).toEqual([
      { label: "Name", before: "Old RV", after: "New RV" },
      { label: "Map position", before: "30.1, -97.2", after: "30.5, -97.2" },
    ]);
  });

  it("keeps separate lines when a side lacks the other coordinate, and words empty values", () => {
    expect(
      changeLines(["latitude", "address"], { latitude: 1, address: null }, { latitude: 2, address: "2 Elm" }),
    ).toEqual([
      { label: "Latitude", before: "1", after: "2" },
      { label: "Address", before: "(empty)", after: "2 Elm" },
    ]);
  });
});

describe("describeValue", () => {
  it("words gate access hours, none of their own being the office hours", () => {
    expect(describeValue("gateHours", [])).toBe("Same as the office hours");
    expect(describeValue("gateHours", ["Monday: 5:00 AM – 10:00 PM", "Tuesday: Open 24 hours"])).toBe(
      "Monday: 5:00 AM – 10:00 PM; Tuesday: Open 24 hours",
    );
  });

  it("words amenities, sizes, hours and clearance as a person reads them", () => {
    expect(describeValue("amenities", ["dump_station"])).toMatch(/dump/i);
    expect(describeValue("amenities", [])).toBe("None");
    expect(
      describeValue("sizes", [
        { width: 12, length: 40, monthlyPrice: 145, availability: "waitlist" },
        { width: 10, length: 20, monthlyPrice: null, availability: null },
      ]),
    ).toBe("12' x 40' · $145/mo · Waitlist; 10' x 20'");
    expect(describeValue("openingHours", ["Monday: Closed", "Tuesday: Open 24 hours"])).toBe(
      "Monday: Closed; Tuesday: Open 24 hours",
    );
    expect(describeValue("coveredClearanceFeet", 14)).toBe("14 ft");
    expect(describeValue("description", "x".repeat(5000))).toHaveLength(MAX_SHOWN_VALUE);
  });

  it("words a photo list by photo number, main photo first", () => {
    const url = (n: number) => `/place-images/ChIJabc/w1280n${n}.jpg`;
    expect(changeLines(["photos"], { photos: [url(1), url(2)] }, { photos: [url(2), url(1), url(11)] })).toEqual([
      { label: "Photos", before: "2 photos: #1, #2", after: "3 photos: #2, #1, #11" },
    ]);
    expect(describeValue("photos", [])).toBe("No photos");
    expect(describeValue("photos", ["https://elsewhere.example/x.png"])).toBe("1 photo: ?");
  });
});
