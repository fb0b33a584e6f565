import type { SortOrder } from "../../lib/search";

const LABELS: Record<SortOrder, string> = { distance: "Distance", rating: "Rating", price: "Price" };

export function SortButtons({
  sort,
  onChange,
  priced = false,
}: {
  sort: SortOrder;
  onChange(sort: SortOrder): void;
  /** Whether the area has prices: the price sort appears only then (docs/product.md, "Prices"). */
  priced?: boolean;
}) {
  const keys = (Object.keys(LABELS) as SortOrder[]).filter((key) => key !== "price" || priced || sort === "price");
  return (
    <div role="group" aria-label="Sort by" className="inline-flex rounded-md border border-slate-300 p-0.5">
      {keys.map((key) => (
        <button
          key={key}
          type="button"
          aria-pressed={sort === key}
          onClick={() => sort !== key && onChange(key)}
          className={`h-9 rounded px-3 text-sm font-medium ${
            sort === key ? "bg-brand-500 text-white" : "text-slate-700 hover:bg-slate-100"
          }`}
        >
          {LABELS[key]}
        </button>
      ))}
    </div>
  );
}
