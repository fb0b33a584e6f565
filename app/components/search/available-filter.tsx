import { formatNumber } from "../../lib/format";
import { FILTER_TRIGGER, FILTER_TRIGGER_IDLE, FILTER_TRIGGER_ON } from "./filter-trigger";

/**
 * "Available now" (docs/product.md section 17): one press keeps only places whose owner marked a
 * size available or few left within the last 30 days (with My RV, a size that takes the RV). The
 * count is what the results would number with it on, so it is never a surprise; with none it
 * cannot be pressed, rather than lead to an empty page.
 */
export function AvailableFilter({
  applied,
  count,
  onChange,
}: {
  applied: boolean;
  /** Results available now, counted with every other filter (facets.available). */
  count: number;
  onChange(available: boolean): void;
}) {
  return (
    <button
      type="button"
      aria-pressed={applied}
      disabled={!applied && count === 0}
      onClick={() => onChange(!applied)}
      className={`${FILTER_TRIGGER} ${applied ? FILTER_TRIGGER_ON : FILTER_TRIGGER_IDLE} disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:border-slate-300`}
    >
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${!applied && count === 0 ? "bg-slate-300" : "bg-emerald-500"}`}
      />
      Available now
      <span className="font-normal text-slate-500">({formatNumber(count)})</span>
    </button>
  );
}
