import Star from "lucide-react/icons/star";
import { formatNumber } from "../../lib/format";

export function Rating({ rating, count }: { rating: number | null; count: number }) {
  if (rating === null || count === 0) return <span className="text-sm text-slate-600">No reviews yet</span>;
  return (
    <span className="inline-flex items-center gap-1 text-sm text-slate-700">
      <Star className="size-4 fill-amber-400 text-amber-500" aria-hidden="true" />
      <span className="font-semibold">{rating.toFixed(1)}</span>
      <span className="text-slate-600">
        ({formatNumber(count)} {count === 1 ? "review" : "reviews"})
      </span>
    </span>
  );
}
