import ChevronDown from "lucide-react/icons/chevron-down";
import { SIZE_OPTIONS_LIST, type SizeOption } from "../../../domain/sizes";
import { ApplyBar, FilterOption } from "./filter-option";
import { FilterPopover } from "./filter-popover";
import { FILTER_TRIGGER, FILTER_TRIGGER_IDLE, FILTER_TRIGGER_ON } from "./filter-trigger";
import { useStagedFilter } from "./use-staged-filter";

export function sizeLabel(option: string): string {
  const [w, l] = option.split("x");
  return `${w}' x ${l}'`;
}

/**
 * The Size dropdown: choices are staged while it is open, previewed with a live count, and
 * applied only by 'Apply Filters (n)' (docs/product.md section 4, filter flow).
 */
export function SizeFilter({
  applied,
  facets,
  previewBase,
  otherParams,
  onApply,
}: {
  applied: readonly SizeOption[];
  facets: Partial<Record<string, number>>;
  /** /api/search?lat=..&lng=..&radius=.. for the preview count, or null without a place. */
  previewBase: string | null;
  /** The other applied filters (amenities, text), which the preview keeps. */
  otherParams: URLSearchParams;
  onApply(sizes: SizeOption[]): void;
}) {
  const filter = useStagedFilter({
    options: SIZE_OPTIONS_LIST,
    applied,
    param: "size",
    otherParams,
    previewBase,
    onApply,
  });
  return (
    <FilterPopover
      open={filter.open}
      onOpenChange={filter.onOpenChange}
      triggerClassName={`${FILTER_TRIGGER} ${applied.length ? FILTER_TRIGGER_ON : FILTER_TRIGGER_IDLE}`}
      trigger={
        <>
          Size{applied.length ? ` (${applied.length})` : ""}
          <ChevronDown className="size-4" aria-hidden="true" />
        </>
      }
      contentClassName="z-40 w-[min(92vw,22rem)] rounded-card border border-slate-200 bg-white p-3 shadow-xl"
    >
      <fieldset>
        <legend className="px-2 pb-1 font-semibold">Storage size (feet)</legend>
        <p className="px-2 pb-2 text-sm text-slate-600">Shows places with a space at least this wide and long.</p>
        <div className="grid max-h-72 grid-cols-2 gap-x-2 overflow-auto">
          {SIZE_OPTIONS_LIST.map((option) => (
            <FilterOption
              key={option}
              id={`size-${option}`}
              label={sizeLabel(option)}
              count={facets[option]}
              checked={filter.isStaged(option)}
              onChange={(checked) => filter.toggle(option, checked)}
            />
          ))}
        </div>
      </fieldset>
      <ApplyBar canClear={filter.canClear} onClear={filter.clear} preview={filter.preview} onApply={filter.apply} />
    </FilterPopover>
  );
}
