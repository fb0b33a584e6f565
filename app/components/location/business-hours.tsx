import Clock from "lucide-react/icons/clock";
import { hoursLineDay } from "../../lib/format";
import { stateTimeZone, zonedDayName } from "../../../domain/opening-hours";
import { useCurrentMinute } from "./open-status";

/**
 * The facility page's hours (docs/product.md section 2): the office hours and, when the owner
 * lists them apart, the gate access hours beside them. Today's line is marked on the facility's
 * clock (its state's main time zone), the one the open/closed line reads, never the visitor's:
 * at 8:53 PM on Thursday in Austin, a visitor in London still sees Thursday marked. Known only in
 * the browser (null on the server and while hydrating), and not marked when the state is unknown.
 */
export function BusinessHours({
  lines,
  gateLines,
  state,
}: {
  lines: readonly string[];
  gateLines: readonly string[];
  state: string | null;
}) {
  const minute = useCurrentMinute();
  const zone = stateTimeZone(state);
  const today = zone && minute !== null ? zonedDayName(new Date(minute * 60_000), zone) : null;
  const withGate = gateLines.length > 0;
  return (
    <section aria-labelledby="hours-heading">
      <h2 id="hours-heading" className="flex items-center gap-2 text-xl font-semibold">
        <Clock className="size-5" aria-hidden="true" /> Business hours
      </h2>
      {withGate ? (
        <div className="mt-3 grid gap-6 sm:grid-cols-2">
          <div>
            <h3 id="office-hours-heading" className="font-semibold text-slate-900">
              Office
            </h3>
            <HoursList lines={lines} today={today} labelledBy="office-hours-heading" />
          </div>
          <div>
            <h3 id="gate-hours-heading" className="font-semibold text-slate-900">
              Gate access
            </h3>
            <HoursList lines={gateLines} today={today} labelledBy="gate-hours-heading" />
          </div>
        </div>
      ) : (
        <HoursList lines={lines} today={today} />
      )}
    </section>
  );
}

function HoursList({
  lines,
  today,
  labelledBy,
}: {
  lines: readonly string[];
  today: string | null;
  labelledBy?: string;
}) {
  if (lines.length === 0) return <p className="mt-2 text-slate-600">Hours not available</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-100 text-slate-700" aria-labelledby={labelledBy}>
      {lines.map((line) => {
        const isToday = today !== null && hoursLineDay(line) === today;
        return (
          <li
            key={line}
            className={`py-1.5 ${isToday ? "font-semibold text-slate-900" : ""}`}
            aria-current={isToday ? "date" : undefined}
          >
            {line}
            {isToday && <span className="ml-2 rounded bg-brand-50 px-1.5 text-xs text-brand-700">Today</span>}
          </li>
        );
      })}
    </ul>
  );
}
