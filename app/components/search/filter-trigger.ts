/**
 * The look of the filter bar's buttons (Size, Amenities, My RV, Max price): compact on phones, so that
 * the filters and the sort fit in one row of the sticky bar, 40 px high everywhere.
 */
export const FILTER_TRIGGER =
  "inline-flex h-10 shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md border px-2.5 text-sm font-medium hover:border-brand-500 sm:gap-2 sm:px-3 sm:text-base";
export const FILTER_TRIGGER_IDLE = "border-slate-300 bg-white text-slate-800";
export const FILTER_TRIGGER_ON = "border-brand-500 bg-brand-50 text-brand-700";
