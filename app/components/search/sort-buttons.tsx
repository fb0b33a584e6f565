import type { SortOrder } from "../../lib/search";

const LABELS: Record<SortOrder, string> = { distance: "Distance", rating: "Rating" };

export function SortButtons({ sort, onChange }: { sort: SortOrder; onChange(sort: SortOrder): void }) {
  return (
    <div role="group" aria-label="Sort by" className="inline-flex rounded-md border border-slate-300 p-0.5">
      {(Object.keys(LABELS) as SortOrder[]).map((key) => (
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
