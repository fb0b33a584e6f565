import * as Dialog from "@radix-ui/react-dialog";
import X from "lucide-react/icons/x";
import type { RefObject } from "react";
import { AMENITY_FILTER_GROUPS, amenityFilterLabel, type AmenityFilter } from "../../../domain/amenities";
import { ApplyBar, FilterOption } from "./filter-option";
import type { useStagedFilter } from "./use-staged-filter";

/**
 * The open Amenities modal, in a module of its own so that Radix's dialog loads on first use
 * (`amenities-filter.tsx` renders the button). Radix traps focus and closes on Escape; closing
 * gives focus back to the button, which is outside Radix's tree.
 */
export default function AmenitiesDialog({
  filter,
  facets,
  returnFocusTo,
}: {
  filter: ReturnType<typeof useStagedFilter<AmenityFilter>>;
  facets: Partial<Record<string, number>>;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Dialog.Root open onOpenChange={filter.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus({ preventScroll: true });
          }}
          className="fixed inset-x-0 bottom-0 z-50 flex max-h-[90dvh] flex-col rounded-t-card bg-white shadow-xl sm:inset-auto sm:left-1/2 sm:top-1/2 sm:max-h-[85dvh] sm:w-[40rem] sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-card"
        >
          <div className="shrink-0 px-4 pt-4 sm:px-6 sm:pt-6">
            <div className="flex items-start justify-between gap-4">
              <Dialog.Title className="text-xl font-semibold">Amenities</Dialog.Title>
              <Dialog.Close
                className="-m-1.5 inline-flex size-11 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100"
                aria-label="Close"
              >
                <X className="size-5" aria-hidden="true" />
              </Dialog.Close>
            </div>
            <Dialog.Description className="mt-1 text-sm text-slate-600">
              Show places that have every amenity you pick. Covered and uncovered parking count as either one.
            </Dialog.Description>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3 sm:px-6" data-testid="amenities-list">
            <div className="grid gap-4 sm:grid-cols-2">
              {AMENITY_FILTER_GROUPS.map((group) => (
                <fieldset key={group.title}>
                  <legend className="px-2 pb-1 font-semibold">{group.title}</legend>
                  {group.options.map((option) => (
                    <FilterOption
                      key={option}
                      id={`amenity-${option}`}
                      label={amenityFilterLabel(option)}
                      count={facets[option]}
                      checked={filter.isStaged(option)}
                      onChange={(checked) => filter.toggle(option, checked)}
                    />
                  ))}
                </fieldset>
              ))}
            </div>
          </div>
          <div className="shrink-0 px-4 pb-4 sm:px-6 sm:pb-6">
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
