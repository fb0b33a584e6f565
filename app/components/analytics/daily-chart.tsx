import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar, LinePath } from "@visx/shape";
import { useId } from "react";
import { formatCompactNumber, formatNumber, formatShortDay } from "../../lib/format";

/**
 * A daily chart of the owner analytics screen (ADR 012): plain SVG drawn by visx from the loader's
 * numbers, with a fixed viewBox, so the server's markup is the chart (no measuring, nothing moves
 * when the page hydrates) and it scales with its box. Only the console route imports this module,
 * so visx stays out of the public pages' bundles.
 */

export interface ChartSeries<K extends string> {
  key: K;
  label: string;
  /** An SVG colour. */
  color: string;
}

export interface DailyChartProps<K extends string> {
  title: string;
  /** One sentence a screen reader hears instead of the picture; the table below has the numbers. */
  summary: string;
  kind: "lines" | "stacked-bars";
  series: readonly ChartSeries<K>[];
  rows: readonly ({ date: string } & Record<K, number>)[];
}

// About the width the chart gets beside its twin on a desktop, so labels there are drawn near their
// size; on a phone the whole drawing scales down by about a third, hence the large label size.
const WIDTH = 480;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 30, left: 44 };
const INNER_H = HEIGHT - MARGIN.top - MARGIN.bottom;
/** About the width of one digit or comma of a tick label, at its drawn size. */
const CHAR_W = 9;

/** A y tick's label: whole numbers only, large ones short ("120K"), so the margin stays narrow. */
export function tickText(value: number): string {
  if (!Number.isInteger(value)) return "";
  return value >= 10_000 ? formatCompactNumber(value) : formatNumber(value);
}

/** About five evenly spaced dates to label, the last day always among them. */
function dateTicks(dates: readonly string[]): string[] {
  if (dates.length <= 7) return [...dates];
  const step = Math.ceil(dates.length / 5);
  const picked = dates.filter((_, i) => (dates.length - 1 - i) % step === 0);
  return picked;
}

export function DailyChart<K extends string>({ title, summary, kind, series, rows }: DailyChartProps<K>) {
  const id = useId();
  const dates = rows.map((r) => r.date);
  const totals = rows.map((r) =>
    kind === "stacked-bars"
      ? series.reduce((sum, s) => sum + r[s.key], 0)
      : Math.max(0, ...series.map((s) => r[s.key])),
  );
  const top = Math.max(4, ...totals);
  const y = scaleLinear<number>({ domain: [0, top], range: [INNER_H, 0], nice: true });
  const yTicks = y.ticks(4);
  // Wide enough for the widest tick label (platform totals run to six digits).
  const left = Math.max(MARGIN.left, 12 + CHAR_W * Math.max(0, ...yTicks.map((t) => tickText(t).length)));
  const innerW = WIDTH - left - MARGIN.right;
  const x = scaleBand<string>({ domain: dates, range: [0, innerW], padding: kind === "stacked-bars" ? 0.2 : 0 });
  const centre = (date: string) => (x(date) ?? 0) + x.bandwidth() / 2;
  const tickLabel = { fill: "#475569", fontSize: 15, fontFamily: "inherit" } as const;
  return (
    <figure className="m-0">
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span id={`${id}-title`} className="font-medium text-slate-900">
          {title}
        </span>
        <span className="flex flex-wrap gap-x-3 text-sm text-slate-600" aria-hidden="true">
          {series.map((s) => (
            <span key={s.key} className="inline-flex items-center gap-1">
              <span className="inline-block size-3 rounded-sm" style={{ backgroundColor: s.color }} />
              {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        className="block h-auto w-full"
        style={{ aspectRatio: `${WIDTH} / ${HEIGHT}` }}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
      >
        <desc id={`${id}-desc`}>{summary}</desc>
        <Group left={left} top={MARGIN.top}>
          {yTicks.map((t) => (
            <line key={t} x1={0} x2={innerW} y1={y(t)} y2={y(t)} stroke="#e2e8f0" />
          ))}
          {kind === "stacked-bars"
            ? rows.map((row) => {
                let base = 0;
                return series.map((s) => {
                  const value = row[s.key];
                  const y0 = y(base);
                  base += value;
                  if (value === 0) return null;
                  return (
                    <Bar
                      key={`${row.date}-${s.key}`}
                      x={x(row.date)}
                      y={y(base)}
                      width={x.bandwidth()}
                      height={y0 - y(base)}
                      fill={s.color}
                    />
                  );
                });
              })
            : series.map((s) => (
                <LinePath
                  key={s.key}
                  data={[...rows]}
                  x={(r) => centre(r.date)}
                  y={(r) => y(r[s.key])}
                  stroke={s.color}
                  strokeWidth={2.5}
                  strokeLinejoin="round"
                  strokeLinecap="round"
                />
              ))}
          {kind === "lines" && rows.length <= 31
            ? series.map((s) =>
                rows.map((r) => (
                  <circle key={`${s.key}-${r.date}`} cx={centre(r.date)} cy={y(r[s.key])} r={3} fill={s.color} />
                )),
              )
            : null}
          <AxisLeft
            scale={y}
            numTicks={4}
            hideAxisLine
            hideTicks
            tickFormat={(v) => tickText(Number(v))}
            tickLabelProps={{ ...tickLabel, textAnchor: "end", dx: -4, dy: 4 }}
          />
          <AxisBottom
            top={INNER_H}
            scale={x}
            tickValues={dateTicks(dates)}
            tickFormat={formatShortDay}
            stroke="#94a3b8"
            tickStroke="#94a3b8"
            // The last day's label ends at the chart's right edge instead of running past it.
            tickLabelProps={(value) =>
              value === dates.at(-1) && dates.length > 1
                ? { ...tickLabel, textAnchor: "end", dx: x.bandwidth() / 2 }
                : { ...tickLabel, textAnchor: "middle" }
            }
          />
        </Group>
      </svg>
    </figure>
  );
}
