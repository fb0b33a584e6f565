import type { ComponentProps, ReactNode } from "react";
import { clsx } from "clsx";

export type CheckboxProps = Omit<ComponentProps<"input">, "type"> & {
  invalid?: boolean;
  /** When given, the box and its text are one label, so the text is part of the click target. */
  label?: ReactNode;
};

export function Checkbox({ invalid, label, className, ...props }: CheckboxProps) {
  const box = (
    <input
      type="checkbox"
      aria-invalid={invalid || undefined}
      className={clsx(
        "size-4 shrink-0 rounded border accent-brand-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500",
        invalid ? "border-red-600" : "border-slate-300",
        !label && className,
      )}
      {...props}
    />
  );
  if (!label) return box;
  return (
    <label className={clsx("flex items-center gap-2 text-sm text-slate-700", className)}>
      {box}
      {label}
    </label>
  );
}
