/**
 * What the result list shows while the next results load (a filter, the sort, a page, a new
 * place): grey cards of the result cards' own shape in the same grid, so the list keeps its size
 * and the new cards replace them without anything moving. Pulses only for visitors who have not
 * asked for reduced motion. Purely decorative: the list's own aria-busy and the LoadingStatus
 * below tell assistive technology what is going on.
 */

/** The result grid's classes, shared so that skeletons and cards always line up. */
export const RESULTS_GRID = "grid gap-5 sm:grid-cols-2 xl:grid-cols-3";

export function ResultsSkeleton({ count }: { count: number }) {
  return (
    <div className={RESULTS_GRID} aria-hidden="true" data-testid="results-skeleton">
      {Array.from({ length: count }, (_, i) => (
        <CardSkeleton key={i} />
      ))}
    </div>
  );
}

/** Amenity chips of typical label lengths: they wrap into rows as the real ones do. */
const CHIP_WIDTHS = ["w-24", "w-16", "w-28", "w-20", "w-24", "w-14"];

/**
 * Mirrors LocationCard with typical content: a 4:3 photo, a badge, a two-line title, a two-line
 * address, the rating line and a row or two of amenity chips, in line boxes of the card's own
 * text sizes (text-lg title, text-sm address and rating, text-xs chips).
 */
function CardSkeleton() {
  const bar = "rounded bg-slate-200";
  return (
    <div className="flex flex-col overflow-hidden rounded-card border border-slate-200 bg-white motion-safe:animate-pulse">
      <div className="aspect-[4/3] bg-slate-100" />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="h-[22px] w-24 rounded-full bg-slate-100" />
        <div className="flex h-[3.1rem] flex-col justify-around">
          <div className={`h-4 w-full ${bar}`} />
          <div className={`h-4 w-2/3 ${bar}`} />
        </div>
        <div className="flex h-10 flex-col justify-around">
          <div className={`h-3 w-full ${bar}`} />
          <div className={`h-3 w-1/2 ${bar}`} />
        </div>
        <div className="flex h-5 items-center justify-between">
          <div className={`h-3 w-1/3 ${bar}`} />
          <div className={`h-3 w-12 ${bar}`} />
        </div>
        <div className="flex flex-wrap gap-1.5">
          {CHIP_WIDTHS.map((width, i) => (
            <div key={i} className={`h-5 ${width} rounded-full bg-slate-100`} />
          ))}
        </div>
      </div>
    </div>
  );
}

/**
 * A polite live region that is always in the page (a region inserted together with its text is
 * often not announced) and speaks only while results load. docs/product.md section 2 fixes the wording.
 */
export function LoadingStatus({ loading }: { loading: boolean }) {
  return (
    <p role="status" className="sr-only">
      {loading ? "Loading locations..." : ""}
    </p>
  );
}
