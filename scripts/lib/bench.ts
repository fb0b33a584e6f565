/**
 * What the benchmarks share: a browser's user agent, an anonymous visitor's session, the towns whose
 * results pages they visit, medians and tables.
 */

/** A desktop Chrome: the analytics endpoint and the session API turn bots away. */
export const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

/** A new anonymous session for a visitor at `address` (sent in X-Forwarded-For); its cookie header. */
export async function anonymousSession(baseUrl: string, address: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: baseUrl,
      "user-agent": USER_AGENT,
      "x-forwarded-for": address,
    },
    body: "{}",
  });
  if (!response.ok) throw new Error(`Anonymous sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .join("; ");
  if (!cookie) throw new Error("Anonymous sign-in set no cookie");
  return cookie;
}

/** The median of the finite values (NaN when there is none): the figure the notes quote. */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A Markdown table, first column left-aligned and the others right-aligned. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, c) => Math.max(...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(" | ")} |`;
  return [
    line(headers),
    `|${widths.map((w, c) => (c === 0 ? `-${"-".repeat(w)}-` : `-${"-".repeat(w)}:`)).join("|")}|`,
    ...cells.slice(1).map(line),
  ].join("\n");
}

/** Big cities and a few small towns across the country (the demo catalogue follows population). */
export const TOWNS = [
  "New York City, NY",
  "Los Angeles, CA",
  "Chicago, IL",
  "Houston, TX",
  "Phoenix, AZ",
  "Philadelphia, PA",
  "San Antonio, TX",
  "San Diego, CA",
  "Dallas, TX",
  "Jacksonville, FL",
  "Austin, TX",
  "Fort Worth, TX",
  "San Jose, CA",
  "Columbus, OH",
  "Charlotte, NC",
  "Indianapolis, IN",
  "San Francisco, CA",
  "Seattle, WA",
  "Denver, CO",
  "Oklahoma City, OK",
  "Nashville, TN",
  "El Paso, TX",
  "Las Vegas, NV",
  "Boston, MA",
  "Detroit, MI",
  "Portland, OR",
  "Louisville, KY",
  "Memphis, TN",
  "Baltimore, MD",
  "Milwaukee, WI",
  "Albuquerque, NM",
  "Tucson, AZ",
  "Fresno, CA",
  "Sacramento, CA",
  "Atlanta, GA",
  "Kansas City, MO",
  "Colorado Springs, CO",
  "Omaha, NE",
  "Raleigh, NC",
  "Miami, FL",
  "Minneapolis, MN",
  "Tampa, FL",
  "Boise, ID",
  "Spokane, WA",
  "Billings, MT",
  "Fargo, ND",
  "Knoxville, TN",
  "Amarillo, TX",
  "Flagstaff, AZ",
  "Bend, OR",
];

/** A town the gazetteer resolved: its results page slug and centre. */
export interface Place {
  town: string;
  slug: string;
  lat: number;
  lng: number;
}

/** GET a JSON answer; anything but 2xx is an error naming the URL. */
export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { "user-agent": USER_AGENT } });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${(await response.text()).slice(0, 300)}`);
  return (await response.json()) as T;
}

interface Suggestion {
  label: string;
  city: string | null;
  state: string;
  lat: number;
  lng: number;
  slug: string;
}

/** A town as the search box's autocomplete resolves it. */
export async function resolveTown(baseUrl: string, town: string): Promise<Place | undefined> {
  const { suggestions } = await getJson<{ suggestions: Suggestion[] }>(
    `${baseUrl}/api/places/suggest?q=${encodeURIComponent(town)}`,
  );
  const [city, state] = town.split(", ");
  const hit = suggestions.find((s) => s.city === city && s.state === state);
  return hit && { town, slug: hit.slug, lat: hit.lat, lng: hit.lng };
}

/**
 * The facility links of an HTML page. Found by position rather than with `href="([^"]+)"`, whose
 * `[^"]+` the engine would rescan from every earlier start on a page without a closing quote.
 */
export function facilityLinks(html: string): string[] {
  const prefix = 'href="/location/';
  const links: string[] = [];
  for (let start = html.indexOf(prefix); start >= 0; start = html.indexOf(prefix, start + 1)) {
    const end = html.indexOf('"', start + prefix.length);
    if (end < 0) break;
    if (end > start + prefix.length) links.push(html.slice(start + 'href="'.length, end));
  }
  return links;
}

/** The towns of TOWNS the gazetteer resolves (those it does not are printed and skipped). */
export async function resolveTowns(baseUrl: string): Promise<Place[]> {
  const places: Place[] = [];
  const unresolved: string[] = [];
  for (const town of TOWNS) {
    const place = await resolveTown(baseUrl, town);
    if (place) places.push(place);
    else unresolved.push(town);
  }
  if (unresolved.length > 0) console.log(`towns the gazetteer did not resolve (skipped): ${unresolved.join("; ")}`);
  if (places.length < 10) throw new Error(`Only ${places.length} of ${TOWNS.length} towns resolved`);
  return places;
}

/** A positive number from the environment variable `name`, or `fallback` when it is unset or empty. */
export function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}: must be a positive number, got "${raw}"`);
  return value;
}

/**
 * Requests each path once, 4 at a time, as earlier visitors would have (the site's caches and the
 * demo photos drawn on a results page's first view); throws, naming them, when any answer fails
 * `ok` (by its status).
 */
export async function prime(
  baseUrl: string,
  all: readonly string[],
  { headers, ok }: { headers: Record<string, string>; ok: (status: number) => boolean },
): Promise<void> {
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < all.length) {
      const target = all[next++]!;
      const response = await fetch(baseUrl + target, { redirect: "manual", headers });
      await response.arrayBuffer();
      if (!ok(response.status)) failures.push(`GET ${target}: ${response.status}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  if (failures.length > 0) throw new Error(`Requests failed before the load:\n${failures.slice(0, 20).join("\n")}`);
}
