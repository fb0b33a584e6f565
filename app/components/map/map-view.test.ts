import { describe, expect, it } from "vitest";
import {
  DEFAULT_CENTER,
  chooseView,
  googleMapsUrl,
  markersFingerprint,
  usableMarkers,
  viewKey,
  type MapMarker,
} from "./map-view";
import { distanceText, ratingText } from "./marker-popup";

const marker = (id: string, lat: number, lng: number): MapMarker => ({
  id,
  lat,
  lng,
  name: `Storage ${id}`,
  rating: 4.5,
  reviewCount: 10,
  href: `/location/${id}`,
});

describe("usableMarkers", () => {
  it("skips non-numeric and out-of-range coordinates", () => {
    const bad = [
      { ...marker("s", 0, 0), lat: "30.1" as unknown as number },
      { ...marker("n", 0, 0), lng: null as unknown as number },
      marker("nan", Number.NaN, -97),
      marker("far", 91, -97),
    ];
    const good = marker("ok", 30.27, -97.74);
    expect(usableMarkers([...bad, good])).toEqual([good]);
  });
});

describe("chooseView", () => {
  const austin = { lat: 30.27, lng: -97.74 };

  it("shows the whole country when there is nothing", () => {
    expect(chooseView([], null, null)).toEqual({ kind: "center", center: DEFAULT_CENTER, zoom: 4 });
  });

  it("centres on the visitor at zoom 10", () => {
    expect(chooseView([marker("a", 31, -98)], austin, austin)).toEqual({ kind: "center", center: austin, zoom: 10 });
  });

  it("frames the searched place with a listing beyond the radius, even for the visitor's position", () => {
    const barrow = { lat: 71.29, lng: -156.79 };
    expect(chooseView([marker("a", 64.84, -147.72)], barrow, barrow, true)).toEqual({
      kind: "bounds",
      southWest: { lat: 64.84, lng: -156.79 },
      northEast: { lat: 71.29, lng: -147.72 },
      maxZoom: 10,
    });
  });

  it("fits the results, at most zoom 10", () => {
    const view = chooseView([marker("a", 30, -98), marker("b", 32, -96), marker("c", 31, -99)], austin);
    expect(view).toEqual({
      kind: "bounds",
      southWest: { lat: 30, lng: -99 },
      northEast: { lat: 32, lng: -96 },
      maxZoom: 10,
    });
  });

  it("centres on the searched place at zoom 8 without results", () => {
    expect(chooseView([], austin)).toEqual({ kind: "center", center: austin, zoom: 8 });
  });

  it("ignores an unusable user location", () => {
    expect(chooseView([], austin, { lat: Number.NaN, lng: 0 })).toEqual({ kind: "center", center: austin, zoom: 8 });
  });
});

describe("fingerprints", () => {
  it("are equal for equal data and differ when a marker changes", () => {
    const a = [marker("a", 30, -98), marker("b", 31, -97)];
    const b = a.map((m) => ({ ...m }));
    expect(markersFingerprint(b)).toBe(markersFingerprint(a));
    expect(markersFingerprint([a[0]!, { ...a[1]!, rating: 3 }])).not.toBe(markersFingerprint(a));
    expect(viewKey(chooseView(a))).toBe(viewKey(chooseView(b)));
  });
});

describe("popup text", () => {
  it("formats ratings and distances", () => {
    expect(ratingText(4.6, 38)).toBe("4.6 ★ (38 reviews)");
    expect(ratingText(5, 1)).toBe("5.0 ★ (1 review)");
    expect(ratingText(4.2, 1234)).toBe("4.2 ★ (1,234 reviews)");
    expect(ratingText(null, 0)).toBe("No reviews yet");
    expect(ratingText(4, 0)).toBe("No reviews yet");
    expect(distanceText(12.345)).toBe("12.3 mi away");
    expect(distanceText(undefined)).toBeNull();
  });
});

describe("googleMapsUrl", () => {
  const point = { lat: 30.2672, lng: -97.7431 };

  it("searches at the coordinates", () => {
    expect(googleMapsUrl(point)).toBe("https://www.google.com/maps/search/?api=1&query=30.2672,-97.7431");
    expect(googleMapsUrl(point, null)).toBe("https://www.google.com/maps/search/?api=1&query=30.2672,-97.7431");
  });

  it("prefers the listing's own link, but only an http(s) one", () => {
    expect(googleMapsUrl(point, "https://maps.google.com/?cid=123")).toBe("https://maps.google.com/?cid=123");
    expect(googleMapsUrl(point, "javascript:alert(1)")).toContain("query=30.2672,-97.7431");
    expect(googleMapsUrl(point, "not a url")).toContain("query=30.2672,-97.7431");
  });
});
