import type { SortOrder } from "../../../domain/search";

const LABELS: Record<SortOrder, string> = { distance: "Distance", rating: "Rating", price: "Price" };

/** What each sort does, in the words the results header shows under the heading. */
export const SORT_EXPLANATIONS: Record<SortOrder, string> = {
  distance: "Order: sponsored listings first, then the nearest.",
  rating: "Order: highest rated first.",
  price: "Order: lowest monthly price first; places without prices last.",
};

/**
 * 'Distance', 'Rating' and, where the area has prices, 'Price'. `describedBy` names the line that
 * says what the current sort does (sponsored listings first under 'Distance', docs/product.md
 * section 9).
 */
export function SortButtons({
  sort,
  onChange,
  describedBy,
  priced = false,
}: {
  sort: SortOrder;
  onChange(sort: SortOrder): void;
  describedBy?: string;
  /** Whether the area has prices: the price sort appears only then (docs/product.md, "Prices"). */
  priced?: boolean;
}) {
  const keys = (Object.keys(LABELS) as SortOrder[]).filter((key) => key !== "price" || priced || sort === "price");
  return (
    <div
      role="group"
      aria-label="Sort by"
      aria-describedby={describedBy}
      className="inline-flex shrink-0 rounded-md border border-slate-300 bg-white p-0.5"
    >
      {keys.map((key) => (
        <button
          key={key}
          type="button"
          aria-pressed={sort === key}
          onClick={() => sort !== key && onChange(key)}
          className={`h-9 rounded px-2.5 text-sm font-medium sm:px-3 ${
            sort === key ? "bg-brand-500 text-white" : "text-slate-700 hover:bg-slate-100"
          }`}
        >
          {LABELS[key]}
        </button>
      ))}
    </div>
  );
}
