import Caravan from "lucide-react/icons/caravan";
import ChevronDown from "lucide-react/icons/chevron-down";
import { useEffect, useEffectEvent, useId, useState, type FormEvent } from "react";
import {
  MY_RV_LIMITS,
  MY_RV_PARAMS,
  MY_RV_STORAGE_KEY,
  feetLabel,
  myRvCookieText,
  myRvFromStorage,
  myRvStorageText,
  parseMyRv,
  type MyRv,
} from "../../../domain/rv-fit";
import { Button } from "../ui/button";
import { controlClasses } from "../ui/input";
import { FilterPopover } from "./filter-popover";
import { FILTER_TRIGGER, FILTER_TRIGGER_IDLE, FILTER_TRIGGER_ON } from "./filter-trigger";

/** The remembered RV; storage can be missing or refused (private windows), which is no RV. */
function rememberedRv(): MyRv | undefined {
  try {
    return myRvFromStorage(window.localStorage.getItem(MY_RV_STORAGE_KEY));
  } catch {
    return undefined;
  }
}

function remember(rv: MyRv | undefined): void {
  // The cookie lets the server apply it to the next results page at once (docs/product.md, "My RV").
  document.cookie = myRvCookieText(rv, window.location.protocol === "https:");
  try {
    if (rv) window.localStorage.setItem(MY_RV_STORAGE_KEY, myRvStorageText(rv));
    else window.localStorage.removeItem(MY_RV_STORAGE_KEY);
  } catch {
    // Not remembered: the RV still applies through the URL.
  }
}

const LENGTH_MESSAGE = `Enter a length from ${MY_RV_LIMITS.minLength} to ${MY_RV_LIMITS.maxLength} feet.`;
const HEIGHT_MESSAGE = `Enter a height from ${MY_RV_LIMITS.minHeight} to ${MY_RV_LIMITS.maxHeight} feet, or leave it empty.`;

/**
 * 'My RV' (docs/product.md, "My RV"): the visitor's RV length and optional height, kept in the URL
 * (rvLength, rvHeight) and remembered in this browser. Arriving without an RV in the URL applies
 * the remembered one (replacing the history entry, so Back does not bounce).
 */
export function MyRvFilter({
  applied,
  onApply,
}: {
  applied: MyRv | undefined;
  onApply(rv: MyRv | undefined, options?: { replace?: boolean }): void;
}) {
  const [open, setOpen] = useState(false);
  const [length, setLength] = useState("");
  const [height, setHeight] = useState("");
  const [error, setError] = useState<{ field: "length" | "height"; message: string } | null>(null);
  const id = useId();

  const applyRemembered = useEffectEvent(() => {
    const rv = rememberedRv();
    if (!rv) return;
    remember(rv); // remembered before the cookie existed: the server applies it from now on
    onApply(rv, { replace: true });
  });
  const hasRv = applied !== undefined;
  useEffect(() => {
    if (!hasRv) applyRemembered();
  }, [hasRv]);

  function onOpenChange(next: boolean) {
    if (next) {
      setLength(applied ? String(applied.lengthFeet) : "");
      setHeight(applied?.heightFeet !== undefined ? String(applied.heightFeet) : "");
      setError(null);
    }
    setOpen(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const params = new URLSearchParams();
    params.set(MY_RV_PARAMS.length, length);
    if (height.trim() !== "") params.set(MY_RV_PARAMS.height, height);
    const parsed = parseMyRv(params);
    if (!parsed.ok || !parsed.rv) {
      const field = parsed.ok || parsed.parameter === MY_RV_PARAMS.length ? "length" : "height";
      setError({ field, message: field === "length" ? LENGTH_MESSAGE : HEIGHT_MESSAGE });
      return;
    }
    remember(parsed.rv);
    setOpen(false);
    onApply(parsed.rv);
  }

  function clear() {
    remember(undefined);
    setOpen(false);
    if (applied) onApply(undefined);
  }

  const input = controlClasses("mt-1 h-11");
  return (
    <FilterPopover
      open={open}
      onOpenChange={onOpenChange}
      triggerClassName={`${FILTER_TRIGGER} ${applied ? FILTER_TRIGGER_ON : FILTER_TRIGGER_IDLE}`}
      trigger={
        <>
          <Caravan className="size-4" aria-hidden="true" />
          {applied ? `My RV: ${feetLabel(applied.lengthFeet)}` : "My RV"}
          <ChevronDown className="size-4" aria-hidden="true" />
        </>
      }
      contentLabel="My RV"
      contentClassName="z-40 w-[min(92vw,20rem)] rounded-card border border-slate-200 bg-white p-4 shadow-xl"
    >
      <form noValidate onSubmit={submit}>
        <p className="font-semibold">Will my RV fit?</p>
        <p className="mt-1 text-sm text-slate-600">Shows places with a space at least as long as your RV.</p>
        <div className="mt-3 grid grid-cols-2 gap-3">
          <label className="text-sm font-medium" htmlFor={`${id}-length`}>
            Length (ft)
            <input
              id={`${id}-length`}
              type="number"
              inputMode="decimal"
              step="any"
              min={MY_RV_LIMITS.minLength}
              max={MY_RV_LIMITS.maxLength}
              value={length}
              onChange={(e) => setLength(e.target.value)}
              aria-invalid={error?.field === "length"}
              aria-describedby={error?.field === "length" ? `${id}-error` : undefined}
              className={input}
              placeholder="40"
            />
          </label>
          <label className="text-sm font-medium" htmlFor={`${id}-height`}>
            Height (ft)
            <input
              id={`${id}-height`}
              type="number"
              inputMode="decimal"
              step="any"
              min={MY_RV_LIMITS.minHeight}
              max={MY_RV_LIMITS.maxHeight}
              value={height}
              onChange={(e) => setHeight(e.target.value)}
              aria-invalid={error?.field === "height"}
              aria-describedby={error?.field === "height" ? `${id}-error ${id}-hint` : `${id}-hint`}
              className={input}
              placeholder="13.5"
            />
          </label>
        </div>
        <p id={`${id}-hint`} className="mt-2 text-sm text-slate-600">
          Height is optional: with it, covered and enclosed spaces must clear your RV.
        </p>
        {error && (
          <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-700">
            {error.message}
          </p>
        )}
        <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-200 pt-3">
          <Button variant="ghost" onClick={clear} className="h-11 px-3">
            Clear
          </Button>
          <Button type="submit" className="h-11 font-semibold">
            Apply
          </Button>
        </div>
      </form>
    </FilterPopover>
  );
}
