/**
 * Directions to a facility in a maps app (docs/product.md section 2, "Detail screen"): Google Maps
 * everywhere, Apple Maps first on Apple devices, where it is the phone's own maps app. Plain links
 * that leave the site; no maps script is loaded (section 9, "Maps"). Browser-safe.
 */

export interface MapsPoint {
  lat: number;
  lng: number;
}

export function googleDirectionsUrl({ lat, lng }: MapsPoint): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${lat}%2C${lng}`;
}

/** Apple's documented map links: `daddr` is the destination, `q` the name shown on its pin. */
export function appleDirectionsUrl({ lat, lng }: MapsPoint, name: string): string {
  return `https://maps.apple.com/?daddr=${lat}%2C${lng}&q=${encodeURIComponent(name)}`;
}

/**
 * An iPhone, iPad or Mac, from the browser's user agent. iPadOS asks for desktop pages with a Mac's
 * user agent, which is why a Mac counts too: Apple Maps opens on both.
 */
export function isAppleDevice(userAgent: string): boolean {
  return /\b(iPhone|iPad|iPod|Macintosh|Mac OS X)\b/.test(userAgent);
}
