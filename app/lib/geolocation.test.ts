import { describe, expect, it } from "vitest";
import { GEOLOCATION_OPTIONS, getCurrentLocation } from "./geolocation";

function fakeGeolocation(outcome: { coords?: { latitude: number; longitude: number }; code?: number }) {
  const calls: PositionOptions[] = [];
  const geolocation = {
    getCurrentPosition(success: PositionCallback, failure: PositionErrorCallback, options: PositionOptions) {
      calls.push(options);
      if (outcome.coords) success({ coords: outcome.coords } as GeolocationPosition);
      else failure({ code: outcome.code ?? 0, message: "" } as GeolocationPositionError);
    },
  } as unknown as Geolocation;
  return { geolocation, calls };
}

describe("getCurrentLocation", () => {
  it("asks for a fresh, high-accuracy fix with a 15 s timeout", async () => {
    const { geolocation, calls } = fakeGeolocation({ coords: { latitude: 30.27, longitude: -97.74 } });
    await expect(getCurrentLocation(geolocation)).resolves.toEqual({ ok: true, lat: 30.27, lng: -97.74 });
    expect(calls).toEqual([GEOLOCATION_OPTIONS]);
    expect(GEOLOCATION_OPTIONS).toEqual({ enableHighAccuracy: true, timeout: 15000, maximumAge: 0 });
  });

  it.each([
    [1, "User denied the request for geolocation.", true],
    [2, "Location information is unavailable.", false],
    [3, "Location request timed out", false],
    [99, "An unknown error occurred.", false],
  ])("maps error code %i to %j (silent: %s)", async (code, message, silent) => {
    const { geolocation } = fakeGeolocation({ code });
    await expect(getCurrentLocation(geolocation)).resolves.toEqual({ ok: false, message, silent });
  });

  it("says so when the browser has no geolocation", async () => {
    await expect(getCurrentLocation(undefined)).resolves.toEqual({
      ok: false,
      message: "Geolocation is not supported by this browser.",
      silent: false,
    });
  });
});
