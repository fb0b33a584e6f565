import * as Dialog from "@radix-ui/react-dialog";
import { SlidersHorizontal, X } from "lucide-react";
import { AMENITY_FLAGS, AMENITY_GROUPS, AMENITY_LABELS, type AmenityFlag } from "../../lib/amenities";
import { ApplyBar, FilterOption } from "./filter-option";
import { useStagedFilter } from "./use-staged-filter";

/**
 * The Amenities modal: the 18 flags in four groups, staged until 'Apply Filters (n)'.
 * Radix's dialog traps focus, closes on Escape and returns focus to the trigger.
 */
export function AmenitiesFilter({
  applied,
  facets,
  previewBase,
  otherParams,
  onApply,
}: {
  applied: readonly AmenityFlag[];
  facets: Partial<Record<string, number>>;
  previewBase: string | null;
  otherParams: URLSearchParams;
  onApply(amenities: AmenityFlag[]): void;
}) {
  const filter = useStagedFilter({
    options: AMENITY_FLAGS,
    applied,
    param: "amenity",
    otherParams,
    previewBase,
    onApply,
  });
  return (
    <Dialog.Root open={filter.open} onOpenChange={filter.onOpenChange}>
      <Dialog.Trigger
        className={`inline-flex h-10 items-center gap-2 rounded-md border px-3 font-medium ${
          applied.length ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-300 bg-white text-slate-800"
        } hover:border-brand-500`}
      >
        <SlidersHorizontal className="size-4" aria-hidden="true" />
        Amenities{applied.length ? ` (${applied.length})` : ""}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content className="fixed inset-x-0 bottom-0 z-50 max-h-[90dvh] overflow-auto rounded-t-card bg-white p-4 shadow-xl sm:inset-auto sm:left-1/2 sm:top-1/2 sm:w-[40rem] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-card sm:p-6">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-xl font-semibold">Amenities</Dialog.Title>
            <Dialog.Close className="rounded-md p-1 text-slate-600 hover:bg-slate-100" aria-label="Close">
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            Show places that have every amenity you pick. Covered and uncovered parking count as either one.
          </Dialog.Description>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            {AMENITY_GROUPS.map((group) => (
              <fieldset key={group.title}>
                <legend className="px-2 pb-1 font-semibold">{group.title}</legend>
                {group.flags.map((flag) => (
                  <FilterOption
                    key={flag}
                    id={`amenity-${flag}`}
                    label={AMENITY_LABELS[flag]}
                    count={facets[flag]}
                    checked={filter.isStaged(flag)}
                    onChange={(checked) => filter.toggle(flag, checked)}
                  />
                ))}
              </fieldset>
            ))}
          </div>
          <div className="mt-4">
            <ApplyBar
              canClear={filter.canClear}
              onClear={filter.clear}
              preview={filter.preview}
              onApply={filter.apply}
            />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
