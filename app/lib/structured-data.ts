/**
 * schema.org structured data (JSON-LD) for the public pages: the facility as a SelfStorage
 * business with its breadcrumb trail, and results pages as an ItemList. Pure and browser-safe.
 */
import { linkableWebsite } from "../../domain/web-address";

type Json = Record<string, unknown>;

// The hours start at their first non-space character, so `\s*` and the hours never share a space.
const DAY = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday):\s*(\S.*)$/;
const RANGE = /^(\d{1,2}):(\d{2})\s*([AP]M)\s*[–-]\s*(\d{1,2}):(\d{2})\s*([AP]M)$/i;

function to24h(hour: string, minute: string, meridiem: string): string {
  let h = Number(hour) % 12;
  if (meridiem.toUpperCase() === "PM") h += 12;
  return `${String(h).padStart(2, "0")}:${minute}`;
}

/** "Monday: 8:00 AM – 6:00 PM" lines to OpeningHoursSpecification; closed and unreadable days are left out. */
export function openingHoursSpecification(lines: readonly string[]): Json[] {
  const specs: Json[] = [];
  for (const line of lines) {
    const day = DAY.exec(line.trim());
    if (!day) continue;
    const [, dayOfWeek, hours = ""] = day;
    const base = { "@type": "OpeningHoursSpecification", dayOfWeek: `https://schema.org/${dayOfWeek}` };
    if (/open 24 hours/i.test(hours)) {
      specs.push({ ...base, opens: "00:00", closes: "23:59" });
      continue;
    }
    const range = RANGE.exec(hours.trim());
    if (range) {
      const [, h1 = "", m1 = "", a1 = "", h2 = "", m2 = "", a2 = ""] = range;
      specs.push({ ...base, opens: to24h(h1, m1, a1), closes: to24h(h2, m2, a2) });
    }
  }
  return specs;
}

export interface BusinessInput {
  name: string;
  url: string;
  address: string | null;
  city: string | null;
  state: string | null;
  postalCode?: string | null;
  latitude: number | null;
  longitude: number | null;
  telephone: string | null;
  website: string | null;
  rating: number | null;
  reviewCount: number;
  openingHours: readonly string[];
  images: readonly string[];
  description: string | null;
  /** Published first-party reviews to name (at most 5 are kept), newest first. */
  reviews?: readonly ReviewInput[];
}

export interface ReviewInput {
  authorName: string;
  stars: number;
  title: string;
  body: string;
  /** ISO date. */
  date: string;
}

/** Reviews a facility page's JSON-LD carries at most (docs/product.md section 16). */
export const MAX_JSON_LD_REVIEWS = 5;

const ZIP = /\b\d{5}(?:-\d{4})?\b/g;
/** What `.` does not match: the street and ZIP are read from the address's first line. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * "123 Main St, Austin, TX 78701" -> ["123 Main St", "78701"]: the text before the first comma
 * and the last ZIP after it. Done with two simple scans: a single `^(.*?),.*\bZIP` pattern makes
 * its two `.*` race for the same characters.
 */
function streetAndZip(address: string): [street: string, zip: string] | null {
  const line = address.split(LINE_BREAK, 1)[0] ?? "";
  const comma = line.indexOf(",");
  if (comma < 0) return null;
  const zip = line
    .slice(comma + 1)
    .match(ZIP)
    ?.at(-1);
  return zip === undefined ? null : [line.slice(0, comma), zip.slice(0, 5)];
}

export function selfStorageJsonLd(b: BusinessInput): Json {
  const [street, zip] = (b.address ? streetAndZip(b.address) : null) ?? [];
  const json: Json = {
    "@context": "https://schema.org",
    "@type": "SelfStorage",
    "@id": `${b.url}#business`,
    name: b.name,
    url: b.url,
    address: {
      "@type": "PostalAddress",
      ...(street ? { streetAddress: street } : b.address ? { streetAddress: b.address } : {}),
      ...(b.city ? { addressLocality: b.city } : {}),
      ...(b.state ? { addressRegion: b.state } : {}),
      ...((b.postalCode ?? zip) ? { postalCode: b.postalCode ?? zip } : {}),
      addressCountry: "US",
    },
  };
  if (b.latitude !== null && b.longitude !== null) {
    json.geo = { "@type": "GeoCoordinates", latitude: b.latitude, longitude: b.longitude };
  }
  if (b.telephone) json.telephone = b.telephone;
  const website = linkableWebsite(b.website);
  if (website) json.sameAs = [website];
  if (b.description) json.description = b.description;
  if (b.images.length) json.image = [...b.images];
  const hours = openingHoursSpecification(b.openingHours);
  if (hours.length) json.openingHoursSpecification = hours;
  if (b.rating !== null && b.reviewCount > 0) {
    json.aggregateRating = {
      "@type": "AggregateRating",
      ratingValue: b.rating,
      reviewCount: b.reviewCount,
      bestRating: 5,
      worstRating: 1,
    };
    const reviews = (b.reviews ?? []).slice(0, MAX_JSON_LD_REVIEWS);
    if (reviews.length)
      json.review = reviews.map((r) => ({
        "@type": "Review",
        author: { "@type": "Person", name: r.authorName },
        datePublished: r.date.slice(0, 10),
        name: r.title,
        reviewBody: r.body,
        reviewRating: { "@type": "Rating", ratingValue: r.stars, bestRating: 5, worstRating: 1 },
      }));
  }
  return json;
}

export function breadcrumbJsonLd(items: readonly { name: string; url: string }[]): Json {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: item.name,
      item: item.url,
    })),
  };
}

export function itemListJsonLd(items: readonly { name: string; url: string }[], offset = 0): Json {
  return {
    "@context": "https://schema.org",
    "@type": "ItemList",
    itemListElement: items.map((item, i) => ({
      "@type": "ListItem",
      position: offset + i + 1,
      name: item.name,
      url: item.url,
    })),
  };
}

export interface ArticleInput {
  url: string;
  headline: string;
  description: string;
  image?: string;
  datePublished: string;
  dateModified: string;
  authorName: string;
  publisherName: string;
  publisherUrl: string;
}

/** schema.org Article for a blog post (docs/product.md section 13). */
export function articleJsonLd(a: ArticleInput): Json {
  const json: Json = {
    "@context": "https://schema.org",
    "@type": "Article",
    "@id": `${a.url}#article`,
    mainEntityOfPage: a.url,
    headline: a.headline.slice(0, 110),
    description: a.description,
    datePublished: a.datePublished,
    dateModified: a.dateModified,
    author: a.authorName
      ? { "@type": "Person", name: a.authorName }
      : { "@type": "Organization", name: a.publisherName, url: a.publisherUrl },
    publisher: { "@type": "Organization", name: a.publisherName, url: a.publisherUrl },
  };
  if (a.image) json.image = [a.image];
  return json;
}
