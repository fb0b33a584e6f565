/**
 * What the result list shows while the next results load (a filter, the sort, a page, a new
 * place): grey cards of the result cards' own shape in the same grid, so the list keeps its size
 * and the new cards replace them without anything moving. Pulses only for visitors who have not
 * asked for reduced motion. Purely decorative: the list's own aria-busy and the LoadingStatus
 * below tell assistive technology what is going on.
 */

/** The result grid's classes, shared so that skeletons and cards always line up. */
export const RESULTS_GRID = "grid gap-3 sm:grid-cols-2 sm:gap-5 xl:grid-cols-3";

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
 * Mirrors LocationCard's "list" layout with typical content: a photo (left on phones, a 4:3 one
 * on top from 640 px), a badge, a two-line title, the address (one line on phones, two above),
 * the rating line, the availability line, amenity chips (two and '+N more' on phones) and the 'Ask about a space'
 * line, in line boxes of the card's own text sizes.
 */
function CardSkeleton() {
  const bar = "rounded bg-slate-200";
  return (
    <div className="flex flex-row overflow-hidden rounded-card border border-slate-200 bg-white motion-safe:animate-pulse sm:flex-col">
      <div className="w-28 shrink-0 bg-slate-100 sm:aspect-[4/3] sm:w-auto" />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5 p-3 sm:gap-2 sm:p-4">
        <div className="h-[22px] w-24 rounded-full bg-slate-100" />
        <div className="flex h-11 flex-col justify-around sm:h-[3.1rem]">
          <div className={`h-4 w-full ${bar}`} />
          <div className={`h-4 w-2/3 ${bar}`} />
        </div>
        <div className="flex h-5 flex-col justify-around sm:h-10">
          <div className={`h-3 w-full ${bar}`} />
          <div className={`h-3 w-1/2 ${bar} max-sm:hidden`} />
        </div>
        <div className="flex h-5 items-center justify-between">
          <div className={`h-3 w-1/3 ${bar}`} />
          <div className={`h-3 w-12 ${bar}`} />
        </div>
        <div className="flex h-5 items-center">
          <div className={`h-3 w-3/5 ${bar}`} />
        </div>
        <div className="flex flex-wrap gap-1.5">
          {CHIP_WIDTHS.map((width, i) => (
            <div key={i} className={`h-5 ${width} rounded-full bg-slate-100 ${i >= 2 ? "max-sm:hidden" : ""}`} />
          ))}
        </div>
        <div className={`h-5 w-32 ${bar} bg-slate-100`} />
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
