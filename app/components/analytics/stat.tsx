import type { ReactNode } from "react";
import { formatPercent } from "../../lib/format";

/** One total of an analytics screen: a label, the number, and a line under it (a change, what it was). */
export function Stat({ label, value, extra }: { label: string; value: string; extra?: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
      {extra && <dd className="mt-1 text-sm">{extra}</dd>}
    </div>
  );
}

/**
 * A total's change against the period before, as a fraction in percent (null: none before).
 * `compared` false says the period before cannot be compared (its records are gone).
 */
export function Growth({ value, compared = true }: { value: number | null; compared?: boolean }) {
  if (!compared) return <span className="text-slate-600">not comparable: older visits are not kept</span>;
  if (value === null) return <span className="text-slate-600">new: none in the previous period</span>;
  if (value === 0) return <span className="text-slate-600">no change</span>;
  const up = value > 0;
  return (
    <span className={up ? "text-emerald-700" : "text-slate-700"}>
      {up ? "▲" : "▼"} {formatPercent(Math.abs(value))} {up ? "more" : "fewer"}
      <span className="sr-only"> than the previous period</span>
    </span>
  );
}

/** What a total was in the period before. */
export function Was({ children }: { children: ReactNode }) {
  return <span className="text-slate-600">was {children}</span>;
}
