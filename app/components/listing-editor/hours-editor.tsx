import { useState } from "react";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { useHydrated } from "../map/use-client-only";
import type { FormState } from "../../lib/forms";
import type { DayMode } from "../../../domain/listings";

/**
 * One week of the listing editor's hours (docs/product.md section 10): the office hours, or the
 * gate access hours. Each day is closed, open 24 hours, one or two time ranges, or the line the
 * editor cannot read kept as it is. The fields post as `{name}[i].mode`, `.open1`, `.close1`,
 * `.open2`, `.close2`, Monday first, and work without JavaScript; with it, Monday's hours can be
 * copied to the weekdays or the whole week, and the gate's week can start from the office's.
 */
export interface EditorDay {
  day: string;
  mode: DayMode;
  /** The listing's line for a day the editor cannot read (offered as "As listed: …"). */
  line: string | null;
  /** open1, close1, open2, close2 as `<input type="time">` values ("08:00"), "" when not set. */
  times: string[];
}

export interface Row {
  mode: string;
  times: string[];
}

const DAY_MODE_LABELS = { closed: "Closed", open24: "Open 24 hours", hours: "Opening times" } as const;
export const TIME_NAMES = ["open1", "close1", "open2", "close2"] as const;

export interface HoursWeekProps {
  /** The fields' name: `hours` (the office) or `gateHours`. */
  name: "hours" | "gateHours";
  days: readonly EditorDay[];
  form: FormState;
  rows: Row[];
  setRows: (change: (rows: Row[]) => Row[]) => void;
  /** Words that tell the gate's controls from the office's ("gate"), inserted after the day name. */
  qualifier?: string;
  /** The office hours as they stand in the form, to start the gate's week from ("Copy the office hours"). */
  officeRows?: Row[];
}

const TIME_LABELS = ["opens", "closes", "opens again", "closes again"] as const;

/** The rows a week starts with: what was typed after a refused save, else the listing's. */
export function useWeekRows(name: "hours" | "gateHours", days: readonly EditorDay[], form: FormState, echoed: boolean) {
  return useState<Row[]>(() =>
    days.map((day, i) => ({
      mode: echoed ? (form.value(`${name}[${i}].mode`) ?? "closed") : day.mode,
      times: TIME_NAMES.map((t, n) => (echoed ? (form.value(`${name}[${i}].${t}`) ?? "") : (day.times[n] ?? ""))),
    })),
  );
}

export function HoursWeek({ name, days, form, rows, setRows, qualifier, officeRows }: HoursWeekProps) {
  const hydrated = useHydrated();
  const [announcement, setAnnouncement] = useState("");
  const who = (day: string) => (qualifier ? `${day} ${qualifier}` : day);
  const update = (i: number, change: (row: Row) => Row) =>
    setRows((current) => current.map((row, n) => (n === i ? change(row) : row)));
  const monday = rows[0]!;
  // "As listed" is Monday's own unreadable line: it means nothing on another day.
  const canCopy = monday.mode !== "keep";
  const copyMonday = (to: number, words: string) => {
    setRows((current) => current.map((row, n) => (n >= 1 && n <= to ? { ...monday, times: [...monday.times] } : row)));
    setAnnouncement(`Monday's ${qualifier ? `${qualifier} ` : ""}hours copied to ${words}.`);
  };

  return (
    <div>
      {hydrated && (
        <div className="mb-4 flex flex-wrap items-center gap-2">
          {officeRows && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                // An office line the editor cannot read ("As listed") is the office's own: that gate day stays.
                setRows((current) =>
                  officeRows.map((row, n) => (row.mode === "keep" ? current[n]! : { ...row, times: [...row.times] })),
                );
                setAnnouncement("The office hours were copied to the gate access hours.");
              }}
            >
              Copy the office hours
            </Button>
          )}
          <Button variant="secondary" size="sm" disabled={!canCopy} onClick={() => copyMonday(4, "Tuesday to Friday")}>
            Copy Monday to weekdays
          </Button>
          <Button variant="secondary" size="sm" disabled={!canCopy} onClick={() => copyMonday(6, "every day")}>
            Copy Monday to all days
          </Button>
          {!canCopy && (
            <p className="w-full text-sm text-slate-600">
              Monday is kept as listed: choose its hours below to copy them to other days.
            </p>
          )}
          <p className="sr-only" role="status">
            {announcement}
          </p>
        </div>
      )}
      <div className="space-y-4 sm:space-y-3">
        {days.map((day, i) => {
          const row = rows[i]!;
          const field = (f: string) => `${name}[${i}].${f}`;
          const errors = [
            ...(form.error(field("mode")) ?? []),
            ...TIME_NAMES.flatMap((t) => form.error(field(t)) ?? []),
          ];
          const errorId = `${name}-${i}-error`;
          return (
            <fieldset
              key={day.day}
              className="grid items-center gap-2 sm:grid-cols-[6rem_12rem_1fr]"
              aria-describedby={errors.length > 0 ? errorId : undefined}
            >
              <legend className="sr-only">{qualifier ? `${day.day}, ${qualifier}` : day.day}</legend>
              <span className="text-sm font-medium text-slate-800" aria-hidden="true">
                {day.day}
              </span>
              <Select
                name={field("mode")}
                value={row.mode}
                onChange={(e) => update(i, (r) => ({ ...r, mode: e.target.value }))}
                aria-label={qualifier ? `${who(day.day)} access` : `${day.day} opening`}
              >
                {Object.entries(DAY_MODE_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
                {day.line && <option value="keep">As listed: {day.line.slice(day.day.length + 1).trim()}</option>}
              </Select>
              {/* Each range stays on one line; the second wraps below the first where the row is narrow. */}
              <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm text-slate-600">
                {[0, 2].map((first) => (
                  <span key={first} className="flex items-center gap-1.5">
                    {first === 2 && <span className="w-7 text-center">and</span>}
                    {[first, first + 1].map((n) => (
                      <span key={n} className="contents">
                        <Input
                          type="time"
                          name={field(TIME_NAMES[n]!)}
                          value={row.times[n] ?? ""}
                          onChange={(e) =>
                            update(i, (r) => ({
                              ...r,
                              times: r.times.map((t, k) => (k === n ? e.target.value : t)),
                            }))
                          }
                          aria-label={`${who(day.day)} ${TIME_LABELS[n]}`}
                          invalid={errors.length > 0}
                          // Wide enough for "08:00 AM" and the picker's icon at 16 px.
                          className="w-[8.25rem] min-w-0 px-2 tabular-nums"
                        />
                        {n === first && <span aria-hidden="true">–</span>}
                      </span>
                    ))}
                  </span>
                ))}
              </div>
              {errors.length > 0 && (
                <p id={errorId} className="text-sm text-red-700 sm:col-span-3" role="alert">
                  {errors.join(" ")}
                </p>
              )}
            </fieldset>
          );
        })}
      </div>
    </div>
  );
}
