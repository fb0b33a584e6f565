/**
 * Browser geolocation with the messages of docs/product.md section 8. High accuracy, a 15 s timeout and
 * no cached position (docs/product.md section 9).
 */
export const GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 };

export type GeolocationOutcome =
  | { ok: true; lat: number; lng: number }
  /** `silent`: the visitor said no; that is their answer, not an error to show. */
  | { ok: false; message: string; silent: boolean };

const PERMISSION_DENIED = 1;
const POSITION_UNAVAILABLE = 2;
const TIMEOUT = 3;

export function geolocationErrorMessage(code: number): { message: string; silent: boolean } {
  switch (code) {
    case PERMISSION_DENIED:
      return { message: "User denied the request for geolocation.", silent: true };
    case POSITION_UNAVAILABLE:
      return { message: "Location information is unavailable.", silent: false };
    case TIMEOUT:
      return { message: "Location request timed out", silent: false };
    default:
      return { message: "An unknown error occurred.", silent: false };
  }
}

export function getCurrentLocation(
  geolocation: Geolocation | undefined = globalThis.navigator?.geolocation,
): Promise<GeolocationOutcome> {
  if (!geolocation)
    return Promise.resolve({ ok: false, message: "Geolocation is not supported by this browser.", silent: false });
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      (position) => resolve({ ok: true, lat: position.coords.latitude, lng: position.coords.longitude }),
      (error) => resolve({ ok: false, ...geolocationErrorMessage(error.code) }),
      GEOLOCATION_OPTIONS,
    );
  });
}
