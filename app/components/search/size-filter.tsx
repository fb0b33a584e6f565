import * as Popover from "@radix-ui/react-popover";
import { ChevronDown } from "lucide-react";
import { useState } from "react";
import { SIZE_OPTIONS_LIST, type SizeOption } from "../../lib/sizes";
import { ApplyBar, FilterOption } from "./filter-option";
import { usePreviewCount } from "./use-preview-count";

export function sizeLabel(option: string): string {
  const [w, l] = option.split("x");
  return `${w}' x ${l}'`;
}

/**
 * The Size dropdown: choices are staged while it is open, previewed with a live count, and
 * applied only by 'Apply Filters (n)' (SPEC.md section 4, filter flow).
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
  const [open, setOpen] = useState(false);
  const [staged, setStaged] = useState<SizeOption[]>([...applied]);
  const params = new URLSearchParams(otherParams);
  for (const s of staged) params.append("size", s);
  const preview = usePreviewCount(previewBase, params, open);

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        if (next) setStaged([...applied]);
        setOpen(next);
      }}
    >
      <Popover.Trigger
        className={`inline-flex h-10 items-center gap-2 rounded-md border px-3 font-medium ${
          applied.length ? "border-brand-500 bg-brand-50 text-brand-700" : "border-slate-300 bg-white text-slate-800"
        } hover:border-brand-500`}
      >
        Size{applied.length ? ` (${applied.length})` : ""}
        <ChevronDown className="size-4" aria-hidden="true" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={6}
          className="z-40 w-[min(92vw,22rem)] rounded-card border border-slate-200 bg-white p-3 shadow-xl"
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
                  checked={staged.includes(option)}
                  onChange={(checked) => setStaged((s) => (checked ? [...s, option] : s.filter((x) => x !== option)))}
                />
              ))}
            </div>
          </fieldset>
          <ApplyBar
            canClear={staged.length > 0}
            onClear={() => setStaged([])}
            preview={preview}
            onApply={() => {
              setOpen(false);
              onApply(SIZE_OPTIONS_LIST.filter((o) => staged.includes(o)));
            }}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
