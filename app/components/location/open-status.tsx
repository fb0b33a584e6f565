import { startTransition, useEffect, useState } from "react";
import { openStatus, stateTimeZone } from "../../../domain/opening-hours";

const currentMinute = () => Math.floor(Date.now() / 60_000);

/**
 * The current minute (minutes since 1970), refreshed every 30 s; null on the server and while
 * hydrating, so the server's markup and the first client render agree and the line fills in
 * right after. The first value comes in a task of its own and renders as a transition: reading
 * the facility's clock builds a time-zone formatter (milliseconds on a phone), which must not
 * lengthen the hydration task (a useSyncExternalStore that differs from its server value would
 * render again synchronously, inside it). The open/closed line and the hours' "Today" read the
 * same minute, on the facility's clock.
 */
export function useCurrentMinute(): number | null {
  const [minute, setMinute] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => startTransition(() => setMinute(currentMinute()));
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 30_000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, []);
  return minute;
}

const TONE = {
  open: "text-emerald-700",
  soon: "text-amber-800",
  closed: "text-red-700",
} as const;

/**
 * 'Open now · Closes at 6 PM' from a facility's hours (domain/opening-hours.ts), in its state's
 * main time zone. Computed in the browser; the line keeps its height from the server on, so
 * nothing below moves when it fills in. Nothing at all when the hours or the state say nothing.
 */
export function OpenStatusLine({ lines, state }: { lines: readonly string[]; state: string | null }) {
  const minute = useCurrentMinute();
  const zone = stateTimeZone(state);
  if (!zone || lines.length === 0) return null;
  const status = minute === null ? null : openStatus(lines, new Date(minute * 60_000), zone);
  const tone = !status ? "" : !status.open ? TONE.closed : status.label === "Closes soon" ? TONE.soon : TONE.open;
  return (
    <p className="mt-1 min-h-6 text-slate-700" data-testid="open-status">
      {status && (
        <>
          <span className={`font-semibold ${tone}`}>{status.label}</span>
          {status.detail && <> · {status.detail}</>}
        </>
      )}
    </p>
  );
}
