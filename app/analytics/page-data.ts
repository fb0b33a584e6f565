/**
 * What the tracker learns from the routes' loader data, so pages need no analytics code: the
 * place ids of the listings a page shows (by slug, for the result cards) and the facility a
 * detail page is about.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Every `{ id, slug }` or `{ placeId, slug }` object in the loader data, up to a small depth. */
export function locationIdsBySlug(data: readonly unknown[]): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 4 || found.size > 500) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isRecord(value)) return;
    const id = typeof value.id === "string" ? value.id : typeof value.placeId === "string" ? value.placeId : null;
    if (id && typeof value.slug === "string") found.set(value.slug, id);
    for (const child of Object.values(value)) {
      if (typeof child === "object" && child !== null) visit(child, depth + 1);
    }
  };
  for (const entry of data) visit(entry, 0);
  return found;
}

/** The facility of a detail page: `location.placeId` in the data of the routes/location match. */
export function pageLocationId(matches: readonly { id: string; loaderData?: unknown }[]): string | null {
  for (const match of matches) {
    if (match.id !== "routes/location" || !isRecord(match.loaderData)) continue;
    const location = match.loaderData.location;
    if (isRecord(location) && typeof location.placeId === "string") return location.placeId;
  }
  return null;
}
