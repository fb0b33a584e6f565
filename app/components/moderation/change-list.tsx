import { clsx } from "clsx";
import type { ChangeLine } from "../../../domain/listings";

/**
 * A change in words (docs/product.md section 10): each field with its value before and after. The
 * before value is struck through and the after value bold; screen readers hear "was … now …".
 */
export function ChangeList({
  lines,
  beforeWord = "was",
  afterWord = "now",
  className,
}: {
  lines: readonly ChangeLine[];
  beforeWord?: string;
  afterWord?: string;
  className?: string;
}) {
  return (
    <dl className={clsx("space-y-2 text-sm", className)}>
      {lines.map((line) => (
        <div key={line.label}>
          <dt className="font-medium text-slate-800">{line.label}</dt>
          <dd className="break-words text-slate-700">
            <span className="sr-only">{beforeWord}: </span>
            <del className="text-slate-500 decoration-slate-400">{line.before}</del>
            <span aria-hidden="true" className="px-1.5 text-slate-400">
              →
            </span>
            <span className="sr-only">, {afterWord}: </span>
            <ins className="font-medium text-slate-900 no-underline">{line.after}</ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}
