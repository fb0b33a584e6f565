import { refreshTargets } from "./purge-path";

/**
 * The encodings the cache keeps a page in, one copy each (docs/operations.md, "A shared cache in
 * front"): a refresh asks for every one, or a visitor of another encoding would get the old page.
 */
export const REFRESH_ENCODINGS = ["br", "gzip", "identity"] as const;

/** The header the cache takes as "fetch this page again and keep the answer". */
export const PURGE_HEADER = "X-Cache-Purge";

/** Answers that mean the cache has the page's current answer, or has nothing to refresh. */
export function isRefreshed(status: number): boolean {
  return (status >= 200 && status < 400) || status === 404 || status === 410;
}

export interface CacheRefresher {
  /** Asks the cache to fetch `path` again; throws when any of its requests fails. */
  refresh(path: string): Promise<void>;
  /** The longest one refresh may take. */
  readonly timeoutMs: number;
}

export class RefreshError extends Error {
  override name = "RefreshError";
}

/**
 * Refreshes pages in a cache that purges by refresh (stock nginx: `proxy_cache_bypass` on a
 * secret header): a GET of the page through the cache with `X-Cache-Purge: {token}` and no
 * cookie, once per encoding, for the page and its data request (`refreshTargets`). The cache then
 * fetches the page from an instance and stores it in place of the old copy. Redirects are not
 * followed (the answer is what the cache keeps), and each body is read to its end, as a cache may
 * stop fetching and storing a page whose client went away. All requests of a path run at once,
 * each within `timeoutMs`.
 */
export function createCacheRefresher(options: {
  /** The cache's origin as the instances reach it: CACHE_PURGE_URL. */
  baseUrl: string;
  token: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): CacheRefresher {
  const base = options.baseUrl.replace(/\/$/, "");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const doFetch = options.fetch ?? fetch;

  async function one(target: string, encoding: string): Promise<void> {
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    try {
      const response = await doFetch(`${base}${target}`, {
        method: "GET",
        headers: { [PURGE_HEADER]: options.token, "Accept-Encoding": encoding, "User-Agent": "rvstorage-cache-purge" },
        redirect: "manual",
        signal,
      });
      status = response.status;
      await response.body?.pipeTo(new WritableStream(), { signal });
    } catch (error) {
      throw new RefreshError(`${target} (${encoding}): ${describe(error)}`, { cause: error });
    }
    if (!isRefreshed(status)) throw new RefreshError(`${target} (${encoding}): HTTP ${status}`);
  }

  return {
    timeoutMs,
    async refresh(path) {
      const requests = refreshTargets(path).flatMap((target) =>
        REFRESH_ENCODINGS.map((encoding) => one(target, encoding)),
      );
      const failures = (await Promise.allSettled(requests)).flatMap((outcome) =>
        outcome.status === "rejected" ? [outcome.reason as Error] : [],
      );
      if (failures.length > 0) {
        const first = failures[0]!;
        throw new RefreshError(
          failures.length > 1 ? `${first.message} (and ${failures.length - 1} more)` : first.message,
          { cause: first.cause },
        );
      }
    },
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "no answer in time";
  const cause = error.cause as { code?: unknown } | undefined;
  return typeof cause?.code === "string" ? `${error.message} (${cause.code})` : error.message;
}
