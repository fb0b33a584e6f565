import { useState } from "react";
import { usePreviewCount } from "./use-preview-count";

/**
 * The filter flow of docs/product.md section 4 for one dropdown or modal: opening copies the applied
 * choices into a staged set, toggling and Clear change only the staged set (previewed with a live
 * count), and `apply` hands the staged set back in the options' own order.
 */
export function useStagedFilter<T extends string>({
  options,
  applied,
  param,
  otherParams,
  previewBase,
  onApply,
}: {
  options: readonly T[];
  applied: readonly T[];
  /** The query parameter these choices travel in ("size", "amenity"). */
  param: string;
  /** The other applied filters, which the preview keeps. */
  otherParams: URLSearchParams;
  /** /api/search?lat=..&lng=..&radius=.. for the preview count, or null without a place. */
  previewBase: string | null;
  onApply(values: T[]): void;
}) {
  const [open, setOpen] = useState(false);
  const [staged, setStaged] = useState<T[]>([...applied]);
  const params = new URLSearchParams(otherParams);
  for (const value of staged) params.append(param, value);
  const preview = usePreviewCount(previewBase, params, open);
  return {
    open,
    onOpenChange(next: boolean) {
      if (next) setStaged([...applied]);
      setOpen(next);
    },
    isStaged: (value: T) => staged.includes(value),
    toggle: (value: T, on: boolean) => setStaged((s) => (on ? [...s, value] : s.filter((x) => x !== value))),
    canClear: staged.length > 0,
    clear: () => setStaged([]),
    preview,
    apply() {
      setOpen(false);
      onApply(options.filter((o) => staged.includes(o)));
    },
  };
}
