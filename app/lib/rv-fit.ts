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

/** "40 ft", "12.5 ft": feet as a visitor reads them. */
export function feetLabel(feet: number): string {
  return `${Number.isInteger(feet) ? feet : Math.round(feet * 10) / 10} ft`;
}
