import { useEffect, useState } from "react";

/**
 * How many locations a staged (not yet applied) filter selection would match, fetched from
 * /api/search with pageSize=0 while the dropdown or modal is open. `null` while unknown.
 */
export function usePreviewCount(
  searchUrlBase: string | null,
  params: URLSearchParams,
  enabled: boolean,
): number | null {
  const key = params.toString();
  const [count, setCount] = useState<{ key: string; value: number } | null>(null);
  useEffect(() => {
    if (!enabled || !searchUrlBase) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const query = new URLSearchParams(key);
        query.set("pageSize", "0");
        const res = await fetch(`${searchUrlBase}&${query}`, { signal: controller.signal });
        if (!res.ok) return;
        const body = (await res.json()) as { total: number };
        setCount({ key, value: body.total });
      } catch {
        // A failed preview only leaves the count blank; applying still works.
      }
    }, 100);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [searchUrlBase, key, enabled]);
  return count?.key === key ? count.value : null;
}
