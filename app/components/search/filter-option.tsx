import { Button } from "../ui/button";

/** One checkbox of a filter list, with the number of current results that have it. */
export function FilterOption({
  id,
  label,
  count,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  count: number | undefined;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-2 hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500"
    >
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 accent-brand-500"
      />
      <span className="flex-1">{label}</span>
      {count !== undefined && (
        <span className="text-sm tabular-nums text-slate-600" aria-label={`${count} locations`}>
          {count}
        </span>
      )}
    </label>
  );
}

export function ApplyBar({
  onClear,
  onApply,
  preview,
  canClear,
}: {
  onClear(): void;
  onApply(): void;
  preview: number | null;
  canClear: boolean;
}) {
  return (
    <div className="flex items-center justify-between gap-3 border-t border-slate-200 pt-3">
      <button
        type="button"
        onClick={onClear}
        disabled={!canClear}
        className="rounded-md px-3 py-2 font-medium text-slate-700 hover:bg-slate-100 disabled:text-slate-400 disabled:hover:bg-transparent"
      >
        Clear
      </button>
      <Button onClick={onApply} className="py-2 font-semibold">
        Apply Filters ({preview ?? "…"})
      </Button>
    </div>
  );
}
