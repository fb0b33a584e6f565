import SlidersHorizontal from "lucide-react/icons/sliders-horizontal";
import { lazy, Suspense, useRef } from "react";
import { AMENITY_FILTERS, type AmenityFilter } from "../../../domain/amenities";
import { FilterButton } from "./filter-popover";
import { FILTER_TRIGGER, FILTER_TRIGGER_IDLE, FILTER_TRIGGER_ON } from "./filter-trigger";
import { useStagedFilter } from "./use-staged-filter";

const AmenitiesDialog = lazy(() => import("./amenities-dialog"));
const loadDialog = () => void import("./amenities-dialog").catch(() => {});

/**
 * The Amenities modal: the 18 flags in four groups and the three text amenities, staged until
 * 'Apply Filters (n)'. Radix's dialog (loaded when the pointer nears the button or it gets
 * focus: `amenities-dialog.tsx`) traps focus, closes on Escape and returns focus to the button.
 * On phones it is a bottom sheet whose list scrolls between a fixed title and a fixed footer, so
 * 'Apply Filters' is always in reach.
 */
export function AmenitiesFilter({
  applied,
  facets,
  previewBase,
  otherParams,
  onApply,
}: {
  applied: readonly AmenityFilter[];
  facets: Partial<Record<string, number>>;
  previewBase: string | null;
  otherParams: URLSearchParams;
  onApply(amenities: AmenityFilter[]): void;
}) {
  const filter = useStagedFilter({
    options: AMENITY_FILTERS,
    applied,
    param: "amenity",
    otherParams,
    previewBase,
    onApply,
  });
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <FilterButton
        ref={button}
        className={`${FILTER_TRIGGER} ${applied.length ? FILTER_TRIGGER_ON : FILTER_TRIGGER_IDLE}`}
        open={filter.open}
        onWarm={loadDialog}
        onClick={() => filter.onOpenChange(true)}
      >
        <SlidersHorizontal className="size-4" aria-hidden="true" />
        Amenities{applied.length ? ` (${applied.length})` : ""}
      </FilterButton>
      {filter.open && (
        <Suspense fallback={null}>
          <AmenitiesDialog filter={filter} facets={facets} returnFocusTo={button} />
        </Suspense>
      )}
    </>
  );
}
