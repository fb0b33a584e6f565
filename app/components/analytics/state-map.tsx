import { useId } from "react";
import { formatNumber } from "../../lib/format";

/**
 * A choropleth of the states for the admin analytics screen (docs/product.md section 10, "Platform
 * analytics"): the outlines come from the server (server/geo/state-map.ts, the Census shapes the
 * gazetteer ships, projected once), so this draws paths and picks colours, nothing more. A fixed
 * viewBox like the daily charts (ADR 012): the server's markup is the final picture. Each state
 * has a `<title>` for a pointer; the table beside it has every number for everyone else.
 */

export interface MapState {
  code: string;
  name: string;
  d: string;
}

export interface StateMapProps {
  title: string;
  /** One sentence a screen reader hears instead of the picture. */
  summary: string;
  width: number;
  height: number;
  states: readonly MapState[];
  /** The value of each state by code (missing: 0). */
  values: Readonly<Record<string, number>>;
  /** How a value reads in a state's title and the legend ("1,204 page views"). */
  format: (value: number) => string;
}

/** Zero, then five steps of the primary colour from light to dark. */
export const MAP_COLOURS = ["#f1f5f9", "#dbe3fd", "#a9b9f9", "#7890f5", "#4668f2", "#2540b0"] as const;

/**
 * Upper bounds of the five steps: equal fifths of the largest value, rounded up to whole numbers
 * and never repeated (a small maximum gives fewer steps).
 */
export function mapSteps(max: number): number[] {
  if (max <= 0) return [];
  const steps: number[] = [];
  for (let i = 1; i <= 5; i++) {
    const bound = Math.ceil((max * i) / 5);
    if (steps.at(-1) !== bound) steps.push(bound);
  }
  return steps;
}

export function colourOf(value: number, steps: readonly number[]): string {
  if (value <= 0 || steps.length === 0) return MAP_COLOURS[0];
  const index = steps.findIndex((bound) => value <= bound);
  // With fewer steps than colours, the top step still gets the darkest colour.
  const offset = MAP_COLOURS.length - 1 - steps.length;
  return MAP_COLOURS[1 + offset + (index === -1 ? steps.length - 1 : index)]!;
}

export function StateMap({ title, summary, width, height, states, values, format }: StateMapProps) {
  const id = useId();
  const max = Math.max(0, ...Object.values(values));
  const steps = mapSteps(max);
  return (
    <figure className="m-0">
      <figcaption id={`${id}-title`} className="mb-2 font-medium text-slate-900">
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        className="block h-auto w-full"
        style={{ aspectRatio: `${width} / ${height}` }}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
      >
        <desc id={`${id}-desc`}>{summary}</desc>
        {states.map((s) => {
          const value = values[s.code] ?? 0;
          return (
            <path
              key={s.code}
              d={s.d}
              fill={colourOf(value, steps)}
              fillRule="evenodd"
              stroke="#ffffff"
              strokeWidth={0.75}
              strokeLinejoin="round"
            >
              <title>{`${s.name}: ${format(value)}`}</title>
            </path>
          );
        })}
      </svg>
      <ul className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600" aria-label="Legend">
        <li className="inline-flex items-center gap-1">
          <span
            aria-hidden="true"
            className="inline-block size-3 rounded-sm border border-slate-300"
            style={{ backgroundColor: MAP_COLOURS[0] }}
          />
          none
        </li>
        {steps.map((bound, i) => {
          const low = i === 0 ? 1 : steps[i - 1]! + 1;
          return (
            <li key={bound} className="inline-flex items-center gap-1">
              <span
                aria-hidden="true"
                className="inline-block size-3 rounded-sm"
                style={{ backgroundColor: colourOf(bound, steps) }}
              />
              {low === bound ? formatNumber(bound) : `${formatNumber(low)}–${formatNumber(bound)}`}
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
