/**
 * "Will my RV fit?" (docs/product.md, "My RV"): the visitor's RV as the results page, the
 * cards, the compare page and /api/search take it. Browser-safe and pure, so the server's
 * filter and every page say the same thing about the same space.
 *
 * In a URL: `rvLength` (feet, required for a fit) and `rvHeight` (feet, optional). In the
 * browser it is remembered under MY_RV_STORAGE_KEY as `{"lengthFeet":40,"heightFeet":13}`.
 */

export interface MyRv {
  /** Overall length in feet: a space fits when it is at least this long. */
  lengthFeet: number;
  /** Height in feet: covered or enclosed parking fits when its clearance is at least this. */
  heightFeet?: number;
}

export const MY_RV_STORAGE_KEY = "rv-storage:my-rv";
export const MY_RV_PARAMS = { length: "rvLength", height: "rvHeight" } as const;

/** What an RV can plausibly measure; outside these a value is a typo, refused with a message. */
export const MY_RV_LIMITS = { minLength: 10, maxLength: 100, minHeight: 6, maxHeight: 20 } as const;

export type MyRvParse = { ok: true; rv: MyRv | undefined } | { ok: false; parameter: string; message: string };

function feet(raw: string): number {
  const text = raw.trim();
  // Plain decimal feet only ("40", "12.5"): short, and no pattern that could backtrack.
  if (text.length === 0 || text.length > 6 || !/^\d+(\.\d+)?$/.test(text)) return NaN;
  return Number(text);
}

/** Reads rvLength and rvHeight from a query; both absent is "no RV", a height alone is an error. */
export function parseMyRv(params: URLSearchParams): MyRvParse {
  const lengthRaw = params.get(MY_RV_PARAMS.length);
  const heightRaw = params.get(MY_RV_PARAMS.height);
  if (lengthRaw === null && heightRaw === null) return { ok: true, rv: undefined };
  if (lengthRaw === null) {
    return { ok: false, parameter: MY_RV_PARAMS.height, message: "rvHeight needs rvLength: give the RV's length too" };
  }
  const lengthFeet = feet(lengthRaw);
  if (!(lengthFeet >= MY_RV_LIMITS.minLength && lengthFeet <= MY_RV_LIMITS.maxLength)) {
    return {
      ok: false,
      parameter: MY_RV_PARAMS.length,
      message: `rvLength must be a number of feet from ${MY_RV_LIMITS.minLength} to ${MY_RV_LIMITS.maxLength}`,
    };
  }
  if (heightRaw === null) return { ok: true, rv: { lengthFeet } };
  const heightFeet = feet(heightRaw);
  if (!(heightFeet >= MY_RV_LIMITS.minHeight && heightFeet <= MY_RV_LIMITS.maxHeight)) {
    return {
      ok: false,
      parameter: MY_RV_PARAMS.height,
      message: `rvHeight must be a number of feet from ${MY_RV_LIMITS.minHeight} to ${MY_RV_LIMITS.maxHeight}`,
    };
  }
  return { ok: true, rv: { lengthFeet, heightFeet } };
}

/** The query part for an RV: only what is set. */
export function myRvParams(rv: MyRv | undefined): [string, string][] {
  if (!rv) return [];
  const out: [string, string][] = [[MY_RV_PARAMS.length, String(rv.lengthFeet)]];
  if (rv.heightFeet !== undefined) out.push([MY_RV_PARAMS.height, String(rv.heightFeet)]);
  return out;
}

/** The length of a "WxL" size label in feet, or NaN when it is not one. */
export function sizeLengthFeet(label: string): number {
  const x = label.indexOf("x");
  return x < 0 ? NaN : Number(label.slice(x + 1));
}

/** The sizes ("WxL") at least as long as the RV, in the order given. */
export function sizesThatFit(sizes: readonly string[], rv: MyRv): string[] {
  return sizes.filter((size) => sizeLengthFeet(size) >= rv.lengthFeet);
}

/**
 * Whether covered or enclosed parking clears the RV: true or false when both heights are known,
 * undefined when either is not (the page then says the clearance is not stated).
 */
export function clearsHeight(clearanceFeet: number | null | undefined, rv: MyRv): boolean | undefined {
  if (rv.heightFeet === undefined || clearanceFeet === null || clearanceFeet === undefined) return undefined;
  return clearanceFeet >= rv.heightFeet;
}

/**
 * The remembered RV from its stored text (MY_RV_STORAGE_KEY), checked like the URL's: anything
 * unreadable or out of range is no RV, so a stale or hand-edited entry never breaks a page.
 */
export function myRvFromStorage(text: string | null | undefined): MyRv | undefined {
  if (!text || text.length > 200) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { lengthFeet, heightFeet } = value as { lengthFeet?: unknown; heightFeet?: unknown };
  if (typeof lengthFeet !== "number" || (heightFeet !== undefined && typeof heightFeet !== "number")) return undefined;
  const parsed = parseMyRv(new URLSearchParams(myRvParams({ lengthFeet, heightFeet })));
  return parsed.ok ? parsed.rv : undefined;
}

/** The text stored under MY_RV_STORAGE_KEY for an RV. */
export function myRvStorageText(rv: MyRv): string {
  return JSON.stringify(rv.heightFeet === undefined ? { lengthFeet: rv.lengthFeet } : rv);
}

/**
 * The remembered RV is also a cookie, `my_rv=40` or `my_rv=40_13.5`, so the server applies it to
 * a results page asked for without one (a redirect that adds it to the URL) and the visitor never
 * sees the unfiltered list first. It holds nothing but the two numbers.
 */
export const MY_RV_COOKIE = "my_rv";
const MY_RV_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The cookie's value for an RV. */
export function myRvCookieValue(rv: MyRv): string {
  return rv.heightFeet === undefined ? String(rv.lengthFeet) : `${rv.lengthFeet}_${rv.heightFeet}`;
}

/** The `document.cookie` assignment that remembers an RV (or forgets it, with none). */
export function myRvCookieText(rv: MyRv | undefined, secure: boolean): string {
  const attributes = `; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
  return rv
    ? `${MY_RV_COOKIE}=${myRvCookieValue(rv)}; Max-Age=${MY_RV_COOKIE_MAX_AGE}${attributes}`
    : `${MY_RV_COOKIE}=; Max-Age=0${attributes}`;
}

/** The RV a request's Cookie header remembers, checked like the URL's; anything odd is none. */
export function myRvFromCookieHeader(header: string | null | undefined): MyRv | undefined {
  if (!header || header.length > 8192) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== MY_RV_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (value.length > 20) return undefined;
    const [length = "", height, ...rest] = value.split("_");
    if (rest.length > 0) return undefined;
    const params = new URLSearchParams([[MY_RV_PARAMS.length, length]]);
    if (height !== undefined) params.set(MY_RV_PARAMS.height, height);
    const parsed = parseMyRv(params);
    return parsed.ok ? parsed.rv : undefined;
  }
  return undefined;
}

/** "40 ft", "12.5 ft": feet as a visitor reads them. */
export function feetLabel(feet: number): string {
  return `${Number.isInteger(feet) ? feet : Math.round(feet * 10) / 10} ft`;
}
