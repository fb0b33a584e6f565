import ChevronDown from "lucide-react/icons/chevron-down";
import { useId, useState } from "react";
import { ApplyBar } from "./filter-option";
import { FilterPopover } from "./filter-popover";
import { usePreviewCount } from "./use-preview-count";
import { FILTER_TRIGGER, FILTER_TRIGGER_IDLE, FILTER_TRIGGER_ON } from "./filter-trigger";
import { formatNumber } from "../../lib/format";

/** The caps offered, in whole dollars a month; a cap from the URL that is not one is added. */
export const MAX_PRICE_CHOICES = [100, 150, 200, 250, 300, 400, 500] as const;

/** "Up to $200/mo". */
export const maxPriceLabel = (dollars: number) => `Up to $${formatNumber(dollars)}/mo`;

/**
 * The max-price filter (docs/product.md, "Prices"): only places whose owner gives a price at most
 * the cap (the lowest price of a space that fits, with My RV set). Staged, previewed and applied
 * like the Size dropdown; the results page shows it only when the area has prices.
 */
export function PriceFilter({
  applied,
  previewBase,
  otherParams,
  onApply,
}: {
  applied: number | undefined;
  /** /api/search?lat=..&lng=..&radius=.. for the preview count, or null without a place. */
  previewBase: string | null;
  /** The other applied filters, which the preview keeps. */
  otherParams: URLSearchParams;
  onApply(maxPrice: number | undefined): void;
}) {
  const [open, setOpen] = useState(false);
  const [staged, setStaged] = useState<number | undefined>(applied);
  const name = useId();
  const params = new URLSearchParams(otherParams);
  if (staged !== undefined) params.set("maxPrice", String(staged));
  const preview = usePreviewCount(previewBase, params, open);
  // "Any price" first, then the caps in order (with the applied one when it is not a preset).
  const caps: number[] = [...MAX_PRICE_CHOICES];
  if (applied !== undefined && !caps.includes(applied)) caps.push(applied);
  const choices: (number | undefined)[] = [undefined, ...caps.sort((a, b) => a - b)];

  return (
    <FilterPopover
      open={open}
      onOpenChange={(next) => {
        if (next) setStaged(applied);
        setOpen(next);
      }}
      triggerClassName={`${FILTER_TRIGGER} ${applied !== undefined ? FILTER_TRIGGER_ON : FILTER_TRIGGER_IDLE}`}
      trigger={
        <>
          {applied !== undefined ? maxPriceLabel(applied) : "Max price"}
          <ChevronDown className="size-4" aria-hidden="true" />
        </>
      }
      contentClassName="z-40 w-[min(92vw,20rem)] rounded-card border border-slate-200 bg-white p-3 shadow-xl"
    >
      <fieldset>
        <legend className="px-2 pb-1 font-semibold">Monthly price, at most</legend>
        <p className="px-2 pb-2 text-sm text-slate-600">
          Places whose owner lists a price up to this. Places without a price are left out.
        </p>
        <div className="grid grid-cols-2 gap-x-2">
          {choices.map((choice) => (
            <label
              key={choice ?? "any"}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-2 hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500"
            >
              <input
                type="radio"
                name={name}
                checked={staged === choice}
                onChange={() => setStaged(choice)}
                className="size-4 accent-brand-500"
              />
              {choice === undefined ? "Any price" : `$${formatNumber(choice)}`}
            </label>
          ))}
        </div>
      </fieldset>
      <ApplyBar
        canClear={staged !== undefined}
        onClear={() => setStaged(undefined)}
        preview={preview}
        onApply={() => {
          setOpen(false);
          onApply(staged);
        }}
      />
    </FilterPopover>
  );
}
