import { describe, expect, it } from "vitest";
import { appleDirectionsUrl, googleDirectionsUrl, isAppleDevice } from "./directions";

describe("directions links", () => {
  it("points both maps apps at the facility", () => {
    const point = { lat: 30.2672, lng: -97.7431 };
    expect(googleDirectionsUrl(point)).toBe("https://www.google.com/maps/dir/?api=1&destination=30.2672%2C-97.7431");
    expect(appleDirectionsUrl(point, "A & B Storage")).toBe(
      "https://maps.apple.com/?daddr=30.2672%2C-97.7431&q=A%20%26%20B%20Storage",
    );
  });

  it("knows Apple devices by their user agent", () => {
    expect(
      isAppleDevice(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
      ),
    ).toBe(true);
    expect(isAppleDevice("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Safari/605.1.15")).toBe(
      true,
    );
    expect(isAppleDevice("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0.0.0 Safari/537.36")).toBe(
      false,
    );
    expect(isAppleDevice("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36")).toBe(
      false,
    );
  });
});
