import { useEffect } from "react";
import { useLocation, useMatches } from "react-router";

/**
 * Starts the analytics tracker in the browser (render it once, in the root layout). Everything it
 * does lives in ./page-tracking, fetched after the page is interactive, so a page's first paint
 * and hydration neither wait for nor download it; the page views of the first moments wait for it
 * instead. Renders nothing; nothing runs on the server.
 */
export function AnalyticsTracker() {
  const location = useLocation();
  const matches = useMatches();
  const pageKey = `${location.pathname}${location.search}`;

  // A page view per page, and list views of the cards it shows (each card once per page).
  useEffect(() => {
    let stop: (() => void) | undefined;
    let left = false;
    void import("./page-tracking").then(({ showPage }) => {
      if (!left) stop = showPage(matches);
    });
    return () => {
      left = true;
      stop?.();
    };
    // The matches belong to the same navigation as pageKey.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageKey]);

  return null;
}
