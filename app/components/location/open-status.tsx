import { useSyncExternalStore } from "react";
import { openStatus, stateTimeZone } from "../../../domain/opening-hours";

// The current minute, refreshed every 30 s; null on the server and while hydrating, so the
// server's markup and the first client render agree and the line fills in right after.
const subscribeMinutes = (onChange: () => void) => {
  const timer = setInterval(onChange, 30_000);
  return () => clearInterval(timer);
};
const currentMinute = () => Math.floor(Date.now() / 60_000);
const noMinute = () => null;

/**
 * The current minute (minutes since 1970), or null on the server and while hydrating. The
 * open/closed line and the hours' "Today" read the same minute, on the facility's clock.
 */
export function useCurrentMinute(): number | null {
  return useSyncExternalStore(subscribeMinutes, currentMinute, noMinute);
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
