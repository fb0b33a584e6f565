import type { ReactNode } from "react";
import { clsx } from "clsx";

/**
 * What a list shows when it has nothing: what is missing and what to do next
 * (docs/decisions/008-console-forms-and-ui-primitives.md), e.g.
 * `<EmptyState icon={<Inbox />} title="No claims yet" text="…" action={<Link …/>} />`.
 */
export function EmptyState({
  icon,
  title,
  text,
  action,
  className,
}: {
  icon?: ReactNode;
  title: ReactNode;
  text?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={clsx(
        "flex flex-col items-center rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center",
        className,
      )}
    >
      {icon && (
        <div aria-hidden="true" className="mb-3 text-slate-400 [&_svg]:size-8">
          {icon}
        </div>
      )}
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      {text && <p className="mt-1 max-w-prose text-sm text-slate-600">{text}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}
