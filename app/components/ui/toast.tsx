import CircleAlert from "lucide-react/icons/circle-exclamation-point";
import CircleCheck from "lucide-react/icons/circle-check";
import Info from "lucide-react/icons/info";
import X from "lucide-react/icons/x";
import { useEffect, useState } from "react";
import { clsx } from "clsx";
import type { FlashMessage } from "../../../domain/forms";

const TOAST_MS = 5_000;

const looks = {
  success: { icon: CircleCheck, className: "border-emerald-200 bg-emerald-50 text-emerald-900" },
  error: { icon: CircleAlert, className: "border-red-200 bg-red-50 text-red-800" },
  info: { icon: Info, className: "border-slate-200 bg-white text-slate-800" },
} as const;

/**
 * Shows the flash message of the last redirect ("Listing saved") for about five seconds, or until
 * closed; hovering or focusing it stops the clock so it can be read. The live region is always in
 * the page, so screen readers announce a message put into it (a region that appears together
 * with its text is often not read). Render once per layout with the flash its loader read.
 */
export function Toaster({ flash }: { flash: FlashMessage | null | undefined }) {
  const [current, setCurrent] = useState(flash ?? null);
  const [previous, setPrevious] = useState(flash);
  const [paused, setPaused] = useState(false);
  if (flash !== previous) {
    // A new flash (every loader run returns a new object): show it even if the text repeats.
    setPrevious(flash);
    setCurrent(flash ?? null);
  }
  useEffect(() => {
    if (!current || paused) return;
    const timer = setTimeout(() => setCurrent(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [current, paused]);

  const look = current ? looks[current.kind] : undefined;
  return (
    // Below the sticky site header (4rem) and, under 768 px, the console tabs: never over Sign out.
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-stretch sm:inset-x-auto sm:top-32 sm:right-4 md:top-20 sm:bottom-auto sm:w-96"
    >
      {current && look && (
        <div
          role="status"
          className={clsx(
            "pointer-events-auto flex items-start gap-3 rounded-lg border p-3 text-sm shadow-lg",
            look.className,
          )}
          onMouseEnter={() => setPaused(true)}
          onMouseLeave={() => setPaused(false)}
          onFocus={() => setPaused(true)}
          onBlur={() => setPaused(false)}
        >
          <look.icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {/* A long address in the text ("Queued: /rv-storage?lat=…") wraps instead of pushing
              the close button off a phone's screen. */}
          <p className="min-w-0 flex-1 wrap-anywhere">{current.text}</p>
          <button
            type="button"
            onClick={() => setCurrent(null)}
            aria-label="Dismiss message"
            className="-m-1 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      )}
    </div>
  );
}
