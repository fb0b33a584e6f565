import { formatNumber, formatShortDay } from "../../lib/format";

export interface DailyColumn<K extends string> {
  key: K;
  label: string;
  /** How a cell reads; a count with separators unless given. */
  format?: (n: number) => string;
}

/** The numbers of a daily chart, one row a day, folded away under "Show as table". */
export function DailyTable<K extends string>({
  caption,
  rows,
  columns,
}: {
  caption: string;
  rows: readonly ({ date: string } & Record<K, number>)[];
  columns: readonly DailyColumn<K>[];
}) {
  return (
    <details className="mt-3">
      <summary className="cursor-pointer text-sm text-brand-700">Show as table</summary>
      <div className="mt-2 max-h-96 overflow-auto">
        <table className="w-full text-sm tabular-nums">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-white">
            <tr className="border-b border-slate-200 text-left text-slate-600">
              <th scope="col" className="py-1 pr-3 font-medium">
                Day
              </th>
              {columns.map((c) => (
                <th key={c.key} scope="col" className="py-1 pr-3 text-right font-medium">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.date} className="border-b border-slate-100">
                <th scope="row" className="py-1 pr-3 text-left font-normal">
                  <time dateTime={row.date}>{formatShortDay(row.date)}</time>
                </th>
                {columns.map((c) => (
                  <td key={c.key} className="py-1 pr-3 text-right">
                    {(c.format ?? formatNumber)(row[c.key])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
